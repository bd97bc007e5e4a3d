"""The documented way (docs/guide/concepts.md since 478dec2): the stream is used by one thread;
the delta events it returned are read in 3 other threads (each event's .snapshot) while it goes
on. Checks: every event's .snapshot is a prefix of the final text; the final snapshot (read in
the feeding thread) equals a single-thread run's. Bodies text2000.sse and body15.sse, 301-byte
chunks, switch interval 1 us. Usage: r4_events_read_while_fed.py REPS"""
import json, random, sys, threading
import sansio_responses as sr
reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
sys.setswitchinterval(1e-6)
def texts(d):
    return {(o.get("id"), i): c.get("text") or c.get("refusal") or "" for o in d.get("output") or [] for i, c in enumerate(o.get("content") or [])}
for name in ("text2000.sse", "body15.sse"):
    body = open("/work/notes/review2/" + name, "rb").read()
    for jl, dec in ((json.loads, "stdlib"), (None, "orjson")):
        ref = sr.ResponsesStream(json_loads=jl)
        try: ref.feed(body); ref.close()
        except sr.ProtocolError: pass
        final = ref.snapshot().to_dict(); allfin = "".join(texts(final).values())
        lost = bad_event = raised = reads = 0
        for _ in range(reps):
            s = sr.ResponsesStream(json_loads=jl)
            evs = []; stop = False; errs = []; bad = []
            def reader():
                rng = random.Random()
                nonlocal_reads = 0
                while not stop:
                    if not evs: continue
                    e = evs[rng.randrange(len(evs))]
                    try:
                        snap = getattr(e, "snapshot", None)
                    except Exception as exc:
                        errs.append(exc); return
                    if isinstance(snap, str) and snap and snap not in allfin and not any(t.startswith(snap) for t in texts(final).values()):
                        bad.append(snap[-20:])
            ts = [threading.Thread(target=reader) for _ in range(3)]
            for t in ts: t.start()
            try:
                for i in range(0, len(body), 301):
                    evs.extend(s.feed(body[i:i + 301]))
                evs.extend(s.close())
            except sr.ProtocolError as exc:
                evs.extend(getattr(exc, "events", None) or [])
            stop = True
            for t in ts: t.join()
            raised += bool(errs); bad_event += bool(bad)
            lost += s.snapshot().to_dict() != final
        print(f"{name:13} {dec:6} runs={reps} runs_with_bad_event_snapshot={bad_event} runs_lost={lost} runs_raised={raised}")
