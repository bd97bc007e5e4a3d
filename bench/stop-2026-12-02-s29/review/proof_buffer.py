# Lead's f86bddc (proofs = the bytes themselves): is a proof ever a view of the CALLER's buffer?
# Feed each block as a memoryview / bytearray of ONE reused buffer (the recv_into pattern); a later
# .done event (same offset, other text) must still give its own text.
import json, sys
import sansio_responses as sr
T = ("héllo wörld " * 8000)[:90000]
T2 = T[:45000] + "Q" + T[45001:]          # one character changed (same byte length: 'é'->? no: keep ASCII pos)
assert len(T2.encode()) == len(T.encode()) or True
def ev(o): return b"data: " + json.dumps(o, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"
blocks = [ev({"type": "response.created", "sequence_number": 0, "response": {"id": "r", "object": "response", "status": "in_progress"}}),
          ev({"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": {"id": "m", "type": "message", "role": "assistant", "content": []}}),
          ev({"type": "response.content_part.added", "sequence_number": 2, "output_index": 0, "item_id": "m", "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}})]
for k in range(0, len(T), 5000):
    blocks.append(ev({"type": "response.output_text.delta", "sequence_number": 3 + k // 5000, "output_index": 0, "item_id": "m", "content_index": 0, "delta": T[k:k + 5000]}))
s0 = 3 + len(T) // 5000 + 1
blocks.append(ev({"type": "response.output_text.done", "sequence_number": s0, "output_index": 0, "item_id": "m", "content_index": 0, "text": T}))
blocks.append(ev({"type": "response.output_text.done", "sequence_number": s0 + 1, "output_index": 0, "item_id": "m", "content_index": 0, "text": T2}))
blocks.append(ev({"type": "response.output_text.done", "sequence_number": s0 + 2, "output_index": 0, "item_id": "m", "content_index": 0, "text": T2}))
def run(mode):
    s = sr.ResponsesStream(max_diagnostics=10)
    buf = bytearray(max(map(len, blocks)))
    for b in blocks:
        if mode == "bytes":
            s.feed(b)
        elif mode == "fresh-bytearray":
            s.feed(bytearray(b))
        else:
            buf[:len(b)] = b
            chunk = memoryview(buf)[:len(b)] if mode == "reused-memoryview" else buf if len(b) == len(buf) else None
            if chunk is None:
                chunk = memoryview(buf)[:len(b)]
            s.feed(chunk)
    text = s.snapshot().output[0].content[0].text
    return text == T2, text == T, s.diagnostic_counts
for mode in ("bytes", "fresh-bytearray", "reused-memoryview"):
    try:
        print(mode, "text is the last .done's:", run(mode))
    except Exception as e:
        print(mode, "raised", type(e).__name__, e)
# The caller reuses ONE bytearray, resizing it for each block (clear + extend).
s = sr.ResponsesStream(max_diagnostics=10)
buf = bytearray()
try:
    for b in blocks:
        buf.clear(); buf.extend(b)
        s.feed(buf)
    print("resized-bytearray text is the last .done's:", s.snapshot().output[0].content[0].text == T2)
except Exception as e:
    print("resized-bytearray raised", type(e).__name__, e)
