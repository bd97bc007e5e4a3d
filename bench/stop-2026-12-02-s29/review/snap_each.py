# Cost of snapshot() (and .snapshot of the event) after every event, at n, 2n, 4n deltas.
import sys, time, json
sys.path.insert(0, "/work/wt-review")
import sansio_responses as sr
from bench.generate import generate
scen = sys.argv[1] if len(sys.argv) > 1 else "text"
base = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
for n in (base, 2 * base, 4 * base):
    body = generate(scen, n, seed=1).data
    cls = sr.ChatCompletionsStream if scen.startswith("chat") else sr.ResponsesStream
    s = cls()
    t = time.perf_counter()
    k = 0
    for i in range(0, len(body), 400):
        for e in s.feed(body[i:i+400]):
            snap = s.snapshot(); k += 1
            if scen.startswith("chat"):
                snap.to_dict() if "todict" in sys.argv else None
            else:
                snap.output_text if "text" in sys.argv else None
    s.close()
    dt = time.perf_counter() - t
    print(scen, n, len(body), k, f"{dt:.3f}s", f"{dt/len(body)*1e6:.3f} us/B")
