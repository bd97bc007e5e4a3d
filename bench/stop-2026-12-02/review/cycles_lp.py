"""No reference cycles with logprobs (split path, spans), for events on/off, both decoders,
holding the events after the stream is dropped, and a snapshot read mid-stream."""
import gc, json, random, sys, weakref
sys.path.insert(0, "/work/notes/review")
from lp_multi import gen
import sansio_responses as sr
rng = random.Random(9)
# warm-up: the lazy imports of the package's modules make garbage of their own
_w = gen(random.Random(1))
for _jl in (None, json.loads):
    for _e in (True, False):
        _s = sr.ResponsesStream(events=_e, json_loads=_jl); _s.feed(_w); _s.close(); _s.snapshot()
del _s
gc.collect(); gc.disable()
bad = 0; n = 0
for t in range(8):
    body = gen(rng)
    for jl in (None, json.loads):
        for events in (True, False):
            s = sr.ResponsesStream(events=events, json_loads=jl)
            evs = s.feed(body[: len(body) // 2]); s.snapshot(); evs += s.feed(body[len(body) // 2:]) + s.close()
            for e in evs[:50]:
                for a in ("snapshot", "parsed"):
                    getattr(e, a, None)
            r = weakref.ref(s)
            del s
            alive = r() is not None
            del evs
            found = gc.collect()
            n += 1
            if alive or found: bad += 1; print("alive" if alive else "", "gc found", found)
print("runs", n, "bad", bad)
