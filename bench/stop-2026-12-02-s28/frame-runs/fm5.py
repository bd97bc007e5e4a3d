# Cold: the layers of the framing of one whole block (feed_raw -> _chunk -> _blocks -> _shape_at).
import sys, json, gc, time, statistics
tree = sys.argv[1]
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import _split_final, SHAPES
import sansio_responses as sr
s = gen.generate("function_call", dict(SHAPES)["function_call"])
prefix, block, payload = _split_final(s.data)
which = sys.argv[2] if len(sys.argv) > 2 else "small"
small = b'event: response.in_progress\ndata: {"type":"x","sequence_number":3,"a":"' + b"x"*1500 + b'"}\n\n'
blk = small if which == "small" else block
clock = time.process_time
junk = [{"a": [i]} for i in range(100000)]
res = {}
def t(label, f):
    gc.collect()
    t0 = clock(); f(); d = clock() - t0
    res.setdefault(label, []).append(d)
n = len(blk)
for r in range(41):
    decs = []
    for k in range(6):
        st = sr.ResponsesStream(json_loads=json.loads)
        for i in range(0, len(prefix), 4096):
            st.feed(prefix[i:i+4096])
        decs.append(st._decoder)
    d0, d1, d2, d3, d4, d5 = decs
    def chunk():
        d1.offset += n; return d1._chunk(blk, n, False)
    def blocks():
        d2.offset += n; return d2._blocks(blk, d2.offset - n, n - 2, False)
    t("noop", lambda: d0.raise_pending())
    t("shape_at", lambda: d3._shape_at(blk, 0))
    t("blocks", blocks)
    t("chunk", chunk)
    t("feed_raw", lambda: d4.feed_raw(blk))
    t("feed", lambda: d5.feed(blk))
for k, v in res.items():
    print(f"{k:10s} {statistics.median(v)*1e6:7.1f} us")
