import sys, gc, json, time, statistics as S
tree = sys.argv[1]; shapes = sys.argv[2].split(",")
sys.path.insert(0, tree)
sys.path.insert(1, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
from sansio_responses import _base, _sse
from sansio_responses._responses import stream as stm, inline, items, models, events
clock = time.process_time
acc = {}
def wrap(obj, name, key):
    f = getattr(obj, name)
    def w(*a, **k):
        t0 = clock()
        try: return f(*a, **k)
        finally: acc[key] = acc.get(key, 0) + clock() - t0
    setattr(obj, name, w)
wrap(_sse.SSEDecoder, "feed_raw", "sse")
wrap(_base, "_cuts", "cuts")
wrap(_base, "_load_in_order", "in_order")
wrap(items.OutputItems, "long_strings", "long_strings")
wrap(stm.ResponsesStream, "_on_object", "on_object")
wrap(stm.ResponsesStream, "_apply", "apply")
wrap(_base.EventStreamBase, "_load_big", "load_big")
wrap(stm.ResponsesStream, "_check_depth", "check_depth")
sizes = dict(SHAPES)
for shape in shapes:
    prefix, block, payload = _split_final(gen.generate(shape, sizes[shape]).data)
    text = payload.decode()
    rows = {}
    for _ in range(40):
        s = sr.ResponsesStream(json_loads=json.loads)
        for i in range(0, len(prefix), 4096): s.feed(prefix[i:i+4096])
        gc.collect(); acc.clear()
        t0 = clock(); s.feed(block); s.snapshot(); tot = clock() - t0
        for k, v in acc.items(): rows.setdefault(k, []).append(v)
        rows.setdefault("TOTAL", []).append(tot)
        del s; gc.collect()
        t0 = clock(); json.loads(text); rows.setdefault("loads", []).append(clock() - t0)
    L = S.median(rows["loads"])
    print(shape, " ".join(f"{k}={S.median(v)*1e6:.0f}us({S.median(v)/L:.2f})" for k, v in rows.items()))
