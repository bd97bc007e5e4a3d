"""Harness: run a body through a stream in many modes; check invariants across modes.
Invariants: only ProtocolError subclasses raised; same snapshot/outcome/error/diagnostics for
any chunking; events path == events=False path (snapshot, outcome, error); json == orjson."""
import json, random, traceback, sys
import sansio_responses as sr

def digest(cls, body, chunks, events=True, loads=None, strict=False, **kw):
    args = dict(events=events, strict=strict, **kw)
    if loads is not None:
        args["json_loads"] = loads
    s = cls(**args)
    evs = []
    err = None
    pos = 0
    try:
        for c in chunks:
            evs += s.feed(c)
        evs += s.close()
    except sr.ProtocolError as e:
        evs += list(getattr(e, "events", []) or [])
        err = (type(e).__name__, str(e), getattr(e, "offset", None), getattr(e, "sequence_number", None))
    except Exception as e:  # untyped
        err = ("UNTYPED", type(e).__name__, str(e)[:300], traceback.format_exc()[-1500:])
    try:
        snap = s.snapshot()
        snapd = None if snap is None else snap.to_dict()
    except Exception as e:
        snapd = ("SNAPERR", type(e).__name__, str(e)[:200])
    ev = []
    if events:
        for e in evs:
            try:
                ev.append(e.to_dict())
            except Exception as x:
                ev.append(("EVERR", type(x).__name__, str(x)[:200]))
    return dict(err=err, snap=snapd, outcome=getattr(s, "outcome", None),
                diag=dict(s.diagnostic_counts), ev=ev)

def firstdiff(a, b, path=()):
    if type(a) != type(b):
        return (path, repr(a)[:300], repr(b)[:300])
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return (path + (k,), repr(a.get(k, "<missing>"))[:300], repr(b.get(k, "<missing>"))[:300])
            if repr(a[k]) != repr(b[k]):
                return firstdiff(a[k], b[k], path + (k,))
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return (path + ("len",), len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            if repr(x) != repr(y):
                return firstdiff(x, y, path + (i,))
    return (path, repr(a)[:300], repr(b)[:300])

def chunkings(body, rng):
    yield "whole", [body]
    if len(body) < 4000:
        yield "bytes", [body[i:i+1] for i in range(len(body))]
    for k in range(2):
        cuts = sorted(rng.sample(range(1, max(2, len(body))), min(len(body)-1, rng.randint(1, 12)))) if len(body) > 2 else []
        parts, p = [], 0
        for c in cuts:
            parts.append(body[p:c]); p = c
        parts.append(body[p:])
        yield f"rand{k}", parts

def check(cls, body, rng=None, strict=False, label="", **kw):
    rng = rng or random.Random(0)
    problems = []
    base = None
    results = {}
    for loads in (None, json.loads):
        for events in (True, False):
            for name, ch in chunkings(body, rng):
                d = digest(cls, body, ch, events, loads, strict, **kw)
                key = (loads is None and "orjson" or "json", events, name)
                results[key] = d
                if d["err"] and d["err"][0] == "UNTYPED":
                    problems.append(("untyped", key, d["err"]))
    ref = results[("orjson", True, "whole")]
    for key, d in results.items():
        for f in ("err", "snap", "outcome", "diag") + (("ev",) if key[1] else ()):
            a, b = ref[f], d[f]
            if f == "err" and a and b:
                a, b = a[:1] + a[2:], b[:1] + b[2:]  # message may differ? compare separately
            if repr(a) != repr(b):
                problems.append(("differs", f, key) + firstdiff(a, b))
    return problems, ref
