import sys
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
for shape in ("text","function_call","reasoning","text_logprobs","image"):
    prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
    print(shape, len(payload), "quotes", payload.count(b'"'), "escaped", payload.count(b'\\"'))
