"""Errors and events of fuzz_tmpl bodies (templates on, stdlib; and orjson): every raised
ProtocolError and every event pickled / copy.copy'd / deepcopy'd; the copy's type, str, offset,
sequence_number, len(events) (errors) or to_dict()/snapshot (events) equal the original's.
Prints a digest of all originals and the number of mismatching copies. Usage: errors_pickle.py SEED N"""
import copy, hashlib, json, pickle, random, sys
sys.path.insert(0, "/work/notes/review2")
import fuzz_tmpl as F
import sansio_responses as sr

def edesc(e):
    return (type(e).__name__, str(e), getattr(e, "offset", None), getattr(e, "sequence_number", None),
            len(getattr(e, "events", None) or []))

def vdesc(e):
    out = []
    for a in ("to_dict", "snapshot", "parsed"):
        try:
            v = getattr(e, a); out.append(repr(v() if a == "to_dict" else v))
        except Exception as exc:
            out.append(("err", type(exc).__name__))
    return out

seed, n = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
h = hashlib.sha256(); copies = bad = errors = 0
for i in range(n):
    b = F.body(rng)
    for dec in ("stdlib", "orjson"):
        for strict in (False, True):
            kw = {"json_loads": json.loads} if dec == "stdlib" else {}
            s = sr.ResponsesStream(strict=strict, **kw)
            evs, err = [], None
            try:
                evs += s.feed(b); evs += s.close()
            except sr.ProtocolError as exc:
                err = exc
            objs = [("event", e) for e in evs[-30:]] + ([("error", err)] if err is not None else [])
            errors += err is not None
            for kind, o in objs:
                ref = edesc(o) if kind == "error" else vdesc(o)
                h.update(repr(ref).encode("utf-8", "surrogatepass"))
                for how in ("pickle", "copy", "deepcopy"):
                    try:
                        c = pickle.loads(pickle.dumps(o)) if how == "pickle" else copy.copy(o) if how == "copy" else copy.deepcopy(o)
                        got = edesc(c) if kind == "error" else vdesc(c)
                    except Exception as exc:
                        got = ("raised", type(exc).__name__, str(exc)[:100])
                    copies += 1
                    if got != ref:
                        bad += 1
                        if bad <= 5: print("DIFF", i, dec, kind, how, str(got)[:200], "|", str(ref)[:200])
print("errors", errors, "copies", copies, "differ", bad, "digest", h.hexdigest()[:16])
