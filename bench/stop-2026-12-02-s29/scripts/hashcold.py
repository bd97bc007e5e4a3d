import sys, json, gc, time, statistics, hashlib
sys.path.insert(0, "/work/wt-lead")
import openai, pydantic
from bench import generate as gen
from bench.shapes import _split_final
s = gen.generate("function_call", 20000)
prefix, block, payload = _split_final(s.data)
clock = time.perf_counter
at = payload.find(b'"arguments":"') + 13
end = at + 90937
def fresh():
    return bytes(bytearray(block))  # a new object each run (its hash not cached)
def tob(b):
    with memoryview(b) as v: return hash(v[at:end].tobytes())
def mv(b):
    with memoryview(b) as v: return hash(v[at:end])
def cmpk(b, kept):
    return b.startswith(kept, at)
kept = payload[at:end]
ops = {"tobytes+hash": tob, "memoryview hash": mv, "startswith kept": lambda b: cmpk(b, kept), "touch LF find": lambda b: b.find(b"\n", 30)}
res = {k: [] for k in ops}
for r in range(41):
    for k, f in ops.items():
        b = fresh(); b.find(b"\n", 30)  # the block touched once (as framing does) before gc
        gc.collect()
        b.find(b"\n", 30) if k != "touch LF find" else None
        t0 = clock(); f(b); res[k].append(clock() - t0)
for k, v in res.items(): print(f"{k:18s} {statistics.median(v)*1e6:6.1f} us")
