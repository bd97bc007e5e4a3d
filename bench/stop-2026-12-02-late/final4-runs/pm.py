import sys, json, gc, time, statistics
sys.path.insert(0, '.')
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
from sansio_responses import _base
shape=sys.argv[1]
s=gen.generate(shape,20000)
prefix, block, payload = _split_final(s.data)
st=sr.ResponsesStream(json_loads=json.loads)
for i in range(0,len(prefix),4096): st.feed(prefix[i:i+4096])
shared=st._shared_strings(len(payload))
prof=dict(st._profiles)
junk=[{i:[i]} for i in range(100000)]
def t(f, cold):
    R=[]
    for i in range(31):
        if cold: gc.collect()
        t0=time.perf_counter(); f(); R.append(time.perf_counter()-t0)
    return statistics.median(R)*1e6
for v in shared[:2]:
    val, profile, needle, proof = prof[id(v)]
    at = payload.find(needle)+1
    for cold in (False, True):
        print(len(v), "cold" if cold else "warm", "proved %.1f" % t(lambda: _base._proved(payload, at, proof), cold),
          "match %.1f" % t(lambda: _base._match(payload, at, v, _base._utf8_json, True, profile), cold),
          "scanstring %.1f" % t(lambda: json.decoder.scanstring(payload.decode('utf-8'), at) , cold))
