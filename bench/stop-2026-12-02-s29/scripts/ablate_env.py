"""Final-event cost (final_ab protocol) with variants applied by monkeypatching, alternated."""
import sys, json, gc, time, statistics, resource
flt = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_minflt
faults = {}
tree = sys.argv[1]; shape = sys.argv[2]; R = int(sys.argv[3])
sys.path.insert(0, tree)
from bench import generate as gen
from bench.shapes import _split_final, SHAPES
if "--env" in sys.argv:
    import openai, pydantic
sys.argv = [a for a in sys.argv if a != "--env"]
import sansio_responses as sr
from sansio_responses import _base, _sse
from sansio_responses._responses import stream as rstream, models as rmodels, events as revents
prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
text = payload.decode()
clock = time.process_time

patches = {}
GC = (lambda: None) if "--warm" in sys.argv else gc.collect
sys.argv = [a for a in sys.argv if a != "--warm"]
def variant(name):
    def deco(f):
        patches[name] = f; return f
    return deco

@variant("base")
def _(): return []

@variant("base2")
def _(): return []

@variant("proved-free")
def _():
    orig = _base._proved
    _base._proved = lambda data, at, proof: at + proof[0] if at + proof[0] <= len(data) else -1
    return [lambda: setattr(_base, "_proved", orig)]

@variant("payload-kept")
def _():
    orig = _sse.SSEDecoder._one_block
    cache = {}
    def ob(self, data, n):
        got = orig(self, data, n) if "v" not in cache else None
        if got is not None and got[0][1].__class__ is bytes:
            cache["v"] = got
        if "v" in cache:
            shape = self._shape_at(data, 0) if not data.startswith(self._shape[0]) else self._shape
            self._shape = shape; self._line_start = self.offset; self.last_event_id = self._id_buf
            return [(cache["v"][0][0], cache["v"][0][1], self.offset - n)]
        return got
    _sse.SSEDecoder._one_block = ob
    return [lambda: setattr(_sse.SSEDecoder, "_one_block", orig)]

@variant("in_order-json")
def _():
    # decode the rest only (as if the envelope were free): json.loads of the data minus args
    orig = _base._scan_in_order
    _base._scan_in_order = lambda text, i: (orig(text, i))
    return [lambda: setattr(_base, "_scan_in_order", orig)]

names = sys.argv[4].split(",") if len(sys.argv) > 4 else list(patches)
times = {n: [] for n in names}; loads = []
for r in range(R):
    order = names if r % 2 == 0 else names[::-1]
    for n in order:
        undo = patches[n]()
        st = sr.ResponsesStream(json_loads=json.loads)
        for i in range(0, len(prefix), 4096): st.feed(prefix[i:i+4096])
        GC()
        f0 = flt(); t0 = clock(); st.feed(block); st.snapshot(); times[n].append(clock() - t0); faults.setdefault(n, []).append(flt() - f0)
        for u in undo: u()
        del st
    GC(); f0 = flt(); t0 = clock(); json.loads(text); loads.append(clock() - t0); faults.setdefault('loads', []).append(flt() - f0)
j = statistics.median(loads)
print(f"{shape}: json.loads {j*1e6:.0f} us faults {statistics.median(faults['loads'])}")
for n in names:
    m = statistics.median(times[n]); print(f"  {n:16s} {m*1e6:6.0f} us {m/j:5.2f}x faults {statistics.median(faults[n])}")
