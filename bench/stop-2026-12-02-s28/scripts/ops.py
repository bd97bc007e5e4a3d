import sys, json, collections
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
from bench.shapes import _split_final, SHAPES
import sansio_responses as sr
shape = sys.argv[2]
prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
st = sr.ResponsesStream(json_loads=json.loads)
for i in range(0, len(prefix), 4096): st.feed(prefix[i:i+4096])
cnt = collections.Counter()
def tr(frame, event, arg):
    frame.f_trace_opcodes = True
    if event == 'opcode':
        c = frame.f_code; cnt[f"{c.co_filename.rsplit('/',2)[-1]}:{c.co_name}"] += 1
    return tr
sys.settrace(tr); st.feed(block); st.snapshot(); sys.settrace(None)
tot = sum(cnt.values()); print("total opcodes", tot)
for k, v in cnt.most_common(40): print(f"{v:6d} {k}")
