import gc, json, sys, tracemalloc
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
import sansio_responses as sr

scen = sys.argv[2]; chunk = int(sys.argv[3])
stream = gen.generate(scen, 20000)
data = stream.data
pieces = [data[i:i+chunk] for i in range(0, len(data), chunk)]
mid = len(pieces)//2
s = sr.ChatCompletionsStream(json_loads=json.loads)
for p in pieces[:mid]:
    for e in s.feed(p): pass
del e
gc.collect()
tracemalloc.start(6)
snap0 = tracemalloc.take_snapshot()
base = tracemalloc.get_traced_memory()[0]
tracemalloc.reset_peak()
out = s.feed(pieces[mid])
cur, peak = tracemalloc.get_traced_memory()
snap1 = tracemalloc.take_snapshot()
tracemalloc.stop()
n = len(out)
print(f"{scen} chunk {chunk}: {n} events; held after feed {(cur-base)/n:.0f} B/event; peak in feed {(peak-base)/n:.0f} B/event; chunk bytes/event {len(pieces[mid])/n:.0f}")
stats = snap1.compare_to(snap0, 'lineno')
for st in stats[:14]:
    print(f"  {st.size_diff/n:7.1f} B/ev {st.count_diff/n:5.2f} obj/ev  {st.traceback[0].filename.split('/')[-1]}:{st.traceback[0].lineno}")
ev = out[len(out)//2]
print(type(ev).__name__, "getsizeof", sys.getsizeof(ev), repr(ev)[:300])
seen=set()
def show(o, ind, depth):
    for r in gc.get_referents(o):
        if id(r) in seen or isinstance(r, type): continue
        seen.add(id(r))
        print(" "*ind, type(r).__name__, sys.getsizeof(r), repr(r)[:80])
        if depth: show(r, ind+2, depth-1)
show(ev, 2, 3)
