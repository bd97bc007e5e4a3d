import sys, gc, json, time, statistics as S
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
from sansio_responses import _base
clock=time.process_time
sizes = dict(SHAPES)
shape=sys.argv[1]
prefix, block, payload = _split_final(gen.generate(shape, sizes[shape]).data)
cap={}
orig=_base._load_in_order
def spy(data, cuts, md):
    cap['a']=(bytes(data), list(cuts), md); return orig(data,cuts,md)
_base._load_in_order=spy
s = sr.ResponsesStream(json_loads=json.loads); s.feed(prefix); s.feed(block)
data,cuts,md=cap['a']
_base._load_in_order=orig
junk=[]
def t(f, cold):
    r=[]
    for _ in range(50):
        if cold:
            junk[:] = [{"a":[i, str(i)]} for i in range(50000)]; junk.clear(); gc.collect()
        t0=clock(); f(); r.append(clock()-t0)
    return S.median(r)*1e6
for cold in (False, True):
    print("cold" if cold else "warm",
      "in_order %.0f" % t(lambda: orig(data,cuts,md), cold),
      "loads-rest %.0f" % t(lambda: json.loads(b'{"a":1}'), cold),
      "loads-all %.0f" % t(lambda: json.loads(payload.decode()), cold),
      "cuts %.0f" % t(lambda: _base._cuts(data, [c[2] for c in cuts], None, []), cold),
      "enc %.0f" % t(lambda: [c[2].encode() for c in cuts], cold),
    )
