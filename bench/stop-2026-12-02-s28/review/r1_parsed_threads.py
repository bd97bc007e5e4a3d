"""Reproducer: reading `.parsed` of the function_call argument delta events that a ResponsesStream
returned, in other threads, while the feeding thread goes on (the documented use: "the events
and snapshots it returned may be read in other threads") raises IndexError / gives wrong values.
Usage: r1_parsed_threads.py [old|new] [REPS]"""
import json, random, sys, threading, traceback, collections
sys.path.insert(0, "/work/notes/review3")
from dual import N, B
sys.path.insert(0, "/work/wt-before/bench")
import generate as G

M = B if (len(sys.argv) > 1 and sys.argv[1] == "old") else N
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
nthreads = int(sys.argv[3]) if len(sys.argv) > 3 else 3
example = []
sys.setswitchinterval(1e-6)
body = G.generate("function_call", 1500, seed=3).data

for jl, dec in ((json.loads, "stdlib"), (None, "orjson")):
    mk = (lambda: M.ResponsesStream(json_loads=jl)) if jl else (lambda: M.ResponsesStream())
    ref = mk(); revs = []
    for i in range(0, len(body), 301):
        revs += ref.feed(body[i:i + 301])
    revs += ref.close()
    exp = {}
    kinds = collections.Counter(); tb = {}
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
                    got.append((i, repr(getattr(evs[i], "parsed", None))))
                except Exception as exc:
                    got.append((i, ("raised", type(exc).__name__, str(exc))))
                    tb.setdefault(type(exc).__name__, traceback.format_exc())
        ts = [threading.Thread(target=reader) for _ in range(nthreads)]
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
                exp[i] = repr(getattr(revs[i], "parsed", None))
            if v != exp[i]:
                bad += 1
                kinds[v[1] if isinstance(v, tuple) else "wrong value"] += 1
                if not isinstance(v, tuple) and len(example) < 1:
                    example.append((i, v[-160:], exp[i][-160:]))
        runs_bad += bad > 0
        # after the run, every event read again in this thread
        after = sum(1 for i, e in enumerate(evs) if repr(getattr(e, "parsed", None)) != repr(getattr(revs[i], "parsed", None)))
        kinds["wrong after the run"] += after
    if example:
        print("  example wrong value: event", example[0][0], "\n   read   ...", example[0][1], "\n   should ...", example[0][2])
        example.clear()
    print(f"{M.__name__} {dec} threads={nthreads}: runs={reps} runs_with_bad_reads={runs_bad} bad reads by kind={dict(kinds)}")
    for k, v in tb.items():
        print("  traceback of", k, ":\n" + "\n".join("    " + x for x in v.strip().splitlines()[-8:]))
