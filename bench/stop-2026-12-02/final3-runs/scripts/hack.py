import sys, gc, json, time, statistics as S
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
from sansio_responses._responses import models
clock=time.process_time
real = models._Model.__dict__['from_dict']
for shape in sys.argv[1].split(","):
    prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
    pre = models.Response.from_dict(json.loads(payload)["response"])
    fake = classmethod(lambda cls, d, path="": pre if cls is models.Response else real.__func__(cls, d, path))
    T={"real":[], "free":[], "loads":[]}
    for n in range(40):
        for mode in (("real","free") if n%2 else ("free","real")):
            models.Response.from_dict = real if mode=="real" else fake
            s = sr.ResponsesStream(json_loads=json.loads)
            for i in range(0, len(prefix), 4096): s.feed(prefix[i:i+4096])
            gc.collect()
            t0=clock(); s.feed(block); s.snapshot(); T[mode].append(clock()-t0)
            del s
        models.Response.from_dict = real
        gc.collect(); t0=clock(); json.loads(payload.decode()); T["loads"].append(clock()-t0)
    L=S.median(T["loads"])
    print(shape, "real %.2f free %.2f" % (S.median(T["real"])/L, S.median(T["free"])/L))
