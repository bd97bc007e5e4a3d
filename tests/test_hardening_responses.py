"""ResponsesStream keeps its promises on hostile input (issue 10): only events or a located
ProtocolError, nothing decoded lost, snapshot() always readable, cost and memory bounded."""

from __future__ import annotations

import dataclasses
import gc
import json
import sys
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from _corpus import load
from _deep import decoder_overflow_depth, dumps_overflow_depth
from _strict import check_strict_stops_where_lenient_notes
from hypothesis import given, settings
from hypothesis import strategies as st

import sansio_responses as sr
from sansio_responses._responses.accumulate import ACCUMULATION_RULES, print_accumulation_rules

MSG = {
    "type": "message",
    "id": "msg_1",
    "role": "assistant",
    "status": "in_progress",
    "content": [],
}
FC = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "f",
    "arguments": "",
    "status": "in_progress",
}


def frame(obj: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


def created(seq: int = 0, rid: str = "resp_1", **extra: Any) -> dict[str, Any]:
    response = {"id": rid, "object": "response", "status": "in_progress", "output": [], **extra}
    return {"type": "response.created", "sequence_number": seq, "response": response}


def added(seq: int, item: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return {
        "type": "response.output_item.added",
        "sequence_number": seq,
        "output_index": index,
        "item": item,
    }


def delta(seq: int, text: str, output_index: int = 0, content_index: int = 0) -> dict[str, Any]:
    return {
        "type": "response.output_text.delta",
        "sequence_number": seq,
        "item_id": "msg_1",
        "output_index": output_index,
        "content_index": content_index,
        "delta": text,
    }


def completed(seq: int, rid: str = "resp_1", output: list[Any] | None = None) -> dict[str, Any]:
    response = {"id": rid, "object": "response", "status": "completed", "output": output or []}
    return {"type": "response.completed", "sequence_number": seq, "response": response}


def nested(depth: int) -> Any:
    """A JSON value nesting *depth* levels of arrays (``[[...]]``), built without recursion."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


def deep_text(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- 1. nesting at any depth, in any field, through every accessor ----------------------------

# Where the deep value goes: each builds raw data text for one event from a deep JSON text.
PLACES: dict[str, Callable[[str], str]] = {
    "item field": lambda deep: (
        '{"type":"response.output_item.added","sequence_number":1,"output_index":0,'
        '"item":{"type":"message","id":"msg_1","role":"assistant","content":[],"x":' + deep + "}}"
    ),
    "response metadata": lambda deep: (
        '{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_1",'
        '"object":"response","status":"in_progress","metadata":' + deep + "}}"
    ),
    "delta extra field": lambda deep: (
        '{"type":"response.output_text.delta","sequence_number":1,"item_id":"msg_1",'
        '"output_index":0,"content_index":0,"delta":"x","vendor":' + deep + "}"
    ),
    "unknown event": lambda deep: '{"type":"vendor.thing","sequence_number":1,"v":' + deep + "}",
    "annotation": lambda deep: (
        '{"type":"response.output_text.annotation.added","sequence_number":1,"item_id":"msg_1",'
        '"output_index":0,"content_index":0,"annotation_index":0,"annotation":{"type":"x",'
        '"v":' + deep + "}}"
    ),
}


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("depth", [258, 600, 990, 1500, 20000])
def test_deep_nesting_is_a_located_error_keeping_earlier_events(place: str, depth: int) -> None:
    stream = sr.ResponsesStream()
    first = frame(created())
    hostile = b"data: " + PLACES[place](deep_text(depth)).encode() + b"\n\n"
    with pytest.raises(sr.RemoteProtocolError) as info:
        stream.feed(first + hostile)
    assert info.value.offset == len(first)
    assert "nest" in info.value.message
    assert [e.type for e in info.value.events] == ["response.created"]  # type: ignore[attr-defined]
    assert stream.error is info.value
    with pytest.raises(sr.LocalProtocolError):
        stream.feed(b"")
    snapshot = stream.snapshot()
    assert snapshot is not None and snapshot.id == "resp_1"
    assert snapshot.to_dict()["id"] == "resp_1"


def test_nesting_up_to_the_limit_is_accepted_through_every_accessor() -> None:
    depth = sr.ResponsesStream().max_nesting_depth
    assert depth == 256
    stream = sr.ResponsesStream()
    # The event object is level 1 and the item level 2: the value fills the rest exactly.
    events = stream.feed(
        frame(created())
        + b"data: "
        + PLACES["item field"](deep_text(depth - 2)).encode()
        + b"\n\n"
        + frame(delta(2, "hi"))
    )
    assert events[1].to_dict()["item"]["x"] == nested(depth - 2)
    assert stream.snapshot().to_dict()["output"][0]["x"] == nested(depth - 2)  # type: ignore[union-attr]
    assert events[2].snapshot == "hi"


@pytest.mark.parametrize("depth", [600, 850])
def test_no_nesting_limit_still_never_overflows(depth: int) -> None:
    """With the bound disabled, copies, merges and to_dict() still work at any depth json takes."""
    stream = sr.ResponsesStream(max_nesting_depth=None)
    events = stream.feed(
        frame(created())
        + b"data: "
        + PLACES["item field"](deep_text(depth)).encode()
        + b"\n\n"
        + frame(delta(2, "hello"))
        + frame(completed(3))
    )
    assert events[1].to_dict()["item"]["x"] == nested(depth)
    reconnected = sr.ResponsesStream(max_nesting_depth=None)
    reconnected.feed(frame(created()) + b"data: " + PLACES["item field"](deep_text(depth)).encode())
    with pytest.raises(sr.TruncatedStream):
        reconnected.close()
    assert reconnected.snapshot().to_dict()["output"][0]["x"] == nested(depth)  # type: ignore[union-attr]
    # Beyond what the stdlib decoder takes (on this interpreter), still a located error.
    too_deep = sr.ResponsesStream(max_nesting_depth=None)
    deep = deep_text(decoder_overflow_depth())
    with pytest.raises(sr.RemoteProtocolError) as info:
        too_deep.feed(frame(created()) + b"data: " + PLACES["item field"](deep).encode() + b"\n\n")
    assert len(info.value.events) == 1  # type: ignore[attr-defined]


def test_orjson_depth_errors_are_located_too() -> None:
    orjson = pytest.importorskip("orjson")
    stream = sr.ResponsesStream(json_loads=orjson.loads, max_nesting_depth=None)
    with pytest.raises(sr.RemoteProtocolError) as info:
        stream.feed(
            frame(created()) + b"data: " + PLACES["item field"](deep_text(2000)).encode() + b"\n\n"
        )
    assert len(info.value.events) == 1  # type: ignore[attr-defined]


def test_max_nesting_depth_is_validated() -> None:
    with pytest.raises(ValueError, match="max_nesting_depth"):
        sr.ResponsesStream(max_nesting_depth=0)


@settings(max_examples=60, deadline=None)
@given(
    depth=st.integers(min_value=1, max_value=1200),
    place=st.sampled_from(sorted(PLACES)),
    split=st.integers(min_value=1, max_value=4096),
)
def test_any_depth_anywhere_gives_events_or_protocol_error(
    depth: int, place: str, split: int
) -> None:
    body = frame(created()) + b"data: " + PLACES[place](deep_text(depth)).encode() + b"\n\n"
    body += frame(delta(2, "z")) + frame(completed(3))
    stream = sr.ResponsesStream()
    events: list[Any] = []
    try:
        for i in range(0, len(body), split):
            events += stream.feed(body[i : i + split])
        events += stream.close()
    except sr.ProtocolError as exc:
        assert depth + 2 > 256  # only too-deep data is refused (event + field levels included)
        events += exc.events  # type: ignore[attr-defined]
    for event in events:
        event.to_dict()
        getattr(event, "snapshot", None)
    snapshot = stream.snapshot()
    assert snapshot is None or snapshot.to_dict()["id"] == "resp_1"


# -- 2. a non-string type -------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["{}", "[]", "1", "null", "true"])
def test_non_string_type_is_a_located_error(kind: str) -> None:
    stream = sr.ResponsesStream()
    first = frame(created())
    with pytest.raises(sr.RemoteProtocolError) as info:
        stream.feed(first + b'data: {"type":' + kind.encode() + b"}\n\n")
    assert info.value.offset == len(first)
    assert len(info.value.events) == 1  # type: ignore[attr-defined]
    assert stream.error is info.value


# -- issue 12: feed(str) ----------------------------------------------------------------------


@pytest.mark.parametrize("make", [sr.ResponsesStream, sr.ChatCompletionsStream])
def test_feeding_text_says_bytes_are_expected(make: Callable[[], Any]) -> None:
    stream = make()
    with pytest.raises(sr.LocalProtocolError, match=r"bytes.*encode\(\)"):
        stream.feed("data: {}\n\n")
    assert stream.error is None  # a caller mistake: the stream stays usable
    stream.feed(b": keep-alive\n\n")


# -- 3. part indices that leave holes ----------------------------------------------------------


def test_part_index_holes_give_a_snapshot_of_the_known_parts() -> None:
    stream = sr.ResponsesStream()
    stream.feed(
        frame(created()) + frame(added(1, MSG)) + frame(delta(2, "second", content_index=1))
    )
    first = stream.snapshot()
    assert first is not None and first.output_text == "second"
    assert stream.snapshot() is first  # the same thing twice
    stream.feed(frame(delta(3, "first", content_index=0)))
    assert stream.snapshot().output_text == "firstsecond"  # type: ignore[union-attr]  # index order
    done = {**MSG, "status": "completed", "content": []}
    stream.feed(frame(completed(4, output=[done])))
    assert stream.outcome == "completed"


def test_resumed_multi_summary_stream_without_earlier_state() -> None:
    body, _ = load("responses-vercel-ai-azure-gpt5-reasoning-multi-summary-with-encryption")
    stream = sr.ResponsesStream(starting_after=9)  # the first event is summary_index 1, no part 0
    stream.feed(body[: len(body) // 2])
    partial = stream.snapshot()
    assert partial is not None and stream.snapshot() is partial
    reasoning = partial.output[0]  # type: ignore[index]
    assert reasoning.type == "reasoning"
    assert reasoning.summary and all(part.text for part in reasoning.summary)  # type: ignore[union-attr]
    stream.feed(body[len(body) // 2 :])
    stream.close()
    assert stream.outcome == "completed"


# -- 4. sequence numbers: any pattern ---------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=40), max_size=60))
def test_sequence_patterns_apply_each_number_once(numbers: list[int]) -> None:
    stream = sr.ResponsesStream()
    body = b"".join(frame({"type": "vendor.tick", "sequence_number": n}) for n in numbers)
    events = stream.feed(body)
    # The model: each number is applied once, at its first arrival; numbers below the first one
    # count as applied already (the stream was joined late: stream-starts-late).
    expected = [n for n in dict.fromkeys(numbers) if n >= numbers[0]]
    assert [e.sequence_number for e in events] == expected
    duplicates = len(numbers) - len(expected)
    assert stream.diagnostic_counts.get("duplicate-sequence-number", 0) == duplicates
    assert stream.last_sequence_number == (max(numbers) if numbers else None)


def test_many_gaps_keep_the_tracker_bounded_and_fresh_numbers_applied() -> None:
    from sansio_responses._responses.stream import _MAX_SEEN

    stream = sr.ResponsesStream(max_diagnostics=1)
    n = _MAX_SEEN + _MAX_SEEN // 2 + 10
    body = b"".join(frame({"type": "vendor.tick", "sequence_number": 2 * i}) for i in range(n))
    events = stream.feed(body)
    assert len(events) == n
    assert len(stream._seq.seen) <= _MAX_SEEN
    # Numbers above the forgotten range are still told apart: a repeat is skipped, a new one kept.
    assert stream.feed(frame({"type": "vendor.tick", "sequence_number": 2 * (n - 1)})) == []
    assert len(stream.feed(frame({"type": "vendor.tick", "sequence_number": 2 * n - 1}))) == 1


# -- 5. index jumps: memory held against bytes fed ----------------------------------------------


def held_after(feed: Callable[[], object]) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        kept = feed()
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    del kept
    return held


@settings(max_examples=15, deadline=None)
@given(
    jumps=st.lists(st.integers(min_value=0, max_value=10**12), min_size=50, max_size=200),
    part_jump=st.integers(min_value=0, max_value=10**9),
)
def test_memory_held_stays_within_a_constant_of_the_bytes_fed(
    jumps: list[int], part_jump: int
) -> None:
    frames = [frame(created())]
    seq, index = 1, 0
    for jump in jumps:
        index += jump
        item = {**MSG, "id": f"m{seq}"}
        frames.append(frame(added(seq, item, index)))
        frames.append(frame({**delta(seq + 1, "x", index, part_jump), "item_id": f"m{seq}"}))
        seq += 2
    body = b"".join(frames)

    def run() -> object:
        stream = sr.ResponsesStream()
        stream.feed(body)
        return stream

    assert held_after(run) < 4 * len(body) + 200_000


# -- 6. EventTooLarge releases the buffered event -------------------------------------------------


def test_event_too_large_does_not_keep_the_buffered_event_alive() -> None:
    limit = 2**22
    piece = b"x" * 65536

    def run() -> object:
        stream = sr.ResponsesStream(max_event_size=limit)
        stream.feed(b'data: {"type":"response.output_text.delta","delta":"')
        with pytest.raises(sr.EventTooLarge):
            for _ in range(limit // len(piece) + 2):
                stream.feed(piece)
        assert stream.error is not None and stream.error.__traceback__ is not None
        return stream

    assert held_after(run) < limit // 8


# -- 7. output items are bounded ----------------------------------------------------------------


def test_output_items_are_bounded() -> None:
    stream = sr.ResponsesStream(max_output_items=3)
    body = frame(created()) + b"".join(
        frame(added(i + 1, {**MSG, "id": f"m{i}"}, i)) for i in range(3)
    )
    assert len(stream.feed(body)) == 4
    stream.feed(frame(added(4, {**MSG, "id": "m0"}, 0)))  # replacing an item is not one more
    with pytest.raises(sr.RemoteProtocolError, match="max_output_items") as info:
        stream.feed(frame(added(5, {**MSG, "id": "m9"}, 9)))
    assert info.value.sequence_number == 5
    assert len(stream.snapshot().output) == 3  # type: ignore[union-attr,arg-type]


# -- 8. events applied only to the kind of item they belong to --------------------------------------

# A minimal event body for each ruled event type (fields beyond output_index / item_id).
_FIELDS: dict[str, dict[str, Any]] = {
    "delta": {"delta": "x"},
    "done": {"text": "x", "arguments": "{}", "input": "x", "code": "x", "refusal": "x"},
}


def _event_for(etype: str, seq: int, item_id: str) -> dict[str, Any]:
    ev: dict[str, Any] = {
        "type": etype,
        "sequence_number": seq,
        "output_index": 0,
        "item_id": item_id,
        "content_index": 0,
        "summary_index": 0,
        "command_index": 0,
        "annotation_index": 0,
    }
    if etype.endswith(".delta"):
        ev["delta"] = {"stdout": "x"} if "output_content" in etype else "x"
    if etype.endswith((".done", ".added")):
        ev.update(text="x", arguments="{}", input="x", code="x", refusal="x", command="ls")
        ev.update(output=[{"stdout": "x", "stderr": ""}], name="g")
        ev["part"] = (
            {"type": "summary_text", "text": ""}
            if "summary" in etype
            else {"type": "output_text", "text": "", "annotations": []}
        )
    if etype.endswith("annotation.added"):
        ev["annotation"] = {"type": "file_path", "file_id": "f", "index": 0}
    if etype.endswith("partial_image"):
        ev.update(partial_image_b64="AA==", partial_image_index=0)
    return ev


RULED = [
    (etype, kind)
    for etype, kind, _ in ACCUMULATION_RULES
    if kind != "-" and "/" not in etype and etype in sr.EVENT_TYPES
]


def test_the_rules_table_covers_every_event_that_touches_an_item() -> None:
    assert len(RULED) >= 40
    assert "wrong-item-type" not in print_accumulation_rules()
    assert print_accumulation_rules().splitlines()[0].split() == ["event", "item", "kind", "action"]


@pytest.mark.parametrize(("etype", "kind"), RULED)
def test_an_event_aimed_at_another_kind_of_item_leaves_it_unchanged(etype: str, kind: str) -> None:
    target = FC if "message" in kind.split("/") else MSG
    stream = sr.ResponsesStream()
    stream.feed(frame(created()) + frame(added(1, target)))
    before = stream.snapshot().to_dict()  # type: ignore[union-attr]
    events = stream.feed(frame(_event_for(etype, 2, target["id"])))
    assert len(events) == 1  # still yielded: the event itself is valid
    assert stream.snapshot().to_dict() == before  # type: ignore[union-attr]
    assert stream.diagnostic_counts.get("wrong-item-type") == 1
    strict = sr.ResponsesStream(strict=True)
    strict.feed(frame(created()) + frame(added(1, target)))
    with pytest.raises(sr.RemoteProtocolError, match="wrong-item-type"):
        strict.feed(frame(_event_for(etype, 2, target["id"])))


@pytest.mark.parametrize(("etype", "kind"), RULED)
def test_an_event_aimed_at_its_own_kind_is_applied(etype: str, kind: str) -> None:
    own = kind.split("/")[0]
    item = MSG if own == "message" else {"type": own, "id": "it_1", "status": "in_progress"}
    if own == "reasoning":
        item = {"type": "reasoning", "id": "it_1", "summary": []}
    stream = sr.ResponsesStream()
    stream.feed(frame(created()) + frame(added(1, item)))
    stream.feed(frame(_event_for(etype, 2, item["id"])))
    assert "wrong-item-type" not in stream.diagnostic_counts
    assert stream.snapshot() is not None


# -- 9. shell output per command ------------------------------------------------------------------


def test_shell_output_done_replaces_only_its_command() -> None:
    item = {"type": "shell_call_output", "id": "sh_1", "call_id": "c", "output": []}
    stream = sr.ResponsesStream()
    body = frame(created()) + frame(added(1, item))
    seq = 2
    for command in range(3):
        for event in ("delta", "done"):
            ev = _event_for(f"response.shell_call_output_content.{event}", seq, "sh_1")
            ev["command_index"] = command
            ev["delta"] = {"stdout": f"out{command}"}
            ev["output"] = [{"stdout": f"out{command}", "stderr": "", "outcome": {"type": "exit"}}]
            body += frame(ev)
            seq += 1
    stream.feed(body)
    output = stream.snapshot().to_dict()["output"][0]["output"]  # type: ignore[union-attr]
    assert [entry["stdout"] for entry in output] == ["out0", "out1", "out2"]


# -- 10. a resume answered by another response ---------------------------------------------------


def _dropped() -> sr.ResponsesStream:
    stream = sr.ResponsesStream()
    stream.feed(frame(created(background=True)) + frame(added(1, MSG)) + frame(delta(2, "mine")))
    with pytest.raises(sr.TruncatedStream):
        stream.close()
    stream.reconnect()
    return stream


@pytest.mark.parametrize("replayed", [True, False])
def test_resume_answered_by_another_response_is_refused(replayed: bool) -> None:
    stream = _dropped()
    before = stream.snapshot().to_dict()  # type: ignore[union-attr]
    other = frame(created(rid="resp_OTHER")) if replayed else frame(completed(3, rid="resp_OTHER"))
    with pytest.raises(sr.RemoteProtocolError, match="resp_OTHER"):
        stream.feed(other + frame(delta(4, "theirs")))
    assert stream.snapshot().to_dict() == before  # type: ignore[union-attr]
    assert stream.response_id == "resp_1"
    assert stream.outcome is None


def test_resume_from_another_stream_checks_the_id_too() -> None:
    resumed = sr.ResponsesStream(resume_from=_dropped())
    with pytest.raises(sr.RemoteProtocolError, match="resp_OTHER"):
        resumed.feed(frame(completed(9, rid="resp_OTHER")))
    ok = sr.ResponsesStream(resume_from=_dropped())
    ok.feed(frame(delta(3, "!")) + frame(completed(4)))
    assert ok.outcome == "completed"


def test_terminal_for_another_response_is_noted() -> None:
    stream = sr.ResponsesStream()
    stream.feed(frame(created()) + frame(completed(1, rid="resp_2")))
    assert stream.diagnostic_counts.get("response-id-changed") == 1


def test_the_rules_table_is_printed_in_the_docs() -> None:
    from pathlib import Path

    guide = (Path(__file__).parents[1] / "docs" / "guide" / "outcomes.md").read_text("utf-8")
    for etype, kind, action in ACCUMULATION_RULES:
        shown = "-" if kind == "-" else f"`{kind}`"
        assert f"| `{etype}` | {shown} | {action} |" in guide


ITEM_KINDS = [
    MSG,
    FC,
    {"type": "reasoning", "id": "rs_1", "summary": []},
    {"type": "shell_call", "id": "sh_1", "status": "in_progress"},
    {"type": "shell_call_output", "id": "so_1", "output": []},
    {"type": "mcp_call", "id": "mc_1", "name": "n", "server_label": "s", "arguments": ""},
    {"type": "vendor_item", "id": "v_1"},
]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([etype for etype, _ in RULED] + ["response.output_item.added"]),
            st.integers(min_value=-2, max_value=6) | st.just(10**15),
            st.sampled_from(ITEM_KINDS),
            st.integers(min_value=-1, max_value=4) | st.just(10**15),
        ),
        max_size=40,
    )
)
def test_any_sequence_of_ruled_events_keeps_the_snapshot_readable(events: list[Any]) -> None:
    """The rules table walked at random: wrong kinds, holes and hostile indices never break
    ``snapshot()``, which gives the same object twice and survives a terminal event."""
    stream = sr.ResponsesStream()
    body = frame(created())
    for seq, (etype, output_index, item, part_index) in enumerate(events, start=1):
        if etype == "response.output_item.added":
            ev = added(seq, item, output_index)
        else:
            ev = _event_for(etype, seq, item["id"])
            ev.update(output_index=output_index, content_index=part_index)
            ev.update(summary_index=part_index, command_index=part_index)
        body += frame(ev)
    try:
        stream.feed(body)
    except sr.RemoteProtocolError:
        pass  # a mistyped field (a negative index the model refuses): located, never another type
    first = stream.snapshot()
    assert first is not None and stream.snapshot() is first
    first.to_dict()
    if stream.error is None:
        stream.feed(frame(completed(len(events) + 1)))
        assert stream.outcome == "completed"


def test_snapshot_keeps_an_item_that_does_not_fit_its_model_as_unknown() -> None:
    """The safety net behind snapshot(): an accumulated item the model refuses is kept whole."""
    stream = sr.ResponsesStream()
    stream.feed(frame(created()) + frame(added(1, MSG)) + frame(delta(2, "hi")))
    stream._acc.items.put(1, {"type": "message", "id": "odd", "content": "not a list"})
    stream._acc.version += 1
    snapshot = stream.snapshot()
    assert snapshot is not None and stream.snapshot() is snapshot
    assert snapshot.output_text == "hi"
    odd = snapshot.output[1]  # type: ignore[index]
    assert isinstance(odd, sr.UnknownOutputItem) and odd.data["content"] == "not a list"
    assert snapshot.to_dict()["output"][1] == {
        "type": "message",
        "id": "odd",
        "content": "not a list",
    }


def test_unread_json_arguments_hold_memory_near_their_size() -> None:
    """Tiny argument deltas nobody reads: the partial-JSON queue is merged like the text."""
    n = 30_000
    body = frame(created()) + frame(added(1, FC))
    body += b"".join(
        frame(
            {
                "type": "response.function_call_arguments.delta",
                "sequence_number": i + 2,
                "item_id": "fc_1",
                "output_index": 0,
                "delta": "ab",
            }
        )
        for i in range(n)
    )

    def run() -> object:
        stream = sr.ResponsesStream()
        for i in range(0, len(body), 65536):
            stream.feed(body[i : i + 65536])
        return stream

    # 60 kB of arguments, tracked twice (text and parser queue); one str per delta held 1.9 MB.
    assert held_after(run) < 5 * 2 * n + 100_000


def test_items_sharing_an_id_are_both_kept() -> None:
    """Some servers give every item one placeholder id: no item may be lost for it."""
    stream = sr.ResponsesStream()
    first = {**MSG, "id": "x", "content": [{"type": "output_text", "text": "a", "annotations": []}]}
    second = {**first, "content": [{"type": "output_text", "text": "b", "annotations": []}]}
    stream.feed(frame(created()) + frame(added(1, first, 0)) + frame(added(2, second, 1)))
    assert stream.snapshot().output_text == "ab"  # type: ignore[union-attr]
    assert stream.diagnostic_counts.get("duplicate-item-id") == 1


def test_terminal_for_another_response_in_strict_mode_is_not_applied() -> None:
    stream = sr.ResponsesStream(strict=True)
    stream.feed(frame(created()))
    with pytest.raises(sr.RemoteProtocolError, match="response-id-changed"):
        stream.feed(frame(completed(1, rid="resp_2")))
    assert stream.outcome is None and stream.snapshot().id == "resp_1"  # type: ignore[union-attr]


# -- leftovers: resume_from at any depth the decoder allows; a configurable sequence window ------


def _deep_decoder(depth: int) -> Callable[[str | bytes], Any]:
    """A decoder that puts *depth* levels of arrays where the data says ``"DEEP"``: as deep as a
    decoder without a nesting limit may return, beyond what the standard library can build."""

    def loads(data: str | bytes) -> Any:
        return json.loads(data, object_hook=lambda o: nested(depth) if o.get("v") == "DEEP" else o)

    return loads


@pytest.mark.parametrize("depth", [600, 990, 5000])
def test_resume_from_copies_a_tree_at_any_depth(depth: int) -> None:
    deep = {"v": "DEEP"}
    body = (
        frame(created(background=True, metadata={"m": deep}))
        + frame(added(1, {**MSG, "x": deep}))
        + frame(
            {
                "type": "response.content_part.added",
                "sequence_number": 2,
                "item_id": "msg_1",
                "output_index": 0,
                "content_index": 0,
                "part": {"type": "output_text", "text": "", "annotations": [], "y": deep},
            }
        )
        + frame(delta(3, "before"))
    )
    dropped = sr.ResponsesStream(max_nesting_depth=None, json_loads=_deep_decoder(depth))
    assert len(dropped.feed(body)) == 4
    with pytest.raises(sr.TruncatedStream):
        dropped.close()
    before = dropped.snapshot()
    assert before is not None

    resumed = sr.ResponsesStream(resume_from=dropped, max_nesting_depth=None)
    # (Compared field by field: ``==`` on trees this deep is Python's own recursive comparison.)
    copied = resumed.snapshot()
    assert copied is not None and copied.id == before.id and copied.output_text == "before"
    assert resumed.last_sequence_number == 3
    resumed.feed(frame(delta(3, "replayed")) + frame(delta(4, " after")))
    after = resumed.snapshot()
    assert after is not None and after.output_text == "before after"
    # A copy, not a view: the earlier stream's snapshot did not move.
    assert dropped.snapshot() is before and before.output_text == "before"
    item = after.to_dict()["output"][0]
    assert too_deep_enough(item["x"], depth)
    assert too_deep_enough(item["content"][0]["y"], depth)
    assert too_deep_enough(after.to_dict()["metadata"]["m"], depth)


def too_deep_enough(value: Any, depth: int) -> bool:
    """Whether *value* is *depth* levels of single-element lists (walked without recursion)."""
    for _ in range(depth - 1):
        if type(value) is not list or len(value) != 1:
            return False
        value = value[0]
    return value == []


def test_resume_from_at_the_standard_library_decoder_limit() -> None:
    # With the nesting limit off, json.loads itself bounds depth: what it accepts must resume.
    dropped = sr.ResponsesStream(max_nesting_depth=None, json_loads=json.loads)
    hostile = PLACES["item field"](deep_text(900)).encode()
    dropped.feed(frame(created(background=True)) + b"data: " + hostile + b"\n\n")
    resumed = sr.ResponsesStream(resume_from=dropped)
    assert too_deep_enough(resumed.snapshot().to_dict()["output"][0]["x"], 900)  # type: ignore[union-attr]


def _gapped(n: int) -> bytes:
    return b"".join(frame({"type": "vendor.tick", "sequence_number": 2 * i}) for i in range(n))


def test_sequence_window_is_configurable() -> None:
    assert sr.DEFAULT_SEQUENCE_WINDOW == 65536
    assert sr.ResponsesStream().sequence_window == sr.DEFAULT_SEQUENCE_WINDOW
    small = sr.ResponsesStream(sequence_window=8, max_diagnostics=1)
    assert len(small.feed(_gapped(100))) == 100
    assert len(small._seq.seen) <= 8
    # A hole far below the window was given up: its number now counts as applied.
    assert small.feed(frame({"type": "vendor.tick", "sequence_number": 1})) == []
    # One inside the window is still told apart.
    assert len(small.feed(frame({"type": "vendor.tick", "sequence_number": 197}))) == 1
    assert small.feed(frame({"type": "vendor.tick", "sequence_number": 197})) == []
    # The default window remembers every hole of the same pattern.
    roomy = sr.ResponsesStream(max_diagnostics=1)
    roomy.feed(_gapped(100))
    assert len(roomy.feed(frame({"type": "vendor.tick", "sequence_number": 1}))) == 1


def test_sequence_window_zero_keeps_only_increasing_numbers() -> None:
    stream = sr.ResponsesStream(sequence_window=0, max_diagnostics=1)
    ticks = [0, 5, 3, 9, 7, 10]
    body = b"".join(frame({"type": "vendor.tick", "sequence_number": n}) for n in ticks)
    assert [e.sequence_number for e in stream.feed(body)] == [0, 5, 9, 10]
    assert stream.diagnostic_counts["duplicate-sequence-number"] == 2


@pytest.mark.parametrize("bad", [-1, 1.5, True, None])
def test_sequence_window_must_be_a_count(bad: Any) -> None:
    with pytest.raises(ValueError, match="sequence_window"):
        sr.ResponsesStream(sequence_window=bad)


def test_resume_from_uses_its_own_sequence_window() -> None:
    dropped = sr.ResponsesStream(max_diagnostics=1)
    dropped.feed(_gapped(100))
    resumed = sr.ResponsesStream(resume_from=dropped, sequence_window=4, max_diagnostics=1)
    assert resumed.sequence_window == 4
    resumed.feed(frame({"type": "vendor.tick", "sequence_number": 1000}))
    assert len(resumed._seq.seen) <= 4


@pytest.mark.parametrize("how", ["reconnect", "resume_from"])
def test_deltas_before_the_other_response_is_named_are_rolled_back(how: str) -> None:
    # A resume with starting_after replays no response.created: the other response's deltas
    # come first and name no response; its terminal event is the first to name it.
    stream = _dropped() if how == "reconnect" else sr.ResponsesStream(resume_from=_dropped())
    before = stream.snapshot().to_dict()  # type: ignore[union-attr]
    with pytest.raises(sr.RemoteProtocolError, match="resp_OTHER") as info:
        stream.feed(frame(delta(3, " theirs")) + frame(completed(4, rid="resp_OTHER")))
    assert [e.type for e in info.value.events] == ["response.output_text.delta"]  # type: ignore[attr-defined]
    assert info.value.sequence_number == 4
    assert stream.snapshot().to_dict() == before  # type: ignore[union-attr]
    assert stream.snapshot().output_text == "mine"  # type: ignore[union-attr]
    assert stream.last_sequence_number == 2  # a retry asks for starting_after=2 again
    # The right body, after another reconnect, continues from where the resume began.
    stream.reconnect()
    stream.feed(frame(delta(3, "!")) + frame(completed(4)))
    assert stream.outcome == "completed" and stream.response_id == "resp_1"
    assert [i.to_dict()["content"][0]["text"] for i in stream.snapshot().output] == ["mine!"]  # type: ignore[union-attr]


def test_a_resumed_body_naming_the_right_response_is_kept() -> None:
    stream = _dropped()
    stream.feed(frame(delta(3, " more")) + frame(completed(4)))
    assert stream.outcome == "completed"
    assert stream.snapshot().output_text == "mine more"  # type: ignore[union-attr]


@dataclasses.dataclass
class _Node:
    children: list[_Node]


@pytest.mark.parametrize("levels", [20, 400])
def test_a_recursive_text_format_too_deep_to_convert_is_an_output_parse_error(levels: int) -> None:
    from sansio_responses.testing import StreamBuilder

    value: dict[str, Any] = {"children": []}
    for _ in range(levels):
        value = {"children": [value]}
    text = json.dumps(value)
    stream = sr.ResponsesStream(text_format=_Node, max_nesting_depth=None)
    events = stream.feed(StreamBuilder().text(text).completed().to_sse())
    stream.close()
    (done,) = [e for e in events if isinstance(e, sr.ResponseTextDoneEvent)]
    if levels == 20:
        parsed = stream.output_parsed
        for _ in range(levels):
            assert isinstance(parsed, _Node) and len(parsed.children) == 1
            parsed = parsed.children[0]
        assert parsed == _Node(children=[]) and isinstance(done.parsed, _Node)
        return
    for read in (lambda: stream.output_parsed, lambda: done.parsed):
        with pytest.raises(sr.OutputParseError, match="nests too deeply") as info:
            read()
        assert info.value.raw_text == text


# -- strict mode: a diagnostic raised partway through an event applies nothing of it (issue 10) --


def _raw(obj: dict[str, Any], name: str | None = None) -> bytes:
    head = b"" if name is None else b"event: " + name.encode() + b"\n"
    return head + frame(obj)


_OPENING = [frame(created(0)), frame(added(1, MSG)), frame(delta(2, "hello"))]
_MSG_2 = {**MSG, "id": "msg_2"}
STRICT_RESPONSES_CASES: dict[str, list[bytes]] = {
    "missing-sequence-number": [*_OPENING, frame({**delta(3, "x"), "sequence_number": None})],
    "stream-starts-late": [frame(created(5))],
    "sequence-gap": [*_OPENING, frame(delta(9, "x"))],
    "duplicate-sequence-number": [*_OPENING, frame(delta(2, "x"))],
    "missing-response-created": [frame(added(0, MSG))],
    "event-after-terminal": [*_OPENING, frame(completed(3, output=[MSG])), frame(delta(4, "x"))],
    "event-name-mismatch": [*_OPENING, _raw(delta(3, "x"), "vendor.other")],
    "keepalive-event": [*_OPENING, frame({"type": "ping", "sequence_number": 3})],
    "keepalive-comment": [*_OPENING, b": ping\n\n"],
    "done-marker": [*_OPENING, b"data: [DONE]\n\n"],
    "empty-data": [*_OPENING, b"data:\n\n"],  # issue 22, item 13
    "terminal-output-missing-items": [*_OPENING, frame(completed(3))],
    "unterminated-final-event": [*_OPENING, frame(completed(3, output=[MSG]))[:-1]],
    "missing-output-item": [
        *_OPENING,
        frame({**delta(3, "x", output_index=1), "item_id": "msg_2"}),
    ],
    "bad-output-index": [*_OPENING, frame(added(3, _MSG_2, index=-1))],
    "duplicate-item-id": [*_OPENING, frame(added(3, MSG, index=1))],
    "duplicate-item-id (in response.created)": [frame(created(0, output=[MSG, FC, MSG]))],
    "wrong-item-type": [
        *_OPENING,
        frame(
            {
                "type": "response.function_call_arguments.delta",
                "sequence_number": 3,
                "item_id": "msg_1",
                "output_index": 0,
                "delta": "{",
            }
        ),
    ],
    "item-id-mismatch": [*_OPENING, frame({**delta(3, "x"), "item_id": "msg_X"})],
    # Issue 22, item 1 (c): the id is known, at another index (it wins, and is noted too) ...
    "item-id-mismatch (known id)": [
        *_OPENING,
        frame(added(3, _MSG_2, index=1)),
        frame({**delta(4, "x"), "item_id": "msg_2"}),
    ],
    # ... or the index holds no item.
    "item-id-mismatch (empty index)": [*_OPENING, frame(delta(3, "x", output_index=5))],
    # Issue 22, item 1 (a): an annotation that is not an object is not added.
    "bad-annotation": [
        *_OPENING,
        frame(
            {
                "type": "response.output_text.annotation.added",
                "sequence_number": 3,
                "item_id": "msg_1",
                "output_index": 0,
                "content_index": 0,
                "annotation_index": 0,
                "annotation": None,
            }
        ),
    ],
    "response-id-changed": [
        *_OPENING,
        frame({**created(3, rid="resp_2"), "type": "response.in_progress"}),
    ],
    "response-id-changed (terminal)": [*_OPENING, frame(completed(3, rid="resp_2", output=[MSG]))],
    "delta-mismatch": [
        *_OPENING,
        frame(
            {
                "type": "response.output_text.done",
                "sequence_number": 3,
                "item_id": "msg_1",
                "output_index": 0,
                "content_index": 0,
                "text": "other",
            }
        ),
    ],
}


def _state(stream: sr.ResponsesStream) -> Any:
    snapshot = stream.snapshot()
    return (None if snapshot is None else snapshot.to_dict(), stream.last_sequence_number)


def test_every_responses_strict_case_is_a_documented_code() -> None:
    with open("docs/guide/outcomes.md", encoding="utf-8") as f:
        page = f.read()
    codes = {name.split(" ")[0] for name in STRICT_RESPONSES_CASES}
    section = page.split("### Responses stream codes")[1].split("###")[0]
    documented = {line.split("`")[1] for line in section.splitlines() if line.startswith("| `")}
    # sequence-reordered needs a hole below the last number, which only a gap (itself an error
    # in strict mode) can leave: it never is the first diagnostic of a strict stream.
    unreachable = {"sequence-reordered"}
    assert documented - codes == unreachable
    assert codes <= documented


@pytest.mark.parametrize("case", sorted(STRICT_RESPONSES_CASES))
def test_a_strict_mode_error_applies_nothing_of_its_event(case: str) -> None:
    code = case.split(" ")[0]
    *opening, last = STRICT_RESPONSES_CASES[case]
    ends_open = not last.endswith(b"\n\n")
    lenient = sr.ResponsesStream()
    lenient.feed(b"".join(opening))
    assert not lenient.diagnostics
    before = _state(lenient)
    lenient.feed(last)
    if ends_open:
        lenient.close()
    assert lenient.diagnostics[0].code == code  # the case is what it says

    stream = sr.ResponsesStream(strict=True)
    body = b"".join(opening) + last
    with pytest.raises(sr.RemoteProtocolError, match=f"{code}; strict mode") as info:
        stream.feed(body)
        stream.close()
    if not ends_open and code != "keepalive-comment":  # a comment line is not located
        assert info.value.offset == len(body) - len(last)
    assert len(info.value.events) == (0 if ends_open else len(opening))  # type: ignore[attr-defined]
    assert _state(stream) == before


_strict_item = st.sampled_from([MSG, _MSG_2, FC, {"type": "reasoning", "id": "rs_1"}])
_strict_where = st.fixed_dictionaries(
    {
        "output_index": st.sampled_from([0, 1, -1]),
        "item_id": st.sampled_from(["msg_1", "msg_2", "fc_1"]),
    }
)
_strict_body = st.one_of(
    st.builds(
        lambda r, o: created(0, rid=r, output=o),
        st.sampled_from(["resp_1", "resp_2"]),
        st.lists(_strict_item, max_size=3),
    ),
    st.builds(
        lambda i, w: {"type": "response.output_item.added", "item": i, **w},
        _strict_item,
        _strict_where,
    ),
    st.builds(
        lambda t, w: {"type": "response.output_text.delta", "content_index": 0, "delta": t, **w},
        st.sampled_from(["a", "b"]),
        _strict_where,
    ),
    st.builds(
        lambda t, w: {"type": "response.output_text.done", "content_index": 0, "text": t, **w},
        st.sampled_from(["a", "ab"]),
        _strict_where,
    ),
    st.builds(
        lambda w: {
            "type": "response.function_call_arguments.done",
            "arguments": "{}",
            "name": "g",
            **w,
        },
        _strict_where,
    ),
    st.builds(lambda w: {"type": "response.web_search_call.searching", **w}, _strict_where),
    st.builds(
        lambda o, r: completed(0, rid=r, output=o),
        st.lists(_strict_item, max_size=2),
        st.sampled_from(["resp_1", "resp_2"]),
    ),
    st.just({"type": "response.completed"}),
    st.just({"type": "vendor.tick"}),
)
_strict_frame = st.one_of(
    st.builds(
        lambda body, seq: _raw({**body, "sequence_number": seq}),
        _strict_body,
        st.one_of(st.none(), st.integers(0, 6)),
    ),
    st.just(b": ping\n\n"),
    st.just(b"data: [DONE]\n\n"),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_strict_frame, min_size=1, max_size=7), st.booleans())
def test_responses_strict_mode_stops_where_lenient_mode_notes_with_the_state_before(
    frames: list[bytes], unterminated: bool
) -> None:
    if unterminated:
        frames = [*frames[:-1], frames[-1][:-1]]
    check_strict_stops_where_lenient_notes(sr.ResponsesStream, frames, _state)


# -- max_nesting_depth=None: repr, str and == stay readable at the decoder's depth (issue 10) --

_DEEP_PLACES: dict[str, Callable[[str], bytes]] = {
    "unknown event": lambda d: b'{"type":"vendor.x","sequence_number":1,"v":' + d.encode() + b"}",
    "item field typed Any": lambda d: (
        b'{"type":"response.output_item.added","sequence_number":1,"output_index":0,'
        b'"item":{"type":"image_generation_call","id":"ig","action":' + d.encode() + b"}}"
    ),
}


def _deepest_accepted() -> int:
    """The deepest nesting the stream's decoder accepts here (the decoder's own limit)."""
    depth = 1100
    while depth > 0:
        stream = sr.ResponsesStream(max_nesting_depth=None)
        try:
            stream.feed(
                frame(created())
                + b"data: "
                + _DEEP_PLACES["unknown event"](deep_text(depth))
                + b"\n\n"
            )
        except sr.RemoteProtocolError:
            depth -= 10
            continue
        return depth
    raise AssertionError("no depth accepted")


@pytest.mark.parametrize("place", sorted(_DEEP_PLACES))
def test_repr_str_and_eq_of_data_at_the_decoders_depth(place: str) -> None:
    depth = _deepest_accepted()
    # On CPython 3.11 Python's own repr cannot walk this value (the case the fallback is for).
    # On 3.10 the decoder meets its limit a few frames deeper in the stack than repr does here,
    # so repr may still manage; either way the stream's objects must give the right answers.
    if sys.version_info[:2] == (3, 11):
        with pytest.raises(RecursionError):
            repr([nested(depth)])
    body = frame(created()) + b"data: " + _DEEP_PLACES[place](deep_text(depth)) + b"\n\n"
    streams = [sr.ResponsesStream(max_nesting_depth=None) for _ in range(2)]
    (_, first), (_, second) = (s.feed(body) for s in streams)
    shown = repr(first)
    assert (
        str(first) == shown and shown.count("[") >= depth and shown.count("[") == shown.count("]")
    )
    assert shown.startswith(type(first).__qualname__ + "(")
    assert first == second and not (first != second)
    snapshots = [s.snapshot() for s in streams]
    assert snapshots[0] == snapshots[1]
    assert repr(snapshots[0]).count("[") >= (depth if place != "unknown event" else 0)
    # A difference at the bottom is seen.
    other = sr.ResponsesStream(max_nesting_depth=None)
    (_, changed) = other.feed(
        frame(created())
        + b"data: "
        + _DEEP_PLACES[place](deep_text(depth).replace("[]", "[1]"))
        + b"\n\n"
    )
    assert first != changed and not (first == changed)
    assert "[1]" in repr(changed)


def test_the_depth_safe_repr_gives_the_text_of_repr() -> None:
    from sansio_responses._responses.models import json_equal, json_repr

    tree = {"a": [1, {"b": None, "c": "x'y"}, []], "d": {}, "e": [True, 1.5]}
    assert json_repr(tree) == repr(tree)
    deep: Any = tree
    for _ in range(3000):
        deep = [deep]
    text = json_repr(deep)
    assert text == "[" * 3000 + repr(tree) + "]" * 3000
    assert json_equal(deep, deep)
    copy: Any = dict(tree)
    for _ in range(3000):
        copy = [copy]
    assert json_equal(deep, copy)
    copy_changed: Any = {**tree, "d": {"z": 1}}
    for _ in range(3000):
        copy_changed = [copy_changed]
    assert not json_equal(deep, copy_changed)


def test_chat_events_and_snapshot_repr_and_eq_at_the_decoders_depth() -> None:
    # Kept here, beside the Responses case it mirrors (the models share _models.depth_safe).
    depth = _deepest_accepted()
    deep = deep_text(depth).encode()
    chunk = b'{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"x"}}],"v":'
    # A chunk's unmodelled fields are not in its repr (they are in extra); an unknown event's are.
    for data, shown_depth in ((chunk + deep + b"}", 0), (b'{"vendor":' + deep + b"}", depth)):
        streams = [sr.ChatCompletionsStream(max_nesting_depth=None) for _ in range(2)]
        (first,), (second,) = (s.feed(b"data: " + data + b"\n\n") for s in streams)
        shown = repr(first)
        assert str(first) == shown and shown.count("[") >= shown_depth
        assert first == second and not (first != second)
        snapshots = [s.snapshot() for s in streams]
        assert snapshots[0] == snapshots[1] and repr(snapshots[0]) == repr(snapshots[1])


def test_the_builders_copy_deep_caller_values_and_refuse_to_serialize_them_clearly() -> None:
    from sansio_responses.testing import ChatStreamBuilder, StreamBuilder

    deep = nested(dumps_overflow_depth())  # deeper than json.dumps can encode here
    builder = StreamBuilder().text("hi", annotations=[{"type": "vendor", "v": deep}])
    builder.completed(usage={"input_tokens": 1, "output_tokens": 1, "total_tokens": 2, "v": deep})
    deep.append(1)  # the builder holds copies: changing the caller's value changes nothing
    for render in (builder.events, builder.to_sse):
        with pytest.raises(sr.LocalProtocolError, match="too deeply to serialize"):
            render()
    # Deeper than copy.deepcopy can go (two frames a level) but not than json.dumps (one): the
    # builder's copy is made anyway, and later edits of the caller's value do not reach it.
    middle = nested(700)
    with pytest.raises(RecursionError):
        __import__("copy").deepcopy(middle)  # the case is what it says
    ok = StreamBuilder().text("hi", annotations=[{"type": "vendor", "v": middle}]).completed()
    expected = json.loads(json.dumps(middle))
    middle.append(1)
    final = ok.events()[-1]["response"]["output"][0]["content"][0]["annotations"]
    assert final == [{"type": "vendor", "v": expected}] and final[0]["v"] != middle
    chat = ChatStreamBuilder().content("x").finish()
    assert chat.chunks() == chat.chunks() and chat.chunks() is not chat._chunks
