import sys, cProfile, pstats, time
sys.path.insert(0, '/work/wt-framing')
from bench import generate as gen
from sansio_responses import SSEDecoder
size = int(sys.argv[1]); n = int(sys.argv[2])
data = gen.generate('text', n).data
chunks = [data[i:i+size] for i in range(0, len(data), size)]
def run():
    d = SSEDecoder(); d._keep_bytes = True
    f = d.feed_raw
    k = 0
    for c in chunks:
        k += len(f(c))
    return k
run()
ts=[]
for _ in range(5):
    t=time.process_time(); run(); ts.append(time.process_time()-t)
ts.sort(); print("us/event", ts[2]/n*1e6)
if len(sys.argv) > 3:
    cProfile.run('run()', '/tmp/framing/p.out')
    pstats.Stats('/tmp/framing/p.out').sort_stats('tottime').print_stats(12)
