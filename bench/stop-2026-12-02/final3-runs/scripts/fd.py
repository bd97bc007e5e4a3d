import sys, json, timeit, gc, time, statistics as S
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
from sansio_responses._responses import models
prefix, block, payload = _split_final(gen.generate("function_call", dict(SHAPES)["function_call"]).data)
d=json.loads(payload)["response"]
gen_f = models.Response.from_dict
generic = models._Model.from_dict.__func__
K=models.Response
f=lambda fn: min(timeit.repeat(fn, number=2000, repeat=5))/2000*1e6
print("warm generated %.2f generic %.2f" % (f(lambda: gen_f(d)), f(lambda: generic(K, d))))
def cold(fn):
    r=[]
    for _ in range(60):
        j=[{"a":[i,str(i)]} for i in range(30000)]; del j; gc.collect()
        t0=time.process_time(); fn(); r.append(time.process_time()-t0)
    return S.median(r)*1e6
print("cold generated %.1f generic %.1f" % (cold(lambda: gen_f(d)), cold(lambda: generic(K, d))))
print("cold generated %.1f generic %.1f" % (cold(lambda: gen_f(d)), cold(lambda: generic(K, d))))
