import sys, gc, json, time, statistics as S
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
from sansio_responses import _base
from sansio_responses._base import _held, _scan_in_order, _whitespace
clock=time.process_time
T={}
def lio(data, cuts, max_depth):
    c0=clock()
    nan = b"NaN"
    pieces=[]; last=0; levels=0
    for start, stop, _, nested in cuts:
        piece = data[last:start]
        if piece.find(nan) >= 0: return _base._ELSEWHERE
        pieces.append(piece); last = stop
    piece = data[last:]
    pieces.append(piece)
    rest = nan.join(pieces)
    c1=clock()
    text = rest.decode("utf-8", "replace")
    c2=clock()
    if max_depth is not None and text.count("{") + text.count("[") + levels > max_depth: return _base._ELSEWHERE
    values = [cut[2] for cut in cuts]; values.reverse()
    _held.values = values
    c3=clock()
    obj, end = _scan_in_order(text, _whitespace(text, 0).end())
    c4=clock()
    _held.values = []
    for k,v in (("slice",c1-c0),("decode",c2-c1),("count",c3-c2),("scan",c4-c3)): T.setdefault(k,[]).append(v)
    return obj
_base._load_in_order = lio
shape=sys.argv[1]
prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
for _ in range(40):
    s = sr.ResponsesStream(json_loads=json.loads)
    for i in range(0, len(prefix), 4096): s.feed(prefix[i:i+4096])
    gc.collect()
    s.feed(block); del s; gc.collect()
print(shape, {k: round(S.median(v)*1e6,1) for k,v in T.items()})
