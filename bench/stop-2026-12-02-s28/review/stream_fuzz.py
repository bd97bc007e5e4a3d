"""Differential run of ResponsesStream / ChatCompletionsStream: NEW (sansio_responses) vs OLD (srb).

Usage: stream_fuzz.py SOURCE SEED [N]
  SOURCE: gen (bench/generate.py, every scenario, n=1,7,150,1500 (+N extra random sizes)),
          real (tests/data/real), mut (real + generated bodies mutated: framing and JSON edits,
          N copies each), json (JSON-level mutations of the big events: odd types in every field)
Each body at chunkings whole / bytes (small) / random splits / 4 KiB / 64 KiB, with json.loads and
orjson, events on and off (+ strict for mut/json). Compared per feed call: events (type, repr,
to_dict, snapshot, parsed, logprobs and index fields, ==, hash), or the error (type, message,
offset, sequence_number, events carried); bytes_fed; at the end the snapshot (repr, to_dict),
outcome, diagnostics, error, and the errors of a feed after the end."""
import copy, glob, hashlib, json, os, random, re, sys
sys.path.insert(0, "/work/notes/review3")
from dual import N, B, norm

sys.path.insert(0, "/work/wt-before/bench")
import generate as G

MAXLEN = int(os.environ.get("MAXLEN", "3000"))   # byte by byte below this body size


def h(x):
    return hashlib.sha256(norm(repr(x)).encode("utf-8", "surrogatepass")).hexdigest()[:16]


ATTRS = ("snapshot", "parsed", "logprobs", "delta", "sequence_number", "item_id", "output_index",
         "content_index", "summary_index", "extra", "stream_id")


def ev_digest(e):
    d = [type(e).__name__]
    try:
        d.append(h(repr(e)))
    except Exception as exc:
        d.append(("repr-err", type(exc).__name__, norm(str(exc))[:200]))
    try:
        d.append(h(e.to_dict()))
    except Exception as exc:
        d.append(("to_dict-err", type(exc).__name__, norm(str(exc))[:200]))
    for attr in ATTRS:
        if hasattr(type(e), attr):
            try:
                d.append((attr, h(getattr(e, attr))))
            except Exception as exc:
                d.append((attr, "err", type(exc).__name__, norm(str(exc))[:200]))
    if hasattr(type(e), "tool_arguments_parsed"):
        for what, args in (("content_snapshot", (0,)), ("content_parsed", (0,)), ("tool_arguments_parsed", (0, 0)), ("tool_arguments_parsed", (0, 1))):
            try:
                d.append((what, args, h(getattr(e, what)(*args))))
            except Exception as exc:
                d.append((what, args, "err", type(exc).__name__, norm(str(exc))[:200]))
    try:
        d.append(("eq", e == e, hash(e) is not None))
    except Exception as exc:
        d.append(("eq-err", type(exc).__name__, norm(str(exc))[:100]))
    return tuple(d)


def err_rec(exc):
    evs = getattr(exc, "events", None) or []
    return ("err", type(exc).__name__, norm(str(exc))[:600], getattr(exc, "offset", None),
            getattr(exc, "sequence_number", None), [ev_digest(e) for e in evs])


def run(mod, api, parts, dec, events, strict, limit="default", snaps=False):
    kw = {"json_loads": json.loads} if dec == "stdlib" else {}
    if limit != "default":
        kw["max_event_size"] = limit
    cls = mod.ResponsesStream if api == "responses" else mod.ChatCompletionsStream
    if api != "responses" and os.environ.get("CHAT_FORMAT"):
        kw["response_format"] = {"type": "json_object"}
    s = cls(events=events, strict=strict, **kw)
    rec = []
    failed = False
    for p in parts:
        try:
            rec.append(("ok", [ev_digest(e) for e in s.feed(p)]))
        except Exception as exc:
            rec.append(err_rec(exc)); failed = True
        rec.append(s.bytes_fed)
        if snaps:
            try:
                sn = s.snapshot()
                rec.append(("mid", h(sn), None if sn is None else h(sn.to_dict())))
            except Exception as exc:
                rec.append(("mid-err", type(exc).__name__, norm(str(exc))[:300]))
        if failed:
            break
    try:
        rec.append(("close", [ev_digest(e) for e in s.close()]))
    except Exception as exc:
        rec.append(err_rec(exc))
    try:
        snap = s.snapshot()
        rec.append(("snap", h(snap), h(snap.to_dict()) if snap is not None else None))
        if api == "responses" and snap is not None:
            rec.append(("text", h(snap.output_text)))
        if api != "responses":
            for what in ("parsed", "parsed_tool_arguments"):
                try:
                    rec.append((what, h(getattr(s, what)())))
                except Exception as exc:
                    rec.append((what, "err", type(exc).__name__, norm(str(exc))[:200]))
    except Exception as exc:
        rec.append(("snap-err", type(exc).__name__, norm(str(exc))[:300]))
    rec.append((s.outcome, norm(repr(dict(s.diagnostic_counts))), h(list(s.diagnostics)),
                norm(repr(s.error))[:600], s.closed, s.bytes_fed))
    try:
        s.feed(b"data: {}\n\n")
    except Exception as exc:
        rec.append(("after", type(exc).__name__, norm(str(exc))[:300]))
    return rec


def chunkings(rng, body):
    yield "whole", [body]
    if len(body) < MAXLEN:
        yield "bytes", [body[i:i + 1] for i in range(len(body))]
    cuts = sorted(rng.randint(0, len(body)) for _ in range(rng.randint(1, 30)))
    yield "rand", [body[a:b] for a, b in zip([0] + cuts, cuts + [len(body)])]
    # one chunk per block (cut after every blank line), and random groups of 1-3 blocks
    import re as _re
    ends = [m.end() for m in _re.finditer(rb"\n\n|\r\n\r\n|\r\r", body)]
    if ends:
        yield "blocks", [body[a:b] for a, b in zip([0] + ends, ends + [len(body)]) if b > a]
        g = sorted(set(e for e in ends if rng.random() < 0.5))
        yield "blocks2", [body[a:b] for a, b in zip([0] + g, g + [len(body)]) if b > a]
    for k in (4096, 65536):
        if len(body) > k // 2:
            yield f"fixed{k}", [body[i:i + k] for i in range(0, len(body), k)]


# ---- bodies -----------------------------------------------------------------------------------
def gen_bodies(seed, extra):
    rng = random.Random(seed)
    for name in sorted(G.SCENARIOS):
        api = G.SCENARIOS[name][0]
        sizes = [1, 7, 150, 1500] + [rng.randint(1, 3000) for _ in range(extra)]
        for n in sizes:
            yield f"gen:{name}:{n}", api, G.generate(name, n, seed=seed).data


def real_bodies():
    for f in sorted(glob.glob("/work/wt-before/tests/data/real/*.sse")):
        name = os.path.basename(f)
        yield "real:" + name, ("responses" if name.startswith("responses") else "chat"), open(f, "rb").read()


def frame_mutate(rng, body):
    """Framing edits that keep the events: line ends, comments, id/retry, BOM, empty lines."""
    ops = []
    r = rng.random()
    if r < 0.2:
        body = body.replace(b"\n", b"\r\n"); ops.append("crlf")
    elif r < 0.3:
        body = body.replace(b"\n", b"\r"); ops.append("cr")
    elif r < 0.45:
        body = re.sub(rb"\n", lambda m: rng.choice([b"\n", b"\r\n", b"\r"]), body); ops.append("mix")
    if rng.random() < 0.2:
        body = b"\xef\xbb\xbf" + body; ops.append("bom")
    if rng.random() < 0.3:
        blocks = body.split(b"\n\n")
        for i in range(len(blocks)):
            if rng.random() < 0.2:
                blocks[i] = rng.choice([b": keep-alive\n", b"id: %d\n" % i, b"retry: 1000\n", b":\n", b"id\n"]) + blocks[i]
        body = b"\n\n".join(blocks); ops.append("fields")
    if rng.random() < 0.1:
        body = body.replace(b"data: ", b"data:", rng.randint(1, 5)); ops.append("nospace")
    return body, ops


ODD = [True, False, 0, 1, -1, 1.0, 1.5, -0.0, 10**30, "s", "", None, [], {}, [[1]], {"a": {}},
       [None], ["x"], {"type": "x"}, float("inf")]


def paths(obj, prefix=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield prefix + (k,)
            yield from paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield prefix + (i,)
            yield from paths(v, prefix + (i,))


def json_mutate(rng, obj):
    ps = list(paths(obj))
    ops = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if not ps:
            break
        p = rng.choice(ps)
        tgt = obj
        for k in p[:-1]:
            tgt = tgt[k]
        r = rng.random()
        if r < 0.12 and isinstance(tgt, dict):
            del tgt[p[-1]]; ops.append(("del", p))
        elif r < 0.2 and isinstance(tgt, dict):
            tgt["zz_unknown"] = copy.deepcopy(rng.choice(ODD)); ops.append(("add", p))
        else:
            v = copy.deepcopy(rng.choice(ODD))
            tgt[p[-1]] = v; ops.append(("set", p, repr(v)))
        ps = list(paths(obj))
    return obj, ops


def json_body_mutate(rng, body, rate):
    """Odd JSON types at random paths of some events (the large ones more often)."""
    blocks = body.split(b"\n\n")
    ops = []
    for i, blk in enumerate(blocks):
        lines = blk.split(b"\n")
        for j, line in enumerate(lines):
            if not line.startswith(b"data: ") or line == b"data: [DONE]":
                continue
            p = rate * (5 if len(line) > 2000 else 1)
            if rng.random() >= p:
                continue
            try:
                obj = json.loads(line[6:])
            except ValueError:
                continue
            obj, o = json_mutate(rng, obj)
            ops.append(o)
            lines[j] = b"data: " + json.dumps(obj, ensure_ascii=rng.random() < 0.2, separators=(",", ":")).encode()
        blocks[i] = b"\n".join(lines)
    return b"\n\n".join(blocks), ops


def main():
    source, seed = sys.argv[1], int(sys.argv[2])
    nn = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random(seed * 7919 + 1)
    if source == "gen":
        bodies = list(gen_bodies(seed, nn - 1 if nn > 1 else 0))
    elif source == "real":
        bodies = list(real_bodies())
    elif source == "big":
        bodies = []
        for name, n in (("function_call", 3000), ("text", 3000), ("reasoning", 3000), ("image", 20000),
                        ("text_logprobs", 400), ("chat_tools", 3000), ("chat_text", 3000)):
            api = G.SCENARIOS[name][0]
            body = G.generate(name, n, seed=seed).data
            bodies.append((f"big:{name}:{n}", api, body))
            for k in range(nn):
                mb, ops = frame_mutate(rng, body)
                if rng.random() < 0.3:
                    mb, o2 = json_body_mutate(rng, mb, 0.01); ops = ops + ["json"] if o2 else ops
                bodies.append((f"big:{name}:{n}:{k}:{ops}", api, mb))
    else:
        base = list(real_bodies()) + [b for b in gen_bodies(seed, 0) if b[0].split(":")[2] in ("7", "150")]
        bodies = []
        for name, api, body in base:
            for k in range(nn):
                if source == "mut":
                    mb, ops = frame_mutate(rng, body)
                    if rng.random() < 0.5:
                        mb, o2 = json_body_mutate(rng, mb, 0.05); ops = ops + ["json"] if o2 else ops
                else:
                    mb, ops = json_body_mutate(rng, body, 0.1)
                bodies.append((f"{source}:{name}:{k}:{ops}"[:300], api, mb))
    runs = diffs = 0
    strict_opts = (False, True) if source in ("mut", "json") else (False,)
    for name, api, body in bodies:
        limits = ["default"]
        if source == "big":
            sizes = [sum(len(x) for x in re.split(rb"\r\n|\r|\n", blk) if x and x[:1] != b":")
                     for blk in re.split(rb"(?:\r\n|\r|\n){2}", body)]
            top = max(sizes)
            limits += [top - 1, top, top + 1, rng.choice(sizes)]
        for cname, parts in chunkings(rng, body):
          for limit in limits:
            for dec in ("stdlib", "orjson"):
                for events in (True, False):
                    for strict in strict_opts:
                        if strict and cname == "bytes":
                            continue
                        if limit != "default" and (cname == "bytes" or not events):
                            continue
                        sn = cname == "rand"
                        ra = run(N, api, parts, dec, events, strict, limit, sn)
                        rb = run(B, api, parts, dec, events, strict, limit, sn)
                        runs += 1
                        if ra != rb:
                            diffs += 1
                            if diffs <= 6:
                                print("DIFF", name, cname, dec, "events", events, "strict", strict, "limit", limit)
                                for i, (x, y) in enumerate(zip(ra, rb)):
                                    if x != y:
                                        print("  at", i, "\n   new", repr(x)[:700], "\n   old", repr(y)[:700]); break
                                if len(ra) != len(rb):
                                    print("  lengths", len(ra), len(rb))
                                os.makedirs("/tmp/r3", exist_ok=True)
                                with open(f"/tmp/r3/stream_diff_{source}_{seed}_{diffs}.sse", "wb") as f:
                                    f.write(body)
    print(f"stream_fuzz {source} seed={seed} n={nn} bodies={len(bodies)} runs={runs} differ={diffs}")


if __name__ == "__main__":
    main()
