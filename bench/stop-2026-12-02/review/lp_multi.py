"""Responses bodies with 1-3 message parts, each with logprobs on every delta, the .done
events repeating them; tokens full of brackets and deeply nested entries; several
max_nesting_depth values. Prints one digest line per case (diff the outputs of two trees).
Usage: lp_multi.py N SEED"""
import hashlib, json, random, sys
import sansio_responses as sr

def lp_entry(rng, kind):
    if kind == "normal":
        return {"token": rng.choice(["a", "b", "é"]), "logprob": -rng.random(), "bytes": [97], "top_logprobs": [{"token": "a", "logprob": -0.5, "bytes": [97]}]}
    if kind == "brackets":
        return {"token": "[" * rng.randint(1, 40) + "{" * rng.randint(0, 40), "logprob": -1.0, "bytes": [], "top_logprobs": []}
    if kind == "deep":
        v = 1
        for _ in range(rng.randint(1, 70)):
            v = [v] if rng.random() < 0.5 else {"k": v}
        return {"token": "d", "logprob": -1.0, "bytes": [], "top_logprobs": [], "x": v}
    return {}

def gen(rng):
    seq = 0
    out = []
    def add(o):
        nonlocal seq
        o["sequence_number"] = seq; seq += 1
        out.append(b"event: " + o["type"].encode() + b"\ndata: " + json.dumps(o, separators=(",", ":"), ensure_ascii=False).encode() + b"\n\n")
    resp = {"id": "resp_1", "object": "response", "created_at": 1, "status": "in_progress", "model": "m", "output": [], "usage": None}
    add({"type": "response.created", "response": dict(resp)})
    items = []
    for idx in range(rng.randint(1, 3)):
        iid = f"msg_{idx}"
        item = {"id": iid, "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
        add({"type": "response.output_item.added", "output_index": idx, "item": item})
        add({"type": "response.content_part.added", "item_id": iid, "output_index": idx, "content_index": 0,
             "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}})
        n = rng.choice([50, 300, 800])
        mix = rng.choice(["normal", "brackets", "deep", "mixed"])
        texts, lps = [], []
        for k in range(n):
            kind = mix if mix != "mixed" else rng.choice(["normal", "normal", "brackets", "deep", "empty"])
            lp = [lp_entry(rng, kind) for _ in range(rng.randint(1, 3))]
            d = rng.choice(["a", "é", " x", "/"])
            texts.append(d); lps += lp
            # alphabetical field order, as the API writes deltas
            o = {"content_index": 0, "delta": d, "item_id": iid, "logprobs": lp, "obfuscation": "zz",
                 "output_index": idx, "sequence_number": seq, "type": "response.output_text.delta"}
            seq += 1
            out.append(b"event: response.output_text.delta\ndata: " + json.dumps(o, separators=(",", ":"), ensure_ascii=False).encode() + b"\n\n")
        text = "".join(texts)
        add({"type": "response.output_text.done", "item_id": iid, "output_index": idx, "content_index": 0, "text": text, "logprobs": lps})
        part = {"type": "output_text", "annotations": [], "logprobs": lps, "text": text}
        add({"type": "response.content_part.done", "item_id": iid, "output_index": idx, "content_index": 0, "part": part})
        fitem = dict(item, status="completed", content=[part])
        add({"type": "response.output_item.done", "output_index": idx, "item": fitem})
        items.append(fitem)
    add({"type": "response.completed", "response": dict(resp, status="completed", output=items, usage={"input_tokens": 1, "output_tokens": 2, "total_tokens": 3})})
    return b"".join(out)

def digest(x):
    return hashlib.sha256(repr(x).encode()).hexdigest()[:12]

def main():
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for i in range(n):
        body = gen(rng)
        depth = rng.choice([None, "default", 10, 30, 60, 80])
        kw = {} if depth == "default" else {"max_nesting_depth": depth}
        jl = rng.choice([None, json.loads])
        for events in (True, False):
            s = sr.ResponsesStream(events=events, json_loads=jl, **kw)
            evs, err = [], None
            try:
                evs = s.feed(body); evs += s.close()
            except Exception as e:
                err = (type(e).__name__, str(e)[:300], getattr(e, "offset", None), getattr(e, "sequence_number", None))
                evs = list(getattr(e, "events", []) or [])
            try: snap = s.snapshot().to_dict()
            except Exception as e: snap = ("snap-err", type(e).__name__)
            print(i, len(body), depth, jl is not None, events, err, digest([e.to_dict() for e in evs]), digest(snap), dict(s.diagnostic_counts), s.outcome)
if __name__ == "__main__":
    main()
