import sys, json, gc, time
sys.path.insert(0, sys.argv[3] if len(sys.argv)>3 else '.')
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
shape=sys.argv[1]; n=int(sys.argv[2])
s=gen.generate(shape,n)
prefix, block, payload = _split_final(s.data)
st = sr.ResponsesStream(json_loads=json.loads)
for i in range(0,len(prefix),4096): st.feed(prefix[i:i+4096])
for k in range(4):
    t0=time.perf_counter(); r = st._shared_strings(len(payload)); t=time.perf_counter()-t0
    print("nogc shared", t*1e6)
for k in range(4):
    gc.collect(); t0=time.perf_counter(); r = st._shared_strings(len(payload)); t=time.perf_counter()-t0
    print("gc shared", t*1e6)
def f(): return 1
for k in range(4):
    gc.collect(); t0=time.perf_counter(); f(); t=time.perf_counter()-t0
    print("gc f", t*1e6)
for k in range(4):
    gc.collect(); t0=time.perf_counter(); d={}; d[1]=2;sorted([1,2]); t=time.perf_counter()-t0
    print("gc small", t*1e6)
