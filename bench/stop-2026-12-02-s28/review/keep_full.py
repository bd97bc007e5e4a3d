"""0c3a58d's one intended behaviour change: SSEDecoder.feed() with _keep_bytes set (private; the
stream sets it and only calls feed_raw) returned, on the block fast path, a raw (type, bytes,
offset) tuple instead of a ServerSentEvent (0798a60); now a ServerSentEvent as on the line path."""
import sys
sys.path.insert(0, "/work/notes/review3")
from dual import N, B, sub
for M in (B, N):
    d = sub(M, "_sse").SSEDecoder()
    d._keep_bytes = True
    print(M.__name__, d.feed(b"event: x\ndata: {}\n\n"), d.feed(b"event: x\r\ndata: {}\r\n\r\n"))
