import sys, timeit, json, gc, time, hashlib, statistics as S
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
from sansio_responses import _base
P=16*1024
for shape in ("text","function_call","reasoning"):
    prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
    obj = json.loads(payload)
    acc=[]
    def walk(o):
        if isinstance(o, str):
            if len(o) > 4096: acc.append(o)
        elif isinstance(o, dict):
            for v in o.values(): walk(v)
        elif isinstance(o, list):
            for v in o: walk(v)
    walk(obj)
    s=acc[0]
    prof=_base._profile(s)
    enc=_base._utf8_json
    size=sum(len(enc(s[i:i+P], True)) for i in range(0,len(s),P))
    needle=b'"'+enc(s[:64],True)
    at=payload.find(needle)+1
    dig=hashlib.sha256(memoryview(payload)[at:at+size]).digest()
    old=lambda: _base._match(payload, at, s, enc, True, prof)
    def new():
        with memoryview(payload) as v:
            return at+size if hashlib.sha256(v[at:at+size]).digest()==dig else -1
    assert old()==new()
    n=500
    f=lambda fn: min(timeit.repeat(fn, number=n, repeat=5))/n*1e6
    def cold(fn):
        r=[]
        for _ in range(40):
            j=[{"a":[i,str(i)]} for i in range(30000)]; del j; gc.collect()
            t0=time.process_time(); fn(); r.append(time.process_time()-t0)
        return S.median(r)*1e6
    print(shape, "profile", prof, "warm old %.1f new %.1f | cold old %.1f new %.1f" % (f(old), f(new), cold(old), cold(new)))
