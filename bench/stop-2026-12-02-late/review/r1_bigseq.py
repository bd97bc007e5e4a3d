"""A text delta with a 4300-digit sequence number, then the next one: with json.loads (templates),
feed() must not raise a bare ValueError.  Usage: python r1_bigseq.py"""
import json, sys
import sansio_responses as sr

def ev(o):
    return f"event: {o['type']}\ndata: {json.dumps(o, separators=(',', ':'))}\n\n".encode()

big = 10**4300 - 1          # 4300 digits: the most json.loads reads
head = [
    {"type": "response.created", "sequence_number": 0,
     "response": {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}},
    {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0,
     "item": {"id": "msg_1", "type": "message", "status": "in_progress", "content": [], "role": "assistant"}},
    {"type": "response.content_part.added", "sequence_number": 2, "item_id": "msg_1", "output_index": 0,
     "content_index": 0, "part": {"type": "output_text", "annotations": [], "text": ""}},
]
def delta(seq, d):
    return {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0,
            "content_index": 0, "delta": d, "logprobs": [], "sequence_number": seq}
def text(seq, d):  # written by hand: json.dumps would refuse nothing, but keep it literal
    return (f'event: response.output_text.delta\ndata: {{"type":"response.output_text.delta","item_id":"msg_1",'
            f'"output_index":0,"content_index":0,"delta":"{d}","logprobs":[],"sequence_number":{seq}}}\n\n').encode()
base = big - 4                  # every sequence number has 4300 digits, in sequence
for i, o in enumerate(head):
    o["sequence_number"] = base - 3 + i
body = (b"".join(ev(o) for o in head) + text(base, "a") + text(base + 1, "b") + text(base + 2, "c")
        + text(base + 3, "d") + text(big, "e") + text(base, "f"))  # the last: any payload after seq=big

for loads_name, kw in (("default(orjson)", {}), ("json.loads", {"json_loads": json.loads})):
    for events in (True, False):
        s = sr.ResponsesStream(events=events, **kw)
        where = "feed"
        try:
            n = len(s.feed(body)); where = "close"; n += len(s.close())
            res = f"ok events={n} outcome={s.outcome}"
        except Exception as exc:
            res = f"{where} raised {type(exc).__module__}.{type(exc).__name__}: {str(exc)[:70]}"
        try:
            res += f" | text={s.snapshot().output_text!r}"
        except Exception as exc:
            res += f" | snapshot raised {type(exc).__name__}"
        print(f"{loads_name:16} events={events!s:5} {res}")

# After the ValueError: every later feed() that completes any event raises it again (the template
# is still matched first), e.g. a response.completed with no sequence number.
done = b'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","output":[]}}\n\n'
s = sr.ResponsesStream(json_loads=json.loads)
for i, chunk in enumerate((body, done, done)):
    try:
        print(f"json.loads feed #{i}: {len(s.feed(chunk))} events")
    except Exception as exc:
        print(f"json.loads feed #{i}: raised {type(exc).__name__}: {str(exc)[:40]}")
try:
    print("close:", len(s.close()), "events; outcome", s.outcome)
except Exception as exc:
    print(f"close: raised {type(exc).__name__}: {str(exc)[:60]}; outcome {s.outcome}")
