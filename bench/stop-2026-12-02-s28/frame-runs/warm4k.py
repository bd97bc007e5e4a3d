# Warm cost of feeding the final block in chunks (decoder only), per chunking; and cold (after gc).
import sys, json, gc, time, statistics
tree = sys.argv[1]
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import _split_final, SHAPES
import sansio_responses as sr
s = gen.generate("function_call", dict(SHAPES)["function_call"])
prefix, block, payload = _split_final(s.data)
clock = time.process_time
for step in (len(block), 65536, 4096, 1024):
    chunks = [block[i:i+step] for i in range(0, len(block), step)]
    ts = []
    for r in range(200):
        d = sr.SSEDecoder(); d._bytes_over = 4096; d.feed_raw(b"data: 1\n\n")
        t0 = clock()
        for c in chunks: d.feed_raw(c)
        ts.append(clock() - t0)
    print(step, len(chunks), f"warm {statistics.median(ts)*1e6:.1f} us")
