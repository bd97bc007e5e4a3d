"""Bug 1: a Responses body whose last, large event (>64 KiB, repeating the held text) lacks the
final blank line. Before: accepted with the note 'unterminated-final-event'. After f993965:
close() raises a bare TypeError from _base._prove (memoryview of a str)."""
import sys, traceback; sys.path.insert(0, "/work/notes/review")
from synth import body
from sansio_responses import ResponsesStream
pieces = [("wörd%d " % i) for i in range(12000)]  # ~ 109 KB of non-ASCII text (ASCII texts get no proof since 997d68a)
b = body(pieces, terminated=False)
for events in (True, False):
    s = ResponsesStream(events=events)
    n = len(s.feed(b))
    try:
        s.close()
        r = s.snapshot()
        print(f"events={events} feed->{n} events; close ok; outcome={s.outcome} text={len(r.output[0].content[0].text)} {dict(s.diagnostic_counts)}")
    except Exception as e:
        tb = traceback.extract_tb(e.__traceback__)[-1]
        print(f"events={events} feed->{n} events; close raised {type(e).__name__}: {e} (at {tb.name}:{tb.lineno}); outcome={s.outcome}")
