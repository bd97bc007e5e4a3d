"""CPU time per byte of SSEDecoder.feed_raw for 1-byte chunks given as bytes, bytearray and
memoryview, for blocks with a data line of L bytes (L up to past the 8 KiB hold limit)."""
import time
from sansio_responses._sse import SSEDecoder
for L in (100, 1000, 4000, 8000, 16000):
    block = b"event: response.output_text.delta\ndata: " + b"x" * L + b"\n\n"
    body = block * max(1, 200_000 // len(block))
    row = [L, len(body)]
    for kind in (bytes, bytearray, memoryview):
        chunks = [kind(body[i:i + 1]) for i in range(len(body))]
        d = SSEDecoder(max_event_size=None)
        t = time.process_time()
        n = 0
        for c in chunks:
            n += len(d.feed_raw(c))
        dt = time.process_time() - t
        row.append(f"{kind.__name__}={dt / len(body) * 1e9:.0f}ns/B")
    print(*row, flush=True)
