import sys, timeit, json
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
    raws=[enc(s[i:i+P], True) for i in range(0,len(s),P)]
    needle=b'"'+enc(s[:64],True)
    at=payload.find(needle)+1
    lens=[len(r) for r in raws]
    mv=memoryview(payload)
    def old():
        return _base._match(payload, at, s, enc, True, prof)
    def new():
        a=at
        for k,i in enumerate(range(0,len(s),P)):
            L=lens[k]
            d=str(mv[a:a+L],'utf-8')
            if prof:
                e=s[i:i+P]
                if prof & 1: e=e.replace('\\','\\\\')
                if prof & 2: e=e.replace('"','\\"')
                if prof & 4: e=e.replace('\n','\\n')
                if d!=e: return -1
            else:
                if len(d)!=len(s[i:i+P]) or not s.startswith(d,i): return -1
            a+=L
        return a
    assert old()==new(), (old(),new())
    n=1000
    f=lambda fn: min(timeit.repeat(fn, number=n, repeat=5))/n*1e6
    print(shape, "profile", prof, "old %.1f new %.1f" % (f(old), f(new)))
    p=s[:P]; r=raws[0]; pb=p.encode()
    print("  per piece: slice %.2f replace-lf %.2f replace-q %.2f decode %.2f encode %.2f brepl-lf %.2f brepl-q %.2f eq %.2f count-lf %.2f" % (
      f(lambda: s[:P]), f(lambda: p.replace('\n','\\n')), f(lambda: p.replace('"','\\"')), f(lambda: str(mv[at:at+len(r)],'utf-8')),
      f(lambda: p.encode()), f(lambda: pb.replace(b'\n', b'\\n')), f(lambda: pb.replace(b'"', b'\\"')), f(lambda: p==p[:]), f(lambda: p.count('\n'))))
