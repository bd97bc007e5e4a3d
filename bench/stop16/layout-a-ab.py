"""A/B: ChatCompletionsStream / ResponsesStream time per event, min of N runs, in this checkout."""
import gc, json, sys, time
sys.path.insert(0, ".")
import sansio_responses as sr
from bench import generate as gen
N = 20000
out = {}
for scen in ("chat_text", "chat_tools", "chat_azure", "text"):
    g = gen.generate(scen, N)
    data = g.data
    chunks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
    events = len(gen.payloads(data)) - 1
    cls = sr.ResponsesStream if scen == "text" else sr.ChatCompletionsStream
    best = {}
    for name, kw in (("stdlib", {"json_loads": json.loads}), ("orjson", {})):
        times = []
        for _ in range(7):
            gc.collect()
            t = time.perf_counter()
            s = cls(**kw)
            for c in chunks:
                s.feed(c)
            s.close()
            s.snapshot()
            times.append(time.perf_counter() - t)
        best[name] = min(times) / events * 1e6
    out[scen] = best
print(json.dumps({"file": sr.__file__, **out}))
