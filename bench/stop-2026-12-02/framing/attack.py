import sys, time
tree = sys.argv[1]
sys.path.insert(0, tree)
from sansio_responses import SSEDecoder
def cases(k):
    ev = b"event: response.output_text.delta\ndata: " + b'{"x":"' + b"y" * 200 + b'"}\n\n'
    yield "bytewise text", [bytes([b]) for b in ev * (k // 10)]
    yield "3-byte text", [ (ev*(k//10))[i:i+3] for i in range(0, len(ev)*(k//10), 3)]
    body = b"event: a\ndata: b\n" * (k)  # never a blank line... limit
    yield "bytewise ev/data lines, no blank", [bytes([c]) for c in body]
    yield "lone CR", [b"data: x\r\r"] * k
    yield "empty events", [b"\n\n\n\n" * 10] * (k // 10)
    yield "huge line 1B", [b"data: "] + [b"x"] * (k * 20)
    yield "2 KiB held + 1B", [b"data: 0\n\nevent: " + b"t" * 2000] + [b"y"] * (k * 5)
    yield "held rehold lines", [b"data: 0\n\nevent: a", b"\ndata: b", b"\n"] * 1 + [b"\n"] + ([b"event: a\n", b"data: b\n", b"\n"] * k)
for name, _ in cases(10):
    ts = []
    for k in (2000, 8000):
        chunks = dict(cases(k))[name]
        nbytes = sum(map(len, chunks))
        d = SSEDecoder()
        t = time.process_time()
        for c in chunks:
            try:
                d.feed_raw(c)
            except Exception as e:
                print(name, "error", type(e).__name__); break
        ts.append((time.process_time() - t) / nbytes * 1e9)
    print(f"{name:34} ns/byte {ts[0]:.1f} -> {ts[1]:.1f} (x4 input)")
