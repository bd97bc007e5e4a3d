# Cold: feed_raw of the final block vs a small block, and the scans in sequence.
import sys, json, gc, time, statistics
tree = sys.argv[1] if len(sys.argv) > 1 else '/work/wt-frame'
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import _split_final, SHAPES
import sansio_responses as sr
shape = "function_call"
s = gen.generate(shape, dict(SHAPES)[shape])
prefix, block, payload = _split_final(s.data)
small = b'event: response.in_progress\ndata: {"type":"x","sequence_number":3,"a":"' + b"x"*1500 + b'"}\n\n'
clock = time.perf_counter
junk = [{"a": [i]} for i in range(100000)]
res = {}
def t(label, f):
    gc.collect()
    t0 = clock(); f(); d = clock() - t0
    res.setdefault(label, []).append(d)
pos = block.find(b"data: ") + 6
def seq4():
    13 in block; block.rfind(13); at = block.find(b"\n", pos); block[pos:at]
def seq3():
    block.rfind(13); at = block.find(b"\n", pos); block[pos:at]
def seq2():
    at = block.find(b"\n", pos); block[pos:at]
for r in range(41):
    st = sr.ResponsesStream(json_loads=json.loads)
    for i in range(0, len(prefix), 4096):
        st.feed(prefix[i:i+4096])
    dec = st._decoder
    t("empty call", lambda: len(block))
    t("seq4", seq4)
    t("seq3", seq3)
    t("seq2", seq2)
    t("feed_raw small", lambda: dec.feed_raw(small))
    t("feed_raw", lambda: dec.feed_raw(block))
    t("json.loads", lambda: json.loads(payload))
j = statistics.median(res["json.loads"])
for k, v in res.items():
    m = statistics.median(v)
    print(f"{k:18s} {m*1e6:7.1f} us {m/j:5.3f}x")
