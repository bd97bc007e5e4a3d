# Cold cost of feed_raw(small block) against a minimal one-block framing function.
import sys, json, gc, time, statistics
sys.path.insert(0, '/work/wt-frame')
from bench import generate as gen
from bench.shapes import _split_final, SHAPES
import sansio_responses as sr
s = gen.generate("function_call", dict(SHAPES)["function_call"])
prefix, block, payload = _split_final(s.data)
small = b'event: response.in_progress\ndata: {"type":"x","sequence_number":3,"a":"' + b"x"*1500 + b'"}\n\n'
clock = time.process_time
junk = [{"a": [i]} for i in range(100000)]
heads = {b"event: response.in_progress": "response.in_progress", b"event: response.completed": "response.completed"}
class M:
    __slots__ = ("offset", "_held", "_slow", "_line", "last_event_id", "_id_buf", "_line_start", "_heads", "_bytes_over")
    def __init__(self):
        self.offset = 0; self._held = None; self._slow = False; self._line = bytearray(); self.last_event_id = ""
        self._id_buf = ""; self._line_start = 0; self._heads = heads; self._bytes_over = 4096
    def feed_raw(self, data):
        if not self._slow and type(data) is bytes and 10 in data:
            n = len(data)
            lf = data.find(b"\n")
            if data.startswith(b"data: ", lf + 1) and data.endswith(b"\n\n") and self._held is None and not self._line:
                at = data.find(b"\n", lf + 7)
                if at == n - 2 and 13 not in data:
                    event = self._heads.get(data[:lf])
                    if event is not None:
                        base = self.offset
                        self.offset = base + n
                        self._line_start = base + n
                        self.last_event_id = self._id_buf
                        payload = data[lf + 7:at]
                        return [(event, payload if len(payload) > self._bytes_over else payload.decode("utf-8", "replace"), base)]
        raise AssertionError
res = {}
def t(label, f):
    gc.collect()
    t0 = clock(); f(); d = clock() - t0
    res.setdefault(label, []).append(d)
for r in range(41):
    st = sr.ResponsesStream(json_loads=json.loads)
    for i in range(0, len(prefix), 4096):
        st.feed(prefix[i:i+4096])
    dec = st._decoder
    m = M()
    if r % 2:
        t("noop", lambda: dec.raise_pending())
        t("feed_raw small", lambda: dec.feed_raw(small))
        t("minimal small", lambda: m.feed_raw(small))
        t("minimal big", lambda: m.feed_raw(block))
    else:
        t("minimal big", lambda: m.feed_raw(block))
        t("minimal small", lambda: m.feed_raw(small))
        t("feed_raw small", lambda: dec.feed_raw(small))
        t("noop", lambda: dec.raise_pending())
    t("feed_raw big", lambda: dec.feed_raw(block))
for k, v in res.items():
    m = statistics.median(v)
    print(f"{k:18s} {m*1e6:7.1f} us")
