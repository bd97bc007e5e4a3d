import gc, json, sys, tracemalloc
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
import sansio_responses as sr

scen = sys.argv[2]; chunk = int(sys.argv[3])
stream = gen.generate(scen, 20000)
data = stream.data
pieces = [data[i:i+chunk] for i in range(0, len(data), chunk)]
mid = len(pieces)//2
s = sr.ResponsesStream(json_loads=json.loads)
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
for st in stats[:12]:
    print(f"  {st.size_diff/n:7.1f} B/ev {st.count_diff/n:5.2f} obj/ev  {st.traceback[0].filename.split('/')[-1]}:{st.traceback[0].lineno}")
ev = out[len(out)//2]
print(type(ev).__name__, "getsizeof", sys.getsizeof(ev))
for name in ev.__slots__ if hasattr(ev,'__slots__') else []:
    pass
import attrs
def walk(o, depth=0, seen=None):
    pass
for a in [a for c in type(ev).__mro__ for a in getattr(c,'__slots__',())]:
    try: v = object.__getattribute__(ev, a)
    except AttributeError: continue
    extra=""
    if isinstance(v, dict):
        extra = " keys:" + ",".join(f"{k}={sys.getsizeof(vv)}" for k,vv in v.items())
    if callable(v) and hasattr(v, '__defaults__'):
        extra = f" defaults {v.__defaults__ and [type(x).__name__ for x in v.__defaults__]} closure {v.__closure__ and [type(c.cell_contents).__name__ for c in v.__closure__]}"
    print(f"  {a}: {type(v).__name__} {sys.getsizeof(v)}{extra}")
