"""Reproducer (Chat): one feeding thread; NT reader threads call tool_arguments_parsed() of the
chunks a ChatCompletionsStream returned (documented: returned events may be read in other
threads while the stream goes on). Values must equal a single-thread run's.
Usage: r1b_chat_parsed_threads.py [old|new] REPS NT"""
import json, random, sys, threading, traceback, collections
sys.path.insert(0, "/work/notes/review3")
from dual import N, B
sys.path.insert(0, "/work/wt-before/bench")
import generate as G

M = B if sys.argv[1] == "old" else N
reps, nt = int(sys.argv[2]), int(sys.argv[3])
sys.setswitchinterval(1e-6)
body = G.generate("chat_tools", 1500, seed=3).data


def read(c):
    out = []
    for k in (0, 1):
        out.append(repr(c.tool_arguments_parsed(0, k)))
    return tuple(out)


for jl, dec in ((json.loads, "stdlib"), (None, "orjson")):
    mk = (lambda: M.ChatCompletionsStream(json_loads=jl)) if jl else (lambda: M.ChatCompletionsStream())
    ref = mk(); revs = []
    for i in range(0, len(body), 301):
        revs += ref.feed(body[i:i + 301])
    revs += ref.close()
    exp = {}
    kinds = collections.Counter(); tbs = {}; example = []
    runs_bad = 0
    for _ in range(reps):
        s = mk(); evs = []; stop = False; got = []
        def reader():
            rng = random.Random()
            while not stop:
                if not evs:
                    continue
                i = rng.randrange(len(evs))
                try:
                    got.append((i, read(evs[i])))
                except Exception as exc:
                    got.append((i, ("raised", type(exc).__name__)))
                    tbs.setdefault(type(exc).__name__, traceback.format_exc())
        ts = [threading.Thread(target=reader) for _ in range(nt)]
        for t in ts:
            t.start()
        for i in range(0, len(body), 301):
            evs.extend(s.feed(body[i:i + 301]))
        evs.extend(s.close())
        stop = True
        for t in ts:
            t.join()
        bad = 0
        for i, v in got:
            if i not in exp:
                exp[i] = read(revs[i])
            if v != exp[i]:
                bad += 1
                kinds[v[1] if v[0] == "raised" else "wrong value"] += 1
                if v[0] != "raised" and not example:
                    example.append((i, v, exp[i]))
        runs_bad += bad > 0
        for i, e in enumerate(evs):
            try:
                if read(e) != read(revs[i]):
                    kinds["wrong after the run (read in the feeding thread once the readers stopped)"] += 1
            except Exception as exc:
                kinds[f"{type(exc).__name__} after the run"] += 1
        kinds["final parsed_tool_arguments differs"] += repr(s.parsed_tool_arguments()) != repr(ref.parsed_tool_arguments())
    print(f"{M.__name__} {dec} readers={nt}: runs={reps} runs_with_bad_reads={runs_bad} {dict(kinds)}")
    if example:
        i, v, e = example[0]
        print(f"  example: chunk {i}\n   read   {v[0][-150:]} | {v[1][-100:]}\n   should {e[0][-150:]} | {e[1][-100:]}")
    for k, v in tbs.items():
        print("  traceback of", k, ":\n" + "\n".join("    " + x for x in v.strip().splitlines()[-6:]))
