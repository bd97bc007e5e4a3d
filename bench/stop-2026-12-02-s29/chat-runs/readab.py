# in-process A/B reading every chunk's delta: base tree vs this tree
import sys, json, time, gc, shutil, importlib, tempfile, statistics
from pathlib import Path
sys.path.insert(0, '/work/wt-chat')
from bench import generate as gen
scen = sys.argv[1]; n = 20000; rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 9
tmp = tempfile.mkdtemp(); sys.path.insert(0, tmp)
mods = {}
for name, tree in (("ra", "/work/wt-chat-pre"), ("rb", "/work/wt-chat")):
    shutil.copytree(Path(tree) / "sansio_responses", Path(tmp) / name, ignore=shutil.ignore_patterns("__pycache__", "adapters"))
    mods[name] = importlib.import_module(name)
data = gen.generate(scen, n).data
chunks = [data[i:i+4096] for i in range(0, len(data), 4096)]
def run(m):
    s = m.ChatCompletionsStream(json_loads=json.loads)
    k = 0
    for c in chunks:
        for e in s.feed(c):
            ch = e.choices
            if ch:
                d = ch[0].delta
                if d.content: k += 1
                elif d.tool_calls: k += len(d.tool_calls[0].function.arguments or "")
    s.close(); s.snapshot()
    return k
assert run(mods["ra"]) == run(mods["rb"])
gc.freeze()
ratios = []; ta=[]; tb=[]
for r in range(rounds):
    order = ("ra", "rb") if r % 2 == 0 else ("rb", "ra")
    t = {}
    for name in order:
        gc.collect(); t0 = time.process_time(); run(mods[name]); t[name] = time.process_time() - t0
    ratios.append(t["rb"]/t["ra"]); ta.append(t["ra"]); tb.append(t["rb"])
print(scen, "read-every-delta: A %.3f B %.3f us/event, B/A median %.3f" % (statistics.median(ta)/n*1e6, statistics.median(tb)/n*1e6, statistics.median(ratios)))
