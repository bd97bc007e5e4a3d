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
acc = st._acc
print("slots", {k: type(v).__name__ for k,v in acc.items.slots.items()}, "frozen", acc.items.frozen)
print("long cache", [(type(v[0]).__name__, [len(x) for x in v[1]]) for v in acc._long.values()])
print("profiles", [(len(v[0]), v[1], v[3] is not None) for v in st._profiles.values()])
print("spans", [(len(r), l) for r,_,l in st._spans])
for k in range(5):
    gc.collect(); t0=time.perf_counter(); r = st._shared_strings(len(payload)); t=time.perf_counter()-t0
    print("shared", t*1e6, [len(x) for x in r])
print(payload[:600])
print(b'...')
import re
# positions of long strings in payload
for x in r:
    enc = json.dumps(x, ensure_ascii=False)[1:-1].encode()
    print(len(x), [m.start() for m in re.finditer(re.escape(enc[:64]), payload)])
print(len(payload))
from sansio_responses._responses import items as it
for i,v in acc.items.slots.items():
    gc.collect(); t0=time.perf_counter(); f,b = it._long_in(v, 4096, 10**6); t=time.perf_counter()-t0
    print("slot", i, v.get("type"), "nodes", 10**6-b, "us", t*1e6, [len(x) for x in f])
gc.collect(); t0=time.perf_counter(); f,b = it._long_in(acc.response, 4096, 10**6); t=time.perf_counter()-t0
print("response nodes", 10**6-b, t*1e6)
print("cache after", [(type(v[0]).__name__, v[0].get("type"), [len(x) for x in v[1]]) for v in acc._long.values()])
