import sys, json, time, statistics
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
from bench.shapes import _split_final
from sansio_responses._responses import models as m
s = gen.generate('function_call', 20000)
prefix, block, payload = _split_final(s.data)
d = json.loads(payload)['response']
T = time.perf_counter
for name, f in [("Response.from_dict", lambda: m.Response.from_dict(d)), ("loads", lambda: json.loads(payload))]:
    ts=[]
    for i in range(2000):
        t0=T(); f(); ts.append(T()-t0)
    print(name, f"{statistics.median(ts)*1e6:.2f} us")
