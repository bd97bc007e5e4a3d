"""tracemalloc peak of a whole stream run, NEW vs OLD alternated in one process (median of R).
Usage: mem_peak.py [R]  Shapes from bench/generate.py; 64 KiB and 4 KiB chunks; json.loads and
orjson; events on/off. Peak is measured from after the body is built to after close() with the
events kept (so their memory counts)."""
import gc, json, statistics, sys, tracemalloc
sys.path.insert(0, "/work/notes/review3")
from dual import N, B
sys.path.insert(0, "/work/wt-before/bench")
import generate as G

R = int(sys.argv[1]) if len(sys.argv) > 1 else 3
SHAPES = [("text", 20000), ("function_call", 20000), ("reasoning", 20000), ("image", 200000),
          ("text_logprobs", 3000), ("chat_text", 20000), ("chat_tools", 20000)]


def one(M, api, body, k, dec, events):
    cls = M.ResponsesStream if api == "responses" else M.ChatCompletionsStream
    gc.collect()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    s = cls(events=events, json_loads=json.loads) if dec == "stdlib" else cls(events=events)
    evs = []
    for i in range(0, len(body), k):
        evs += s.feed(body[i:i + k])
    evs += s.close()
    snap = s.snapshot()
    cur, peak = tracemalloc.get_traced_memory()
    del s, evs, snap
    return peak - base, cur - base


tracemalloc.start()
print(f"{'shape':22} {'chunk':>6} {'dec':6} {'ev':5} {'old peak':>10} {'new peak':>10} {'new/old':>8} {'old kept':>10} {'new kept':>10}")
for name, n in SHAPES:
    api = G.SCENARIOS[name][0]
    body = G.generate(name, n, seed=0).data
    for k in (65536, 4096):
        for dec in ("stdlib", "orjson"):
            for events in (True, False):
                po, pn, ko, kn = [], [], [], []
                for _ in range(R):
                    p, c = one(B, api, body, k, dec, events); po.append(p); ko.append(c)
                    p, c = one(N, api, body, k, dec, events); pn.append(p); kn.append(c)
                mo, mn = statistics.median(po), statistics.median(pn)
                print(f"{name + ':' + str(n):22} {k:6} {dec:6} {str(events):5} {mo:10.0f} {mn:10.0f} {mn / mo:8.3f} {statistics.median(ko):10.0f} {statistics.median(kn):10.0f}", flush=True)
