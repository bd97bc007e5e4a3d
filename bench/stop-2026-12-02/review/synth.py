"""Build a Responses SSE body whose text is long (so the .done / terminal events are large
and repeat a held string)."""
import json

def ev(obj):
    return f"event: {obj['type']}\ndata: {json.dumps(obj, separators=(',', ':'), ensure_ascii=False)}\n\n".encode()

def body(text_pieces, *, terminated=True, done_text=None, completed_text=None, n_done_events=True):
    seq = 0
    out = []
    def add(o):
        nonlocal seq
        o["sequence_number"] = seq; seq += 1
        out.append(ev(o))
    resp = {"id": "resp_1", "object": "response", "created_at": 1, "status": "in_progress",
            "model": "gpt-x", "output": [], "usage": None}
    add({"type": "response.created", "response": dict(resp)})
    item = {"id": "msg_1", "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
    add({"type": "response.output_item.added", "output_index": 0, "item": item})
    add({"type": "response.content_part.added", "item_id": "msg_1", "output_index": 0, "content_index": 0,
         "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}})
    for p in text_pieces:
        add({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0,
             "delta": p, "logprobs": []})
    text = "".join(text_pieces)
    dt = text if done_text is None else done_text
    add({"type": "response.output_text.done", "item_id": "msg_1", "output_index": 0, "content_index": 0,
         "text": dt, "logprobs": []})
    part = {"type": "output_text", "annotations": [], "logprobs": [], "text": dt}
    add({"type": "response.content_part.done", "item_id": "msg_1", "output_index": 0, "content_index": 0, "part": part})
    fitem = dict(item, status="completed", content=[part])
    add({"type": "response.output_item.done", "output_index": 0, "item": fitem})
    ct = dt if completed_text is None else completed_text
    fpart = dict(part, text=ct)
    final = dict(resp, status="completed", output=[dict(fitem, content=[fpart])],
                 usage={"input_tokens": 1, "output_tokens": 2, "total_tokens": 3})
    add({"type": "response.completed", "response": final})
    b = b"".join(out)
    if not terminated:
        b = b[:-2]
    return b
