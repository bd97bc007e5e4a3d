"""A/B of the SSE framing of a shape's final block: two trees in one process, alternating.

python frame_ab.py A_TREE B_TREE [rounds] [shape]
Each round, per side: a ResponsesStream fed the prefix (4 KiB), gc.collect(), then the CPU time of
its decoder's feed_raw over the final block in chunks of: the whole block, 64 KiB, 4 KiB. Also a
small (1.5 KB) block alone. Medians per side and of the per-round B/A ratios.
"""
import sys, json, gc, time, statistics, tempfile
from pathlib import Path
sys.path.insert(0, "/work/wt-frame")
from bench import generate as gen
from bench.ab import _load
from bench.shapes import _split_final, SHAPES
A, B = Path(sys.argv[1]), Path(sys.argv[2])
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 41
shape = sys.argv[4] if len(sys.argv) > 4 else "function_call"
s = gen.generate(shape, dict(SHAPES)[shape])
prefix, block, payload = _split_final(s.data)
small = b'event: response.in_progress\ndata: {"type":"x","sequence_number":3,"a":"' + b"x" * 1500 + b'"}\n\n'
clock = time.process_time
junk = [{"a": [i]} for i in range(100000)]
body = prefix + block
def aligned(step):
    # The body cut every *step* bytes from its start: the chunks from the one holding the final
    # block's first byte on (the ones before are fed untimed).
    cuts = list(range(0, len(body), step))
    first = max(i for i in cuts if i <= len(prefix))
    return first, [body[i:i + step] for i in cuts if i >= first]
cases = {
    "whole": [block],
    "64K@body": aligned(65536),
    "4K@body": aligned(4096),
    "64K": [block[i:i + 65536] for i in range(0, len(block), 65536)],
    "4K": [block[i:i + 4096] for i in range(0, len(block), 4096)],
    "small": [small],
    "noop": [],
}
with tempfile.TemporaryDirectory() as tmp:
    sys.path.insert(0, tmp)
    trees = {"A": _load(A, "sr_a", Path(tmp)), "B": _load(B, "sr_b", Path(tmp))}
    times = {c: {"A": [], "B": []} for c in cases}
    ratios = {c: [] for c in cases}
    outs = {}
    for r in range(rounds):
        for case, chunks0 in cases.items():
            chunks = chunks0
            took = {}
            for side in ("AB" if r % 2 == 0 else "BA"):
                chunks = chunks0
                st = trees[side].ResponsesStream(json_loads=json.loads)
                pre = prefix
                if isinstance(chunks, tuple):
                    first, chunks = chunks
                    pre = body[:first]
                for i in range(0, len(pre), 4096):
                    st.feed(pre[i:i + 4096])
                dec = st._decoder
                feed = dec.feed_raw
                gc.collect()
                t0 = clock()
                out = []
                if not chunks:
                    dec.raise_pending()
                for c in chunks:
                    out = feed(c)
                took[side] = clock() - t0
                if r == 0:
                    outs[side] = out
            if r == 0:
                assert [(e, bytes(p) if not isinstance(p, str) else p, o) for e, p, o in outs["A"]] == \
                       [(e, bytes(p) if not isinstance(p, str) else p, o) for e, p, o in outs["B"]], case
            for side in "AB":
                times[case][side].append(took[side])
            ratios[case].append(took["B"] / took["A"])
    print(f"A: {A}, B: {B}; {rounds} rounds, {shape}, CPU time, medians")
    for case in cases:
        a = statistics.median(times[case]["A"]); b = statistics.median(times[case]["B"])
        print(f"{case:6s} A {a*1e6:7.1f} us  B {b*1e6:7.1f} us  B/A {statistics.median(ratios[case]):.3f}")
