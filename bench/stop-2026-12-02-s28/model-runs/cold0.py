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
clock = time.perf_counter
text = payload.decode()
def nothing(d): pass
def usage(d): M.ResponseUsage.from_dict(d["usage"])
def item(d): M.output_item_from_dict(d["output"][0])
def resp(d): M.Response.from_dict(d)
def new(d): object.__new__(M.ResponseUsage)
cases = dict(nothing=nothing, new=new, usage=usage, item=item, resp=resp)
res = {k: [] for k in cases}
for r in range(151):
    for k, f in cases.items():
        d = json.loads(text)["response"]
        gc.collect()
        t0 = clock(); f(d); res[k].append(clock() - t0)
for k in res: print(f"{k:8s} {statistics.median(res[k])*1e6:6.1f} us")
