"""Mutation fuzzer: parse each event of a body, mutate hostile values at random paths,
re-serialise in odd ways, and check cross-mode invariants (h.check). Usage: mfuzz.py SEED N [chat|resp]"""
import sys, json, random, os
sys.path.insert(0, os.path.dirname(__file__)); sys.path.insert(0, "/work/wt-review")
import sansio_responses as sr
from h import check
from bench.generate import generate

ODD = [None, True, False, 0, 1, -1, 2**63, 2**64-1, -2**63, 1.5, -0.0, 1e308, float("nan"), float("inf"),
       "", "x", "\ud800", "\x00", "\ufeff", "a\r\nb", [], {}, [None], {"type": "zzz"}, [[[]]], "response.completed",
       {"type": "message"}, {"type": "output_text", "text": "q"}, 10**6, 2**31, -5, "0", 3.0]

def paths(o, pre=()):
    yield pre
    if isinstance(o, dict):
        for k, v in o.items():
            yield from paths(v, pre + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from paths(v, pre + (i,))

def setp(o, p, v):
    if not p: return v
    cur = o
    for k in p[:-1]: cur = cur[k]
    cur[p[-1]] = v
    return o

def delp(o, p):
    cur = o
    for k in p[:-1]: cur = cur[k]
    del cur[p[-1]]

def dumps(rng, o):
    r = rng.random()
    if r < 0.5:
        return json.dumps(o, separators=(",", ":"), ensure_ascii=False)
    if r < 0.8:
        return json.dumps(o)
    return json.dumps(o, indent=None, separators=(", ", ": "), ensure_ascii=rng.random() < 0.5)

def split_body(body, chat):
    blocks = [b for b in body.split(b"\n\n") if b.strip()]
    out = []
    for b in blocks:
        lines = b.split(b"\n")
        ev = None; data = []
        for l in lines:
            if l.startswith(b"event: "): ev = l[7:]
            elif l.startswith(b"data: "): data.append(l[6:])
        out.append((ev, b"\n".join(data)))
    return out

def join(blocks):
    parts = []
    for ev, data in blocks:
        s = b""
        if ev is not None: s += b"event: " + ev + b"\n"
        for line in data.split(b"\n"):
            s += b"data: " + line + b"\n"
        parts.append(s + b"\n")
    return b"".join(parts)

def mutate(rng, blocks):
    blocks = list(blocks)
    nm = rng.choice([1, 1, 1, 2, 3])
    for _ in range(nm):
        i = rng.randrange(len(blocks))
        ev, data = blocks[i]
        try:
            o = json.loads(data)
        except Exception:
            continue
        op = rng.random()
        ps = list(paths(o))
        p = rng.choice(ps[1:] or ps)
        if op < 0.55:
            v = rng.choice(ODD)
            o = setp(o, p, json.loads(json.dumps(v)) if not isinstance(v, float) else v)
        elif op < 0.65 and p:
            delp(o, p)
        elif op < 0.75:
            # duplicate an event (repeat)
            blocks.insert(i, (ev, data)); continue
        elif op < 0.82:
            # move event
            j = rng.randrange(len(blocks)); blocks.insert(j, blocks.pop(i)); continue
        elif op < 0.9:
            # add unknown field
            if isinstance(o, dict): o["zz_new"] = rng.choice(ODD[:12])
        else:
            # duplicate key textual
            s = dumps(rng, o)
            if s.startswith("{") and len(s) > 2 and isinstance(o, dict) and o:
                k = rng.choice(list(o))
                s = "{" + json.dumps(k) + ":" + json.dumps(rng.choice(ODD[:12])) + "," + s[1:]
            blocks[i] = (ev, s.encode("utf-8", "surrogatepass")); continue
        try:
            s = dumps(rng, o)
        except Exception:
            continue
        blocks[i] = (ev, s.encode("utf-8", "surrogatepass"))
    if rng.random() < 0.1:
        blocks = blocks[: rng.randrange(1, len(blocks) + 1)]
    return blocks

def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    which = sys.argv[3] if len(sys.argv) > 3 else "resp"
    rng = random.Random(seed)
    scen = ["chat_text", "chat_tools", "chat_azure", "chat_logprobs"] if which == "chat" else [
        "text", "text_logprobs", "text_items", "function_call", "reasoning", "image", "text_gapped", "text_reordered", "index_jumps"]
    cls = sr.ChatCompletionsStream if which == "chat" else sr.ResponsesStream
    seen = set(); nprob = 0
    for it in range(n):
        sc = rng.choice(scen)
        g = generate(sc, rng.choice([1, 3, 8, 20]), seed=rng.randrange(1000))
        body = g.body if hasattr(g, "body") else g.data
        blocks = split_body(body, which == "chat")
        mb = mutate(rng, blocks)
        mbody = join(mb)
        probs, ref = check(cls, mbody, random.Random(it), strict=rng.random() < 0.2)
        for p in probs:
            key = (p[0], p[1], str(p[2])[:60]) if p[0] == "untyped" else (p[0], p[1], p[2][1])
            sig = (p[0], p[1], (p[2] if p[0] == "untyped" else p[3])[:80] if False else None, str(p)[:120])
            k2 = (p[0], p[1], p[2][1] if p[0]=="differs" else p[2][0])
            if k2 not in seen or len(seen) < 50:
                seen.add(k2)
                nprob += 1
                fn = f"/tmp/r4/{which}-{seed}-{it}.sse"
                os.makedirs("/tmp/r4", exist_ok=True)
                open(fn, "wb").write(mbody)
                print("PROBLEM", fn, sc, repr(p)[:1500], flush=True)
                break
    print("done", n, "problems", nprob)

main()
