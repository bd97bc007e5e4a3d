import sys, json, gc, time, statistics
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
cuts=_base._cuts(payload, shared, dict(prof), (), False)
rest=b"NaN".join([payload[:cuts[0][0]]]+[payload[c[1]:(cuts[i+1][0] if i+1<len(cuts) else len(payload))] for i,c in enumerate(cuts)]).decode()
print(len(rest), rest.count("{")+rest.count("["))
obj=json.loads(payload)
from sansio_responses._responses.stream import ResponsesStream
b=st._builders.get(obj["type"])
def t(f, cold=True):
    R=[]
    for i in range(31):
        if cold: gc.collect()
        t0=time.perf_counter(); f(); R.append(time.perf_counter()-t0)
    return statistics.median(R)*1e6
print("inorder %.1f" % t(lambda: _base._load_in_order(payload, cuts, 64)))
print("loads rest %.1f" % t(lambda: json.loads(rest)))
print("loads rest NaN %.1f" % t(lambda: _base._scan_in_order(rest.replace("NaN","0"),0)))
print("build %.1f warm %.1f" % (t(lambda: b(obj)), t(lambda: b(obj), False)))
print("loads all %.1f" % t(lambda: json.loads(payload)))
big=bytearray(64<<20)
def thrash():
    big[::4096]=bytes(len(big[::4096]))
def t2(f, prep):
    R=[]
    for i in range(31):
        prep()
        t0=time.perf_counter(); f(); R.append(time.perf_counter()-t0)
    return statistics.median(R)*1e6
print("loads rest thrash %.1f" % t2(lambda: json.loads(rest), thrash))
print("loads rest gen0 %.1f" % t2(lambda: json.loads(rest), lambda: gc.collect(0)))
print("loads rest nothing %.1f" % t2(lambda: json.loads(rest), lambda: None))
x=[{} for i in range(1000)]
print("loads rest allocs %.1f" % t2(lambda: json.loads(rest), lambda: [dict() for i in range(200)]))
print("n objects", len(gc.get_objects()))
print("loads rest gen1 %.1f" % t2(lambda: json.loads(rest), lambda: gc.collect(1)))
print("loads rest gen2 %.1f" % t2(lambda: json.loads(rest), lambda: gc.collect(2)))
print("loads rest gen2+warm %.1f" % t2(lambda: json.loads(rest), lambda: (gc.collect(2), [tuple(range(i%20)) for i in range(3000)], [dict(a=i) for i in range(3000)], [[i] for i in range(3000)])))
print("loads rest thrash2 %.1f" % t2(lambda: json.loads(rest), lambda: bytes(big)))
