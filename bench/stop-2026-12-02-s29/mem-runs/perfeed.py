import gc, json, sys, tracemalloc
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
import sansio_responses as sr
scen = sys.argv[2]; chunk = int(sys.argv[3])
stream = gen.generate(scen, 20000)
data = stream.data; big = stream.largest_event
pieces = [data[i:i+chunk] for i in range(0, len(data), chunk)]
s = sr.ResponsesStream(json_loads=json.loads)
for p in pieces: s.feed(p)
del s; gc.collect()
tracemalloc.start()
s = sr.ResponsesStream(json_loads=json.loads)
rows=[]
_e=None
for i,p in enumerate(pieces):
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    n=0
    for _e in s.feed(p): n+=1
    cur, peak = tracemalloc.get_traced_memory()
    rows.append((peak/big, before/big, i, n, _e.type if _e is not None else None))
tracemalloc.reset_peak()
for _e in s.close(): pass
snap = s.snapshot()
cur, peak = tracemalloc.get_traced_memory()
rows.append((peak/big, 0, 'close+snapshot', 0, None))
tracemalloc.stop()
rows.sort(key=lambda r: -r[0])
for r in rows[:6]: print(f"peak {r[0]:.2f} before {r[1]:.2f} piece {r[2]} events {r[3]} last {r[4]}")
