import gc, sys, tracemalloc, pickle
from bench import generate as gen
import bench.chat_memory as cm
stream = gen.generate("chat_logprobs", 5000)
chunks = [stream.data[i : i + 4096] for i in range(0, len(stream.data), 4096)]
for events in (True, False):
    opts = {"json_loads": None} if events else {"json_loads": None, "events": False}
    cm._feed(chunks, **opts).snapshot()
    gc.collect()
    tracemalloc.start(5)
    s = cm._feed(chunks, **opts)
    held = tracemalloc.get_traced_memory()[0]
    snap = tracemalloc.take_snapshot()
    tracemalloc.stop()
    print(events, held)
    with open(sys.argv[1] + str(events), "wb") as f:
        pickle.dump(snap, f)
