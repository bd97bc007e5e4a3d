"""Differential run over Responses bodies whose text deltas carry odd logprobs (the lazy JSON
text path of lpmem). Usage: lp_diff.py OUT N SEED"""
import gc, json, pickle, random, sys
sys.path.insert(0, "/work/notes/review")
from stream_diff import run, chunkings
import sansio_responses as sr

LP = [
    b'[{"token":"a","logprob":-0.1,"bytes":[97],"top_logprobs":[{"token":"a","logprob":-0.1,"bytes":[97]}]}]',
    b'[{"token":"\xc3\xa9","logprob":-1.5e-3,"bytes":[195,169],"top_logprobs":[]}]',
    b'[{"token":"\\u00e9","logprob":-1,"bytes":[195,169],"top_logprobs":[]}]',
    b'[{"token":"a\\/b","logprob":-0.0,"bytes":[],"top_logprobs":[]}]',
    b'[{"token":"q\\"],\\"obfuscation\\":","logprob":-2,"bytes":[1]}]',
    b'[{"token":"x","logprob":NaN}]', b'[{"token":"x","logprob":Infinity}]', b'[{"token":"x","logprob":-Infinity}]',
    b'[{"token":"x","logprob":123456789012345678901234567890}]', b'[{"token":"x","logprob":1e400}]',
    b'[[[[[[[[1]]]]]]]]', b'[{}]', b'[null]', b'[1,"two",3.0,true,false,null]', b'[[],[{}],{"a":[]}]',
    b'{"a":1}', b'"str"', b'5', b'null', b'true', b'[]', b'[ ]', b' [1]', b'[1 ]', b'[ 1]',
    b'[{"obfuscation":1,"x":[2]}]', b'[{"top":[1],"obfuscation":2}]', b'[{"logprobs":[1]}]',
    b'[{"token":"a","logprob":-0.1}, {"token":"b","logprob":-0.2}]',
    b'[{"token":"a","logprob":-0.1,"bytes":[97],"top_logprobs":[{"token":"a","logprob":-0.1,"bytes":[97]}]}]' * 0 + b'[' + b','.join([b'{"token":"t%d","logprob":-0.%d,"bytes":[1,2,3],"top_logprobs":[{"token":"u","logprob":-1.0,"bytes":[]}]}' % (i, i) for i in range(20)]) + b']',
    b'[{"token":"\\ud800","logprob":-1}]', b'[{"token":"\xff","logprob":-1}]', b'[{"token":"a\x00b"}]',
    b'[{"token":"a","logprob":-0.1,"token":"dup"}]',
]
NORMAL = LP[0]

def delta(seq, d, lp, order):
    fields = {
        "type": b'"response.output_text.delta"', "sequence_number": str(seq).encode(),
        "item_id": b'"msg_1"', "output_index": b"0", "content_index": b"0",
        "delta": json.dumps(d, ensure_ascii=(order != "alpha")).encode(), "logprobs": lp, "obfuscation": b'"abc"',
    }
    keys = list(fields)
    if order == "alpha":
        keys = ["content_index", "delta", "item_id", "logprobs", "obfuscation", "output_index", "sequence_number", "type"]
    elif order == "lplast":
        keys.remove("logprobs"); keys.remove("obfuscation"); keys += ["logprobs"]
    elif order == "nolp":
        keys.remove("logprobs")
    elif order == "duplp":
        keys.append("logprobs")
    elif order == "spaced":
        return b"{" + b", ".join(b'"%s": %s' % (k.encode(), fields[k]) for k in keys) + b"}"
    return b"{" + b",".join(b'"%s":%s' % (k.encode(), fields[k]) for k in keys) + b"}"

def ev(t, data):
    return b"event: " + t.encode() + b"\ndata: " + data + b"\n\n"

def gen(rng):
    seq = 0
    out = []
    def add(o):
        nonlocal seq
        o["sequence_number"] = seq; seq += 1
        out.append(ev(o["type"], json.dumps(o, separators=(",", ":"), ensure_ascii=False).encode()))
    resp = {"id": "resp_1", "object": "response", "created_at": 1, "status": "in_progress", "model": "m", "output": [], "usage": None}
    add({"type": "response.created", "response": dict(resp)})
    item = {"id": "msg_1", "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
    add({"type": "response.output_item.added", "output_index": 0, "item": item})
    add({"type": "response.content_part.added", "item_id": "msg_1", "output_index": 0, "content_index": 0,
         "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}})
    clean = rng.random() < 0.5
    n = rng.choice([1, 3, 10, 60, 400, 3000]) if not clean else rng.choice([300, 700, 1500])
    weird = rng.random() if not clean else 0.0
    texts, lps = [], []
    for k in range(n):
        lp = NORMAL if rng.random() > weird * 0.3 else rng.choice(LP)
        if rng.random() < 0.3: lp = LP[-9]  # 20 entries: long
        if clean and rng.random() < 0.0005: lp = rng.choice(LP[1:5])
        order = rng.choice(["api"] * 3 + ["alpha"] * 3 + ["lplast", "nolp", "duplp", "spaced"]) if rng.random() < weird else "alpha"
        d = rng.choice(["a", "é", " x", "\n", "\"", "/"])
        texts.append(d)
        lps.append((lp, order))
        out.append(ev("response.output_text.delta", delta(seq, d, lp, order))); seq += 1
    text = "".join(texts)
    # the done events repeat the logprobs (as the API does) as the join of the delta arrays
    good = [lp for lp, order in lps if order not in ("nolp",) and lp.strip().startswith(b"[") ]
    try:
        alllp = json.loads(b"[" + b",".join(x.strip()[1:-1] for x in good if x.strip()[1:-1].strip()) + b"]")
        lptext = b"[" + b",".join(x.strip()[1:-1] for x in good if x.strip()[1:-1].strip()) + b"]"
    except Exception:
        lptext = b"[]"
    if rng.random() < 0.1: lptext = b"[]"
    lpt = [lptext] * 4
    if clean:
        m = rng.choice(["exact", "exact", "flip", "slash", "space", "droplast", "extra", "uesc"])
        which = rng.randrange(4)
        t = lptext
        if m == "flip" and len(t) > 10:
            i = rng.randrange(1, len(t) - 1)
            c = t[i:i+1]
            t = t[:i] + (b"7" if c.isdigit() and c != b"7" else b"8" if c.isdigit() else c) + t[i+1:]
            if c == b"-": t = t[:i] + b"-" + t[i+1:]
            j = t.find(b"-0.1", rng.randrange(len(t)))
            if j >= 0: t = t[:j] + b"-0.2" + t[j+4:]
        elif m == "slash": t = t.replace(b'"t1"', b'"t\/1"')
        elif m == "space": t = t.replace(b"},{", b"}, {", 1)
        elif m == "droplast" and t.count(b"},{") > 1: t = t[: t.rfind(b',{"token"')] + b"]"
        elif m == "extra": t = t[:-1] + b',{"token":"z","logprob":-9}]' if len(t) > 2 else t
        elif m == "uesc": t = t.replace(b'"a"', b'"\u0061"', 1)
        lpt[which] = t
        for w in range(which + 1, 4):
            if rng.random() < 0.5: lpt[w] = t
    done = b'{"type":"response.output_text.done","sequence_number":%d,"item_id":"msg_1","output_index":0,"content_index":0,"text":%s,"logprobs":%s}' % (seq, json.dumps(text, ensure_ascii=False).encode(), lpt[0])
    out.append(ev("response.output_text.done", done)); seq += 1
    partf = lambda lt: b'{"type":"output_text","annotations":[],"logprobs":%s,"text":%s}' % (lt, json.dumps(text, ensure_ascii=False).encode())
    out.append(ev("response.content_part.done", b'{"type":"response.content_part.done","sequence_number":%d,"item_id":"msg_1","output_index":0,"content_index":0,"part":%s}' % (seq, partf(lpt[1])))); seq += 1
    itmf = lambda lt: b'{"id":"msg_1","type":"message","status":"completed","content":[%s],"role":"assistant"}' % partf(lt)
    itm = itmf(lpt[2])
    out.append(ev("response.output_item.done", b'{"type":"response.output_item.done","sequence_number":%d,"output_index":0,"item":%s}' % (seq, itm))); seq += 1
    if rng.random() < 0.85:
        out.append(ev("response.completed", b'{"type":"response.completed","sequence_number":%d,"response":{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"m","output":[%s],"usage":{"input_tokens":1,"output_tokens":2,"total_tokens":3}}}' % (seq, itmf(lpt[3]))))
    return b"".join(out)

def main():
    outp, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    loaders = [("default", None), ("json.loads", json.loads), ("custom", lambda s: json.loads(s))]
    res = []
    for i in range(n):
        body = gen(rng)
        lname, jl = rng.choice(loaders)
        cls = (lambda jl: (lambda events: sr.ResponsesStream(events=events, json_loads=jl)))(jl)
        for cname, parts in list(chunkings(rng, body, len(body) < 30000)):
            for events in (True, False):
                res.append(((i, lname, cname, events, len(body)), run(cls, parts, events)))
            if cname == "whole":
                res.append(((i, lname, cname, "late", len(body)), run(cls, parts, True, read_late=True)))
    pickle.dump(res, open(outp, "wb"))
    print(len(res), "runs")
if __name__ == "__main__":
    main()
