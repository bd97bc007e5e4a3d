import sys, json, gc, time, statistics, functools
tree = sys.argv[3] if len(sys.argv) > 3 else '/work/wt-lead'
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
from sansio_responses import _base, _sse
from sansio_responses._responses import stream as rstream, inline as rinline, accumulate as racc, events as revents, models as rmodels
shape = sys.argv[1]; n = int(sys.argv[2])
s = gen.generate(shape, n)
prefix, block, payload = _split_final(s.data)
text = payload.decode()
acc = {}
clock = time.perf_counter
def wrap(owner, name, label):
    f = getattr(owner, name)
    @functools.wraps(f)
    def w(*a, **k):
        t0 = clock()
        try: return f(*a, **k)
        finally: acc[label] = acc.get(label, 0) + clock() - t0
    setattr(owner, name, w)
def prep():
    st = sr.ResponsesStream(json_loads=json.loads)
    for i in range(0, len(prefix), 4096):
        st.feed(prefix[i:i+4096])
    return st
wrapped = False
R = 60
totals=[]; parts = {}
for r in range(R):
    st = prep()
    if not wrapped:
        wrap(_sse.SSEDecoder, "feed_raw", "frame")
        wrap(rstream.ResponsesStream, "_shared_strings", "shared")
        wrap(_base, "_cuts", "cuts")
        wrap(_base, "_load_in_order", "in_order")
        wrap(_base.EventStreamBase, "_load_big", "load_big")
        wrap(rstream.ResponsesStream, "_on_object", "on_object")
        wrap(rstream.ResponsesStream, "snapshot", "snapshot")
        for extra in sys.argv[4:]:
            mod, _, name = extra.rpartition(".")
            owner = {"base": _base, "sse": _sse, "stream": rstream, "inline": rinline, "acc": racc, "events": revents, "models": rmodels}
            o = owner[mod] if mod in owner else getattr(owner[mod.split(".")[0]], mod.split(".")[1])
            wrap(o, name, name)
        wrapped = True
    acc.clear(); gc.collect()
    t0 = clock(); st.feed(block); st.snapshot(); t = clock() - t0
    totals.append(t)
    for k, v in acc.items(): parts.setdefault(k, []).append(v)
    del st; gc.collect()
    t0 = clock(); json.loads(text); parts.setdefault("json.loads", []).append(clock() - t0)
j = statistics.median(parts["json.loads"])
print(f"{shape}: total {statistics.median(totals)*1e6:.0f} us = {statistics.median(totals)/j:.2f}x")
for k, v in parts.items():
    print(f"  {k:10s} {statistics.median(v)*1e6:7.1f} us {statistics.median(v)/j:5.2f}x")
