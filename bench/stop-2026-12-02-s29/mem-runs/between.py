import gc, json, sys, tracemalloc, pickle
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
import sansio_responses as sr
scen = sys.argv[2]; chunk = int(sys.argv[3]); stop=int(sys.argv[4])
stream = gen.generate(scen, 20000)
data = stream.data; big = stream.largest_event
pieces = [data[i:i+chunk] for i in range(0, len(data), chunk)]
w = sr.ResponsesStream(json_loads=json.loads)
for p in pieces: w.feed(p)
del w; gc.collect()
tracemalloc.start(4)
s = sr.ResponsesStream(json_loads=json.loads)
_e=None
for i,p in enumerate(pieces[:stop]):
    for _e in s.feed(p): pass
snap = tracemalloc.take_snapshot()
stats = snap.statistics('lineno')
for st in stats[:12]:
    fr = st.traceback[0]
    print(f"{st.size/1e3:8.1f} KB {st.count:6d} {fr.filename.split('/')[-1]}:{fr.lineno}")
