"""What a Chat chunk or snapshot hands out is the caller's to change: the wire data stays as sent.

``extra`` (unmodelled fields) of chunks and of the snapshot's objects, like ``to_dict()``, are
copies, as for the Responses models: changing them changes neither the chunk's ``to_dict()`` nor
the next snapshot.
"""

from __future__ import annotations

import json
from typing import Any

import sansio_responses as sr

FILTER = {"hate": {"filtered": False, "severity": "safe"}}
BASE: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "m",
    "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": FILTER}],
    "vendor": {"nested": [1, {"deep": True}]},
}
CHUNKS: list[dict[str, Any]] = [
    dict(
        BASE,
        choices=[
            {
                "index": 0,
                "delta": {"role": "assistant", "content": "a", "annotations": [{"k": [1]}]},
                "content_filter_results": FILTER,
            }
        ],
    ),
    dict(
        BASE,
        choices=[
            {
                "index": 0,
                "delta": {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                            "vendor_call": {"x": [1]},
                        }
                    ]
                },
                "finish_reason": "tool_calls",
            }
        ],
    ),
]


def _mutate(value: Any) -> None:
    """Change every dict and list inside *value*, at every level."""
    if isinstance(value, dict):
        for v in list(value.values()):
            _mutate(v)
        value["mutated"] = True
    elif isinstance(value, list):
        for v in list(value):
            _mutate(v)
        value.append("mutated")


def _stream() -> tuple[sr.ChatCompletionsStream, list[sr.ChatEvent]]:
    stream = sr.ChatCompletionsStream()
    body = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in CHUNKS)
    events = stream.feed(body + b"data: [DONE]\n\n")
    return stream, events


def test_chunk_extra_is_a_copy() -> None:
    _, events = _stream()
    for event, wire in zip(events, CHUNKS, strict=True):
        assert isinstance(event, sr.ChatCompletionChunk)
        _mutate(event.extra)
        for choice in event.choices:
            _mutate(choice.extra)
            if choice.delta is not None:
                _mutate(choice.delta.extra)
                for call in choice.delta.tool_calls or ():
                    _mutate(call.extra)
        assert event.to_dict() == wire


def _body(chunks: list[dict[str, Any]]) -> bytes:
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)


def test_snapshot_extra_is_a_copy() -> None:
    expected, _ = _stream()
    stream = sr.ChatCompletionsStream()
    events = stream.feed(_body(CHUNKS[:1]))
    snapshot = stream.snapshot()
    assert snapshot is not None
    _mutate(snapshot.extra)
    for choice in snapshot.choices:
        _mutate(choice.extra)
        _mutate(choice.message.extra)
    # The chunk is untouched, and so is what the stream builds after the next chunk.
    events += stream.feed(_body(CHUNKS[1:]) + b"data: [DONE]\n\n")
    assert [e.to_dict() for e in events] == CHUNKS
    final = stream.snapshot()
    assert final is not None
    for call in final.choices[0].message.tool_calls or ():
        _mutate(call.extra)
    assert [e.to_dict() for e in events] == CHUNKS
    assert stream.snapshot() is final  # cached: the same object (the caller's to keep intact)
    wanted = expected.snapshot()
    assert wanted is not None and final.choices[0].extra == wanted.choices[0].extra
