# T1: a second terminal event after response.completed replaces the outcome, terminal_event and
# snapshot (docs/guide/outcomes.md: "A terminal response event is final: events after it are
# recorded as event-after-terminal").
import json, sansio_responses as sr
from sansio_responses.testing import StreamBuilder
evs = StreamBuilder(response_id="resp_1").text("Hello", 2).completed().events()
term = evs[-1]
failed = {"type": "response.failed", "sequence_number": term["sequence_number"] + 1,
          "response": {**term["response"], "status": "failed", "error": {"code": "server_error", "message": "x"}}}
body = b"".join(b"data: " + json.dumps(x).encode() + b"\n\n" for x in evs + [failed])
for events in (True, False):
    s = sr.ResponsesStream(events=events)
    s.feed(body); s.close()
    print(f"events={events}: outcome={s.outcome} terminal={s.terminal_event.type} status={s.snapshot().status} diags={s.diagnostic_counts}")
