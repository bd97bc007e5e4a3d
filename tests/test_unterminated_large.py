"""A large final event without its blank line (a body cut right before ``\\n\\n``) is decoded at
``close()`` from the held text, a ``str``, where every other event's data are bytes: the sharing
of held strings must take that path too (it once raised a bare ``TypeError`` there, losing the
terminal event and the outcome)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import sansio_responses as sr


def _event(obj: dict[str, Any]) -> bytes:
    data = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    return f"event: {obj['type']}\ndata: {data}\n\n".encode()


def _body(pieces: list[str]) -> bytes:
    """A message of *pieces*, its .done events and the terminal one repeating the whole text."""
    events: list[dict[str, Any]] = []
    response = {"id": "resp_1", "object": "response", "created_at": 1, "status": "in_progress",
                "model": "m", "output": [], "usage": None}  # fmt: skip
    item = {"id": "msg_1", "type": "message", "status": "in_progress", "content": [],
            "role": "assistant"}  # fmt: skip
    where = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    part = {"type": "output_text", "annotations": [], "text": ""}
    events.append({"type": "response.created", "response": response})
    events.append({"type": "response.output_item.added", "output_index": 0, "item": item})
    events.append({"type": "response.content_part.added", **where, "part": part})
    events += [{"type": "response.output_text.delta", **where, "delta": p} for p in pieces]
    text = "".join(pieces)
    events.append({"type": "response.output_text.done", **where, "text": text})
    done_part = {**part, "text": text}
    events.append({"type": "response.content_part.done", **where, "part": done_part})
    done_item = {**item, "status": "completed", "content": [done_part]}
    events.append({"type": "response.output_item.done", "output_index": 0, "item": done_item})
    final = {**response, "status": "completed", "output": [done_item],
             "usage": {"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}}  # fmt: skip
    events.append({"type": "response.completed", "response": final})
    for number, event in enumerate(events):
        event["sequence_number"] = number
    return b"".join(map(_event, events))


@pytest.mark.parametrize("word", ["wörd", "word"], ids=["non-ascii", "ascii"])
@pytest.mark.parametrize("events", [True, False], ids=["events", "snapshot-only"])
def test_a_large_unterminated_final_event_completes_the_response(word: str, events: bool) -> None:
    pieces = [f"{word}{i} " for i in range(12_000)]  # the final event is over 100 KB
    body = _body(pieces)
    cut = body[:-2]  # no blank line after the terminal event
    stream = sr.ResponsesStream(events=events)
    stream.feed(cut)
    stream.close()
    assert stream.outcome == "completed"
    assert stream.diagnostic_counts["unterminated-final-event"] == 1
    snapshot = stream.snapshot()
    whole = sr.ResponsesStream(events=events)
    whole.feed(body)
    whole.close()
    assert snapshot == whole.snapshot()
    assert snapshot.output_text == "".join(pieces)
