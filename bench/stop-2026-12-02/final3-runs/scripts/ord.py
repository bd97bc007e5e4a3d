import sys, json
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
from sansio_responses import _base
orig=_base._cuts
def spy(data, shared, profiles=None, spans=(), prove=False):
    r=orig(data, shared, profiles, spans, prove)
    pos={id(c[2]): c[0] for c in r}
    print(bytes(data[9:40]), [pos.get(id(s)) for s in shared])
    return r
_base._cuts=spy
for shape in ("reasoning","text_logprobs"):
    data = gen.generate(shape, dict(SHAPES)[shape]).data
    s = sr.ResponsesStream(json_loads=json.loads); s.feed(data)
