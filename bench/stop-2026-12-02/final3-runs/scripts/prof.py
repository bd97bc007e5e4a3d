import sys, gc, json, time, cProfile, pstats, io
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import sansio_responses as sr
shape = sys.argv[1]
mode = sys.argv[2] if len(sys.argv) > 2 else "prof"
sizes = dict(SHAPES)
prefix, block, payload = _split_final(gen.generate(shape, sizes[shape]).data)
text = payload.decode()
def setup():
    s = sr.ResponsesStream(json_loads=json.loads)
    for i in range(0, len(prefix), 4096):
        s.feed(prefix[i:i+4096])
    return s
if mode == "prof":
    pr = cProfile.Profile()
    for _ in range(30):
        s = setup(); gc.collect()
        pr.enable(); s.feed(block); s.snapshot(); pr.disable()
    st = pstats.Stats(pr); st.sort_stats("ncalls").print_stats(60)
else:
    ts=[];ls=[]
    for _ in range(60):
        s = setup(); gc.collect()
        t0=time.process_time(); s.feed(block); s.snapshot(); ts.append(time.process_time()-t0)
        gc.collect(); t0=time.process_time(); json.loads(text); ls.append(time.process_time()-t0)
    import statistics as S
    print(shape, S.median(ts)*1e3, S.median(ls)*1e3, S.median(ts)/S.median(ls))
