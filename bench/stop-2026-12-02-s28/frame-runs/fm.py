# Cold micro-timings of the framing steps of function_call's final block (one chunk).
import sys, json, gc, time, statistics
tree = sys.argv[1] if len(sys.argv) > 1 else '/work/wt-frame'
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import _split_final, SHAPES
import sansio_responses as sr
shape = sys.argv[2] if len(sys.argv) > 2 else "function_call"
s = gen.generate(shape, dict(SHAPES)[shape])
prefix, block, payload = _split_final(s.data)
print(len(block), len(payload))
clock = time.perf_counter
junk = [{"a": [i]} for i in range(100000)]  # many objects: gc.collect() evicts the caches
res = {}
def t(label, f):
    gc.collect()
    t0 = clock(); f(); d = clock() - t0
    res.setdefault(label, []).append(d)
pos = block.find(b"data: ") + 6
at = len(block) - 2
for r in range(41):
    st = sr.ResponsesStream(json_loads=json.loads)
    for i in range(0, len(prefix), 4096):
        st.feed(prefix[i:i+4096])
    dec = st._decoder
    t("empty call", lambda: len(block))
    t("CR in", lambda: 13 in block)
    t("rfind CR", lambda: block.rfind(13))
    t("find LF payload", lambda: block.find(b"\n", pos))
    t("find LF int", lambda: block.find(10, pos))
    t("copy", lambda: block[pos:at])
    t("bytes(bytearray)", lambda: bytes(ba))  if (ba := bytearray(block)) else None
    t("feed_raw", lambda: dec.feed_raw(block))
    t("json.loads", lambda: json.loads(payload))
j = statistics.median(res["json.loads"])
for k, v in res.items():
    m = statistics.median(v)
    print(f"{k:18s} {m*1e6:7.1f} us {m/j:5.3f}x")
