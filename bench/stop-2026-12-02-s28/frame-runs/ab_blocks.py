"""A/B of whole streams fed one block per chunk (a server writing whole events, one per read):
python ab_blocks.py A_TREE B_TREE SCENARIO [rounds] [--chat]. CPU time per wire event, stdlib json,
events + snapshot, alternating, median of per-round B/A."""
import sys, json, gc, time, statistics, tempfile
from pathlib import Path
sys.path.insert(0, "/work/wt-frame")
from bench import generate as gen
from bench.ab import _load
A, B, scen = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4].isdigit() else 11
chat = "--chat" in sys.argv
s = gen.generate(scen, 20000)
blocks = [b + b"\n\n" for b in s.data.split(b"\n\n") if b]
clock = time.process_time
with tempfile.TemporaryDirectory() as tmp:
    sys.path.insert(0, tmp)
    trees = {"A": _load(A, "sr_a", Path(tmp)), "B": _load(B, "sr_b", Path(tmp))}
    t = {"A": [], "B": []}; ratios = []
    for r in range(rounds):
        took = {}
        for side in ("AB" if r % 2 == 0 else "BA"):
            mod = trees[side]
            st = (mod.ChatCompletionsStream if chat else mod.ResponsesStream)(json_loads=json.loads)
            gc.collect()
            t0 = clock()
            for b in blocks:
                st.feed(b)
            st.close(); st.snapshot()
            took[side] = (clock() - t0) / len(blocks) * 1e6
        for k in "AB": t[k].append(took[k])
        ratios.append(took["B"] / took["A"])
    print(f"{scen} one block per chunk ({len(blocks)} blocks), stdlib, {rounds} rounds: A {statistics.median(t['A']):.3f} us/event, B {statistics.median(t['B']):.3f}, B/A {statistics.median(ratios):.3f}")
