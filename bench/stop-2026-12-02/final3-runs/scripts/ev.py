import sys, gc, json, time, statistics as S
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
from sansio_responses._responses import models, events
clock=time.process_time
for shape in sys.argv[1].split(","):
    prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
    R=[];E=[];L=[];X=[]
    for _ in range(40):
        s = sr.ResponsesStream(json_loads=json.loads)
        for i in range(0, len(prefix), 4096): s.feed(prefix[i:i+4096])
        obj=json.loads(payload); obj2=json.loads(payload); obj3=json.loads(payload)
        gc.collect()
        t0=clock(); models.Response.from_dict(obj["response"]); R.append(clock()-t0)
        del s; gc.collect()
        t0=clock(); events.parse_event(obj2); E.append(clock()-t0)
        gc.collect()
        t0=clock(); models.copy_json(obj3); X.append(clock()-t0)
        gc.collect()
        t0=clock(); json.loads(payload.decode()); L.append(clock()-t0)
    l=S.median(L)
    print(shape, "Response.from_dict %.0f (%.2f)  parse_event %.0f (%.2f) copy_json %.0f loads %.0f" % (S.median(R)*1e6, S.median(R)/l, S.median(E)*1e6, S.median(E)/l, S.median(X)*1e6, l*1e6))
