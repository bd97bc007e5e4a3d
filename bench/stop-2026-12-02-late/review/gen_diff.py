"""bench/generate.py's scenarios (Responses and Chat) at several sizes and seeds, each whole, at
random splits, in fixed chunks (and byte by byte when small), events on/off, stdlib and orjson,
plus late reads. Writes a pickle of compact per-run results; compare with cmp_stream.py.
Usage: gen_diff.py OUT SEED   (imports bench/generate.py from /work/wt-before: same generator)"""
import gc, hashlib, json, os, pickle, random, sys
sys.path.insert(0, "/work/wt-before/bench")
import generate as G
sys.path.insert(0, "/work/notes/review2")
from fuzz_tmpl import ev_digest
import sansio_responses as sr

def run(cls, parts, events, dec, late=False):
    kw = {"json_loads": json.loads} if dec == "stdlib" else {}
    s = cls(events=events, **kw)
    out, evs, err = [], [], None
    try:
        for p in parts:
            r = s.feed(p); evs += r
            if not late: out += [ev_digest(e) for e in r]
        r = s.close(); evs += r
        if not late: out += [ev_digest(e) for e in r]
    except Exception as exc:
        err = (type(exc).__name__, str(exc)[:300], getattr(exc, "offset", None), getattr(exc, "sequence_number", None))
    try: snap = repr(s.snapshot().to_dict())
    except Exception as exc: snap = ("snap-err", type(exc).__name__, str(exc)[:200])
    res = [err, hashlib.sha256(str(snap).encode("utf-8", "surrogatepass")).hexdigest()[:16], s.outcome,
           repr(dict(s.diagnostic_counts)), repr(list(s.diagnostics))[:2000]]
    if late:
        del s; gc.collect()
        out = [ev_digest(e) for e in evs]
    return [hashlib.sha256(repr(out).encode("utf-8", "surrogatepass")).hexdigest()[:16], len(out)], res

def main():
    outp, seed = sys.argv[1], int(sys.argv[2])
    rng = random.Random(seed)
    res = []
    for name in sorted(G.SCENARIOS):
        api = G.SCENARIOS[name][0]
        cls = sr.ResponsesStream if api == "responses" else sr.ChatCompletionsStream
        for n in (1, 7, 150, 1500):
            body = G.generate(name, n, seed=seed).data
            chunkings = [("whole", [body])]
            if len(body) < 20000:
                chunkings.append(("bytes", [body[i:i + 1] for i in range(len(body))]))
            cuts = sorted(rng.randint(0, len(body)) for _ in range(rng.randint(1, 30)))
            chunkings.append(("rand", [body[a:b] for a, b in zip([0] + cuts, cuts + [len(body)])]))
            k = rng.choice([5, 100, 4096])
            chunkings.append((f"fixed{k}", [body[i:i + k] for i in range(0, len(body), k)]))
            for cname, parts in chunkings:
                for dec in ("stdlib", "orjson"):
                    for events in (True, False):
                        res.append(((name, n, cname, dec, events), run(cls, parts, events, dec)))
                    if cname == "whole":
                        res.append(((name, n, cname, dec, "late"), run(cls, parts, True, dec, True)))
    pickle.dump(res, open(outp, "wb"))
    print(len(res), "runs", file=sys.stderr)

if __name__ == "__main__":
    main()
