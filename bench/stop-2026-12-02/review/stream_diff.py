"""Differential run of the streams over bodies: real recordings (+ mutations). Writes a pickle
of per-run results. Usage: stream_diff.py OUT MODE SEED  (MODE: real | mut)"""
import glob, gc, math, os, pickle, random, sys
import sansio_responses as sr

def norm(x):
    # NaN-safe comparable representation
    return repr(x)

def ev_digest(e):
    d = [type(e).__name__]
    try: d.append(norm(e.to_dict()))
    except Exception as exc: d.append(("to_dict-err", type(exc).__name__, str(exc)[:200]))
    for attr in ("snapshot", "parsed", "logprobs"):
        if hasattr(type(e), attr) or hasattr(e, attr):
            try: d.append((attr, norm(getattr(e, attr))))
            except Exception as exc: d.append((attr, "err", type(exc).__name__, str(exc)[:200]))
    return tuple(d)

def run(cls, parts, events, read_late=False):
    s = cls(events=events)
    out, evs = [], []
    err = None
    try:
        for p in parts:
            r = s.feed(p)
            evs += r
            if not read_late:
                out += [ev_digest(e) for e in r]
        r = s.close(); evs += r
        if not read_late:
            out += [ev_digest(e) for e in r]
    except Exception as exc:
        err = (type(exc).__name__, str(exc)[:500], getattr(exc, "offset", None), getattr(exc, "sequence_number", None),
               len(getattr(exc, "events", []) or []))
        extra = getattr(exc, "events", None) or []
        if not read_late:
            out += [ev_digest(e) for e in extra]
        evs += extra
    try: snap = norm(s.snapshot().to_dict())
    except Exception as exc: snap = ("snap-err", type(exc).__name__, str(exc)[:200])
    res = [err, snap, getattr(s, "outcome", None), norm(dict(s.diagnostic_counts)), norm(list(s.diagnostics))]
    if read_late:
        del s; gc.collect()
        out = [ev_digest(e) for e in evs]
    return out, res

def chunkings(rng, body, allbytes):
    yield "whole", [body]
    if allbytes:
        yield "bytes", [body[i:i + 1] for i in range(len(body))]
    for k in range(2):
        cuts = sorted(rng.randint(0, len(body)) for _ in range(rng.randint(1, 40)))
        parts, last = [], 0
        for c in cuts: parts.append(body[last:c]); last = c
        parts.append(body[last:])
        yield f"rand{k}", parts
    k = rng.choice([3, 7, 64, 1000, 4096])
    yield f"fixed{k}", [body[i:i + k] for i in range(0, len(body), k)]

def mutate(rng, body):
    ops = []
    b = bytearray(body)
    for _ in range(rng.randint(1, 3)):
        op = rng.choice(["crlf", "cr", "comment", "bom", "retry", "id", "idnul", "blank", "flip", "del", "dup", "esc", "uesc", "trunc", "nolast"])
        ops.append(op)
        if op == "crlf": b = bytearray(bytes(b).replace(b"\n", b"\r\n"))
        elif op == "cr": b = bytearray(bytes(b).replace(b"\n", b"\r"))
        elif op == "comment":
            i = bytes(b).find(b"\n\n", rng.randint(0, max(0, len(b) - 1)))
            if i >= 0: b[i + 2:i + 2] = b": keep-alive\n"
        elif op == "bom": b[0:0] = b"\xef\xbb\xbf"
        elif op == "retry":
            i = bytes(b).find(b"\n\n", rng.randint(0, max(0, len(b) - 1)))
            if i >= 0: b[i + 2:i + 2] = b"retry: 1000\n"
        elif op in ("id", "idnul"):
            i = bytes(b).find(b"\n\n", rng.randint(0, max(0, len(b) - 1)))
            if i >= 0: b[i + 2:i + 2] = b"id: 7\n" if op == "id" else b"id: a\x00b\n"
        elif op == "blank":
            i = bytes(b).find(b"\n\n", rng.randint(0, max(0, len(b) - 1)))
            if i >= 0: b[i:i] = b"\n\n"
        elif op == "flip" and b:
            i = rng.randrange(len(b)); b[i] = rng.randrange(256)
        elif op == "del" and b:
            i = rng.randrange(len(b)); del b[i:i + rng.randint(1, 20)]
        elif op == "dup":
            blocks = bytes(b).split(b"\n\n")
            if len(blocks) > 2:
                j = rng.randrange(len(blocks) - 1); blocks.insert(j, blocks[j]); b = bytearray(b"\n\n".join(blocks))
        elif op == "esc": b = bytearray(bytes(b).replace(b"/", b"\\/"))
        elif op == "uesc": b = bytearray(bytes(b).replace("é".encode(), b"\\u00e9").replace(b" ", b"\\u0020", rng.randint(1, 50)))
        elif op == "trunc": b = b[: rng.randint(0, len(b))]
        elif op == "nolast":
            if bytes(b).endswith(b"\n\n"): b = b[:-2]
    return bytes(b), ops

def main():
    outp, mode, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(seed)
    files = sorted(glob.glob("/work/wt-review/tests/data/real/*.sse"))
    res = []
    cases = []
    for f in files:
        body = open(f, "rb").read()
        cls = sr.ChatCompletionsStream if os.path.basename(f).startswith("chat") else sr.ResponsesStream
        if mode == "real":
            cases.append((os.path.basename(f), cls, body))
        else:
            for k in range(int(os.environ.get("NMUT", "6"))):
                mb, ops = mutate(rng, body)
                cases.append((os.path.basename(f) + "|" + ",".join(ops), cls, mb))
    for name, cls, body in cases:
        for cname, parts in list(chunkings(rng, body, mode == "real" and len(body) < 120_000)):
            for events in (True, False):
                res.append(((name, cname, events), run(cls, parts, events)))
            if cname == "whole":
                res.append(((name, cname, "late"), run(cls, parts, True, read_late=True)))
    pickle.dump(res, open(outp, "wb"))
    print(len(res), "runs")
if __name__ == "__main__":
    main()
