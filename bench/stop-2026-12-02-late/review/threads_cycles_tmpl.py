"""Templates (stdlib decoder) under threads and for reference cycles, on bench/generate.py's text,
reasoning, function_call, text_items, text_logprobs scenarios and fuzz_tmpl bodies:
(a) 3 threads take snapshot().to_dict() while the stream is fed in 301-byte chunks (switch
interval 1 us): no exception, every snapshot's texts a prefix of the final ones, final snapshot
== single-thread run; (b) with gc disabled, the stream (events on/off, events kept, lazy fields
read) is freed by refcounting and gc.collect() finds nothing. Usage: threads_cycles_tmpl.py"""
import gc, json, os, random, sys, threading, weakref
sys.path.insert(0, "/work/wt-before/bench"); sys.path.insert(0, "/work/notes/review2")
import generate as G
import fuzz_tmpl as F
import sansio_responses as sr

def texts(d):
    out = {}
    for o in d.get("output") or []:
        for i, c in enumerate(o.get("content") or []):
            out[(o.get("id"), "c", i)] = c.get("text") or c.get("refusal") or ""
        for i, c in enumerate(o.get("summary") or []):
            out[(o.get("id"), "s", i)] = c.get("text") or ""
        if "arguments" in o:
            out[(o.get("id"), "a")] = o["arguments"] or ""
    return out

bodies = [G.generate(n, k, seed=s).data for n in ("text", "reasoning", "function_call", "text_items", "text_logprobs")
          for k, s in ((300, 1), (2000, 2))]
rng = random.Random(77)
bodies += [F.body(rng) for _ in range(10)]
sys.setswitchinterval(1e-6)
bad = runs = snaps = 0
for body in bodies:
    for jl in (json.loads, None):
        ref = sr.ResponsesStream(json_loads=jl)
        try:
            ref.feed(body); ref.close()
        except sr.ProtocolError:
            pass
        snap0 = ref.snapshot()
        final = snap0.to_dict() if snap0 is not None else None
        # the texts as streamed (deltas only): the prefix check stops at the first .done event
        pre = sr.ResponsesStream(json_loads=jl)
        cut = body.find(b"event: response.output_text.done")
        cut = len(body) if cut < 0 else cut
        for marker in (b"event: response.function_call_arguments.done", b"event: response.reasoning_summary_text.done",
                       b"event: response.output_item.done", b"event: response.completed"):
            j = body.find(marker)
            if 0 <= j < cut: cut = j
        try:
            pre.feed(body[:cut])
        except sr.ProtocolError:
            pass
        ps = pre.snapshot()
        ft = texts(ps.to_dict()) if ps is not None else {}
        s = sr.ResponsesStream(json_loads=jl)
        stop = False; errors = []; got = []
        def reader():
            while not stop:
                try:
                    snap = s.snapshot()
                    if snap is not None: got.append(snap.to_dict())
                except Exception as e:
                    errors.append(repr(e)); return
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
        runs += 1; snaps += len(got)
        if errors: bad += 1; print("errors", errors[:2])
        last = s.snapshot()
        if (last.to_dict() if last is not None else None) != final:
            bad += 1; print("final differs", bodies.index(body), "stdlib" if jl else "orjson", len(body))
        fin = texts(final) if final else {}
        for d in got:  # each text a prefix of the streamed one, or of the final one
            for k, v in texts(d).items():
                if k in ft and not ft[k].startswith(v) and not fin.get(k, "").startswith(v) and not v.startswith(ft[k]):
                    bad += 1
                    if os.environ.get("SHOW") and bad < 4:
                        print("NOT PREFIX", bodies.index(body), "stdlib" if jl else "orjson", k, repr(v[-60:]), len(v), "| streamed", repr(ft[k][-60:]), len(ft[k]), "| final", repr(fin.get(k, "")[-60:]), len(fin.get(k, "")))
                    break
if os.environ.get("ONLY_THREADS"): print("threads: runs", runs, "snapshots read", snaps, "bad", bad); sys.exit()
print("threads: runs", runs, "snapshots read", snaps, "bad", bad)

# cycles
for _b in bodies[:2]:
    for _jl in (None, json.loads):
        for _e in (True, False):
            _s = sr.ResponsesStream(events=_e, json_loads=_jl); _s.feed(_b); _s.close(); _s.snapshot()
del _s
gc.collect(); gc.disable()
cbad = n = 0
for body in bodies:
    for jl in (json.loads, None):
        for events in (True, False):
            s = sr.ResponsesStream(events=events, json_loads=jl)
            evs = []
            try:
                evs += s.feed(body[: len(body) // 2]); s.snapshot(); evs += s.feed(body[len(body) // 2:]) + s.close()
            except sr.ProtocolError as exc:
                evs += list(getattr(exc, "events", []) or [])
            for e in evs[:80]:
                for a in ("snapshot", "parsed"):
                    getattr(e, a, None)
            r = weakref.ref(s)
            del s
            alive = r() is not None
            del evs
            found = gc.collect()
            n += 1
            if alive or found: cbad += 1; print("alive" if alive else "", "gc found", found)
gc.enable()
print("cycles: runs", n, "bad", cbad)
