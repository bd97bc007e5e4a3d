"""pickle / copy / deepcopy of every event and of the snapshot, read after the stream is gone:
to_dict, snapshot, parsed, logprobs of each copy equal the original's. Real recordings and
logprobs bodies, both decoders, events on. Prints a summary and a digest of all values."""
import copy, gc, glob, hashlib, json, os, pickle, random, sys
sys.path.insert(0, "/work/notes/review")
from lp_multi import gen
import sansio_responses as sr

def vals(e):
    out = []
    for a in ("to_dict", "snapshot", "parsed", "logprobs"):
        try:
            v = getattr(e, a)
            v = v() if a == "to_dict" else v
            out.append(repr(v))
        except Exception as exc:
            out.append(("err", type(exc).__name__))
    return out

rng = random.Random(2)
bodies = [(os.path.basename(f), open(f, "rb").read()) for f in sorted(glob.glob("/work/wt-review/tests/data/real/*.sse"))]
bodies += [(f"lp{i}", gen(rng)) for i in range(5)]
n = bad = 0
h = hashlib.sha256()
for name, body in bodies:
    cls = sr.ChatCompletionsStream if name.startswith("chat") else sr.ResponsesStream
    for jl in (None, json.loads):
        s = cls(json_loads=jl)
        try:
            evs = s.feed(body) + s.close()
        except Exception as e:
            evs = list(getattr(e, "events", []) or [])
        snap = s.snapshot()
        del s; gc.collect()
        items = evs + ([snap] if snap is not None else [])
        for e in items:
            ref = vals(e)
            h.update(repr(ref).encode())
            for how in ("pickle", "copy", "deepcopy"):
                try:
                    c = pickle.loads(pickle.dumps(e)) if how == "pickle" else copy.copy(e) if how == "copy" else copy.deepcopy(e)
                    got = vals(c)
                except Exception as exc:
                    got = ("raised", type(exc).__name__, str(exc)[:100])
                n += 1
                # an unpickled Chat chunk has only its data: its helpers raise (documented)
                if got != ref:
                    bad += 1
                    if bad <= 5: print("DIFF", name, type(e).__name__, how, str(got)[:300], "|", str(ref)[:200])
print("copies", n, "differ", bad, "digest", h.hexdigest()[:16])
