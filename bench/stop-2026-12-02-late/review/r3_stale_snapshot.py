"""478dec2: is a snapshot cached under a version whose change it does not show? A body that ends
after a text delta (no terminal event: the connection dropped), fed in 61-byte chunks while 3
threads call snapshot() (switch interval 1 us); after close() (TruncatedStream) and the threads
joined, s.snapshot()'s text must be the whole text (a single-thread run's). Counts the runs where
it is shorter. Usage: r3_stale_snapshot.py REPS"""
import json, sys, threading
import sansio_responses as sr
def ev(o):
    return f"event: {o['type']}\ndata: {json.dumps(o, separators=(',', ':'))}\n\n".encode()
blocks = [ev({"type": "response.created", "sequence_number": 0, "response": {"id": "r", "object": "response", "status": "in_progress", "output": []}}),
          ev({"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": {"id": "m", "type": "message", "status": "in_progress", "content": [], "role": "assistant"}}),
          ev({"type": "response.content_part.added", "sequence_number": 2, "item_id": "m", "output_index": 0, "content_index": 0, "part": {"type": "output_text", "annotations": [], "text": ""}})]
import os
N = int(os.environ.get("N", "40"))
for i in range(N):
    blocks.append(ev({"type": "response.output_text.delta", "sequence_number": 3 + i, "item_id": "m", "output_index": 0, "content_index": 0, "delta": f"<{i}>", "logprobs": []}))
if os.environ.get("BAD_NEXT"):  # then a delta whose sequence number is a float: the stream fails there
    blocks.append(b'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":%de0,"item_id":"m","output_index":0,"content_index":0,"delta":"x","logprobs":[]}\n\n' % (3 + N))
body = b"".join(blocks)
whole = "".join(f"<{i}>" for i in range(N))
reps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
sys.setswitchinterval(1e-6)
for jl, dec in ((json.loads, "stdlib"), (None, "orjson")):
    stale = 0; examples = []
    for _ in range(reps):
        s = sr.ResponsesStream(json_loads=jl)
        stop = False
        def reader():
            while not stop:
                try: s.snapshot()
                except Exception: return
        ts = [threading.Thread(target=reader) for _ in range(3)]
        for t in ts: t.start()
        try:
            for i in range(0, len(body), 61):
                s.feed(body[i:i + 61])
            s.close()
        except sr.ProtocolError:
            pass
        stop = True
        for t in ts: t.join()
        got = s.snapshot().output_text
        if got != whole:
            stale += 1
            if len(examples) < 2: examples.append(got[-12:])
    print(f"{dec:6} runs={reps} final snapshot missing text={stale} e.g. ends {examples}")
