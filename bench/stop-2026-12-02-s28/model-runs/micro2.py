"""Cold build of the terminal event's typed objects, two trees in one process (A, B), alternating.
Times parse_event(obj) of the terminal event (the typed ResponseCompletedEvent with its Response),
after feeding each tree's stream the prefix and gc.collect(). CPU-time noise is large; perf_counter.
Usage: python micro2.py TREE_A TREE_B SHAPE [ROUNDS]"""
import sys, json, gc, time, statistics, tempfile
from pathlib import Path
sys.path.insert(0, "/work/wt-model")
from bench import generate as gen
from bench.ab import _load
from bench.shapes import _split_final
shape = sys.argv[3]; R = int(sys.argv[4]) if len(sys.argv) > 4 else 201
tmp = tempfile.mkdtemp(); sys.path.insert(0, tmp)
trees = {"A": _load(Path(sys.argv[1]), "sr_a", Path(tmp)), "B": _load(Path(sys.argv[2]), "sr_b", Path(tmp))}
s = gen.generate(shape, 20000)
prefix, block, payload = _split_final(s.data)
text = payload.decode()
streams = {}
for k, sr in trees.items():
    st = sr.ResponsesStream(json_loads=json.loads)
    for i in range(0, len(prefix), 4096): st.feed(prefix[i:i+4096])
    streams[k] = st
clock = time.perf_counter
cold = {"A": [], "B": []}; warm = {"A": [], "B": []}; ratios = []
for r in range(R):
    took = {}
    for side in ("AB" if r % 2 else "BA"):
        pe = trees[side].parse_event
        d = json.loads(text); d2 = json.loads(text)
        gc.collect()
        t0 = clock(); pe(d); t = clock() - t0
        cold[side].append(t); took[side] = t
        t0 = clock(); pe(d2); warm[side].append(clock() - t0)
    ratios.append(took["B"] / took["A"])
m = statistics.median
print(f"{shape}: A cold {m(cold['A'])*1e6:.1f} warm {m(warm['A'])*1e6:.1f} | B cold {m(cold['B'])*1e6:.1f} warm {m(warm['B'])*1e6:.1f} | B/A cold {m(ratios):.3f}")
