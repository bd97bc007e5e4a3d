import sys, gc, json
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
from sansio_responses import _base
sizes = dict(SHAPES)
orig = _base._cuts
def spy(data, shared, profiles=None, spans=()):
    r = orig(data, shared, profiles, spans)
    print(" len", len(data), "head", bytes(data[:40]), "shared", [len(s) for s in shared], "spans", [(len(s[0]), s[0][:30]) for s in spans], "cuts", [(c[0], c[1], c[3], type(c[2]).__name__) for c in r])
    return r
_base._cuts = spy
for shape in sys.argv[1:]:
    print(shape)
    data = gen.generate(shape, sizes[shape]).data
    s = sr.ResponsesStream(json_loads=json.loads)
    for i in range(0, len(data), 4096):
        s.feed(data[i:i+4096])
