"""What the cold cost of the terminal Response build is made of (one tree, alternating cases)."""
import sys, json, gc, time, statistics
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
from sansio_responses._responses import models as M
s = gen.generate("function_call", 20000)
prefix, block, payload = _split_final(s.data)
st = sr.ResponsesStream(json_loads=json.loads)
for i in range(0, len(prefix), 4096): st.feed(prefix[i:i+4096])
text = payload.decode()
NAMES = tuple(n for n, *_ in M.Response._SPEC)
INTERNED = {}
def nothing(r): pass
def build(r): M.Response.from_dict(r, "response")
def lookups(r): tuple(map(r.get, NAMES))
def lookups_interned(r):  # keys of the dict made identical to ours first (untimed below)
    tuple(map(r.get, NAMES))
def iter_items(r):
    for k, v in r.items(): pass
def classes(r):
    for v in r.values(): v.__class__
def item(r): M.output_item_from_dict(r["output"][0], "p")
def usage(r): M.ResponseUsage.from_dict(r["usage"], "p")
cases = dict(nothing=nothing, build=build, lookups=lookups, lookups_interned=lookups_interned, iter_items=iter_items, classes=classes, item=item, usage=usage)
res = {k: [] for k in cases}
clock = time.perf_counter
R = int(sys.argv[2]) if len(sys.argv) > 2 else 151
for rnd in range(R):
    for k, f in cases.items():
        r = json.loads(text)["response"]
        if k == "lookups_interned":
            r = {sys.intern(a): b for a, b in r.items()}
        gc.collect()
        t0 = clock(); f(r); res[k].append(clock() - t0)
for k in res: print(f"{k:16s} {statistics.median(res[k])*1e6:6.1f} us")
