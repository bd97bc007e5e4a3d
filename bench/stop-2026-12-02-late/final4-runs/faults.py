import sys, json, gc, time, resource, statistics
sys.path.insert(0, sys.argv[3] if len(sys.argv)>3 else '.')
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
shape=sys.argv[1]; n=int(sys.argv[2])
s=gen.generate(shape,n)
prefix, block, payload = _split_final(s.data)
text=payload.decode()
ru=lambda: resource.getrusage(resource.RUSAGE_SELF).ru_minflt
F=[];T=[];J=[];JF=[]
for r in range(15):
    st=sr.ResponsesStream(json_loads=json.loads)
    for i in range(0,len(prefix),4096): st.feed(prefix[i:i+4096])
    gc.collect()
    f0=ru(); t0=time.process_time(); st.feed(block); st.snapshot(); t=time.process_time()-t0; f=ru()-f0
    F.append(f); T.append(t)
    del st; gc.collect()
    f0=ru(); t0=time.process_time(); json.loads(text); t=time.process_time()-t0; JF.append(ru()-f0); J.append(t)
print(shape, "ours", statistics.median(T)*1e6, "faults", statistics.median(F), "| loads", statistics.median(J)*1e6, "faults", statistics.median(JF))
