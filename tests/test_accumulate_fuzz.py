"""Grammar-based event sequences with odd values in every field, through the Responses accumulator.

Issue 22, item 1: well-formed streams (an item of every kind the accumulator knows, with the events
that build it, then a terminal event) are generated from a small grammar, then mutated: any field
of any event, or of an item, part or response inside one, is deleted or replaced by a value of
another type (null, an object, an array, a negative or huge number, a string naming another item),
and events are dropped, repeated or swapped. Whatever comes of it, feeding the body gives only
events or the library's documented :class:`~sansio_responses.ProtocolError` (the stream then in its
error state); the events decoded before the error by the same ``feed()`` are on ``exc.events``, the
same as feeding frame by frame returned; and ``snapshot()``, its ``to_dict()`` and the events' lazy
``snapshot`` / ``parsed`` stay readable.
"""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sansio_responses as sr

# Values of another type than any field expects, or of the right type but pointing elsewhere.
ODD: list[Any] = [
    None,
    {},
    {"id": "msg_0"},
    [],
    [1, "x"],
    -1,
    0,
    1,
    10**20,
    1.5,
    True,
    "",
    "msg_0",
    "fc_1",
    "x",
]


def _response(status: str = "in_progress", output: list[Any] | None = None) -> dict[str, Any]:
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": status,
        "model": "m",
        "output": [] if output is None else output,
    }


def _block(kind: str, n: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An item of *kind* at output_index *n* and the events that stream it (added .. done)."""
    iid = f"{kind[:3]}_{n}"
    at: dict[str, Any] = {"item_id": iid, "output_index": n}
    events: list[dict[str, Any]] = []
    item: dict[str, Any]
    if kind in ("message", "refusal"):
        item = {"id": iid, "type": "message", "role": "assistant", "status": "in_progress"}
        if kind == "message":
            part: dict[str, Any] = {"type": "output_text", "text": "", "annotations": []}
            ann = {"type": "url_citation", "url": "u", "title": "t", "start_index": 0}
            events += [
                {"type": "response.content_part.added", **at, "content_index": 0, "part": part},
                {"type": "response.output_text.delta", **at, "content_index": 0, "delta": "Hi"},
                {"type": "response.output_text.delta", **at, "content_index": 0, "delta": "!"},
                {
                    "type": "response.output_text.annotation.added",
                    **at,
                    "content_index": 0,
                    "annotation_index": 0,
                    "annotation": {**ann, "end_index": 2},
                },
                {"type": "response.output_text.done", **at, "content_index": 0, "text": "Hi!"},
            ]
            final = [{"type": "output_text", "text": "Hi!", "annotations": [ann]}]
        else:
            events += [
                {"type": "response.refusal.delta", **at, "content_index": 0, "delta": "No"},
                {"type": "response.refusal.done", **at, "content_index": 0, "refusal": "No"},
            ]
            final = [{"type": "refusal", "refusal": "No"}]
        item["content"] = []
        done = {**item, "status": "completed", "content": final}
    elif kind in ("function_call", "mcp_call", "custom_tool_call"):
        field, prefix = {
            "function_call": ("arguments", "function_call_arguments"),
            "mcp_call": ("arguments", "mcp_call_arguments"),
            "custom_tool_call": ("input", "custom_tool_call_input"),
        }[kind]
        item = {"id": iid, "type": kind, "call_id": "c", "name": "f", field: ""}
        if kind == "mcp_call":
            item["server_label"] = "s"
        events += [
            {"type": f"response.{prefix}.delta", **at, "delta": '{"a":'},
            {"type": f"response.{prefix}.delta", **at, "delta": "1}"},
            {"type": f"response.{prefix}.done", **at, field: '{"a":1}', "name": "f"},
        ]
        done = {**item, field: '{"a":1}', "status": "completed"}
    elif kind == "reasoning":
        item = {"id": iid, "type": "reasoning", "summary": []}
        sat = {**at, "summary_index": 0}
        events += [
            {
                "type": "response.reasoning_summary_part.added",
                **sat,
                "part": {"type": "summary_text", "text": ""},
            },
            {"type": "response.reasoning_summary_text.delta", **sat, "delta": "So"},
            {"type": "response.reasoning_summary_text.done", **sat, "text": "So"},
            {
                "type": "response.reasoning_summary_part.done",
                **sat,
                "part": {"type": "summary_text", "text": "So"},
            },
            {"type": "response.reasoning_text.delta", **at, "content_index": 0, "delta": "t"},
            {"type": "response.reasoning_text.done", **at, "content_index": 0, "text": "t"},
        ]
        done = {**item, "summary": [{"type": "summary_text", "text": "So"}]}
    elif kind == "code_interpreter_call":
        item = {"id": iid, "type": kind, "status": "in_progress", "code": "", "container_id": "c"}
        events += [
            {"type": f"response.{kind}.in_progress", **at},
            {"type": "response.code_interpreter_call_code.delta", **at, "delta": "1+"},
            {"type": "response.code_interpreter_call_code.done", **at, "code": "1+1"},
            {"type": f"response.{kind}.interpreting", **at},
            {"type": f"response.{kind}.completed", **at},
        ]
        done = {**item, "code": "1+1", "status": "completed"}
    elif kind in ("web_search_call", "file_search_call"):
        item = {"id": iid, "type": kind, "status": "in_progress"}
        events += [
            {"type": f"response.{kind}.in_progress", **at},
            {"type": f"response.{kind}.searching", **at},
            {"type": f"response.{kind}.completed", **at},
        ]
        done = {**item, "status": "completed"}
    elif kind == "image_generation_call":
        item = {"id": iid, "type": kind, "status": "in_progress"}
        events += [
            {"type": f"response.{kind}.generating", **at},
            {"type": f"response.{kind}.partial_image", **at, "partial_image_b64": "AAAA"},
        ]
        done = {**item, "status": "completed", "result": "AAAA"}
    elif kind == "shell_call":
        item = {"id": iid, "type": kind, "call_id": "c", "status": "in_progress", "action": {}}
        cat = {"output_index": n, "command_index": 0}
        events += [
            {"type": "response.shell_call_command.added", **cat, "command": ""},
            {"type": "response.shell_call_command.delta", **cat, "delta": "ls"},
            {"type": "response.shell_call_command.done", **cat, "command": "ls"},
        ]
        done = {**item, "status": "completed", "action": {"commands": ["ls"]}}
    elif kind == "shell_call_output":
        item = {"id": iid, "type": kind, "call_id": "c", "output": []}
        cat = {"output_index": n, "command_index": 0}
        out = {"stdout": "a", "stderr": ""}
        events += [
            {"type": "response.shell_call_output_content.delta", **cat, "delta": out},
            {"type": "response.shell_call_output_content.done", **cat, "output": [out]},
        ]
        done = {**item, "output": [out]}
    else:  # an item type no SDK knows: carried through as it is
        item = {"id": iid, "type": "brand_new_call", "payload": {"k": [1]}}
        done = item
    events.insert(0, {"type": "response.output_item.added", "output_index": n, "item": item})
    events.append({"type": "response.output_item.done", "output_index": n, "item": done})
    return done, events


KINDS = [
    "message",
    "refusal",
    "function_call",
    "mcp_call",
    "custom_tool_call",
    "reasoning",
    "code_interpreter_call",
    "web_search_call",
    "file_search_call",
    "image_generation_call",
    "shell_call",
    "shell_call_output",
    "brand_new_call",
]
LOCATORS = ("output_index", "item_id", "content_index", "summary_index", "command_index")
TERMINALS = ["response.completed", "response.incomplete", "response.failed", "error", None]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path into a JSON tree (the value at each may be replaced or deleted)."""
    found: list[tuple[Any, ...]] = []
    items: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        items = list(cast("dict[str, Any]", value).items())
    elif isinstance(value, list):
        items = list(enumerate(value))  # pyright: ignore[reportUnknownArgumentType]
    for key, child in items:
        found.append((*path, key))
        found += _paths(child, (*path, key))
    return found


@st.composite
def streams(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A stream from the grammar, then mutated (see the module docstring)."""
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=3))
    events: list[dict[str, Any]] = [{"type": "response.created", "response": _response()}]
    finals: list[dict[str, Any]] = []
    for n, kind in enumerate(kinds):
        done, block = _block(kind, n)
        finals.append(done)
        events += block
    terminal = draw(st.sampled_from(TERMINALS))
    if terminal == "error":
        events.append({"type": "error", "code": "x", "message": "m", "param": None})
    elif terminal is not None:
        # The server's output may list every item, some, or none (compatible servers leave it
        # out: the accumulator then rebuilds it from what it streamed).
        keep = draw(st.integers(0, len(finals)))
        status = terminal.removeprefix("response.")
        events.append({"type": terminal, "response": _response(status, finals[:keep])})
    for _ in range(draw(st.integers(0, 5))):
        target = draw(st.integers(0, len(events) - 1))
        event = events[target] = json.loads(json.dumps(events[target]))  # a copy to mutate
        for _ in range(draw(st.integers(1, 3))):
            # Half the time a field the accumulator reads at the top of the event, else any.
            top = [(k,) for k in (*event, *LOCATORS) if k != "type"]
            paths = top if draw(st.booleans()) else _paths(event)
            path = draw(st.sampled_from(paths or top))
            if path == ("type",):
                continue  # the event type picks the class: kept, so that the grammar still shows
            parent: Any = event  # (the paths are taken after the previous mutation: all valid)
            for key in path[:-1]:
                parent = parent[key]
            if isinstance(parent, dict) and draw(st.booleans()):
                cast("dict[str, Any]", parent).pop(path[-1], None)
            else:
                # A copy: a later mutation of this event may reach into it (ODD stays as is).
                parent[path[-1]] = json.loads(json.dumps(draw(st.sampled_from(ODD))))
    for _ in range(draw(st.integers(0, 3))):  # drop, repeat or swap events
        i = draw(st.integers(0, len(events) - 1))
        j = draw(st.integers(0, len(events) - 1))
        how = draw(st.sampled_from(["drop", "repeat", "swap"]))
        if how == "drop" and len(events) > 1:
            del events[i]
        elif how == "repeat":
            events.insert(j, events[i])
        else:
            events[i], events[j] = events[j], events[i]
    if terminal not in (None, "error") and len(events) > 1 and draw(st.booleans()):
        # The terminal event early: the items' later events (their .done) may never come.
        events.insert(draw(st.integers(1, len(events) - 1)), events.pop())
    numbered = draw(st.booleans())
    return [{**e, "sequence_number": n} if numbered else e for n, e in enumerate(events)]


def _frames(events: list[dict[str, Any]]) -> list[bytes]:
    return [b"data: " + json.dumps(e).encode() + b"\n\n" for e in events]


def _readable(stream: sr.ResponsesStream, events: list[Any]) -> None:
    """Everything a caller may read after a feed, whatever happened, reads without raising."""
    snapshot = stream.snapshot()
    if snapshot is not None:
        snapshot.to_dict()
        _ = snapshot.output_text
    _ = (stream.outcome, stream.diagnostics, stream.last_sequence_number, stream.response_id)
    for event in events:
        event.to_dict()
        _ = getattr(event, "snapshot", None)
        try:
            _ = getattr(event, "parsed", None)
        except sr.OutputParseError:
            pass  # a final parse of text that is not the JSON it should be: documented, on read


def _whole(body: bytes, strict: bool) -> tuple[sr.ResponsesStream, list[Any], Any]:
    stream = sr.ResponsesStream(strict=strict)
    events: list[Any] = []
    try:
        events += stream.feed(body)
        events += stream.close()
    except sr.ProtocolError as exc:
        assert stream.error is exc
        return stream, events + exc.events, exc
    return stream, events, None


def _check(events: list[dict[str, Any]], strict: bool) -> None:
    frames = _frames(events)
    stream, whole_events, whole_error = _whole(b"".join(frames), strict)
    _readable(stream, whole_events)
    if whole_error is not None and not stream.closed:
        # The error state: the stream refuses more input, and says why.
        with pytest.raises(sr.LocalProtocolError):
            stream.feed(b"\n")
    # Frame by frame: each feed returns its events until the same error; what the single feed
    # returned (or attached to its error) is exactly their concatenation.
    one_by_one = sr.ResponsesStream(strict=strict)
    seen: list[Any] = []
    error: Any = None
    try:
        for frame in frames:
            seen += one_by_one.feed(frame)
        seen += one_by_one.close()
    except sr.ProtocolError as exc:
        error = exc
        seen += exc.events
    _readable(one_by_one, seen)
    assert [e.to_dict() for e in seen] == [e.to_dict() for e in whole_events]
    assert type(error) is type(whole_error)
    if error is not None:
        assert whole_error is not None
        assert (error.offset, error.sequence_number) == (
            whole_error.offset,
            whole_error.sequence_number,
        )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=streams(), strict=st.booleans())
def test_odd_fields_give_events_or_protocol_errors_and_lose_nothing(
    events: list[dict[str, Any]], strict: bool
) -> None:
    _check(events, strict)


_DELETE = object()
#: One of each kind of odd value (the exhaustive test multiplies them by every field).
SOME_ODD: list[Any] = [None, {"id": "x"}, [1], -1, 10**20, 1.5, True, ""]


def _mutants(events: list[dict[str, Any]]) -> Any:
    """Every copy of *events* with one field (at any depth, of any event) deleted or replaced by
    each odd value; for an event carrying an ``item``, also with its ``output_index`` deleted,
    null or negative at the same time (an item then has only its id to be placed by)."""
    for target, event in enumerate(events):
        paths = [p for p in _paths(event) if p != ("type",)]
        paths += [(k,) for k in LOCATORS if k not in event]
        places: list[Any] = [None]
        if "item" in event:
            places += [_DELETE, None, -1]
        for path in paths:
            for value in (_DELETE, *SOME_ODD):
                for place in places:
                    mutant = json.loads(json.dumps(event))
                    parent: Any = mutant
                    for key in path[:-1]:
                        parent = parent[key]
                    if value is _DELETE:
                        if not isinstance(parent, dict):
                            continue
                        cast("dict[str, Any]", parent).pop(path[-1], None)
                    else:
                        parent[path[-1]] = value
                    if place is _DELETE:
                        mutant.pop("output_index", None)
                    elif place is not None:
                        mutant["output_index"] = place
                    yield [*events[:target], mutant, *events[target + 1 :]]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("done", [True, False], ids=["with-item-done", "without-item-done"])
def test_every_field_of_every_event_odd(kind: str, done: bool) -> None:
    """Each single odd field of a stream of one item of *kind* ended by a ``response.completed``
    that lists no output (so the snapshot is rebuilt from what was accumulated): only events or a
    ProtocolError, the stream in its error state then, the state readable.

    The exhaustive companion of the property test above, for the combinations a random draw
    rarely meets (the field of one event among a few hundred, and the right terminal).
    """
    _, block = _block(kind, 0)
    if not done:
        block = block[:-1]
    base = [
        {"type": "response.created", "response": _response()},
        *block,
        {"type": "response.completed", "response": _response("completed")},
    ]
    count = 0
    for mutant in _mutants(base):
        numbered = [{**e, "sequence_number": n} for n, e in enumerate(mutant)]
        stream, events, error = _whole(b"".join(_frames(numbered)), strict=False)
        _readable(stream, events)
        if error is not None and not stream.closed:
            with pytest.raises(sr.LocalProtocolError):  # the error state
                stream.feed(b"\n")
        count += 1
    assert count > 100


# -- the cases of issue 22, item 1, as reported ----------------------------------------------------

_MSG: dict[str, Any] = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "status": "in_progress",
}


def _numbered(*events: dict[str, Any]) -> bytes:
    return b"".join(_frames([{**e, "sequence_number": n} for n, e in enumerate(events)]))


@pytest.mark.parametrize("annotation", ["absent", None])
def test_an_annotation_that_is_not_an_object_is_noted_not_added(annotation: Any) -> None:
    # Before: the snapshot rebuilt for a terminal response without output held the null, and the
    # model's SchemaError escaped feed(): the stream not in its error state, the 5 events lost.
    # (Another type is refused by the event's schema: a located RemoteProtocolError.)
    at = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    event = {**at, "type": "response.output_text.annotation.added", "annotation_index": 0}
    if annotation != "absent":
        event["annotation"] = annotation
    body = _numbered(
        {"type": "response.created", "response": _response()},
        {"type": "response.output_item.added", "output_index": 0, "item": {**_MSG, "content": []}},
        {**at, "type": "response.output_text.delta", "delta": "Hi"},
        event,
        {"type": "response.completed", "response": _response("completed")},
    )
    stream = sr.ResponsesStream()
    events = stream.feed(body)
    assert len(events) == 5 and stream.outcome == "completed"
    assert [d.code for d in stream.diagnostics] == [
        "bad-annotation",
        "terminal-output-missing-items",
    ]
    snapshot = stream.snapshot()
    assert snapshot is not None and snapshot.output_text == "Hi"
    assert snapshot.to_dict()["output"][0]["content"][0]["annotations"] == []
    strict = sr.ResponsesStream(strict=True)
    with pytest.raises(sr.RemoteProtocolError, match="bad-annotation") as info:
        strict.feed(body)
    assert len(info.value.events) == 3 and strict.error is info.value


@pytest.mark.parametrize("item_id", [{"a": 1}, [1], {}])
@pytest.mark.parametrize("output_index", ["absent", None, -1])
def test_an_unhashable_item_id_with_no_usable_index(item_id: Any, output_index: Any) -> None:
    # Before: TypeError (unhashable type) from the accumulator, out of feed().
    added: dict[str, Any] = {
        "type": "response.output_item.added",
        "item": {"type": "brand_new_call", "id": item_id},
    }
    if output_index != "absent":
        added["output_index"] = output_index
    stream = sr.ResponsesStream()
    events = stream.feed(
        _numbered({"type": "response.created", "response": _response()}, added, added)
    )
    assert len(events) == 3
    snapshot = stream.snapshot()
    assert snapshot is not None
    assert [item.to_dict()["id"] for item in snapshot.output or ()] == [item_id, item_id]


def test_an_output_index_that_disagrees_with_a_known_item_id_is_noted() -> None:
    # Before: applied to the item with that id, nothing recorded, strict mode too.
    other: dict[str, Any] = {**_MSG, "id": "msg_2", "content": []}
    body = _numbered(
        {"type": "response.created", "response": _response()},
        {"type": "response.output_item.added", "output_index": 0, "item": {**_MSG, "content": []}},
        {"type": "response.output_item.added", "output_index": 1, "item": other},
        *[
            {
                "type": "response.output_text.delta",
                "item_id": "msg_2",
                "output_index": 0,
                "content_index": 0,
                "delta": piece,
            }
            for piece in ("a", "b")
        ],
    )
    stream = sr.ResponsesStream()
    stream.feed(body)
    # Every such event is noted (the text cache does not hide the second), applied by its id.
    assert [d.code for d in stream.diagnostics] == ["item-id-mismatch"] * 2
    assert "applied to item 'msg_2' at output_index 1" in stream.diagnostics[0].message
    snapshot = stream.snapshot()
    assert snapshot is not None and snapshot.output_text == "ab"
    strict = sr.ResponsesStream(strict=True)
    with pytest.raises(sr.RemoteProtocolError, match="item-id-mismatch") as info:
        strict.feed(body)
    assert len(info.value.events) == 3
    assert strict.snapshot() is not None and strict.snapshot().output_text == ""  # type: ignore[union-attr]
