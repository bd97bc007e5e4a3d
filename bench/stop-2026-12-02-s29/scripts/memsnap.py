import sys, json, gc, tracemalloc, functools
tree = sys.argv[1]; shape = sys.argv[2]; chunk = int(sys.argv[3]); fn = sys.argv[4]; nth = int(sys.argv[5])
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import SHAPES
import sansio_responses as sr
from sansio_responses import _base
data = gen.generate(shape, dict(SHAPES)[shape]).data
pieces = [data[i:i+chunk] for i in range(0, len(data), chunk)]
largest = max(len(b) for b in data.split(b"\n\n"))
count = [0]; snap = []
f = getattr(_base, fn)
def w(*a, **k):
    r = f(*a, **k)
    if tracemalloc.is_tracing():
        count[0] += 1
        if count[0] == nth: snap.append(tracemalloc.take_snapshot())
    return r
setattr(_base, fn, w)
s = sr.ResponsesStream(json_loads=json.loads)
for p in pieces: s.feed(p)
s = None; gc.collect()
tracemalloc.start(8)
s = sr.ResponsesStream(json_loads=json.loads)
ev = None
for p in pieces:
    for ev in s.feed(p): pass
stats = snap[0].statistics("traceback")
print(f"total {sum(x.size for x in stats)/largest:.2f}x at {fn} #{nth}")
for st in stats[:8]:
    print(f"  {st.size/largest:5.2f}x {st.count:6d}", " <- ".join(f"{fr.filename.rsplit('/',1)[-1]}:{fr.lineno}" for fr in list(st.traceback)[::-1][:6]))
