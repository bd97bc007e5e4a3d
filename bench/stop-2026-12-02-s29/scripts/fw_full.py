"""fw.py's per-step breakdown of a final event, after the full table's prelude (optional)."""
import sys, json, gc, time, statistics, functools, resource
tree = sys.argv[1]
sys.path.insert(0, tree)
prelude = sys.argv[2]  # none | cases | full
shape = sys.argv[3] if len(sys.argv) > 3 else "function_call"
from bench import generate as gen, run as bench_run
from bench import shapes as bshapes
from bench.shapes import _split_final
import sansio_responses as sr
from sansio_responses import _base, _sse
from sansio_responses._responses import stream as rstream
bench_run.clock = bench_run.CLOCKS["cpu"]
if prelude in ("env", "full"):
    print(bench_run.environment())
if prelude in ("cases", "full"):
    cases = [bench_run.Case(s, n) for s, n in bshapes.SHAPES]
    bench_run.run_cases(cases, "ours+snapshot,ours+final,ours+orjson,ours+final+orjson,httpx-sse,floor".split(","), runs=5, memory=False, sdk_max_events=200_000, log=lambda m: None)
if prelude == "full":
    for scenario, n in bshapes.SHAPES[:2]:
        st = gen.generate(scenario, n)
        bshapes.final_event_cost(st, 7, bshapes._ours(True)); bshapes.final_event_cost(st, 7, bshapes._ours(False))
s = gen.generate(shape, 20000)
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
wrapped = "--nowrap" in sys.argv
R = 41
totals=[]; parts = {}; flt = []; jflt = []
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
        wrapped = True
    acc.clear(); gc.collect()
    f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    t0 = clock(); st.feed(block); st.snapshot(); t = clock() - t0
    flt.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
    totals.append(t)
    for k, v in acc.items(): parts.setdefault(k, []).append(v)
    del st; gc.collect()
    f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    t0 = clock(); json.loads(text); parts.setdefault("json.loads", []).append(clock() - t0)
    jflt.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
j = statistics.median(parts["json.loads"])
print(f"{prelude} {shape}: total {statistics.median(totals)*1e6:.0f} us = {statistics.median(totals)/j:.2f}x; minflt ours {statistics.median(flt)} json {statistics.median(jflt)}; gc objects {len(gc.get_objects())}")
for k, v in parts.items():
    print(f"  {k:10s} {statistics.median(v)*1e6:7.1f} us {statistics.median(v)/j:5.2f}x")
