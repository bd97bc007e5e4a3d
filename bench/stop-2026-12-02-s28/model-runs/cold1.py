import sys, json, gc, time, statistics
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
from sansio_responses._responses import models as M, events as E
shape = sys.argv[2] if len(sys.argv) > 2 else "function_call"
s = gen.generate(shape, 20000)
prefix, block, payload = _split_final(s.data)
st = sr.ResponsesStream(json_loads=json.loads)
for i in range(0, len(prefix), 4096): st.feed(prefix[i:i+4096])
clock = time.perf_counter
text = payload.decode()
def nothing(d): pass
def event(d): sr.parse_event(d)
def resp(d): M.Response.from_dict(d["response"], "response")
def bare(d):
    r = d["response"]; r.pop("output"); r.pop("usage"); M.Response.from_dict(r, "response")
def bare_id(d): M.Response.from_dict({"id": "x"}, "response")
def item(d): M.output_item_from_dict(d["response"]["output"][0], "response.output[0]")
def usage(d): M.ResponseUsage.from_dict(d["response"]["usage"], "response.usage")
def details(d): M.InputTokensDetails.from_dict(d["response"]["usage"]["input_tokens_details"], "x")
def twoobj(d): object.__new__(M.InputTokensDetails); object.__new__(M.OutputTokensDetails)
cases = dict(nothing=nothing, twoobj=twoobj, event=event, resp=resp, bare=bare, bare_id=bare_id, item=item, usage=usage, details=details)
res = {k: [] for k in cases}
for r in range(151):
    for k, f in cases.items():
        d = json.loads(text)
        gc.collect()
        t0 = clock(); f(d); res[k].append(clock() - t0)
for k in res: print(f"{k:8s} {statistics.median(res[k])*1e6:6.1f} us")
