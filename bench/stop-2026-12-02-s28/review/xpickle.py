"""Pickles made by one tree, loaded by another: `dump` under PYTHONPATH of tree A writes the
events/snapshot of a few streams; `load` under tree B unpickles them and prints their values.
Usage: xpickle.py dump FILE | xpickle.py load FILE"""
import json, pickle, sys
import sansio_responses as sr
sys.path.insert(0, "/work/wt-before/bench")
import generate as G

if sys.argv[1] == "dump":
    out = []
    for name, n in (("function_call", 300), ("text", 300), ("chat_tools", 300), ("reasoning", 200)):
        api = G.SCENARIOS[name][0]
        body = G.generate(name, n, seed=1).data
        cls = sr.ResponsesStream if api == "responses" else sr.ChatCompletionsStream
        s = cls(json_loads=json.loads)
        evs = []
        for i in range(0, len(body), 301):
            evs += s.feed(body[i:i + 301])
        evs += s.close()
        out.append((name, evs, s.snapshot()))
    pickle.dump(out, open(sys.argv[2], "wb"))
else:
    out = pickle.load(open(sys.argv[2], "rb"))
    for name, evs, snap in out:
        vals = []
        bad = 0
        for e in evs:
            for a in ("snapshot", "parsed"):
                if hasattr(type(e), a):
                    try:
                        vals.append(repr(getattr(e, a)))
                    except Exception as exc:
                        bad += 1
                        vals.append(type(exc).__name__)
        import hashlib
        print(name, len(evs), "raised", bad, hashlib.sha256(repr((vals, repr(snap))).encode()).hexdigest()[:16])
