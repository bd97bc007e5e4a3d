import sys, json
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
for shape in ("function_call", "text", "reasoning"):
    s = gen.generate(shape, 20000)
    prefix, block, payload = _split_final(s.data)
    st = sr.ResponsesStream(json_loads=json.loads)
    evs = []
    for i in range(0, len(prefix), 4096): evs += st.feed(prefix[i:i+4096])
    done = [e for e in evs if e.type == "response.output_item.done"]
    fin = st.feed(block)[-1]
    outs = fin.response._raw["output"]
    print(shape, [any(o is d.item._raw for d in done) for o in outs], [o == d.item._raw for o, d in zip(outs, done)])
