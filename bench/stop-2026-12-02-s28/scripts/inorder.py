import sys, json, gc, time, statistics
tree = sys.argv[1]
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import _split_final
import sansio_responses as sr
from sansio_responses import _base
s = gen.generate('function_call', 20000)
prefix, block, payload = _split_final(s.data)
cap = {}
orig = _base._load_in_order
def w(*a):
    cap['a'] = a
    return orig(*a)
_base._load_in_order = w
st = sr.ResponsesStream(json_loads=json.loads)
st.feed(s.data)
_base._load_in_order = orig
data, cuts, md = cap['a']
print(type(data), len(data), [(c[0], c[1], type(c[2]).__name__, c[3]) for c in cuts], md)
T = time.perf_counter
for name, f in [('in_order', lambda: orig(data, cuts, md)), ('loads', lambda: json.loads(payload))]:
    ts = []
    for i in range(200):
        t0 = T(); f(); ts.append(T() - t0)
    print(name, f"{statistics.median(ts)*1e6:.1f} us")
