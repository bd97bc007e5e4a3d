import sys, json, gc, cProfile, pstats
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
shape = sys.argv[2] if len(sys.argv) > 2 else 'function_call'
from bench.shapes import SHAPES
s = gen.generate(shape, dict(SHAPES)[shape])
prefix, block, payload = _split_final(s.data)
pr = cProfile.Profile()
for r in range(300):
    st = sr.ResponsesStream(json_loads=json.loads)
    for i in range(0, len(prefix), 4096): st.feed(prefix[i:i+4096])
    pr.enable(); st.feed(block); st.snapshot(); pr.disable()
ps = pstats.Stats(pr); ps.sort_stats('tottime').print_stats(30)
