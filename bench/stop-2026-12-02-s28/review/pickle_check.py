"""Copies of events, snapshots and errors: pickle (protocols 2 and 5), copy.copy, copy.deepcopy, in
NEW and in OLD. Each copy must have the same class, == the original, same repr / to_dict /
snapshot / parsed; and the NEW digests must equal the OLD ones (normalised).
Usage: pickle_check.py SEED N   (bodies: generated scenarios + real recordings, random chunks)"""
import copy, glob, hashlib, json, os, pickle, random, sys
sys.path.insert(0, "/work/notes/review3")
from dual import N, B, norm
import stream_fuzz as S


def look(x, helpers=True):
    out = [type(x).__name__, norm(repr(x))]
    for a in ("snapshot", "parsed", "to_dict", "output_text", "events", "offset", "sequence_number"):
        if hasattr(type(x), a) or (a in ("events", "offset", "sequence_number") and hasattr(x, a)):
            try:
                v = getattr(x, a)
                v = v() if a == "to_dict" else v
                out.append((a, norm(repr(v)) if a != "events" else [norm(repr(e)) for e in (v or [])]))
            except Exception as exc:
                out.append((a, "err", type(exc).__name__))
    if helpers and hasattr(type(x), "tool_arguments_parsed"):  # (documented: an unpickled chunk has only its data)
        for what, args in (("content_snapshot", (0,)), ("content_parsed", (0,)), ("tool_arguments_parsed", (0, 0)), ("tool_arguments_parsed", (0, 1))):
            try:
                out.append((what, args, norm(repr(getattr(x, what)(*args)))))
            except Exception as exc:
                out.append((what, args, "err", type(exc).__name__))
    if isinstance(x, BaseException):
        out.append(str(x))
    return out


def copies(x):
    res = []
    base = look(x)
    for how in ("p2", "p5", "copy", "deepcopy"):
        try:
            y = (pickle.loads(pickle.dumps(x, 2)) if how == "p2" else pickle.loads(pickle.dumps(x, 5)) if how == "p5"
                 else copy.copy(x) if how == "copy" else copy.deepcopy(x))
            hp = how not in ("p2", "p5")
            ok = type(y) is type(x) and look(y, hp) == (base if hp else look(x, False))
            if not isinstance(x, BaseException):
                ok = ok and (y == x)
            res.append((how, ok, hashlib.sha256(repr(look(y)).encode("utf-8", "surrogatepass")).hexdigest()[:12]))
        except Exception as exc:
            res.append((how, "raised", type(exc).__name__, norm(str(exc))[:200]))
    return res


def run(M, api, parts, dec):
    cls = M.ResponsesStream if api == "responses" else M.ChatCompletionsStream
    s = cls(json_loads=json.loads) if dec == "stdlib" else cls()
    evs, errs = [], []
    try:
        for p in parts:
            evs += s.feed(p)
        evs += s.close()
    except M.ProtocolError as exc:
        errs.append(exc)
    objs = evs + errs + [s.snapshot()]
    return [copies(x) for x in objs]


def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    bodies = list(S.real_bodies()) + [b for b in S.gen_bodies(seed, 0) if b[0].split(":")[2] in ("7", "150")]
    mut = []
    for name, api, body in rng.sample(bodies, min(n, len(bodies))):
        mb, _ = S.json_body_mutate(rng, body, 0.05)
        mut.append((name + ":mut", api, mb))
    total = bad = diff = 0
    shown = 0
    for name, api, body in rng.sample(bodies, min(n, len(bodies))) + mut:
        cuts = sorted(rng.randint(0, len(body)) for _ in range(rng.randint(1, 20)))
        parts = [body[a:b] for a, b in zip([0] + cuts, cuts + [len(body)])]
        for dec in ("stdlib", "orjson"):
            ra, rb = run(N, api, parts, dec), run(B, api, parts, dec)
            for x in ra:
                total += len(x)
                bad += sum(1 for c in x if c[1] is not True)
            if ra != rb:
                diff += 1
                if diff <= 5:
                    for i, (x, y) in enumerate(zip(ra, rb)):
                        if x != y:
                            print("DIFF", name, dec, "object", i, "\n  new", x, "\n  old", y); break
            for i, x in enumerate(ra):
                for c in x:
                    if c[1] is not True and shown < 4:
                        shown += 1
                        print("BAD copy (new)", name, dec, "object", i, c)
    print(f"pickle_check seed={seed} copies={total} bad_in_new={bad} runs_differing={diff}")


if __name__ == "__main__":
    main()
