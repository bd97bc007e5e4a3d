import sys, json
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
from bench.shapes import _split_final, SHAPES
import sansio_responses as sr
shape = sys.argv[2]
prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
st = sr.ResponsesStream(json_loads=json.loads)
for i in range(0, len(prefix), 4096): st.feed(prefix[i:i+4096])
calls = []; depth = [0]
def prof(frame, event, arg):
    if event == 'call':
        c = frame.f_code; calls.append(("  " * depth[0]) + f"{c.co_name} ({c.co_filename.rsplit('/',2)[-1]}:{c.co_firstlineno})"); depth[0] += 1
    elif event == 'return': depth[0] -= 1
    elif event == 'c_call':
        calls.append(("  " * depth[0]) + f"[C] {getattr(arg, '__qualname__', arg)}")
sys.setprofile(prof); st.feed(block); st.snapshot(); sys.setprofile(None)
print(len(calls)); print("\n".join(calls))
