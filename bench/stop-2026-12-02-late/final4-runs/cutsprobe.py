import sys, json, gc, time, statistics, hashlib
sys.path.insert(0, sys.argv[3] if len(sys.argv)>3 else '.')
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
from sansio_responses import _base
shape=sys.argv[1]; n=int(sys.argv[2])
s=gen.generate(shape,n)
prefix, block, payload = _split_final(s.data)
st=sr.ResponsesStream(json_loads=json.loads)
for i in range(0,len(prefix),4096): st.feed(prefix[i:i+4096])
shared=st._shared_strings(len(payload))
prof=dict(st._profiles)
def t(f, cold):
    R=[]
    for i in range(21):
        if cold: gc.collect()
        t0=time.perf_counter(); f(); R.append(time.perf_counter()-t0)
    return statistics.median(R)*1e6
mv=memoryview(payload)
for cold in (False, True):
    print("cold" if cold else "warm",
      "cuts %.1f" % t(lambda: _base._cuts(payload, shared, dict(prof), (), False), cold),
      "sha %.1f" % t(lambda: hashlib.sha256(mv[100:100+sum(len(x.encode()) for x in [])+90000]).digest(), cold),
      "find %.1f" % t(lambda: payload.find(b'"zzzz'), cold),
      "loads %.1f" % t(lambda: json.loads(payload), cold),
      "inorder %.1f" % t(lambda: _base.load_sharing(payload, shared, _base.stdlib_loads, 64, dict(prof)), cold),
    )
