"""Exhaustive small limits: blocks 'event: T\\ndata: P\\n\\n' / 'data: P\\n\\n' (and two of them)
with |T| in 0..3, |P| in 0..30, max_event_size 0..40, fed whole, byte by byte and split at every
position; feed_raw and feed. Prints a digest of all results and the count."""
import hashlib, sys
from sansio_responses._sse import SSEDecoder
h = hashlib.sha256(); n = 0
def run(parts, limit, raw):
    d = SSEDecoder(max_event_size=limit, report_comments=raw)
    out = []
    try:
        for p in parts:
            out.append(d.feed_raw(p) if raw else [(e.event, e.data, e.id) for e in d.feed(p)])
        d.close(); out.append(("closed", d.discarded and d.discarded.data))
    except Exception as e:
        out.append((type(e).__name__, str(e), getattr(e, "offset", None)))
    return out
for tl in (None, 0, 1, 3):
    for pl in range(0, 31, 3):
        blk = (b"" if tl is None else b"event: " + b"t" * tl + b"\n") + b"data: " + b"p" * pl + b"\n\n"
        for body in (blk, blk + blk, blk + b"data: x"):
            for limit in range(0, 41, 2):
                chunkings = [[body], [body[i:i + 1] for i in range(len(body))]]
                chunkings += [[body[:i], body[i:]] for i in range(1, len(body))]
                for parts in chunkings:
                    for raw in (True, False):
                        r = run(parts, limit, raw); n += 1
                        h.update(repr((body, limit, raw, len(parts), r)).encode())
print("runs", n, "digest", h.hexdigest()[:16])
