# A gzip body of two members (RFC 1952 section 2.2: a gzip file is a series of members; each SSE
# event compressed as its own member is legal): what each adapter decodes.
import sys, gzip
sys.path.insert(0, "/work/wt-review/tests"); sys.path.insert(0, "/work/wt-review")
import test_adapters_faults as T
from _rawserver import RawServer, Reply, chunk, head
raw = RawServer(); raw.start()
try:
    half = len(T.BLOCKS) // 2
    packed = gzip.compress(b"".join(T.BLOCKS[:half])) + gzip.compress(b"".join(T.BLOCKS[half:]))
    for adapter in T.ADAPTERS:
        raw.enqueue(Reply([head(200, ("content-encoding", "gzip")), chunk(packed), chunk(b"")]))
        r = T.drive(adapter, T.raw_request(raw), max_retries=0)
        print(f"{adapter:22s} events {len(r.events)}/{len(T.EVENTS)} error={type(r.error).__name__ if r.error else None}: {str(r.error)[:90] if r.error else ''}")
finally:
    raw.stop()
