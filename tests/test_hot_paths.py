"""The hot-path event constructors build exactly what the generic constructor builds.

The frequent delta events skip attrs' ``__init__``: they are assembled on a mutable twin class and
then given their real class (see ``_events._twin``). Whatever the route, the result must be an
ordinary frozen instance of the registered class, equal to the generic build, with the same
repr, copy, pickle and error behaviour.
"""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansio_responses as sr
from sansio_responses._responses.events import EVENT_TYPES, _build, _Event

HOT = sorted(
    wire
    for wire, cls in EVENT_TYPES.items()
    if cls._from_wire.__func__ is not _Event._from_wire.__func__  # type: ignore[attr-defined]
)


def _wire(wire_type: str) -> dict[str, Any]:
    """A valid wire dict for *wire_type*, extra field included."""
    d: dict[str, Any] = {
        "type": wire_type,
        "sequence_number": 7,
        "item_id": "item_1",
        "output_index": 0,
        "content_index": 1,
        "summary_index": 2,
        "delta": "abc",
        "logprobs": [],
        "obfuscation": "xyz",
    }
    if wire_type == "error":
        d = {"type": "error", "sequence_number": 7, "code": "x", "message": "m", "param": None}
    if EVENT_TYPES[wire_type].__mro__[1].__name__ == "_ResponseEvent":  # lifecycle, terminal
        d["response"] = {"id": "resp_1", "status": "completed", "output": [], "x": 1}
    return d


@pytest.mark.parametrize("wire_type", HOT)
def test_hot_constructor_equals_generic_build(wire_type: str) -> None:
    cls = EVENT_TYPES[wire_type]
    event = sr.parse_event(_wire(wire_type))
    generic = _build(cls, _wire(wire_type))
    assert type(event) is cls
    assert event == generic
    assert repr(event) == repr(generic)
    assert event.to_dict() == _wire(wire_type)
    assert event.extra == generic.extra
    for field in attrs.fields(cls):
        assert getattr(event, field.name) == getattr(generic, field.name), field.name
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        event.sequence_number = 8
    assert copy.copy(event) == event
    assert pickle.loads(pickle.dumps(event)) == event


@pytest.mark.parametrize("wire_type", HOT)
def test_hot_constructor_names_the_wrong_field(wire_type: str) -> None:
    wire = _wire(wire_type)
    wire["sequence_number"] = "7"
    with pytest.raises(sr.RemoteProtocolError, match="sequence_number"):
        sr.ResponsesStream().feed(f"data: {json.dumps(wire)}\n\n".encode())


# -- Chat Completions: hot_chunk and the stream's common-shape path ---------------------------
# ``hot_chunk`` builds a chunk of the common shape on twin classes, and the stream builds and
# applies such a chunk in one go (``ChatCompletionsStream._common``). Both must give exactly
# what the generic build and accumulation give: the same objects, snapshots, diagnostics and
# errors, for chunks of the common shape and for every near miss.

CHAT_BASE: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion.chunk",
    "created": 1766410466,
    "model": "gpt-5-mini",
    "service_tier": "default",
    "system_fingerprint": None,
    "usage": None,
    "obfuscation": "xyz",
}

WRONG = st.sampled_from([None, "", "s", 0, 1, -1, True, 1.5, [], ["s"], {}, {"k": "v"}])


def _delta(draw: st.DrawFn) -> dict[str, Any]:
    delta: dict[str, Any] = {}
    if draw(st.booleans()):
        delta["content"] = draw(st.sampled_from(["", "ab", "é"]))
    if draw(st.integers(0, 4)) == 0:
        delta["role"] = draw(st.sampled_from(["assistant", "tool"]))
    if draw(st.integers(0, 2)) == 0:
        calls = []
        for _ in range(draw(st.integers(0, 2))):
            call: dict[str, Any] = {"index": draw(st.integers(0, 2))}
            if draw(st.integers(0, 2)) == 0:
                call["id"] = draw(st.sampled_from(["call_a", "call_b", ""]))
            if draw(st.integers(0, 3)) == 0:
                call["type"] = draw(st.sampled_from(["function", ""]))
            if draw(st.integers(0, 4)) != 0:
                function: dict[str, Any] = {"arguments": draw(st.sampled_from(["", '{"a"', "1}"]))}
                if draw(st.integers(0, 2)) == 0:
                    function["name"] = draw(st.sampled_from(["f", "g", ""]))
                call["function"] = function
            calls.append(call)
        delta["tool_calls"] = calls
    return delta


@st.composite
def chat_chunks(draw: st.DrawFn) -> dict[str, Any]:
    """A chunk of the common shape, or (often) a near miss: one field changed anywhere."""
    chunk = dict(CHAT_BASE)
    choices: list[dict[str, Any]] = [
        {"index": draw(st.integers(0, 1)), "delta": _delta(draw), "logprobs": None}
    ]
    lp = draw(st.integers(0, 4))
    if lp:  # logprobs=True: a content array of token entries on every chunk
        entry = {"token": "a", "logprob": -0.1, "bytes": [97], "top_logprobs": []}
        logprobs: dict[str, Any] = {"content": [entry] * draw(st.integers(0, 2)), "refusal": None}
        if lp == 2:
            logprobs["refusal"] = [{"token": "r", "logprob": -1.0}]
        elif lp == 3:
            logprobs["content"] = draw(st.sampled_from([None, [entry, 1], [[]], "x"]))
        elif lp == 4:
            logprobs["vendor"] = 1
        choices[0]["logprobs"] = logprobs
    if draw(st.integers(0, 5)) == 0:
        choices[0]["finish_reason"] = draw(st.sampled_from(["stop", "tool_calls", "length"]))
    if draw(st.integers(0, 8)) == 0:
        choices.append({"index": draw(st.integers(0, 1)), "delta": _delta(draw)})
    chunk["choices"] = choices
    if draw(st.integers(0, 2)) == 0:
        # A near miss: set (or add) one field, at any level, to an arbitrary value.
        targets: list[dict[str, Any]] = [chunk, *choices]
        for choice in choices:
            targets.append(choice["delta"])
            if type(choice.get("logprobs")) is dict:
                targets.append(choice["logprobs"])
            for call in choice["delta"].get("tool_calls", []):
                targets.append(call)
                if "function" in call:
                    targets.append(call["function"])
        target = draw(st.sampled_from(targets))
        keys = sorted({*target, "vendor", "error", "usage", "logprobs", "refusal", "reasoning"})
        target[draw(st.sampled_from(keys))] = draw(WRONG)
    return chunk


class _GenericChat(sr.ChatCompletionsStream):
    _HOT = False


def _chat_run(stream: sr.ChatCompletionsStream, body: bytes) -> dict[str, Any]:
    """Everything observable after feeding *body* (errors included)."""
    events: list[Any] = []
    error = None
    try:
        events += stream.feed(body)
        events += stream.close()
    except sr.ProtocolError as exc:
        events += exc.events  # type: ignore[attr-defined]
        error = (type(exc), str(exc))
    views = []
    for event in events:
        if isinstance(event, sr.ChatCompletionChunk):
            views.append(
                (
                    event.content_snapshot(),
                    event.content_snapshot(1),
                    event.tool_arguments_parsed(0, 0),
                    event.tool_arguments_parsed(0, 1),
                )
            )
    snapshot = stream.snapshot()
    try:
        parsed: Any = stream.parsed_tool_arguments(0)
    except sr.OutputParseError as exc:  # a final value that is not JSON: the same either way
        parsed = str(exc)
    return {
        "events": events,
        "types": [type(e) for e in events],
        "reprs": [repr(e) for e in events],
        "wire": [e.to_dict() for e in events],
        "views": views,
        "snapshot": None if snapshot is None else snapshot.to_dict(),
        "parsed": parsed,
        "diagnostics": stream.diagnostics,
        "outcome": stream.outcome,
        "error": error,
    }


@pytest.mark.parametrize("strict", [False, True])
@settings(max_examples=300)
@given(chunks=st.lists(chat_chunks(), min_size=1, max_size=8), data=st.data())
def test_chat_common_path_equals_generic_path(
    strict: bool, chunks: list[dict[str, Any]], data: st.DataObject
) -> None:
    # An opening chunk first (it takes the general way) so that later chunks can be common.
    first = dict(CHAT_BASE, choices=[{"index": 0, "delta": {"role": "assistant", "content": ""}}])
    opening = [first]
    if data.draw(st.booleans()):
        calls = [{"index": 0, "id": "call_a", "type": "function", "function": {"name": "f"}}]
        opening.append(dict(CHAT_BASE, choices=[{"index": 0, "delta": {"tool_calls": calls}}]))
    body = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in [*opening, *chunks]) + (
        b"data: [DONE]\n\n" if data.draw(st.booleans()) else b""
    )
    for loads in (json.loads, None):  # the standard library (str data) and the default
        hot = _chat_run(sr.ChatCompletionsStream(strict=strict, json_loads=loads), body)
        generic = _chat_run(_GenericChat(strict=strict, json_loads=loads), body)
        assert hot == generic


def test_chat_common_path_is_taken() -> None:
    # The equality test above means something only if the common path runs: count its chunks.
    stream = sr.ChatCompletionsStream()
    taken = []
    common = stream._common

    def counting(d: dict[str, Any], out: list[Any]) -> bool:
        taken.append(common(d, out))
        return taken[-1]

    stream._common = counting  # type: ignore[method-assign]
    body = b"".join(
        b"data: " + json.dumps(dict(CHAT_BASE, choices=[choice])).encode() + b"\n\n"
        for choice in (
            {"index": 0, "delta": {"role": "assistant", "content": ""}},
            {"index": 0, "delta": {"content": "a"}, "logprobs": None, "finish_reason": None},
            {"index": 0, "delta": {"content": "b"}},
            # logprobs=True: a token entry on every chunk (and a vendor field beside them)
            {"index": 0, "delta": {"content": "c"}, "logprobs": {"content": [_ENTRY]}},
            {"index": 0, "delta": {"content": "d"}, "logprobs": {"content": [], "x": 1}},
            {"index": 0, "delta": {}, "finish_reason": "stop"},
        )
    )
    stream.feed(body)
    assert taken == [False, True, True, True, True, True]
    snapshot = stream.snapshot()
    assert snapshot is not None
    assert snapshot.choices[0].logprobs == {"content": [_ENTRY], "refusal": None, "x": 1}


REAL = Path(__file__).parent / "data" / "real"
_ENTRY = {"token": "c", "logprob": -0.5, "bytes": [99], "top_logprobs": []}


def test_recorded_logprobs_chunks_take_the_common_path() -> None:
    # The chunks of a real logprobs stream (logprobs=True) are all of the common shape but the
    # first (it opens the choice) and the usage chunk (no choice).
    body = (REAL / "chat-openai-python-test_content_logprobs_events.sse").read_bytes()
    stream = sr.ChatCompletionsStream()
    taken = []
    common = stream._common

    def counting(d: dict[str, Any], out: list[Any]) -> bool:
        taken.append(common(d, out))
        return taken[-1]

    stream._common = counting  # type: ignore[method-assign]
    stream.feed(body)
    stream.close()
    assert taken == [False, True, True, True, False]
    generic = _GenericChat()
    generic.feed(body)
    generic.close()
    snapshot, expected = stream.snapshot(), generic.snapshot()
    assert snapshot is not None and expected is not None
    assert snapshot.to_dict() == expected.to_dict()


@settings(max_examples=500)
@given(chunk=chat_chunks())
def test_chat_hot_chunk_equals_generic_build(chunk: dict[str, Any]) -> None:
    from sansio_responses._chat.models import ChatCompletionChunk, hot_chunk
    from sansio_responses._errors import SchemaError

    try:
        generic = ChatCompletionChunk._build(chunk)
    except SchemaError:
        assert hot_chunk(chunk) is None  # invalid: left to the generic build, which names it
        return
    hot = hot_chunk(chunk)
    if hot is None:
        return  # not the common shape
    assert type(hot) is ChatCompletionChunk
    assert hot == generic
    assert repr(hot) == repr(generic)
    for field in attrs.fields(ChatCompletionChunk):
        assert getattr(hot, field.name) == getattr(generic, field.name), field.name
    for h, g in zip(hot.choices, generic.choices, strict=True):
        assert type(h) is type(g) and type(h.delta) is type(g.delta)
        assert type(h.logprobs) is type(g.logprobs)
        if h.delta is not None and g.delta is not None:
            assert [type(tc) for tc in h.delta.tool_calls or []] == [
                type(tc) for tc in g.delta.tool_calls or []
            ]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        hot.id = "x"  # type: ignore[misc]
    for choice in hot.choices:
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            choice.index = 5  # type: ignore[misc]
        if choice.logprobs is not None:
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                choice.logprobs.content = None  # type: ignore[misc]
    assert copy.copy(hot) == hot
    assert pickle.loads(pickle.dumps(hot)) == hot
    assert ChatCompletionChunk.from_dict(chunk) == generic


def test_chat_hot_chunk_handles_the_common_chunks() -> None:
    from sansio_responses._chat.models import hot_chunk

    text = dict(CHAT_BASE, choices=[{"index": 0, "delta": {"content": "a"}, "logprobs": None}])
    entry = {"token": "a", "logprob": -0.1, "bytes": [97], "top_logprobs": []}
    with_logprobs = dict(
        CHAT_BASE,
        choices=[
            {
                "index": 0,
                "delta": {"content": "a"},
                "logprobs": {"content": [entry], "refusal": None},
            }
        ],
    )
    assert hot_chunk(with_logprobs) is not None  # logprobs on every chunk: still the hot build
    call = {"index": 0, "function": {"arguments": "{"}}
    tools = dict(CHAT_BASE, choices=[{"index": 0, "delta": {"tool_calls": [call]}}])
    assert hot_chunk(text) is not None and hot_chunk(tools) is not None
