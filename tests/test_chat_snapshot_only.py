"""``ChatCompletionsStream(events=False)``, the snapshot-only path, gives what the events path gives.

The two are one stream class with one accumulator; the snapshot-only path only skips building
the chunk events (the common-shape path and the shape templates apply the chunk's values
without them; the general path still builds the typed chunk, to validate it, and drops it).
Every check below compares the two on the same bytes, split the same way: the snapshot (wire
form and typed equality), the parsed values, the outcome, ``done``, the diagnostics and their
counts, the error event, and any error (type, message, offset, excerpt). The counterpart of
tests/test_snapshot_only.py (``ResponsesStream(events=False)``).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from _corpus import load, mutated, names
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_chat_fuzz import chunk as fuzzed_chunk
from test_hot_paths import CHAT_BASE, chat_chunks
from test_shape import _azure_chunks, _tool_chunks  # pyright: ignore[reportPrivateUsage]

import sansio_responses as sr

CORPUS = {n: load(n)[0] for n in names("chat")}


def _parsed(read: Any) -> Any:
    try:
        return read()
    except sr.OutputParseError as exc:  # a final value that is not JSON: the same either way
        return (type(exc), str(exc))


def _run(data: bytes, cuts: list[int], events: bool, **options: Any) -> dict[str, Any]:
    stream = sr.ChatCompletionsStream(events=events, **options)
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    returned: list[Any] = []
    error: Any = None
    try:
        for a, b in itertools.pairwise(points):
            returned += stream.feed(data[a:b])
        returned += stream.close()
    except sr.ProtocolError as exc:
        error = (type(exc), str(exc), exc.offset, getattr(exc, "excerpt", None))
        returned += exc.events
    snapshot = stream.snapshot()
    return {
        "returned": returned,
        "snapshot": None if snapshot is None else snapshot.to_dict(),
        "typed": snapshot,
        "parsed": [_parsed(lambda i=i: stream.parsed(i)) for i in range(3)],
        "arguments": [_parsed(lambda i=i: stream.parsed_tool_arguments(i)) for i in range(3)],
        "outcome": stream.outcome,
        "done": stream.done,
        "diagnostics": stream.diagnostics,
        "counts": stream.diagnostic_counts,
        "error_event": stream.error_event,
        "error": error,
    }


def assert_same(data: bytes, cuts: list[int] = (), **options: Any) -> dict[str, Any]:  # type: ignore[assignment]
    full = _run(data, list(cuts), True, **options)
    quiet = _run(data, list(cuts), False, **options)
    assert quiet.pop("returned") == []
    full.pop("returned")
    assert quiet == full
    return full


@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("json_loads", [None, json.loads])
def test_every_recording_gives_the_same_state(name: str, strict: bool, json_loads: Any) -> None:
    state = assert_same(CORPUS[name], [], strict=strict, json_loads=json_loads)
    if not strict:
        assert state["outcome"] is not None or state["error"] is not None


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_every_recording_gives_the_same_parsed_values(name: str) -> None:
    # Content tracked as JSON too (response_format), and small chunks (the templates then see
    # every chunk whole only once it is complete: chunking independence).
    data = CORPUS[name]
    assert_same(data, list(range(0, len(data), 7)), response_format={"type": "json_object"})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.sampled_from(sorted(CORPUS)),
    edits=st.lists(
        st.tuples(st.integers(0, 1 << 20), st.binary(max_size=4), st.integers(0, 4)), max_size=4
    ),
    cuts=st.lists(st.integers(0, 1 << 20), max_size=5),
    strict=st.booleans(),
)
def test_mutated_recordings_give_the_same_state(
    which: str, edits: list[tuple[int, bytes, int]], cuts: list[int], strict: bool
) -> None:
    data = mutated(CORPUS[which], edits)
    assert_same(data, cuts, strict=strict, max_event_size=1 << 16)


def _body(chunks: list[dict[str, Any]], done: bool) -> bytes:
    body = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)
    return body + (b"data: [DONE]\n\n" if done else b"")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    chunks=st.lists(chat_chunks(), min_size=1, max_size=8),
    tools=st.booleans(),
    done=st.booleans(),
    cuts=st.lists(st.integers(0, 1 << 12), max_size=4),
    strict=st.booleans(),
    limits=st.sampled_from([(None, None), (1, 1), (2, 2)]),
)
def test_common_shape_and_near_misses_give_the_same_state(
    chunks: list[dict[str, Any]],
    tools: bool,
    done: bool,
    cuts: list[int],
    strict: bool,
    limits: tuple[int | None, int | None],
) -> None:
    # tests/test_hot_paths.py's chunks: the common shape (logprobs included) and every near miss
    # of it, after an opening chunk so that later chunks can take the common path.
    opening = [dict(CHAT_BASE, choices=[{"index": 0, "delta": {"role": "assistant"}}])]
    if tools:
        calls = [{"index": 0, "id": "call_a", "type": "function", "function": {"name": "f"}}]
        opening.append(dict(CHAT_BASE, choices=[{"index": 0, "delta": {"tool_calls": calls}}]))
    assert_same(
        _body([*opening, *chunks], done),
        cuts,
        strict=strict,
        max_choices=limits[0],
        max_tool_calls=limits[1],
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    chunks=st.lists(fuzzed_chunk, max_size=6),
    done=st.booleans(),
    cuts=st.lists(st.integers(0, 1 << 12), max_size=4),
    strict=st.booleans(),
)
def test_arbitrary_chunks_give_the_same_state(
    chunks: list[dict[str, Any]], done: bool, cuts: list[int], strict: bool
) -> None:
    # tests/test_chat_fuzz.py's chunks (wrong types at every depth, errors, vendor fields).
    assert_same(_body(chunks, done), cuts, strict=strict, response_format=dict)


@pytest.mark.parametrize("json_loads", [None, json.loads])
@pytest.mark.parametrize("chunk_size", [4096, 61])
def test_generated_shapes_give_the_same_state(json_loads: Any, chunk_size: int) -> None:
    import sys

    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    from bench import generate as gen

    for scenario in ("chat_text", "chat_tools", "chat_azure", "chat_logprobs"):
        data = gen.generate(scenario, 300).data
        cuts = list(range(chunk_size, len(data), chunk_size))
        state = assert_same(data, cuts, json_loads=json_loads)
        assert state["outcome"] == "completed" and state["snapshot"] is not None


def test_the_templated_chunks_are_read_without_events() -> None:
    # With events=False the templates still skip the JSON decoder (and build no chunk).
    contents = [f"w{i} " for i in range(200)]
    first = dict(CHAT_BASE, choices=[{"index": 0, "delta": {"role": "assistant", "content": ""}}])
    chunks = [first]
    for i, content in enumerate(contents):
        choice = {"index": 0, "delta": {"content": content}, "logprobs": None}
        chunks.append(dict(CHAT_BASE, choices=[choice], obfuscation=f"p{i}"))
    chunks.append(dict(CHAT_BASE, choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}]))
    body = b"".join(
        b"data: " + json.dumps(c, separators=(",", ":")).encode() + b"\n\n" for c in chunks
    )
    stream = sr.ChatCompletionsStream(events=False)
    decoded = 0
    loads = stream._fast_loads  # pyright: ignore[reportPrivateUsage]

    def counting(data: Any) -> Any:
        nonlocal decoded
        decoded += 1
        return loads(data)

    stream._fast_loads = counting  # pyright: ignore[reportPrivateUsage]
    assert stream.feed(body + b"data: [DONE]\n\n") == []
    assert decoded == 4  # as on the events path (tests/test_shape.py)
    snapshot = stream.snapshot()
    assert snapshot is not None and snapshot.choices[0].message.content == "".join(contents)
    assert_same(body)


@pytest.mark.parametrize("low_at", [-1, 0, 50, 199])
def test_templated_azure_chunks_give_the_same_state(low_at: int) -> None:
    # The template's content_filter_results is put back after a chunk that had another value.
    chunks = _azure_chunks([f"w{i} " for i in range(200)], low_at)
    body = b"".join(b"data: " + c.encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
    for json_loads in (None, json.loads):
        state = assert_same(body, json_loads=json_loads)
        if low_at == 199:
            extra = state["snapshot"]["choices"][0]["content_filter_results"]
            assert extra["violence"]["severity"] == "low"


@pytest.mark.parametrize(("calls", "choices"), [(1, 1), (2, 2)])
def test_templated_tool_chunks_give_the_same_state(calls: int, choices: int) -> None:
    arguments = ['{"a": [', *[f'"{i}\\n", ' for i in range(100)], "1]}"]
    chunks = _tool_chunks(arguments, calls, choices)
    body = b"".join(b"data: " + c.encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
    for json_loads in (None, json.loads):
        state = assert_same(body, json_loads=json_loads)
        assert state["arguments"][0] == [{"a": [*(f"{i}\n" for i in range(100)), 1]}] * calls


def test_the_events_path_still_returns_every_event() -> None:
    from sansio_responses.testing import ChatStreamBuilder

    data = ChatStreamBuilder().content("hello world", chunks=4).finish("stop").usage().to_sse()
    full = sr.ChatCompletionsStream()
    quiet = sr.ChatCompletionsStream(events=False)
    returned = full.feed(data)
    assert len(returned) == 7 and all(type(e) is sr.ChatCompletionChunk for e in returned)
    assert quiet.feed(data) == [] and quiet.close() == [] and full.close() == []
    assert quiet.snapshot() == full.snapshot()
    assert quiet.outcome == full.outcome == "completed"
    assert quiet.events is False and full.events is True


def test_an_error_object_is_kept_not_returned() -> None:
    body = _body([{"error": {"message": "boom", "type": "server_error"}}], done=False)
    quiet = sr.ChatCompletionsStream(events=False)
    assert quiet.feed(body) == []
    assert quiet.outcome == "error"
    assert quiet.error_event is not None and quiet.error_event.message == "boom"
    assert_same(body)


def test_a_refused_chunk_raises_with_no_events() -> None:
    good = dict(CHAT_BASE, choices=[{"index": 0, "delta": {"role": "assistant", "content": "a"}}])
    bad = dict(CHAT_BASE, choices=[{"index": 0, "delta": {"content": 1}}])
    body = _body([good, good, bad], done=True)
    quiet = sr.ChatCompletionsStream(events=False)
    with pytest.raises(sr.RemoteProtocolError) as caught:
        quiet.feed(body)
    assert caught.value.events == []
    assert caught.value.offset == len(_body([good, good], done=False))
    snapshot = quiet.snapshot()
    assert snapshot is not None and snapshot.choices[0].message.content == "aa"
    assert_same(body)
