# Minor page faults during the final block's feed (whole) + snapshot, and during feed_raw alone.
import sys, json, gc, resource, statistics
tree = sys.argv[1]
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import _split_final, SHAPES
import sansio_responses as sr
s = gen.generate("function_call", dict(SHAPES)["function_call"])
prefix, block, payload = _split_final(s.data)
def flt(): return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
res = {}
for r in range(15):
    st = sr.ResponsesStream(json_loads=json.loads)
    for i in range(0, len(prefix), 4096):
        st.feed(prefix[i:i+4096])
    gc.collect()
    a = flt(); st._decoder.feed_raw(block); res.setdefault("feed_raw", []).append(flt() - a)
    st = sr.ResponsesStream(json_loads=json.loads)
    for i in range(0, len(prefix), 4096):
        st.feed(prefix[i:i+4096])
    gc.collect()
    a = flt(); st.feed(block); st.snapshot(); res.setdefault("feed+snapshot", []).append(flt() - a)
    gc.collect()
    a = flt(); json.loads(payload); res.setdefault("json.loads", []).append(flt() - a)
print({k: (statistics.median(v), v[:8]) for k, v in res.items()})
