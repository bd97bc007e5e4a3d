"""The accumulator holds a ``.done`` event's item or part as it is, and never changes it.

``response.output_item.done`` and ``response.content_part.done`` carry the final item or part;
the accumulator keeps the event's own tree instead of a copy (``Sparse.adopt``: copying a
message with logprobs cost about as much as decoding it, issue 21). The event was returned to
the caller, so its data must never change afterwards: an event that later changes that item or
part (a delta after its ``.done``, a status, another part) first replaces it by a private copy.

Checked here on any event sequence (the grammar of ``test_accumulate_fuzz``, mutated, with
events repeated after the ``.done`` events): every returned event's ``to_dict()`` at the end is
what it was when the event was returned, and the state (snapshot, outcome, diagnostics, the
errors) is the one the general path gives, where every item and part is copied.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_accumulate_fuzz import streams

import sansio_responses as sr
from sansio_responses._responses import accumulate


def _copied_item(self: accumulate.Accumulator, event: dict[str, Any]) -> None:
    """The general path: a private copy of the event's item, as before adoption."""
    self._place(event.get("output_index"), accumulate.materialize(event["item"]))  # pyright: ignore[reportPrivateUsage]


def _copied_part(self: accumulate.Accumulator, event: dict[str, Any]) -> None:
    self._part_added(event)  # pyright: ignore[reportPrivateUsage]


def _run(events: list[dict[str, Any]], strict: bool) -> tuple[Any, list[Any]]:
    """Feed *events* one by one; return the observable state and each event with its data as
    returned (a deep copy taken at once)."""
    stream = sr.ResponsesStream(strict=strict)
    returned: list[tuple[Any, dict[str, Any]]] = []
    error: Any = None
    try:
        for event in events:
            for out in stream.feed(b"data: " + json.dumps(event).encode() + b"\n\n"):
                returned.append((out, copy.deepcopy(out.to_dict())))
        stream.close()
    except sr.ProtocolError as exc:
        error = (type(exc).__name__, str(exc))
    snapshot = stream.snapshot()
    state = (
        None if snapshot is None else snapshot.to_dict(),
        stream.outcome,
        [(d.code, d.message) for d in stream.diagnostics],
        error,
    )
    return state, returned


def _check(events: list[dict[str, Any]], strict: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    state, returned = _run(events, strict)
    for event, as_returned in returned:
        assert event.to_dict() == as_returned, event.type
    with monkeypatch.context() as patched:
        patched.setattr(accumulate.Accumulator, "_item_done", _copied_item)
        patched.setattr(accumulate.Accumulator, "_part_done", _copied_part)
        general, general_returned = _run(events, strict)
    assert state == general
    assert [e.to_dict() for e, _ in returned] == [e.to_dict() for e, _ in general_returned]


@st.composite
def later_events(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A grammar stream in which events are repeated after the ``.done`` events."""
    events = draw(streams())
    for _ in range(draw(st.integers(1, 6))):
        source = draw(st.integers(0, len(events) - 1))
        at = draw(st.integers(source, len(events)))
        events.insert(at, copy.deepcopy(events[source]))
    return events


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(events=later_events(), strict=st.booleans())
def test_returned_events_never_change_and_the_state_is_the_general_paths(
    events: list[dict[str, Any]], strict: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    _check(events, strict, monkeypatch)


def _message_events(after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    at = {"item_id": "msg_0", "output_index": 0}
    part = {"type": "output_text", "text": "Hi", "annotations": [], "logprobs": [{"t": 1}]}
    item = {"id": "msg_0", "type": "message", "role": "assistant", "status": "completed"}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": {**item, "content": []}},
        {"type": "response.content_part.done", **at, "content_index": 0, "part": part},
        *after,
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": {**item, "content": [part]},
        },
        *after,
    ]


AFTER: list[dict[str, Any]] = [
    {
        "type": "response.output_text.delta",
        "item_id": "msg_0",
        "output_index": 0,
        "content_index": 0,
        "delta": "!",
        "logprobs": [{"t": 2}],
    },
    {
        "type": "response.output_text.annotation.added",
        "item_id": "msg_0",
        "output_index": 0,
        "content_index": 0,
        "annotation_index": 0,
        "annotation": {"type": "url_citation", "url": "u"},
    },
    {
        "type": "response.content_part.added",
        "item_id": "msg_0",
        "output_index": 0,
        "content_index": 1,
        "part": {"type": "output_text", "text": "", "annotations": []},
    },
    {"type": "response.output_text.done", "item_id": "msg_0", "output_index": 0, "text": "x"},
]


@pytest.mark.parametrize("after", [[e] for e in AFTER], ids=[e["type"] for e in AFTER])
def test_an_event_after_the_done_changes_a_copy(
    after: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    events = _message_events(after)
    _check(events, False, monkeypatch)
    state, returned = _run(events, False)
    done = next(e for e, _ in returned if e.type == "response.output_item.done")
    assert done.item.to_dict()["content"][0]["logprobs"] == [{"t": 1}]
    assert state[0]["output"] != _run(_message_events([]), False)[0][0]["output"]  # applied


def test_an_item_replaced_at_its_index_is_still_found_by_its_id(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An adopted item replaced at its output_index by another id stays reachable by its id:
    a later event naming that id must change a copy, never the returned event's data."""
    fc = {"id": "fc_0", "type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}
    other = {"id": "fc_1", "type": "function_call", "call_id": "d", "name": "g", "arguments": ""}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.done", "output_index": 0, "item": fc},
        {"type": "response.output_item.added", "output_index": 0, "item": other},
        {"type": "response.function_call_arguments.delta", "item_id": "fc_0", "delta": "x"},
        {"type": "response.function_call_arguments.done", "item_id": "fc_0", "arguments": "y"},
    ]
    _check(events, False, monkeypatch)
