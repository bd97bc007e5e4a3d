"""Pre-existing (also on 6291773): snapshot() read in other threads while the stream is fed.
3 threads call s.snapshot().to_dict() in a loop while the main thread feeds the body in 301-byte
chunks (sys.setswitchinterval(1e-6)). Counts, over REPS runs per body and decoder:
  torn      snapshots whose text of a part is not a prefix of the final text (a delta missing
            in the middle of it),
  lost      runs whose FINAL snapshot (after close, threads joined) differs from a single-thread
            run of the same body (deltas lost for good),
  raised    runs where a reader's snapshot() raised.
Bodies: text2000.sse (bench/generate.py 'text', n=2000, seed 2: the API's shape) and body15.sse
(a fuzz_tmpl body: 4 items, parts switching). Usage: r2_threads_snapshot.py [REPS]"""
import json, sys, threading
import sansio_responses as sr

def texts(d):
    out = {}
    for o in d.get("output") or []:
        for i, c in enumerate(o.get("content") or []):
            out[(o.get("id"), i)] = c.get("text") or c.get("refusal") or ""
    return out

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
sys.setswitchinterval(1e-6)
for name in ("text2000.sse", "body15.sse"):
    body = open("/work/notes/review2/" + name, "rb").read()
    for jl, dec in ((json.loads, "stdlib"), (None, "orjson")):
        ref = sr.ResponsesStream(json_loads=jl)
        try: ref.feed(body); ref.close()
        except sr.ProtocolError: pass
        final = ref.snapshot().to_dict(); fin = texts(final)
        torn = lost = raised = 0
        for _ in range(reps):
            s = sr.ResponsesStream(json_loads=jl)
            stop = False; errs = []; got = []
            def reader():
                while not stop:
                    try:
                        snap = s.snapshot()
                        if snap is not None: got.append(snap.to_dict())
                    except Exception as e:
                        errs.append(e); return
            ts = [threading.Thread(target=reader) for _ in range(3)]
            for t in ts: t.start()
            try:
                for i in range(0, len(body), 301):
                    s.feed(body[i:i + 301])
                s.close()
            except sr.ProtocolError:
                pass
            stop = True
            for t in ts: t.join()
            raised += bool(errs)
            lost += s.snapshot().to_dict() != final
            torn += sum(1 for d in got if any(k in fin and not fin[k].startswith(v) for k, v in texts(d).items()))
        print(f"{name:13} {dec:6} runs={reps} snapshots_torn={torn} runs_lost={lost} runs_raised={raised}")
