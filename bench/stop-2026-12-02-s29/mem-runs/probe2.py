import gc, json, sys, tracemalloc
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
import sansio_responses as sr
from sansio_responses._responses import inline
scen = sys.argv[2]; chunk = int(sys.argv[3])
stream = gen.generate(scen, 20000)
data = stream.data
pieces = [data[i:i+chunk] for i in range(0, len(data), chunk)]
mid = len(pieces)//2
s = sr.ResponsesStream(json_loads=json.loads)
for p in pieces[:mid]:
    for e in s.feed(p): pass
del e
marks = {}
orig = inline.InlineFeed._on_events
def wrapped(self, raw, out):
    cur, peak = tracemalloc.get_traced_memory()
    marks['enter'] = (cur, peak)
    tracemalloc.reset_peak()
    orig(self, raw, out)
    marks['exit'] = tracemalloc.get_traced_memory()
inline.InlineFeed._on_events = wrapped
gc.collect()
tracemalloc.start()
base = tracemalloc.get_traced_memory()[0]
out = s.feed(pieces[mid])
cur, peak = tracemalloc.get_traced_memory()
tracemalloc.stop()
n = len(out)
f = lambda x: f"{(x-base)/n:.0f}"
print(f"{scen} {chunk}: n={n} chunk B/ev {len(pieces[mid])/n:.0f}; framing: held {f(marks['enter'][0])} peak {f(marks['enter'][1])}; events loop: peak {f(marks['exit'][1])} end {f(marks['exit'][0])}; after feed {f(cur)}")
