"""Cold build of the terminal Response of a shape: generated from_dict vs the generic loop.
Usage: python micro.py TREE SHAPE [ROUNDS]"""
import sys, json, gc, time, statistics
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
from sansio_responses._responses import models as M
shape = sys.argv[2]; R = int(sys.argv[3]) if len(sys.argv) > 3 else 201
s = gen.generate(shape, 20000)
prefix, block, payload = _split_final(s.data)
st = sr.ResponsesStream(json_loads=json.loads)   # a live heap, as at a stream's end
for i in range(0, len(prefix), 4096): st.feed(prefix[i:i+4096])
wire = json.loads(payload.decode())["response"]
gen_fd = M.Response.from_dict
base_fd = M._Model.__dict__["from_dict"]
classes = [c for c in vars(M).values() if isinstance(c, type) and issubclass(c, M._Model) and "_SPEC" in c.__dict__]
generated = {c: c.__dict__["from_dict"] for c in classes}
def use(generic):
    for c in classes:
        setattr(c, "from_dict", base_fd if generic else generated[c])
clock = time.perf_counter
res = {"gen": [], "loop": []}
warm = {"gen": [], "loop": []}
for r in range(R):
    for side in (("gen", "loop") if r % 2 else ("loop", "gen")):
        use(side == "loop")
        d = json.loads(payload.decode())["response"]
        gc.collect()
        t0 = clock(); M.Response.from_dict(d, "response"); t = clock() - t0
        res[side].append(t)
        t0 = clock(); M.Response.from_dict(d, "response"); t = clock() - t0
        warm[side].append(t)
use(False)
for k in res:
    print(f"{shape} {k:5s} cold {statistics.median(res[k])*1e6:6.1f} us  warm {statistics.median(warm[k])*1e6:6.1f} us")
