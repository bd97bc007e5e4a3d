import sys, json
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
from sansio_responses import _base
calls=[]
for n in ("_match","_proved","_prove","_profile"):
    f=getattr(_base,n)
    def w(*a, _f=f, _n=n):
        calls.append(_n); return _f(*a)
    setattr(_base,n,w)
for shape in ("text","function_call","reasoning"):
    prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
    s = sr.ResponsesStream(json_loads=json.loads)
    calls.clear(); s.feed(prefix); print(shape, "prefix", calls)
    calls.clear(); s.feed(block); print(shape, "final", calls)
