"""A delta event's lazy ``snapshot`` is the text of its part as of that delta, whenever it is read.

For a text not tracked as JSON the stream gives the event the part's ``Text`` builder and its
length after the delta (two slot stores, where a closure cost a function object per delta); a
text tracked as JSON keeps a prefix function, which its ``parsed`` reader shares. Both the inline
path (``InlineFeed.feed``) and the general path (``_attach_text``) do this. Here the reference is
computed from the wire alone: the concatenation of a part's deltas up to each event. Every kind of
delta the builder writes (output text, refusal, reasoning summary, function-call arguments), with
and without structured output, chunked anywhere, read as the events come, again after the whole
stream (more deltas and the ``.done`` events since) and on copies: ``copy``, ``deepcopy`` and a
pickle round trip give an equal event with the same ``snapshot``.
"""

from __future__ import annotations

import copy
import itertools
import pickle
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import sansio_responses as sr
from sansio_responses._base import EventStreamBase
from sansio_responses.testing import StreamBuilder


class _General(sr.ResponsesStream):
    # The base class's loop: every event through _on_message, the general path.
    feed = EventStreamBase.feed


_PIECES = st.lists(st.text('ab é\u2019{}"', min_size=1, max_size=4), min_size=1, max_size=6)
_ITEM = st.tuples(st.sampled_from(["text", "refusal", "reasoning", "function_call"]), _PIECES)


def _body(items: list[tuple[str, list[str]]]) -> bytes:
    builder = StreamBuilder(response_id="resp_snapshots")
    for kind, pieces in items:
        if kind == "text":
            builder.text(pieces)
        elif kind == "refusal":
            builder.refusal(pieces)
        elif kind == "reasoning":  # (a list would be one summary part per string)
            builder.reasoning_summary("".join(pieces), chunks=len(pieces))
        else:
            builder.function_call("f", pieces)
    return builder.completed().to_sse()


def _part(event: Any) -> tuple[Any, ...]:
    wire = event.to_dict()
    return (event.type, wire.get("item_id"), wire.get("content_index"), wire.get("summary_index"))


def _expected(events: list[Any]) -> list[str]:
    """Each delta's reference snapshot: its part's deltas so far, from the wire dicts."""
    so_far: dict[tuple[Any, ...], str] = {}
    out: list[str] = []
    for event in events:
        key = _part(event)
        so_far[key] = so_far.get(key, "") + event.to_dict()["delta"]
        out.append(so_far[key])
    return out


@settings(max_examples=60, deadline=None)
@given(
    items=st.lists(_ITEM, min_size=1, max_size=4),
    cuts=st.lists(st.integers(0, 10_000), max_size=6),
    general=st.booleans(),
    structured=st.booleans(),
)
def test_a_delta_snapshot_is_its_part_as_of_that_delta(
    items: list[tuple[str, list[str]]], cuts: list[int], general: bool, structured: bool
) -> None:
    data = _body(items)
    cls = _General if general else sr.ResponsesStream
    stream: Any = cls(text_format=dict if structured else None)
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    deltas: list[Any] = []
    read_at_once: list[str | None] = []
    for a, b in itertools.pairwise(points):
        for event in stream.feed(data[a:b]):
            if event.type.endswith(".delta"):
                deltas.append(event)
                read_at_once.append(event.snapshot)
    stream.close()
    expected = _expected(deltas)
    assert read_at_once == expected
    assert [event.snapshot for event in deltas] == expected  # read again at the end
    for event, text in zip(deltas, expected, strict=True):
        assert copy.copy(event).snapshot == text
        twin = copy.deepcopy(event)
        assert twin == event and twin.snapshot == text
        # (a JSON-tracked text's closure is turned into an object that pickles: events.py)
        back = pickle.loads(pickle.dumps(event))
        assert type(back) is type(event) and back == event and back.snapshot == text


def test_the_inline_events_hold_the_builder_not_a_closure() -> None:
    # What the change is: no function object per delta for a text not tracked as JSON.
    data = _body([("text", ["a", "b", "c"]), ("reasoning", ["x", "y"]), ("refusal", ["r", "s"])])
    for cls in (sr.ResponsesStream, _General):
        deltas: list[Any] = [e for e in cls().feed(data) if e.type.endswith(".delta")]
        assert len(deltas) == 7
        for event in deltas:
            assert not callable(event._snapshot_fn)
        assert [e.snapshot for e in deltas] == ["a", "ab", "abc", "x", "xy", "r", "rs"]
