import sys, json, gc, tracemalloc
tree = sys.argv[1]; shape = sys.argv[2]; chunk = int(sys.argv[3])
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import SHAPES
import sansio_responses as sr
from sansio_responses import _base
data = gen.generate(shape, dict(SHAPES)[shape]).data
pieces = [data[i:i+chunk] for i in range(0, len(data), chunk)]
largest = max(len(b) for b in data.split(b"\n\n"))
snaps = []
orig = _base._load_in_order
def spy(d, cuts, md):
    if tracemalloc.is_tracing(): snaps.append(tracemalloc.take_snapshot())
    return orig(d, cuts, md)
_base._load_in_order = spy
s = sr.ResponsesStream(json_loads=json.loads)
for p in pieces: s.feed(p)
s = None; gc.collect(); snaps.clear()
tracemalloc.start(6)
s = sr.ResponsesStream(json_loads=json.loads)
ev = None
for p in pieces:
    for ev in s.feed(p): pass
    cur, peak = tracemalloc.get_traced_memory()
print("largest", largest, "peak/largest", round(peak / largest, 2))
for i, sn in enumerate(snaps):
    stats = sn.statistics("traceback")
    tot = sum(st.size for st in stats)
    print(f"--- at _load_in_order #{i}: total {tot/largest:.2f}x")
    for st in stats[:6]:
        print(f"  {st.size/largest:5.2f}x", " <- ".join(f"{f.filename.rsplit('/',1)[-1]}:{f.lineno}" for f in st.traceback[:4]))
# per-feed peaks, the top three
s = None; ev = None; gc.collect(); tracemalloc.stop(); tracemalloc.start(6)
s = sr.ResponsesStream(json_loads=json.loads)
peaks = []
for i, p in enumerate(pieces):
    tracemalloc.reset_peak()
    got = s.feed(p)
    for ev in got: pass
    cur, peak = tracemalloc.get_traced_memory()
    peaks.append((peak / largest, i, [e.type for e in got][-2:]))
peaks.sort(reverse=True)
for x in peaks[:4]: print(round(x[0], 2), x[1], x[2])
