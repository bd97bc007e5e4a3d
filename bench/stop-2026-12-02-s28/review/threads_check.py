"""The documented thread use: one thread feeds the stream; 3 other threads read the events it
returned (snapshot, parsed, to_dict, repr, ==, and pickle/copy of them) meanwhile. Each value a
reader gets must equal the value of the same event in a single-thread run; the final snapshot too.
Usage: threads_check.py TREE(new|old) REPS   (switch interval 1 us)"""
import copy, json, pickle, random, sys, threading, glob
sys.path.insert(0, "/work/notes/review3")
from dual import N, B, norm
sys.path.insert(0, "/work/wt-before/bench")
import generate as G

M = N if sys.argv[1] == "new" else B
reps = int(sys.argv[2])
sys.setswitchinterval(1e-6)


def val(e, what):
    if what == "snapshot":
        return getattr(e, "snapshot", None)
    if what == "parsed":
        return repr(getattr(e, "parsed", None))
    if what == "to_dict":
        return repr(e.to_dict())
    if what == "repr":
        return repr(e)
    if what == "pickle":
        x = pickle.loads(pickle.dumps(e))
        return (repr(x), getattr(x, "snapshot", None), repr(getattr(x, "parsed", None)), x == e)
    if what == "copy":
        x = copy.deepcopy(e) if random.random() < .5 else copy.copy(e)
        return (repr(x), getattr(x, "snapshot", None), repr(getattr(x, "parsed", None)), x == e)


WHATS = ["snapshot", "parsed", "to_dict", "repr", "pickle", "copy"]

bodies = []
for name, n in (("text", 2000), ("function_call", 1500), ("reasoning", 1500), ("text_logprobs", 300),
                ("chat_text", 1500), ("chat_tools", 1000), ("chat_logprobs", 300)):
    bodies.append((name, G.SCENARIOS[name][0], G.generate(name, n, seed=3).data))
bodies.append(("struct", "responses", open("/work/notes/review2/body15.sse", "rb").read()))

tf = {"type": "json_schema", "name": "x", "schema": {"type": "object"}}
total_bad = total_reads = 0
for name, api, body in bodies:
    for jl, dec in ((json.loads, "stdlib"), (None, "orjson")):
        cls = M.ResponsesStream if api == "responses" else M.ChatCompletionsStream
        def mk():
            return cls(json_loads=jl) if jl else cls()
        ref = mk(); revs = []
        try:
            for i in range(0, len(body), 301):
                revs += ref.feed(body[i:i + 301])
            revs += ref.close()
        except M.ProtocolError as exc:
            revs += getattr(exc, "events", None) or []
        refv = {}
        final = repr(ref.snapshot())
        bad = reads = 0
        for _ in range(reps):
            s = mk(); evs = []; stop = False; out = []
            def reader():
                rng = random.Random()
                while not stop:
                    if not evs:
                        continue
                    i = rng.randrange(len(evs)); w = rng.choice(WHATS)
                    try:
                        out.append((i, w, val(evs[i], w)))
                    except Exception as exc:
                        out.append((i, w, ("raised", type(exc).__name__, str(exc))))
            ts = [threading.Thread(target=reader) for _ in range(3)]
            for t in ts:
                t.start()
            try:
                for i in range(0, len(body), 301):
                    evs.extend(s.feed(body[i:i + 301]))
                evs.extend(s.close())
            except M.ProtocolError as exc:
                evs.extend(getattr(exc, "events", None) or [])
            stop = True
            for t in ts:
                t.join()
            for i, w, v in out:
                key = (i, w)
                if key not in refv:
                    refv[key] = val(revs[i], w) if w not in ("pickle", "copy") else None
                exp = refv[key]
                if w in ("pickle", "copy"):
                    exp = (repr(revs[i]), getattr(revs[i], "snapshot", None), repr(getattr(revs[i], "parsed", None)), True)
                if v != exp:
                    bad += 1
                    if bad <= 3:
                        print("  BAD", name, dec, i, w, repr(v)[:200], "!=", repr(exp)[:200])
            reads += len(out)
            if repr(s.snapshot()) != final:
                bad += 1; print("  final snapshot differs", name, dec)
        total_bad += bad; total_reads += reads
        print(f"{sys.argv[1]} {name:14} {dec:6} reps={reps} reads={reads} bad={bad}", flush=True)
print(f"threads_check {sys.argv[1]} total reads={total_reads} bad={total_bad}")
