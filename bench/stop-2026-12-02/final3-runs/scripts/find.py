import sys, json, timeit
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
from sansio_responses import _base
for shape in ("text","function_call","reasoning"):
    prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
    obj=json.loads(payload); acc=[]
    def walk(o):
        if isinstance(o,str):
            if len(o)>4096: acc.append(o)
        elif isinstance(o,dict): [walk(v) for v in o.values()]
        elif isinstance(o,list): [walk(v) for v in o]
    walk(obj)
    needles=[b'"'+_base._utf8_json(s[:64],True) for s in acc]
    def finds():
        for n in needles:
            at=payload.find(n)
            payload.find(n, at+len(n)+1000)
    f=lambda fn: min(timeit.repeat(fn, number=500, repeat=5))/500*1e6
    print(shape, len(needles), "finds %.1f us" % f(finds))
