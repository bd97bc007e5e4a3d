"""Targeted: a text template kept while acc.text_key is reset by an inline reasoning delta
(T1, R1 with an unlearnable layout, T2, R2 same layout -> inline fast 2, T3.. via the template).
Prints a digest of events/snapshot/diagnostics; run under both trees and compare.
Also counts template hits when run on the after tree."""
import hashlib, json, sys
sys.path.insert(0, "/work/notes/review2")
from fuzz_tmpl import run
def sse(o, etype=None):
    return f"event: {etype or o['type']}\ndata: {json.dumps(o, separators=(',', ':'), ensure_ascii=False)}\n\n".encode()
seq = 0
def add(o, out, etype=None):
    global seq
    o["sequence_number"] = seq; seq += 1
    out.append(sse(o, etype))
def body(variant):
    global seq
    seq = 0
    out = []
    add({"type": "response.created", "response": {"id": "r", "object": "response", "status": "in_progress", "output": []}}, out)
    add({"type": "response.output_item.added", "output_index": 0, "item": {"id": "rs", "type": "reasoning", "summary": []}}, out)
    add({"type": "response.reasoning_summary_part.added", "item_id": "rs", "output_index": 0, "summary_index": 0, "part": {"type": "summary_text", "text": ""}}, out)
    add({"type": "response.output_item.added", "output_index": 1, "item": {"id": "m", "type": "message", "status": "in_progress", "content": [], "role": "assistant"}}, out)
    add({"type": "response.content_part.added", "item_id": "m", "output_index": 1, "content_index": 0, "part": {"type": "output_text", "annotations": [], "text": ""}}, out)
    T = lambda d: {"type": "response.output_text.delta", "item_id": "m", "output_index": 1, "content_index": 0, "delta": d, "logprobs": []}
    R = lambda d: {"type": "response.reasoning_summary_text.delta", "item_id": "rs", "output_index": 0, "summary_index": 0, "delta": d, "extra": 1}
    add(T("t1"), out); add(R("r1"), out); add(T("t2"), out); add(R("r2"), out)
    for i in range(5):
        add(T(f"t{3+i}"), out)
    if variant == 1:  # then the part replaced: a new output_item.added at index 1 with the same id
        add({"type": "response.content_part.done", "item_id": "m", "output_index": 1, "content_index": 0, "part": {"type": "output_text", "annotations": [], "text": "t1t2t3t4t5t6t7"}}, out)
        add(T("after-done"), out); add(R("r3"), out); add(T("x"), out)
    add({"type": "response.completed", "response": {"id": "r", "object": "response", "status": "completed", "output": []}}, out)
    return b"".join(out)
hits = 0
try:
    from sansio_responses._responses import templates as Tm
    orig = Tm.Template.match
    def m(self, p, s):
        global hits
        r = orig(self, p, s); hits += r is not None; return r
    Tm.Template.match = m
except ImportError:
    pass
for variant in (0, 1):
    b = body(variant)
    for events in (True, False):
        for dec in ("stdlib", "orjson"):
            out, res = run([b], events, dec)
            print(variant, events, dec, hashlib.sha256(repr((out, res)).encode()).hexdigest()[:16], res[0], res[3])
print("template hits", hits)
