import sys, timeit, json, gc, time, statistics as S
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
from sansio_responses import _base
P=16*1024
def newm(data, at, value, profile, sizes):
    stop = len(value)
    view = memoryview(data)
    for k, i in enumerate(range(0, stop, P)):
        end = at + sizes[k]
        if profile:
            plain = data[at:end]
            if profile & 4: plain = plain.replace(b"\\n", b"\n")
            if profile & 2: plain = plain.replace(b'\\"', b'"')
            again = plain
            if profile & 2: again = again.replace(b'"', b'\\"')
            if profile & 4: again = again.replace(b"\n", b"\\n")
            if len(again) != end - at or not data.startswith(again, at): return -1
            try: piece = plain.decode()
            except UnicodeDecodeError: return -1
        else:
            try: piece = str(view[at:end], "utf-8")
            except UnicodeDecodeError: return -1
        if len(piece) != min(P, stop - i) or not value.startswith(piece, i): return -1
        at = end
    return at
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
    sizes=[len(enc(s[i:i+P], True)) for i in range(0,len(s),P)]
    needle=b'"'+enc(s[:64],True)
    at=payload.find(needle)+1
    old=lambda: _base._match(payload, at, s, enc, True, prof)
    new=lambda: newm(payload, at, s, prof, sizes)
    assert old()==new(), (old(),new())
    n=1000
    f=lambda fn: min(timeit.repeat(fn, number=n, repeat=5))/n*1e6
    def cold(fn):
        r=[]
        for _ in range(40):
            j=[{"a":[i,str(i)]} for i in range(30000)]; del j; gc.collect()
            t0=time.process_time(); fn(); r.append(time.process_time()-t0)
        return S.median(r)*1e6
    print(shape, "profile", prof, "warm old %.1f new %.1f | cold old %.1f new %.1f" % (f(old), f(new), cold(old), cold(new)))
    raw=payload[at:at+sizes[0]]
    pl=raw.replace(b"\\n", b"\n").replace(b'\\"', b'"')
    print("  copy %.2f unesc-lf %.2f unesc-q %.2f esc-lf %.2f esc-q %.2f decode %.2f startswith %.2f sw-str %.2f" % (
      f(lambda: payload[at:at+sizes[0]]), f(lambda: raw.replace(b"\\n", b"\n")), f(lambda: raw.replace(b'\\"', b'"')),
      f(lambda: pl.replace(b"\n", b"\\n")), f(lambda: pl.replace(b'"', b'\\"')), f(lambda: pl.decode()), f(lambda: payload.startswith(raw, at)),
      f(lambda: s.startswith(pl.decode(), 0))))
