"""Reference cycles per body (threads_cycles_tmpl_lib bodies), decoder, events flag: with gc
disabled, is the stream alive after `del s` (events dropped first), and what does gc.collect()
find. Usage: cycles_focus.py"""
import gc, json, sys, weakref
sys.path.insert(0, "/work/notes/review2")
from threads_cycles_tmpl_lib import bodies_list
import sansio_responses as sr
bodies = bodies_list()
for b in bodies[:2]:
    for jl in (None, json.loads):
        s = sr.ResponsesStream(json_loads=jl); s.feed(b); s.close(); s.snapshot()
del s
gc.collect(); gc.disable()
for bi, body in enumerate(bodies):
    for jl in (json.loads, None):
        for events in (True, False):
            s = sr.ResponsesStream(events=events, json_loads=jl)
            err = None
            try:
                s.feed(body); s.close()
            except sr.ProtocolError as exc:
                err = type(exc).__name__
            r = weakref.ref(s); del s
            alive = r() is not None
            found = gc.collect()
            print(bi, "stdlib" if jl else "orjson", events, err, "alive" if alive else "freed", found)
