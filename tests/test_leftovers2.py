"""Leftovers of the hardening work: accessors after a rolled-back resume, the diagnostic codes an
event schema made unreachable, and Chat models holding data at the decoder's depth."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from _deep import repr_overflow_depth
from test_hardening_responses import MSG, added, frame

import sansio_responses as sr
from sansio_responses._responses.models import json_equal


@attrs.define
class Answer:
    city: str
    population: int = 0


FC = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "lookup",
    "arguments": "",
    "status": "in_progress",
}


def created(seq: int = 0, rid: str = "resp_1", **extra: Any) -> dict[str, Any]:
    response = {"id": rid, "object": "response", "status": "in_progress", "background": True}
    return {"type": "response.created", "sequence_number": seq, "response": {**response, **extra}}


def text_delta(seq: int, delta: str, index: int = 0, item_id: str = "msg_1") -> dict[str, Any]:
    return {
        "type": "response.output_text.delta",
        "sequence_number": seq,
        "item_id": item_id,
        "output_index": index,
        "content_index": 0,
        "delta": delta,
    }


def text_done(seq: int, text: str, index: int = 0) -> dict[str, Any]:
    return {
        "type": "response.output_text.done",
        "sequence_number": seq,
        "item_id": "msg_1",
        "output_index": index,
        "content_index": 0,
        "text": text,
    }


def args(seq: int, kind: str, value: str) -> dict[str, Any]:
    key = "delta" if kind == "delta" else "arguments"
    return {
        "type": f"response.function_call_arguments.{kind}",
        "sequence_number": seq,
        "item_id": "fc_1",
        "output_index": 1,
        key: value,
    }


def terminal(seq: int, rid: str = "resp_1", output: list[Any] | None = None) -> dict[str, Any]:
    response = {"id": rid, "object": "response", "status": "completed", "output": output or []}
    return {"type": "response.completed", "sequence_number": seq, "response": response}


def _reads(events: list[Any]) -> list[tuple[str, Any, Any]]:
    """What each event's lazy accessors give now (copied: a partial value is a live tree)."""
    out = []
    for event in events:
        snapshot = getattr(event, "snapshot", None)
        parsed = getattr(event, "parsed", None)
        out.append((event.type, snapshot, copy.deepcopy(parsed)))
    return out


def _state(stream: sr.ResponsesStream) -> Any:
    snapshot = stream.snapshot()
    return (
        None if snapshot is None else snapshot.to_dict(),
        stream.response_id,
        stream.last_sequence_number,
        copy.deepcopy(stream.output_parsed),
        stream.outcome,
        stream.terminal_event,
        stream.error_event,
        stream.resumable,
    )


# A message whose text is a half-streamed JSON document, and a half-streamed function call.
_DROPPED = (
    frame(created())
    + frame(added(1, MSG))
    + frame(text_delta(2, '{"city": "Par'))
    + frame(added(3, FC, 1))
    + frame(args(4, "delta", '{"q": "wea'))
)


def _dropped(how: str) -> tuple[sr.ResponsesStream, list[Any]]:
    """A stream cut after `_DROPPED`, then resumed; and the events it returned before the cut."""
    stream = sr.ResponsesStream(text_format=Answer)
    events = stream.feed(_DROPPED)
    with pytest.raises(sr.TruncatedStream):
        stream.close()
    if how == "reconnect":
        stream.reconnect()
        return stream, events
    return sr.ResponsesStream(resume_from=stream, text_format=Answer), events


# Bodies of another response, as a resume may be answered: its deltas (and .done events that
# rewrite the texts, and an error event) come before the first event naming a response.
_OTHER_BODIES = {
    "terminal names it": (
        frame(text_delta(5, 'is", "population": 1}'))
        + frame(text_done(6, '{"city": "Rome"}'))
        + frame(args(7, "done", '{"q": "other"}'))
        + frame(terminal(8, rid="resp_OTHER"))
    ),
    "replayed created names it": (
        frame(text_delta(5, "is"))
        + frame(args(6, "delta", "ther"))
        + frame(created(7, rid="resp_OTHER"))
    ),
    "after an error event": (
        frame(text_done(5, '{"city": "Oslo"}'))
        + frame({"type": "error", "sequence_number": 6, "code": "x", "message": "m"})
        + frame(terminal(7, rid="resp_OTHER"))
    ),
}


@pytest.mark.parametrize("body", sorted(_OTHER_BODIES))
@pytest.mark.parametrize("how", ["reconnect", "resume_from"])
def test_after_a_rollback_every_accessor_reads_as_when_the_resume_began(
    how: str, body: str
) -> None:
    stream, earlier = _dropped(how)
    before = _state(stream)
    earlier_reads = _reads(earlier)
    assert before[3] == {"city": "Par"}  # the case is what it says: a partial value to keep
    assert earlier_reads[-1][2] == {"q": "wea"}
    with pytest.raises(sr.RemoteProtocolError, match="resp_OTHER"):
        stream.feed(_OTHER_BODIES[body])
    assert _state(stream) == before
    assert _reads(earlier) == earlier_reads
    assert stream.output_parsed == {"city": "Par"}
    # A retry from the same point, answered by the right body this time, finishes normally.
    stream.reconnect()
    stream.feed(
        frame(text_delta(5, 'is", "population": 2}'))
        + frame(args(6, "delta", 'ther"}'))
        + frame(terminal(7))
    )
    assert stream.outcome == "completed"
    assert stream.output_parsed == Answer("Paris", 2)
    assert _reads(earlier) == earlier_reads


@pytest.mark.parametrize("how", ["reconnect", "resume_from"])
def test_the_events_before_a_resume_are_not_rewritten_by_the_resumed_body(how: str) -> None:
    # Kept even when the body is the right one: a .done that disagrees with the deltas replaces
    # the text from then on, not the value an earlier event saw.
    stream, earlier = _dropped(how)
    earlier_reads = _reads(earlier)
    stream.feed(frame(text_done(5, '{"city": "Rome"}')) + frame(terminal(6)))
    assert stream.outcome == "completed"
    assert stream.output_parsed == Answer("Rome")
    assert _reads(earlier) == earlier_reads


@pytest.mark.parametrize("how", ["reconnect", "resume_from"])
def test_output_parsed_is_kept_by_a_resume_before_any_new_delta(how: str) -> None:
    stream, _ = _dropped(how)
    assert stream.output_parsed == {"city": "Par"}
    stream.feed(frame(text_delta(5, 'is"')))
    assert stream.output_parsed == {"city": "Paris"}


@pytest.mark.parametrize("how", ["reconnect", "resume_from"])
def test_output_parsed_of_a_replaced_item_is_kept_by_a_resume_and_its_rollback(how: str) -> None:
    # output_item.done replaced the message (its text is a plain string now): output_parsed
    # still reads the partial value the deltas built, across the resume and its rollback.
    stream = sr.ResponsesStream(text_format=Answer)
    done_item = {**MSG, "status": "completed", "content": [{"type": "output_text", "text": "x"}]}
    stream.feed(
        frame(created())
        + frame(added(1, MSG))
        + frame(text_delta(2, '{"city": "Lim'))
        + frame({**added(3, done_item), "type": "response.output_item.done"})
    )
    with pytest.raises(sr.TruncatedStream):
        stream.close()
    assert stream.output_parsed == {"city": "Lim"}
    if how == "reconnect":
        stream.reconnect()
    else:
        stream = sr.ResponsesStream(resume_from=stream, text_format=Answer)
    assert stream.output_parsed == {"city": "Lim"}
    with pytest.raises(sr.RemoteProtocolError, match="resp_OTHER"):
        stream.feed(frame(terminal(4, rid="resp_OTHER")))
    assert stream.output_parsed == {"city": "Lim"}


def test_resume_from_a_json_schema_response_tracks_new_output_text_as_json() -> None:
    # No text_format: the response's own text.format asks for JSON, and the resumed body
    # (which replays no response.created) must keep tracking output text as JSON.
    fmt = {"format": {"type": "json_schema", "name": "a", "schema": {"type": "object"}}}
    old = sr.ResponsesStream()
    old.feed(frame(created(text=fmt)) + frame(added(1, MSG)) + frame(text_delta(2, '{"a": 1,')))
    with pytest.raises(sr.TruncatedStream):
        old.close()
    resumed = sr.ResponsesStream(resume_from=old)
    assert resumed.output_parsed == {"a": 1}
    second = {**MSG, "id": "msg_2"}
    events = resumed.feed(
        frame(added(3, second, 1)) + frame(text_delta(4, '{"b": [2,', 1, "msg_2"))
    )
    assert events[-1].parsed == {"b": [2]}
    assert resumed.output_parsed == {"b": [2]}


# -- 2. an event without the object it carries: a located error, not a diagnostic ---------------

_OPENING = frame(created()) + frame(added(1, MSG)) + frame(text_delta(2, "Hi"))
_CARRIERS = [
    ("response.output_item.added", "item"),
    ("response.output_item.done", "item"),
    ("response.completed", "response"),
    ("response.incomplete", "response"),
    ("response.failed", "response"),
]
_ABSENT = object()


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("value", [_ABSENT, None, "x", []], ids=["absent", "null", "str", "list"])
@pytest.mark.parametrize(("etype", "field"), _CARRIERS)
def test_an_event_without_the_object_it_carries_is_a_located_error(
    etype: str, field: str, value: object, strict: bool
) -> None:
    event: dict[str, Any] = {"type": etype, "sequence_number": 3, "output_index": 0}
    if value is not _ABSENT:
        event[field] = value
    stream = sr.ResponsesStream(strict=strict)
    with pytest.raises(sr.RemoteProtocolError, match=f"invalid '{etype}' event: field '{field}'"):
        stream.feed(_OPENING + frame(event))
    error = stream.error
    assert isinstance(error, sr.RemoteProtocolError)
    assert error.offset == len(_OPENING) and error.sequence_number == 3
    # Nothing already decoded is lost: the events before it, and the snapshot they built.
    assert [e.type for e in error.events] == [  # type: ignore[attr-defined]
        "response.created",
        "response.output_item.added",
        "response.output_text.delta",
    ]
    snapshot = stream.snapshot()
    assert snapshot is not None and snapshot.output_text == "Hi"
    assert stream.last_sequence_number == 2 and stream.outcome is None
    assert stream.diagnostics == []  # no diagnostic code stands for it


def test_no_documented_code_lacks_a_place_that_records_it() -> None:
    import ast
    from pathlib import Path

    root = Path(__file__).parents[1]
    noted = set()
    for path in (root / "sansio_responses").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
                func = node.func
                if getattr(func, "attr", getattr(func, "id", "")) == "_note":
                    noted.add(node.args[0].value)
    page = (root / "docs" / "guide" / "outcomes.md").read_text(encoding="utf-8")
    section = page.split("### Responses stream codes")[1].split("### ")[0]
    documented = {line.split("`")[1] for line in section.splitlines() if line.startswith("| `")}
    assert documented <= noted
    assert not {"missing-item", "terminal-without-response"} & (documented | noted)


# -- 3. Chat models holding data at the decoder's depth ---------------------------------------

_DEPTH = repr_overflow_depth()  # deeper than Python's recursive repr / == / copy can go here


def _nested(depth: int, leaf: Any = None) -> Any:
    value: Any = [] if leaf is None else [leaf]
    for _ in range(depth - 1):
        value = [value]
    return value


# Where the deep value goes in one decoded Chat object (the marker 0 is replaced by it).
_CHAT_PLACES: dict[str, dict[str, Any]] = {
    "chunk": {"object": "chat.completion.chunk", "choices": [], "v": 0},
    "choice": {"choices": [{"index": 0, "delta": {"content": "x"}, "v": 0}]},
    "delta": {"choices": [{"index": 0, "delta": {"content": "x", "v": 0}}]},
    "tool call": {
        "choices": [
            {
                "index": 0,
                "delta": {"tool_calls": [{"index": 0, "id": "t", "type": "function", "v": 0}]},
            }
        ]
    },
    "function": {
        "choices": [
            {
                "index": 0,
                "delta": {"tool_calls": [{"index": 0, "function": {"name": "f", "v": 0}}]},
            }
        ]
    },
    "legacy function_call": {
        "choices": [{"index": 0, "delta": {"function_call": {"name": "f", "v": 0}}}]
    },
    "logprobs": {
        "choices": [{"index": 0, "delta": {"content": "x"}, "logprobs": {"content": [], "v": 0}}]
    },
    "usage": {"choices": [], "usage": {"prompt_tokens": 1, "v": 0}},
    "usage details": {"choices": [], "usage": {"prompt_tokens_details": {"v": 0}}},
    "error": {"error": {"message": "m", "v": 0}},
    "unknown event": {"vendor": {"v": 0}},
}


def _put(tree: Any, value: Any) -> Any:
    """A copy of *tree* with the marker ``"v": 0`` holding *value*."""
    if isinstance(tree, dict):
        return {k: (value if k == "v" and v == 0 else _put(v, value)) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_put(v, value) for v in tree]
    return tree


def _decoded(leaf: Any = None) -> Callable[[str | bytes], Any]:
    """A json_loads that decodes as usual, then puts a value _DEPTH deep at *place*: any
    decoder may accept data deeper than the standard library's (``max_nesting_depth=None``)."""

    def loads(data: str | bytes) -> Any:
        return _put(json.loads(data), _nested(_DEPTH, leaf))

    return loads


def _chat_pair(place: str, leaf: Any = None) -> tuple[Any, sr.ChatCompletionsStream]:
    base = {"id": "c", "object": "chat.completion.chunk", "model": "m", "created": 1}
    obj = (
        {**base, **_CHAT_PLACES[place]} if "choices" in _CHAT_PLACES[place] else _CHAT_PLACES[place]
    )
    stream = sr.ChatCompletionsStream(max_nesting_depth=None, json_loads=_decoded(leaf))
    (event,) = stream.feed(frame(obj))
    return event, stream


@pytest.mark.parametrize("place", sorted(_CHAT_PLACES))
def test_chat_models_compare_show_and_copy_data_at_any_depth(place: str) -> None:
    with pytest.raises(RecursionError):
        repr(_nested(_DEPTH))  # the case is what it says: Python's own repr cannot walk it
    first, stream_a = _chat_pair(place)
    second, stream_b = _chat_pair(place)
    other, _ = _chat_pair(place, leaf=1)  # the same but for the innermost value
    assert first == second and not (first != second)
    assert first != other and not (first == other)
    shown = repr(first)
    assert str(first) == shown == repr(second)
    assert json_equal(first.to_dict(), second.to_dict())
    assert not json_equal(first.to_dict(), other.to_dict())
    found = [first.extra] if hasattr(first, "extra") else []
    if isinstance(first, sr.ChatCompletionChunk):
        for choice in first.choices:
            found.append(choice.extra)
            if choice.delta is not None:
                found.append(choice.delta.extra)
                for call in choice.delta.tool_calls or ():
                    found += [call.extra, call.function.extra if call.function else {}]
                if choice.delta.function_call is not None:
                    found.append(choice.delta.function_call.extra)
            if choice.logprobs is not None:
                found.append(choice.logprobs.extra)
        if first.usage is not None:
            found.append(first.usage.extra)
            if first.usage.prompt_tokens_details is not None:
                found.append(first.usage.prompt_tokens_details.extra)
    if place != "error" and place != "unknown event":
        assert any(json_equal(extra.get("v"), _nested(_DEPTH)) for extra in found)
    snapshots = (stream_a.snapshot(), stream_b.snapshot())
    assert snapshots[0] == snapshots[1] and repr(snapshots[0]) == repr(snapshots[1])
    if snapshots[0] is not None:
        assert json_equal(snapshots[0].to_dict(), snapshots[1].to_dict())


@pytest.mark.parametrize("how", ["reconnect", "resume_from"])
def test_a_resume_of_an_unconfirmed_resume_rolls_back_to_the_first_point(how: str) -> None:
    # The first resumed body drops before naming its response; the second one names another:
    # neither body's deltas are known to be this response's, so both are rolled back.
    stream, earlier = _dropped("reconnect")
    before = _state(stream)
    earlier_reads = _reads(earlier)
    stream.feed(frame(text_delta(5, "is")))
    with pytest.raises(sr.TruncatedStream):
        stream.close()
    assert stream.last_sequence_number == 5
    if how == "reconnect":
        stream.reconnect()
    else:
        stream = sr.ResponsesStream(resume_from=stream, text_format=Answer)
    with pytest.raises(sr.RemoteProtocolError, match="resp_OTHER"):
        stream.feed(frame(text_delta(6, '"}')) + frame(terminal(7, rid="resp_OTHER")))
    assert _state(stream) == before
    assert stream.output_parsed == {"city": "Par"} and stream.last_sequence_number == 4
    assert _reads(earlier) == earlier_reads


def test_a_resume_of_a_confirmed_resume_keeps_what_the_first_body_brought() -> None:
    stream, _ = _dropped("reconnect")
    stream.feed(frame(created(5)) + frame(text_delta(6, "is")))  # names resp_1: confirmed
    with pytest.raises(sr.TruncatedStream):
        stream.close()
    stream.reconnect()
    with pytest.raises(sr.RemoteProtocolError, match="resp_OTHER"):
        stream.feed(frame(terminal(7, rid="resp_OTHER")))
    assert stream.output_parsed == {"city": "Paris"} and stream.last_sequence_number == 6
