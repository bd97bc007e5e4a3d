"""Paired A/B in one process: the tree before (e92409d) and after (plus layout-a's diffs), loaded as
two packages, timed alternately on the same bodies; per-event µs, median and min of the pairs."""
import gc, json, statistics, sys, time
sys.path.insert(0, "/tmp/layout-a-pkgs")
sys.path.insert(1, "/work/wt-layout-a")
import sr_before, sr_after
from bench import generate as gen

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 15
N = 20000
for scen in ("chat_text", "chat_tools", "chat_azure", "text"):
    data = gen.generate(scen, N).data
    chunks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
    events = len(gen.payloads(data)) - 1
    for dec in ("stdlib", "orjson"):
        kw = {"json_loads": json.loads} if dec == "stdlib" else {}
        t = {"before": [], "after": []}
        for r in range(ROUNDS):
            for name, mod in (("before", sr_before), ("after", sr_after)) if r % 2 == 0 else (("after", sr_after), ("before", sr_before)):
                cls = mod.ResponsesStream if scen == "text" else mod.ChatCompletionsStream
                gc.collect()
                t0 = time.perf_counter()
                s = cls(**kw)
                for c in chunks:
                    s.feed(c)
                s.close()
                s.snapshot()
                t[name].append((time.perf_counter() - t0) / events * 1e6)
        ratios = [a / b for a, b in zip(t["after"], t["before"])]
        print(f"{scen:11s} {dec:7s} before min {min(t['before']):6.2f} med {statistics.median(t['before']):6.2f} | "
              f"after min {min(t['after']):6.2f} med {statistics.median(t['after']):6.2f} | "
              f"after/before: median of pairs {statistics.median(ratios):.3f}, ratio of mins {min(t['after'])/min(t['before']):.3f}", flush=True)
