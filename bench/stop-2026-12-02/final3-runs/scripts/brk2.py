import sys, gc, json, time, statistics as S
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
from sansio_responses import _base
clock=time.process_time
acc={}
def wrap(obj, name, key):
    f = getattr(obj, name)
    def w(*a, **k):
        t0 = clock()
        try: return f(*a, **k)
        finally: acc[key] = acc.get(key, 0) + clock() - t0
    setattr(obj, name, w)
wrap(_base, "_cuts", "cuts"); wrap(_base, "_proved", "proved"); wrap(_base, "_find_between", "find")
for shape in sys.argv[1].split(","):
    prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
    rows={}
    for _ in range(40):
        s = sr.ResponsesStream(json_loads=json.loads)
        for i in range(0, len(prefix), 4096): s.feed(prefix[i:i+4096])
        gc.collect(); acc.clear()
        s.feed(block)
        for k,v in acc.items(): rows.setdefault(k,[]).append(v)
    print(shape, {k: round(S.median(v)*1e6) for k,v in rows.items()})
