"""Reading the partial parsed value after every delta: Responses function_call (.parsed of each
arguments delta event) and Chat chat_tools (tool_arguments_parsed(0, 0) of each chunk), two trees
in one process alternated (bench/ab.py's loader), CPU time, medians."""
import sys, json, time, statistics, tempfile
from pathlib import Path
sys.path.insert(0, "/work/wt-after")
from bench.ab import _load
from bench import generate as gen
A, B, rounds = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
with tempfile.TemporaryDirectory() as tmp:
    sys.path.insert(0, tmp)
    trees = {"A": _load(A, "sr_a", Path(tmp)), "B": _load(B, "sr_b", Path(tmp))}
    fc = gen.generate("function_call", 5000).data
    ct = gen.generate("chat_tools", 5000).data
    def resp(sr):
        s = sr.ResponsesStream(json_loads=json.loads); n = 0
        for i in range(0, len(fc), 4096):
            for e in s.feed(fc[i:i+4096]):
                if e.type == "response.function_call_arguments.delta":
                    e.parsed; n += 1
        return n
    def chat(sr):
        s = sr.ChatCompletionsStream(json_loads=json.loads); n = 0
        for i in range(0, len(ct), 4096):
            for c in s.feed(ct[i:i+4096]):
                if isinstance(c, sr.ChatCompletionChunk) and c.choices and c.choices[0].delta.tool_calls:
                    c.tool_arguments_parsed(0, 0); n += 1
        return n
    for name, f in (("responses .parsed per delta", resp), ("chat tool_arguments_parsed per chunk", chat)):
        t = {"A": [], "B": []}; ratios = []; count = 0
        for r in range(rounds):
            took = {}
            for side in ("AB" if r % 2 == 0 else "BA"):
                t0 = time.process_time(); count = f(trees[side]); took[side] = time.process_time() - t0
                t[side].append(took[side])
            ratios.append(took["B"] / took["A"])
        print(f"{name}: {count} reads; A {statistics.median(t['A'])*1e3:.1f} ms, B {statistics.median(t['B'])*1e3:.1f} ms, median B/A {statistics.median(ratios):.3f}")
