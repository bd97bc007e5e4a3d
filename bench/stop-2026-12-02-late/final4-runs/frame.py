import sys, json, gc, time, statistics
sys.path.insert(0, '.')
from bench import generate as gen
from bench.shapes import _split_final
from sansio_responses._sse import SSEDecoder
s=gen.generate("function_call",20000)
prefix, block, payload = _split_final(s.data)
print(len(block), block[:40], block[-10:])
def t(f, cold):
    R=[]
    for i in range(31):
        d=SSEDecoder()
        if cold: gc.collect()
        t0=time.perf_counter(); f(d); R.append(time.perf_counter()-t0)
    return statistics.median(R)*1e6
junk=[{i:[i]} for i in range(100000)]
for cold in (False, True):
    print("cold" if cold else "warm", "feed_raw %.1f" % t(lambda d: d.feed_raw(block), cold),
      "CR in %.1f" % t(lambda d: 13 in block, cold), "find nn %.1f" % t(lambda d: block.find(b"\n\n"), cold),
      "copy %.1f" % t(lambda d: block[6:-2], cold))
import cProfile, pstats
pr=cProfile.Profile(); pr.enable()
for i in range(300): SSEDecoder().feed_raw(block)
pr.disable(); pstats.Stats(pr).sort_stats("tottime").print_stats(8)
