"""A stream with logprobs fed in small chunks in the main thread while 3 threads take
snapshots (and read to_dict) in a loop: no exception, every snapshot's logprobs a prefix of
the final one's, the final snapshot equal to a single-thread run."""
import json, random, sys, threading
sys.path.insert(0, "/work/notes/review")
from lp_multi import gen
import sansio_responses as sr
sys.setswitchinterval(1e-6)
rng = random.Random(3)
bad = 0; snaps = 0; runs = 0
for trial in range(12):
    body = gen(rng)
    for jl in (None, json.loads):
        ref = sr.ResponsesStream(json_loads=jl); ref.feed(body); ref.close(); final = ref.snapshot().to_dict()
        s = sr.ResponsesStream(json_loads=jl)
        stop = False; errors = []; got = []
        def reader():
            global snaps
            while not stop:
                try:
                    snap = s.snapshot()
                    if snap is not None:
                        got.append(snap.to_dict())
                except Exception as e:
                    errors.append(repr(e)); return
        ts = [threading.Thread(target=reader) for _ in range(3)]
        for t in ts: t.start()
        for i in range(0, len(body), 701):
            s.feed(body[i:i + 701])
        s.close()
        stop = True
        for t in ts: t.join()
        runs += 1; snaps += len(got)
        if errors: bad += 1; print("errors", errors[:2])
        if s.snapshot().to_dict() != final: bad += 1; print("final differs")
        flp = {o["id"]: o["content"][0]["logprobs"] for o in final["output"]}
        for d in got:
            for o in d["output"]:
                if o.get("content"):
                    lp = o["content"][0].get("logprobs") or []
                    if lp != flp[o["id"]][: len(lp)]:
                        bad += 1; print("not a prefix", o["id"], len(lp)); break
print("runs", runs, "snapshots read", snaps, "bad", bad)
