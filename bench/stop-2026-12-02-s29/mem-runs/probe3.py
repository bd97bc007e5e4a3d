import gc, json, sys, tracemalloc
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
import sansio_responses as sr
from sansio_responses import _sse
scen = sys.argv[2]; chunk = int(sys.argv[3])
stream = gen.generate(scen, 20000)
data = stream.data
pieces = [data[i:i+chunk] for i in range(0, len(data), chunk)]
mid = len(pieces)//2
s = sr.ResponsesStream(json_loads=json.loads)
for p in pieces[:mid]:
    for e in s.feed(p): pass
del e
log=[]
for name in ("_chunk","_blocks","_lines","_feed"):
    orig = getattr(_sse.SSEDecoder, name)
    def w(self,*a, _o=orig, _n=name, **k):
        log.append((">"+_n,)+tracemalloc.get_traced_memory())
        r = _o(self,*a,**k)
        log.append(("<"+_n,)+tracemalloc.get_traced_memory())
        return r
    setattr(_sse.SSEDecoder, name, w)
gc.collect()
tracemalloc.start()
base = tracemalloc.get_traced_memory()[0]
out = s.feed(pieces[mid])
tracemalloc.stop()
n=len(out)
for name,cur,peak in log: print(name, round((cur-base)/n), round((peak-base)/n))
