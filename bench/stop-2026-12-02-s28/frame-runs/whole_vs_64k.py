"""One tree, one process: the final event of a shape fed whole vs in 64 KiB chunks (+ snapshot),
alternating, cold after gc.collect(), CPU time; medians and the median per-round ratio 64K/whole."""
import sys, json, gc, time, statistics
tree = sys.argv[1]; shape = sys.argv[2] if len(sys.argv) > 2 else "function_call"
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 41
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
clock = time.process_time
cases = {"whole": [block], "64K": [block[i:i + 65536] for i in range(0, len(block), 65536)]}
t = {k: [] for k in cases}; r = []
for n in range(rounds):
    took = {}
    for k in (("whole", "64K") if n % 2 == 0 else ("64K", "whole")):
        s = sr.ResponsesStream(json_loads=json.loads)
        for i in range(0, len(prefix), 4096):
            s.feed(prefix[i:i + 4096])
        gc.collect()
        t0 = clock()
        for c in cases[k]:
            s.feed(c)
        s.snapshot()
        took[k] = clock() - t0
        del s
    for k in cases: t[k].append(took[k])
    r.append(took["64K"] / took["whole"])
print(f"{shape} {tree}: whole {statistics.median(t['whole'])*1e3:.3f} ms, 64K {statistics.median(t['64K'])*1e3:.3f} ms, 64K/whole {statistics.median(r):.3f}")
