"""Responses bodies with a long text whose four closing events (output_text.done,
content_part.done, output_item.done, response.completed) carry texts and escapings chosen
per event."""
import json

def enc(obj, ascii_=False):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=ascii_)

def body(pieces, texts=(None, None, None, None), post=(None, None, None, None), ascii_=(False,) * 4,
         logprobs=None):
    seq = 0
    out = []
    def add(o, ascii_=False, post=None):
        nonlocal seq
        o["sequence_number"] = seq; seq += 1
        d = enc(o, ascii_).encode()
        if post: d = post(d)
        out.append(b"event: " + o["type"].encode() + b"\ndata: " + d + b"\n\n")
    resp = {"id": "resp_1", "object": "response", "created_at": 1, "status": "in_progress",
            "model": "gpt-x", "output": [], "usage": None}
    add({"type": "response.created", "response": dict(resp)})
    item = {"id": "msg_1", "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
    add({"type": "response.output_item.added", "output_index": 0, "item": item})
    add({"type": "response.content_part.added", "item_id": "msg_1", "output_index": 0, "content_index": 0,
         "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}})
    for k, p in enumerate(pieces):
        add({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0,
             "delta": p, "logprobs": (logprobs(k, p) if logprobs else [])})
    text = "".join(pieces)
    t = [text if x is None else x for x in texts]
    add({"type": "response.output_text.done", "item_id": "msg_1", "output_index": 0, "content_index": 0,
         "text": t[0], "logprobs": []}, ascii_[0], post[0])
    part = lambda tx: {"type": "output_text", "annotations": [], "logprobs": [], "text": tx}
    add({"type": "response.content_part.done", "item_id": "msg_1", "output_index": 0, "content_index": 0,
         "part": part(t[1])}, ascii_[1], post[1])
    fitem = lambda tx: dict(item, status="completed", content=[part(tx)])
    add({"type": "response.output_item.done", "output_index": 0, "item": fitem(t[2])}, ascii_[2], post[2])
    final = dict(resp, status="completed", output=[fitem(t[3])],
                 usage={"input_tokens": 1, "output_tokens": 2, "total_tokens": 3})
    add({"type": "response.completed", "response": final}, ascii_[3], post[3])
    return b"".join(out)
