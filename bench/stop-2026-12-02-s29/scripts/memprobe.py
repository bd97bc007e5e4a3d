import sys, json, gc, tracemalloc, functools
tree = sys.argv[1]; shape = sys.argv[2]; chunk = int(sys.argv[3])
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import SHAPES
import sansio_responses as sr
from sansio_responses import _base, _sse
from sansio_responses._responses import stream as rstream, inline as rinline, items as ritems
data = gen.generate(shape, dict(SHAPES)[shape]).data
pieces = [data[i:i+chunk] for i in range(0, len(data), chunk)]
largest = max(len(b) for b in data.split(b"\n\n"))
log = []
def probe(owner, name):
    f = getattr(owner, name)
    @functools.wraps(f)
    def w(*a, **k):
        if tracemalloc.is_tracing():
            log.append((f"> {name}", tracemalloc.get_traced_memory()[0] / largest))
        r = f(*a, **k)
        if tracemalloc.is_tracing():
            c, p = tracemalloc.get_traced_memory()
            log.append((f"< {name}", c / largest, p / largest))
        return r
    setattr(owner, name, w)
for o, n in [(_base, "_cuts"), (_base, "_load_in_order"), (_base, "_keep_proofs"), (rstream.ResponsesStream, "_on_object"), (rstream.ResponsesStream, "_shared_strings"), (rinline.InlineFeed, "_on_events"), (_base.EventStreamBase, "_load_big")]:
    probe(o, n)
s = sr.ResponsesStream(json_loads=json.loads)
for p in pieces: s.feed(p)
s = None; gc.collect()
tracemalloc.start()
s = sr.ResponsesStream(json_loads=json.loads)
ev = None
for i, p in enumerate(pieces):
    log.clear()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0] / largest
    for ev in s.feed(p): pass
    c, peak = tracemalloc.get_traced_memory()
    if peak / largest - base > float(sys.argv[4] if len(sys.argv) > 4 else 0.5):
        print(f"feed #{i}: before {base:.2f} peak {peak/largest:.2f} after {c/largest:.2f} ({ev.type if ev else None})")
        for x in log: print("   ", x[0], " ".join(f"{v:.2f}" for v in x[1:]))
