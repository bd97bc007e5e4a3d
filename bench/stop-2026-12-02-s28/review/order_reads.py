"""Single thread, NEW vs OLD: the lazy values of returned events (Responses `.snapshot` /
`.parsed`, Chat `content_snapshot` / `content_parsed` / `tool_arguments_parsed`) read at random
moments and in random order: after each feed, a random subset of ALL events returned so far,
shuffled; at the end all of them in reverse; plus the stream's snapshot / parsed. Exercises
fda747f's Text.sealed bookkeeping (merges every 64 pieces, joins by reads, older values re-parsed).
Usage: order_reads.py SEED"""
import hashlib, json, random, sys
sys.path.insert(0, "/work/notes/review3")
from dual import N, B, norm
sys.path.insert(0, "/work/wt-before/bench")
import generate as G

seed = int(sys.argv[1])
READP = float(sys.argv[2]) if len(sys.argv) > 2 else 0.15
NN = int(sys.argv[3]) if len(sys.argv) > 3 else 2500
TF = {"type": "json_schema", "name": "x", "schema": {"type": "object"}}


def vals(e, rng):
    out = []
    for a in ("snapshot", "parsed"):
        if hasattr(type(e), a) and (a == "parsed" or rng.random() < 0.2):
            try:
                out.append((a, norm(repr(getattr(e, a)))))
            except Exception as exc:
                out.append((a, "err", type(exc).__name__, norm(str(exc))[:100]))
    if hasattr(type(e), "tool_arguments_parsed"):
        for w, args in (("content_snapshot", (0,)), ("content_parsed", (0,)), ("tool_arguments_parsed", (0, 0)), ("tool_arguments_parsed", (0, 1))):
            if w == "content_snapshot" and rng.random() > 0.2:
                continue
            try:
                out.append((w, args, norm(repr(getattr(e, w)(*args)))))
            except Exception as exc:
                out.append((w, args, "err", type(exc).__name__))
    return out


def run(M, api, body, dec, kw, rseed):
    rng = random.Random(rseed)
    cls = M.ResponsesStream if api == "responses" else M.ChatCompletionsStream
    if dec == "stdlib":
        kw = dict(kw, json_loads=json.loads)
    s = cls(**kw)
    evs, rec = [], []
    i = 0
    while i < len(body):
        k = rng.choice([1, 7, 50, 301, 4096])
        try:
            evs += s.feed(body[i:i + k])
        except M.ProtocolError as exc:
            rec.append(("err", type(exc).__name__)); break
        i += k
        if evs and rng.random() < READP:
            idx = rng.sample(range(len(evs)), min(len(evs), rng.randint(1, 6))) if rng.random() < 0.3 else [len(evs) - 1]
            for j in idx:
                rec.append((j, vals(evs[j], rng)))
        if rng.random() < 0.01:
            try:
                rec.append(("snap", norm(repr(s.snapshot()))[-200:]))
                if api != "responses":
                    rec.append(("p", norm(repr(s.parsed())), norm(repr(s.parsed_tool_arguments()))))
            except Exception as exc:
                rec.append(("snap-err", type(exc).__name__))
    try:
        evs += s.close()
    except M.ProtocolError as exc:
        rec.append(("err", type(exc).__name__))
    for j in reversed(range(len(evs))):
        rec.append((j, vals(evs[j], rng)))
    return hashlib.sha256(repr(rec).encode("utf-8", "surrogatepass")).hexdigest(), len(rec), rec


runs = diffs = 0
cases = []
for name, n, kw in (("function_call", NN, {}), ("chat_tools", NN, {}), ("text", NN // 3, {}),
                    ("reasoning", NN // 3, {}), ("chat_text", NN, {"response_format": {"type": "json_object"}})):
    api = G.SCENARIOS[name][0]
    body = G.generate(name, n, seed=seed).data
    if name == "text":  # make the text JSON so parsed has something to parse
        pass
    for dec in ("stdlib", "orjson"):
        for r in range(4):
            a = run(N, api, body, dec, kw, seed * 100 + r)
            b = run(B, api, body, dec, kw, seed * 100 + r)
            runs += 1
            if a[0] != b[0]:
                diffs += 1
                for x, y in zip(a[2], b[2]):
                    if x != y:
                        print("DIFF", name, dec, r, "\n  new", repr(x)[:300], "\n  old", repr(y)[:300]); break
print(f"order_reads seed={seed} runs={runs} differ={diffs}")
