import sys, json, gc, time, cProfile, pstats
sys.path.insert(0, '.')
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
from sansio_responses._responses import events as ev
shape=sys.argv[1]
s=gen.generate(shape,20000)
prefix, block, payload = _split_final(s.data)
obj=json.loads(payload)
from sansio_responses._responses.stream import ResponsesStream
st=ResponsesStream(json_loads=json.loads)
b=st._builders.get(obj["type"])
print(b)
pr=cProfile.Profile(); pr.enable()
for i in range(2000): b(obj)
pr.disable()
pstats.Stats(pr).sort_stats("tottime").print_stats(15)
