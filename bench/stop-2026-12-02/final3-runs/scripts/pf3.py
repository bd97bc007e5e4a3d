import sys, gc, json, time, resource, statistics as S
sys.path.insert(0, sys.argv[1]); sys.path.insert(1, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
clock=time.process_time
def flt(): return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for shape in ("text","function_call","reasoning"):
    prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
    F=[];T=[];LF=[];LT=[]
    for _ in range(30):
        s = sr.ResponsesStream(json_loads=json.loads)
        for i in range(0, len(prefix), 4096): s.feed(prefix[i:i+4096])
        gc.collect()
        f0=flt(); t0=clock(); s.feed(block); s.snapshot(); T.append(clock()-t0); F.append(flt()-f0)
        del s; gc.collect()
        text=payload.decode()
        f0=flt(); t0=clock(); json.loads(text); LT.append(clock()-t0); LF.append(flt()-f0)
    print(shape, "event faults", S.median(F), "us", round(S.median(T)*1e6), "| loads faults", S.median(LF), "us", round(S.median(LT)*1e6))
