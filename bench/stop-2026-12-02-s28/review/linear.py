"""Cost vs size of one large event fed in small chunks (quadratic behaviour check), NEW vs OLD.
Usage: linear.py CHUNK"""
import json, sys, time
sys.path.insert(0, "/work/notes/review3")
from dual import N, B
k = int(sys.argv[1])
for size in (100_000, 200_000, 400_000):
    payload = json.dumps({"type": "response.output_text.delta", "sequence_number": 3, "item_id": "m", "output_index": 0,
                          "content_index": 0, "delta": "x" * size})
    for sep, label in ((b"\n", "LF"), (b"\r\n", "CRLF"), (b"\r", "CR")):
        body = b"event: response.output_text.delta" + sep + b"data: " + payload.encode() + sep + sep
        for M, tag in ((B, "old"), (N, "new")):
            s = M.ResponsesStream()
            t = time.process_time()
            for i in range(0, len(body), k):
                try:
                    s.feed(body[i:i + k])
                except M.ProtocolError:
                    pass
            dt = time.process_time() - t
            print(f"{tag} {label:4} size={size:7} chunk={k} cpu={dt:.3f}s", flush=True)
