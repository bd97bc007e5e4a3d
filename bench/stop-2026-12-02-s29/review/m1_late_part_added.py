# M1: a late response.content_part.added ("" text) after the part's first delta: the message loses
# the delta; the reasoning summary (same order) keeps it.
import json, sansio_responses as sr
def fr(o): return b"data: " + json.dumps(o).encode() + b"\n\n"
for kind in ("message", "reasoning"):
    evs = [{"type": "response.created", "sequence_number": 0, "response": {"id": "r", "object": "response", "status": "in_progress"}}]
    if kind == "message":
        evs.append({"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": {"id": "m", "type": "message", "role": "assistant", "content": []}})
        evs.append({"type": "response.output_text.delta", "sequence_number": 3, "output_index": 0, "item_id": "m", "content_index": 0, "delta": "Hel"})
        evs.append({"type": "response.content_part.added", "sequence_number": 2, "output_index": 0, "item_id": "m", "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}})
        evs.append({"type": "response.output_text.delta", "sequence_number": 4, "output_index": 0, "item_id": "m", "content_index": 0, "delta": "lo"})
    else:
        evs.append({"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": {"id": "m", "type": "reasoning", "summary": []}})
        evs.append({"type": "response.reasoning_summary_text.delta", "sequence_number": 3, "output_index": 0, "item_id": "m", "summary_index": 0, "delta": "Hel"})
        evs.append({"type": "response.reasoning_summary_part.added", "sequence_number": 2, "output_index": 0, "item_id": "m", "summary_index": 0, "part": {"type": "summary_text", "text": ""}})
        evs.append({"type": "response.reasoning_summary_text.delta", "sequence_number": 4, "output_index": 0, "item_id": "m", "summary_index": 0, "delta": "lo"})
    s = sr.ResponsesStream()
    s.feed(b"".join(fr(e) for e in evs))
    print(kind, s.snapshot().to_dict()["output"], s.diagnostic_counts)
