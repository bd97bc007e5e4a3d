"""Cold time of a final event fed up to a stage (an exception raised at that function's entry)."""
import sys, json, gc, time, statistics
tree = sys.argv[1]; shape = sys.argv[2]; R = int(sys.argv[3])
sys.path.insert(0, tree)
if "--env" in sys.argv:
    import openai, pydantic
from bench import generate as gen
from bench.shapes import _split_final, SHAPES
import sansio_responses as sr
from sansio_responses import _base, _sse
from sansio_responses._responses import stream as rstream, inline as rinline, events as revents, fromdict, items
prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
text = payload.decode()
clock = time.perf_counter
class Stop(BaseException): pass
def stop_at(owner, name):
    orig = getattr(owner, name)
    def raiser(*a, **k):
        raise Stop
    setattr(owner, name, raiser)
    return lambda: setattr(owner, name, orig)
owners = {"base": _base, "sse": _sse, "stream": rstream.ResponsesStream, "inline": rinline.InlineFeed, "events": revents,
          "baseS": _base.EventStreamBase, "decoder": _sse.SSEDecoder, "items": items.OutputItems}
stages = ["none"] + sys.argv[4].split(",")
times = {s: [] for s in stages}; loads = []
for r in range(R):
    for stg in (stages if r % 2 == 0 else stages[::-1]):
        st = sr.ResponsesStream(json_loads=json.loads)
        for i in range(0, len(prefix), 4096): st.feed(prefix[i:i+4096])
        undo = None
        if stg != "none":
            o, _, n = stg.partition(".")
            undo = stop_at(owners[o], n)
        gc.collect()
        t0 = clock()
        try:
            st.feed(block); st.snapshot()
        except Stop:
            pass
        times[stg].append(clock() - t0)
        if undo: undo()
        del st
    gc.collect(); t0 = clock(); json.loads(text); loads.append(clock() - t0)
j = statistics.median(loads)
print(f"{shape}: json.loads {j*1e6:.0f} us; gc objects {len(gc.get_objects())}")
for s in stages:
    m = statistics.median(times[s]); print(f"  until {s:28s} {m*1e6:6.0f} us {m/j:5.2f}x")
