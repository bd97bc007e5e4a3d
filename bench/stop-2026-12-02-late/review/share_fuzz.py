"""Attack load_sharing/_cuts (final4): multi-item Responses bodies with long texts (held strings)
whose large .done / terminal events repeat them: repeated, reordered (the terminal event's
output in another order), one text the prefix of another, equal texts in two items, a text as a
dict key, inside a longer string, escaped differently (\\u00e9, \\/, ensure_ascii), truncated,
extended, instructions in the response object, extra copies in other fields; the final event
unterminated or not; chunked whole / random.

Each run checks every event's to_dict() == json.loads(its data) (events=True), the snapshot's
output == the terminal event's output when the body is consistent, and prints one digest line per
case (run under both trees and diff). Usage: share_fuzz.py SEED N
Prints to stderr: cases, value-check failures, and how many held strings the terminal events
shared (identity with the snapshot's texts), for information.
"""
import gc, hashlib, json, os, random, sys
import sansio_responses as sr

WORDS = ["héllo ", "wörld ", "a/b ", 'q"uote ', "back\\slash ", "line\nfeed ", "tab\t", "plain ", "ünï ",
         "😀 ", "x" * 7, "</s> ", "\u2028 ", "\x7f", "\x01", "日本語 ", "\\u00e9 ", "NaN "]

def text(rng, n):
    ws = WORDS if rng.random() < 0.8 else ["abc ", "def ", "ghi "]  # sometimes ASCII only
    return "".join(rng.choice(ws) for _ in range(n))

def enc(o, ascii_=False):
    return json.dumps(o, separators=(",", ":"), ensure_ascii=ascii_)

def make(rng):
    seq = 0
    blocks, datas = [], []
    def add(o, ascii_=False, post=None):
        nonlocal seq
        o["sequence_number"] = seq; seq += 1
        d = enc(o, ascii_).encode("utf-8", "surrogatepass")
        if post: d = post(d)
        blocks.append(b"event: " + o["type"].encode() + b"\ndata: " + d + b"\n\n")
        datas.append(d)
    instr = text(rng, rng.choice([0, 0, 1200, 3000])) or None
    resp = {"id": "resp_1", "object": "response", "created_at": 1, "status": "in_progress",
            "model": "gpt-x", "instructions": instr, "output": [], "usage": None}
    add({"type": "response.created", "response": dict(resp)})
    nitems = rng.randint(1, 4)
    items, finals = [], []
    shared_texts = []
    for oi in range(nitems):
        kind = rng.choice(["message", "message", "function_call", "reasoning"])
        size = rng.choice([1500, 3000, 6000, 12000])
        if shared_texts and rng.random() < 0.2:
            t = rng.choice(shared_texts)                       # equal text in two items
        elif shared_texts and rng.random() < 0.2:
            t = rng.choice(shared_texts) + text(rng, 50)       # one text the prefix of another
        elif shared_texts and rng.random() < 0.1:
            t = text(rng, 30) + rng.choice(shared_texts)       # one text the suffix of another
        else:
            t = text(rng, size)
        shared_texts.append(t)
        npieces = rng.randint(3, 40)
        cuts = sorted(rng.sample(range(1, len(t)), min(npieces, len(t) - 1)))
        pieces = [t[a:b] for a, b in zip([0] + cuts, cuts + [len(t)])]
        if kind == "message":
            iid = f"msg_{oi}"
            item = {"id": iid, "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
            add({"type": "response.output_item.added", "output_index": oi, "item": item})
            add({"type": "response.content_part.added", "item_id": iid, "output_index": oi, "content_index": 0,
                 "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}})
            for p in pieces:
                add({"type": "response.output_text.delta", "item_id": iid, "output_index": oi, "content_index": 0,
                     "delta": p, "logprobs": []})
            part = {"type": "output_text", "annotations": [], "logprobs": [], "text": t}
            add({"type": "response.output_text.done", "item_id": iid, "output_index": oi, "content_index": 0,
                 "text": t, "logprobs": []})
            add({"type": "response.content_part.done", "item_id": iid, "output_index": oi, "content_index": 0, "part": part})
            fin = dict(item, status="completed", content=[part])
        elif kind == "function_call":
            iid = f"fc_{oi}"
            item = {"id": iid, "type": "function_call", "call_id": "c", "name": "f", "arguments": "", "status": "in_progress"}
            add({"type": "response.output_item.added", "output_index": oi, "item": item})
            for p in pieces:
                add({"type": "response.function_call_arguments.delta", "item_id": iid, "output_index": oi, "delta": p})
            add({"type": "response.function_call_arguments.done", "item_id": iid, "output_index": oi, "arguments": t})
            fin = dict(item, status="completed", arguments=t)
        else:
            iid = f"rs_{oi}"
            item = {"id": iid, "type": "reasoning", "summary": []}
            add({"type": "response.output_item.added", "output_index": oi, "item": item})
            add({"type": "response.reasoning_summary_part.added", "item_id": iid, "output_index": oi, "summary_index": 0,
                 "part": {"type": "summary_text", "text": ""}})
            for p in pieces:
                add({"type": "response.reasoning_summary_text.delta", "item_id": iid, "output_index": oi, "summary_index": 0, "delta": p})
            add({"type": "response.reasoning_summary_text.done", "item_id": iid, "output_index": oi, "summary_index": 0, "text": t})
            fin = dict(item, summary=[{"type": "summary_text", "text": t}])
        if rng.random() < 0.9:
            add({"type": "response.output_item.done", "output_index": oi, "item": fin},
                ascii_=rng.random() < 0.15)
        items.append(item); finals.append(fin)
    # the terminal event, attacked
    out = [json.loads(json.dumps(f)) for f in finals]
    attacks = []
    consistent = True
    def a(name):
        attacks.append(name)
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        kind = rng.choice(["reorder", "repeat", "key", "inside", "prefix_str", "truncate", "extend", "escape",
                           "copyfield", "drop_item", "extra_item", "instr_repeat", "swapchar"])
        i = rng.randrange(len(out))
        it = out[i]
        def get_text(it):
            if it["type"] == "message": return it["content"][0]["text"]
            if it["type"] == "function_call": return it["arguments"]
            return it["summary"][0]["text"]
        def set_text(it, v):
            if it["type"] == "message": it["content"][0]["text"] = v
            elif it["type"] == "function_call": it["arguments"] = v
            else: it["summary"][0]["text"] = v
        t = get_text(it)
        if kind == "reorder" and len(out) > 1:
            rng.shuffle(out); a("reorder"); consistent = False
        elif kind == "repeat":
            it["copy"] = t; a("repeat")
        elif kind == "key":
            it["meta"] = {t: t if rng.random() < 0.5 else 1}; a("key")
        elif kind == "inside":
            it["meta2"] = rng.choice(["pre", "\\", "\"", " "]) + t + rng.choice(["", "post", "\\"]); a("inside")
        elif kind == "prefix_str":
            it["meta3"] = t[: rng.randrange(len(t))]; a("prefix_str")
        elif kind == "truncate":
            set_text(it, t[:-1]); a("truncate"); consistent = False
        elif kind == "extend":
            set_text(it, t + "!"); a("extend"); consistent = False
        elif kind == "swapchar" and len(t) > 3:
            m = len(t) // 2
            set_text(it, t[:m] + t[m + 1] + t[m] + t[m + 2:]); a("swapchar"); consistent = False
        elif kind == "escape":
            a("escape")  # done on the bytes below
        elif kind == "copyfield":
            out[rng.randrange(len(out))].setdefault("notes", []).append(rng.choice(shared_texts)); a("copyfield")
        elif kind == "drop_item" and len(out) > 1:
            out.pop(i); a("drop_item"); consistent = False
        elif kind == "extra_item":
            out.insert(rng.randrange(len(out) + 1), {"id": "x", "type": "message", "status": "completed", "role": "assistant",
                                                     "content": [{"type": "output_text", "annotations": [], "text": rng.choice(shared_texts)}]})
            a("extra_item"); consistent = False
        elif kind == "instr_repeat" and instr:
            it["instr"] = instr; a("instr_repeat")
    final = dict(resp, status="completed", output=out, usage={"input_tokens": 1, "output_tokens": 2, "total_tokens": 3})
    post = None
    if "escape" in attacks:
        post = rng.choice([lambda d: d.replace("é".encode(), b"\\u00e9"),
                           lambda d: d.replace("é".encode(), b"\\u00e9", 1),
                           lambda d: d.replace(b"/", b"\\/"),
                           lambda d: d.replace(b"plain", b"pl\\u0061in", 1),
                           lambda d: d.replace(b"\\n", b"\\u000a", 1)])
    term = rng.choice(["response.completed"] * 5 + ["response.incomplete"])
    final["status"] = term.split(".")[1]
    add({"type": term, "response": final}, ascii_=rng.random() < 0.1, post=post)
    b = b"".join(blocks)
    if rng.random() < 0.2:
        b = b[:-2]; attacks.append("unterminated")
    if rng.random() < 0.1:
        b = b[:-1]; attacks.append("unterminated1")
    return b, datas, attacks, consistent

def run(b, datas, events, parts, max_depth):
    kw = {} if max_depth == "default" else {"max_nesting_depth": max_depth}
    s = sr.ResponsesStream(events=events, json_loads=json.loads if os.environ.get("STDLIB") else None, **kw)
    evs, err = [], None
    try:
        for p in parts:
            evs += s.feed(p)
        evs += s.close()
    except Exception as exc:
        err = (type(exc).__name__, str(exc)[:300], getattr(exc, "offset", None), getattr(exc, "sequence_number", None))
        evs += getattr(exc, "events", None) or []
    bad = []
    if events:
        truth = [json.loads(d) for d in datas]
        if len(evs) != len(truth):
            bad.append(("n-events", len(evs), len(truth)))
        for e, t in zip(evs, truth):
            if e.to_dict() != t:
                bad.append(("event", e.type, e.sequence_number))
    try:
        snap = s.snapshot().to_dict()
    except Exception as exc:
        snap = ("snap-err", type(exc).__name__, str(exc))
    shared = 0
    if events and evs and isinstance(snap, dict):
        last = evs[-1].to_dict().get("response") or {}
        held = {id(x) for x in _strings(snap)}
        shared = sum(1 for x in _strings(last) if id(x) in held and len(x) >= 4096)
    h = hashlib.sha256(repr(([e.to_dict() for e in evs], snap, err, s.outcome, dict(s.diagnostic_counts),
                              list(s.diagnostics))).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return bad, h, err, snap, shared

def _strings(x):
    st = [x]
    while st:
        n = st.pop()
        if type(n) is str: yield n
        elif type(n) is dict: st.extend(n.values())
        elif type(n) is list: st.extend(n)

def run_resume(rng, b, events, dec):
    """Cut the body after a random block of its second half (or inside it), close, reconnect()
    (or a new stream with resume_from=), then replay from up to 6 blocks earlier."""
    blocks = [x + b"\n\n" for x in b.split(b"\n\n") if x.strip()]
    k = rng.randint(len(blocks) // 2, max(len(blocks) // 2, len(blocks) - 1))
    first = b"".join(blocks[:k])
    if rng.random() < 0.3 and k < len(blocks):
        first += blocks[k][: rng.randint(1, len(blocks[k]) - 1)]
    second = b"".join(blocks[rng.randint(max(0, k - 6), k):])
    how = rng.choice(["reconnect", "resume_from"])
    kw = {"json_loads": json.loads} if dec == "stdlib" else {}
    s = sr.ResponsesStream(events=events, **kw)
    log, evs = [], []
    def step(f):
        try:
            f(); log.append("ok")
        except Exception as exc:
            log.append((type(exc).__name__, str(exc)[:200]))
    step(lambda: evs.extend(s.feed(first)))
    step(lambda: s.close())
    if how == "reconnect":
        step(lambda: s.reconnect())
    else:
        s = sr.ResponsesStream(events=events, resume_from=s, **kw)
    parts = [second[i:i + 4093] for i in range(0, len(second), 4093)]
    def feed2():
        for p in parts: evs.extend(s.feed(p))
        evs.extend(s.close())
    step(feed2)
    try:
        snap = s.snapshot(); snap = snap.to_dict() if snap is not None else None
    except Exception as exc:
        snap = ("snap-err", type(exc).__name__)
    return how, log, hashlib.sha256(repr(([e.to_dict() for e in evs], snap, dict(s.diagnostic_counts), s.outcome)).encode("utf-8", "surrogatepass")).hexdigest()[:16]

def main():
    if os.environ.get("RESUME"):
        seed, n = int(sys.argv[1]), int(sys.argv[2])
        rng = random.Random(seed)
        cases = 0
        for i in range(n):
            b, datas, attacks, consistent = make(rng)
            crng = random.Random(seed * 31 + i)
            for events in (True, False):
                for dec in ("stdlib", "orjson"):
                    print(i, events, dec, ",".join(attacks), *run_resume(crng, b, events, dec))
                    cases += 1
        print("resume cases", cases, file=sys.stderr)
        return
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    cases = nbad = shared_total = 0
    for i in range(n):
        b, datas, attacks, consistent = make(rng)
        crng = random.Random(seed * 7919 + i)
        chunkings = [("whole", [b])]
        cuts = sorted(crng.randint(0, len(b)) for _ in range(crng.randint(1, 20)))
        chunkings.append(("rand", [b[x:y] for x, y in zip([0] + cuts, cuts + [len(b)])]))
        for cname, parts in chunkings:
            for events in (True, False):
                md = crng.choice(["default", None, 12])
                bad, h, err, snap, shared = run(b, datas, events, parts, md)
                if consistent and not err and events and isinstance(snap, dict):
                    term = json.loads(datas[-1]) if not attacks or "unterminated" not in attacks[-1] else json.loads(datas[-1])
                    if snap.get("output") != term["response"]["output"]:
                        bad.append("snapshot!=terminal.output")
                cases += 1; nbad += bool(bad); shared_total += shared
                print(i, cname, events, md, ",".join(attacks), h, err and err[0], bad)
    print("cases", cases, "bad", nbad, "shared", shared_total, file=sys.stderr)

if __name__ == "__main__":
    main()
