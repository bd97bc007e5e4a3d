"""ResponsesStream behaviour on hand-written bytes: outcomes, tolerance, strict mode, resume, errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _corpus import load

import sansio_responses as sr

RID = "resp_1"


def sse(obj: Any, *, name: str | None = None) -> bytes:
    """One event block as the API frames it (``event:`` line optional)."""
    data = obj if isinstance(obj, str) else json.dumps(obj)
    head = f"event: {name}\n" if name else ""
    return f"{head}data: {data}\n\n".encode()


def response(status: str = "in_progress", output: list[Any] | None = None, **extra: Any) -> Any:
    return {"id": RID, "object": "response", "status": status, "output": output or [], **extra}


def ev(etype: str, seq: int | None, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": etype, **fields}
    if seq is not None:
        out["sequence_number"] = seq
    return out


MSG = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "status": "in_progress",
    "content": [],
}
PART = {"type": "output_text", "text": "", "annotations": []}


def text_events(
    deltas: list[str], *, start: int = 0, terminal: str | None = "response.completed"
) -> list[dict[str, Any]]:
    """A full text stream: created, item, part, deltas, done events and an optional terminal."""
    text = "".join(deltas)
    done_part = {**PART, "text": text}
    done_item = {**MSG, "status": "completed", "content": [done_part]}
    evs = [
        ev("response.created", None, response=response()),
        ev("response.output_item.added", None, output_index=0, item=MSG),
        ev(
            "response.content_part.added",
            None,
            item_id="msg_1",
            output_index=0,
            content_index=0,
            part=PART,
        ),
    ]
    evs += [
        ev(
            "response.output_text.delta",
            None,
            item_id="msg_1",
            output_index=0,
            content_index=0,
            delta=d,
        )
        for d in deltas
    ]
    evs += [
        ev(
            "response.output_text.done",
            None,
            item_id="msg_1",
            output_index=0,
            content_index=0,
            text=text,
        ),
        ev(
            "response.content_part.done",
            None,
            item_id="msg_1",
            output_index=0,
            content_index=0,
            part=done_part,
        ),
        ev("response.output_item.done", None, output_index=0, item=done_item),
    ]
    if terminal == "response.incomplete":
        evs.append(
            ev(
                terminal,
                None,
                response=response(
                    "incomplete", [done_item], incomplete_details={"reason": "max_output_tokens"}
                ),
            )
        )
    elif terminal == "response.failed":
        evs.append(
            ev(
                terminal,
                None,
                response=response(
                    "failed", [done_item], error={"code": "server_error", "message": "boom"}
                ),
            )
        )
    elif terminal == "response.completed":
        evs.append(ev(terminal, None, response=response("completed", [done_item])))
    for i, e in enumerate(evs):
        e["sequence_number"] = start + i
    return evs


def body(evs: list[dict[str, Any]]) -> bytes:
    return b"".join(sse(e, name=e["type"]) for e in evs)


def feed_all(stream: sr.ResponsesStream, data: bytes) -> list[Any]:
    events = stream.feed(data)
    events += stream.close()
    return events


# -- outcomes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("terminal", "outcome"),
    [
        ("response.completed", "completed"),
        ("response.incomplete", "incomplete"),
        ("response.failed", "failed"),
    ],
)
def test_terminal_outcomes(terminal: str, outcome: str) -> None:
    stream = sr.ResponsesStream()
    assert stream.outcome is None
    events = feed_all(stream, body(text_events(["Hel", "lo"], terminal=terminal)))
    assert stream.outcome == outcome
    assert stream.terminal_event is events[-1]
    snap = stream.snapshot()
    assert snap is not None and snap.output_text == "Hello" and snap.status == outcome
    assert stream.diagnostics == []


def test_error_event_outcome_keeps_partial_snapshot() -> None:
    evs = text_events(["par", "tial"], terminal=None)[:5]
    evs.append(ev("error", 5, code="server_error", message="The server had an error", param=None))
    stream = sr.ResponsesStream()
    events = feed_all(stream, body(evs))
    assert stream.outcome == "error"
    err = events[-1]
    assert isinstance(err, sr.ResponseErrorEvent)
    assert (err.code, err.message) == ("server_error", "The server had an error")
    assert stream.error_event is err
    snap = stream.snapshot()
    assert snap is not None and snap.output_text == "partial"


@pytest.mark.parametrize("events", [True, False])
@pytest.mark.parametrize("first", ["response.completed", "response.incomplete", "response.failed"])
def test_a_second_terminal_event_changes_nothing(first: str, events: bool) -> None:
    # A terminal response event is final: a later one (another kind, another status and text)
    # is noted and returned, but the outcome, terminal event and snapshot stay the first one's.
    evs = text_events(["Hel", "lo"], terminal=first)
    last = evs[-1]["sequence_number"]
    later = "response.failed" if first != "response.failed" else "response.completed"
    other = {**evs[-1]["response"], "status": later.split(".")[1], "output": []}
    evs.append(ev(later, last + 1, response=other))
    stream = sr.ResponsesStream(events=events)
    returned = feed_all(stream, body(evs))
    assert stream.outcome == first.split(".")[1]
    assert codes(stream) == ["event-after-terminal"]
    snap = stream.snapshot()
    assert snap is not None and snap.status == first.split(".")[1] and snap.output_text == "Hello"
    if events:
        assert [e.type for e in returned[-2:]] == [first, later]
        assert stream.terminal_event is returned[-2]
    else:
        assert stream.terminal_event is not None and stream.terminal_event.type == first


def test_an_error_event_then_failed_is_failed() -> None:
    # The one terminal event that a later one completes: error, then response.failed.
    evs = text_events(["par", "tial"], terminal=None)[:5]
    evs.append(ev("error", 5, code="server_error", message="m", param=None))
    evs.append(ev("response.failed", 6, response=response(status="failed")))
    stream = sr.ResponsesStream()
    events = feed_all(stream, body(evs))
    assert stream.outcome == "failed" and stream.terminal_event is events[-1]
    assert stream.error_event is events[-2]


def test_nested_error_shape_has_the_same_attributes() -> None:
    stream = sr.ResponsesStream()
    nested = {
        "type": "error",
        "sequence_number": 0,
        "error": {"type": "invalid_request_error", "code": "bad", "message": "m", "param": "p"},
    }
    [err] = feed_all(stream, sse(nested))
    assert (err.code, err.message, err.param) == ("bad", "m", "p")
    assert stream.outcome == "error"


def test_truncated_body_raises_and_keeps_snapshot() -> None:
    evs = text_events(["a", "b", "c"], terminal=None)
    stream = sr.ResponsesStream()
    events = stream.feed(body(evs))
    assert len(events) == len(evs)
    with pytest.raises(sr.TruncatedStream) as info:
        stream.close()
    assert isinstance(info.value, sr.RemoteProtocolError)
    assert stream.outcome == "truncated"
    assert info.value.sequence_number == evs[-1]["sequence_number"]
    snap = stream.snapshot()
    assert snap is not None and snap.output_text == "abc"
    assert stream.close() == []  # idempotent


def test_truncated_mid_event() -> None:
    data = body(text_events(["x", "y"]))
    cut = data.rindex(b"data: ") + 20  # inside the response.completed event
    stream = sr.ResponsesStream()
    stream.feed(data[:cut])
    with pytest.raises(sr.TruncatedStream):
        stream.close()
    snap = stream.snapshot()
    assert snap is not None and snap.output_text == "xy" and snap.status == "in_progress"


def test_empty_body_is_truncated() -> None:
    stream = sr.ResponsesStream()
    with pytest.raises(sr.TruncatedStream):
        stream.close()
    assert stream.snapshot() is None


# -- lazy per-part helpers ------------------------------------------------------------------


def test_delta_snapshot_is_the_text_at_that_event() -> None:
    stream = sr.ResponsesStream()
    events = feed_all(stream, body(text_events(["He", "ll", "o!"])))
    deltas = [e for e in events if e.type == "response.output_text.delta"]
    assert [d.snapshot for d in deltas] == ["He", "Hell", "Hello!"]


def test_argument_delta_snapshot() -> None:
    call = {
        "id": "fc_1",
        "type": "function_call",
        "call_id": "c1",
        "name": "f",
        "arguments": "",
        "status": "in_progress",
    }
    evs = [
        ev("response.created", 0, response=response()),
        ev("response.output_item.added", 1, output_index=0, item=call),
        ev(
            "response.function_call_arguments.delta",
            2,
            item_id="fc_1",
            output_index=0,
            delta='{"a"',
        ),
        ev(
            "response.function_call_arguments.delta",
            3,
            item_id="fc_1",
            output_index=0,
            delta=": 1}",
        ),
    ]
    stream = sr.ResponsesStream()
    events = stream.feed(body(evs))
    assert [e.snapshot for e in events[2:]] == ['{"a"', '{"a": 1}']
    snap = stream.snapshot()
    assert snap is not None
    assert snap.output[0].arguments == '{"a": 1}'


# -- tolerance with a record ---------------------------------------------------------------


def codes(stream: sr.ResponsesStream) -> list[str]:
    return [d.code for d in stream.diagnostics]


def test_missing_sequence_numbers_tolerated_and_noted() -> None:
    evs = text_events(["a", "b"])
    for e in evs:
        del e["sequence_number"]
    stream = sr.ResponsesStream()
    events = feed_all(stream, body(evs))
    assert len(events) == len(evs) and all(e.sequence_number is None for e in events)
    assert set(codes(stream)) == {"missing-sequence-number"}
    assert stream.diagnostic_counts["missing-sequence-number"] == len(evs)
    assert stream.snapshot().output_text == "ab"  # type: ignore[union-attr]


def test_stream_starting_after_created() -> None:
    evs = text_events(["a", "b"])[3:]  # starts with the first delta
    stream = sr.ResponsesStream()
    feed_all(stream, body(evs))
    assert "missing-response-created" in codes(stream)
    assert "stream-starts-late" in codes(stream)
    assert stream.outcome == "completed"


def test_snapshot_from_deltas_alone_creates_missing_item_and_part() -> None:
    evs = [e for e in text_events(["a", "b"], terminal=None) if "delta" in e["type"]]
    stream = sr.ResponsesStream()
    stream.feed(body(evs))
    snap = stream.snapshot()
    assert snap is not None and snap.output_text == "ab"
    assert "missing-output-item" in codes(stream)


def test_gap_duplicate_and_reorder() -> None:
    evs = text_events(["a", "b", "c", "d"])
    # seq: 0 created, 1 item, 2 part, 3..6 deltas
    order = [evs[0], evs[1], evs[2], evs[3], evs[3], evs[5], evs[4], evs[6], *evs[7:]]
    stream = sr.ResponsesStream()
    events = feed_all(stream, body(order))
    assert codes(stream)[:3] == ["duplicate-sequence-number", "sequence-gap", "sequence-reordered"]
    assert [d.sequence_number for d in stream.diagnostics[:3]] == [3, 5, 4]
    assert len(events) == len(evs)  # the duplicate is neither applied nor returned
    snap = stream.snapshot()
    assert snap is not None and snap.output_text == "abcd"  # the server's final text
    assert stream.last_sequence_number == evs[-1]["sequence_number"]


@pytest.mark.parametrize("logprobs", [False, True])
@pytest.mark.parametrize("kind", ["message", "reasoning"])
def test_a_late_part_added_keeps_the_deltas_before_it(kind: str, logprobs: bool) -> None:
    # A part.added (text "", logprobs []) reordered after its part's first delta: the part it
    # opens is the one the delta already built, whose text (and logprobs) are kept, for a
    # message's content part as for a reasoning summary.
    lp = [{"token": "Hel", "logprob": -0.5, "bytes": [72, 101, 108], "top_logprobs": []}]
    if kind == "message":
        item = {**MSG, "content": []}
        delta_type, index_field = "response.output_text.delta", "content_index"
        added_type = "response.content_part.added"
        part: dict[str, Any] = {"type": "output_text", "text": "", "annotations": []}
        if logprobs:
            part["logprobs"] = []
    else:
        item = {"id": "msg_1", "type": "reasoning", "summary": []}
        delta_type, index_field = "response.reasoning_summary_text.delta", "summary_index"
        added_type = "response.reasoning_summary_part.added"
        part = {"type": "summary_text", "text": ""}

    def delta(seq: int, text: str) -> dict[str, Any]:
        fields: dict[str, Any] = {"output_index": 0, "item_id": "msg_1", index_field: 0}
        if logprobs and kind == "message":
            fields["logprobs"] = lp if text == "Hel" else []
        return ev(delta_type, seq, delta=text, **fields)

    evs = [
        ev("response.created", 0, response=response()),
        ev("response.output_item.added", 1, output_index=0, item=item),
        delta(3, "Hel"),
        ev(added_type, 2, output_index=0, item_id="msg_1", **{index_field: 0}, part=part),
        delta(4, "lo"),
    ]
    data = body(evs)
    for chunks in ([data], [data[i : i + 1] for i in range(len(data))]):
        stream = sr.ResponsesStream()
        for chunk in chunks:
            stream.feed(chunk)
        assert "sequence-reordered" in codes(stream)
        snap = stream.snapshot()
        assert snap is not None
        out = snap.to_dict()["output"][0]
        got = out["content"][0] if kind == "message" else out["summary"][0]
        assert got["text"] == "Hello"
        if logprobs and kind == "message":
            assert got["logprobs"] == lp


def test_replayed_prefix_is_not_applied_twice() -> None:
    evs = text_events(["a", "b", "c"], terminal=None)
    stream = sr.ResponsesStream()
    stream.feed(body(evs))
    again = stream.feed(body(evs))  # a proxy replays everything
    assert again == []
    assert stream.snapshot().output_text == "abc"  # type: ignore[union-attr]
    assert stream.diagnostic_counts["duplicate-sequence-number"] == len(evs)


def test_keepalives_comments_done_marker() -> None:
    evs = text_events(["a"])
    data = (
        b": keep-alive\n\n"
        + body(evs[:3])
        + sse({"type": "keepalive"})
        + body(evs[3:])
        + b"data: [DONE]\n\n"
    )
    stream = sr.ResponsesStream()
    events = feed_all(stream, data)
    assert set(codes(stream)) == {"keepalive-comment", "keepalive-event", "done-marker"}
    unknown = [e for e in events if isinstance(e, sr.UnknownEvent)]
    assert [u.type for u in unknown] == ["keepalive"]
    assert stream.outcome == "completed"


def test_unterminated_final_event_that_is_complete_json() -> None:
    data = body(text_events(["a"]))
    assert data.endswith(b"\n\n")
    stream = sr.ResponsesStream()
    stream.feed(data[:-2])
    events = stream.close()
    assert [e.type for e in events] == ["response.completed"]
    assert stream.outcome == "completed"
    assert "unterminated-final-event" in codes(stream)


def test_unknown_event_and_unknown_fields_are_carried() -> None:
    evs = text_events(["a"])
    evs[3]["obfuscation"] = "xyz"
    evs.insert(4, {"type": "response.brand_new.thing", "sequence_number": 4, "payload": [1, 2]})
    for i, e in enumerate(evs):
        e["sequence_number"] = i
    stream = sr.ResponsesStream(strict=True)  # neither is an anomaly: strict accepts them
    events = feed_all(stream, body(evs))
    assert events[3].extra == {"obfuscation": "xyz"}
    assert type(events[4]) is sr.UnknownEvent
    assert events[4].data["payload"] == [1, 2]
    assert events[4].to_dict() == evs[4]


@pytest.mark.parametrize(
    "mutate",
    [
        "no-seq",
        "late-start",
        "duplicate",
        "gap",
        "keepalive-comment",
        "keepalive-event",
        "done",
        "unterminated",
    ],
)
def test_strict_mode_raises_for_each_anomaly(mutate: str) -> None:
    evs = text_events(["a", "b"])
    data = body(evs)
    if mutate == "no-seq":
        del evs[2]["sequence_number"]
        data = body(evs)
    elif mutate == "late-start":
        data = body(evs[3:])
    elif mutate == "duplicate":
        data = body(evs[:3] + evs[2:])
    elif mutate == "gap":
        data = body(evs[:3] + evs[4:])
    elif mutate == "keepalive-comment":
        data = b": ping\n\n" + data
    elif mutate == "keepalive-event":
        data = sse({"type": "ping"}) + data
    elif mutate == "done":
        data = data + b"data: [DONE]\n\n"
    elif mutate == "unterminated":
        data = data[:-2]
    lenient = sr.ResponsesStream()
    feed_all(lenient, data)
    assert lenient.diagnostics, "the lenient stream must record the anomaly"
    strict = sr.ResponsesStream(strict=True)
    with pytest.raises(sr.RemoteProtocolError):
        feed_all(strict, data)


# -- bad input ---------------------------------------------------------------------------------


def test_invalid_json_says_where_and_keeps_state() -> None:
    good = body(text_events(["a"], terminal=None))
    bad = (
        b"event: response.output_text.delta\n"
        b'data: {"type": "response.output_text.delta", "sequence_number": 9, \n\n'
    )
    stream = sr.ResponsesStream()
    with pytest.raises(sr.RemoteProtocolError) as info:
        stream.feed(good + bad)
    exc = info.value
    assert exc.offset == len(good)
    assert "not valid JSON" in str(exc) and "sequence_number" in (exc.excerpt or "")
    assert len(exc.events) == len(text_events(["a"], terminal=None))  # type: ignore[attr-defined]
    assert stream.snapshot().output_text == "a"  # type: ignore[union-attr]
    assert stream.error is exc
    with pytest.raises(sr.LocalProtocolError):
        stream.feed(b"data: {}\n\n")


def test_json_that_is_not_an_object() -> None:
    stream = sr.ResponsesStream()
    with pytest.raises(sr.RemoteProtocolError, match="not an object"):
        stream.feed(b"data: [1, 2]\n\n")


def test_wrong_field_type_names_event_field_and_sequence() -> None:
    evs = text_events(["a"], terminal=None)
    evs[3]["delta"] = 123
    data = body(evs)
    stream = sr.ResponsesStream()
    with pytest.raises(sr.RemoteProtocolError) as info:
        stream.feed(data)
    exc = info.value
    assert exc.sequence_number == 3
    assert exc.offset == len(body(evs[:3]))
    assert "delta" in str(exc) and "response.output_text.delta" in str(exc)


def test_event_too_large_keeps_snapshot() -> None:
    prefix = body(text_events(["a"], terminal=None))
    stream = sr.ResponsesStream(max_event_size=1024)
    events = stream.feed(prefix)
    with pytest.raises(sr.EventTooLarge) as info:
        for _ in range(100):
            stream.feed(b'data: {"type": "response.output_text.delta", "delta": "' + b"x" * 100)
    assert info.value.limit == 1024
    assert info.value.offset == len(prefix)
    assert len(events) == len(text_events(["a"], terminal=None))
    assert stream.snapshot().output_text == "a"  # type: ignore[union-attr]


def test_feed_after_close_is_a_local_error() -> None:
    stream = sr.ResponsesStream()
    feed_all(stream, body(text_events(["a"])))
    with pytest.raises(sr.LocalProtocolError):
        stream.feed(b"data: {}\n\n")


# -- resume ------------------------------------------------------------------------------------

BG1 = "responses-pydantic-ai-test_background_mode_streaming_starting_after_vcr-1"
BG2 = "responses-pydantic-ai-test_background_mode_streaming_starting_after_vcr-2"


def block_ends(data: bytes) -> list[int]:
    ends, i = [], 0
    while (j := data.find(b"\n\n", i)) >= 0:
        ends.append(j + 2)
        i = j + 2
    return ends


@pytest.mark.parametrize("cut_event", [1, 3, 6, 10, 15])
@pytest.mark.parametrize("mode", ["reconnect", "resume_from"])
def test_resume_after_drop_with_real_background_streams(cut_event: int, mode: str) -> None:
    first, _ = load(BG1)
    second, _ = load(BG2)  # the real resume GET body (starting_after=0): no response.created
    whole = sr.ResponsesStream()
    expected = feed_all(whole, first)
    cut = block_ends(first)[cut_event] - 7  # the connection drops inside event number cut_event+1
    stream = sr.ResponsesStream()
    got = stream.feed(first[:cut])
    assert stream.background and stream.resumable
    assert stream.response_id == "resp_0850765c843cca5300699cc47d93c0819089a181f5feeff8eb"
    if mode == "reconnect":
        stream.reconnect()
        resumed = stream
    else:
        resumed = sr.ResponsesStream(resume_from=stream)
    got += feed_all(resumed, second)
    assert [e.to_dict() for e in got] == [e.to_dict() for e in expected]  # none twice, none lost
    assert resumed.snapshot().to_dict() == whole.snapshot().to_dict()  # type: ignore[union-attr]
    assert resumed.outcome == "completed"
    assert "missing-response-created" not in codes(resumed)


def test_reconnect_after_truncation_and_starting_after() -> None:
    evs = text_events(["a", "b", "c"])
    stream = sr.ResponsesStream()
    stream.feed(body(evs[:5]))
    with pytest.raises(sr.TruncatedStream):
        stream.close()
    stream.reconnect()
    assert stream.outcome is None
    rest = stream.feed(body(evs[stream.last_sequence_number + 1 :]))  # type: ignore[operator]
    stream.close()
    assert rest[0].sequence_number == 5
    assert stream.snapshot().output_text == "abc"  # type: ignore[union-attr]
    fresh = sr.ResponsesStream(starting_after=4)
    assert [e.sequence_number for e in feed_all(fresh, body(evs))] == list(range(5, len(evs)))


def test_cannot_reconnect_a_finished_response() -> None:
    stream = sr.ResponsesStream()
    feed_all(stream, body(text_events(["a"])))
    with pytest.raises(sr.LocalProtocolError):
        stream.reconnect()


def test_state_table_prints() -> None:
    table = sr.print_state_table()
    assert table.splitlines()[0].split() == ["state", "input", "next", "outcome"]
    assert len(table.splitlines()) == len(sr.STATE_TABLE) + 1


def test_diagnostics_are_bounded_but_counted() -> None:
    evs = text_events(["x"] * 50)
    for e in evs:
        del e["sequence_number"]
    stream = sr.ResponsesStream(max_diagnostics=10)
    feed_all(stream, body(evs))
    assert len(stream.diagnostics) == 10
    assert stream.diagnostic_counts["missing-sequence-number"] == len(evs)
    assert stream.snapshot().output_text == "x" * 50  # type: ignore[union-attr]


def test_hostile_output_index_does_not_allocate_holes() -> None:
    evs = text_events(["a"], terminal=None)
    for e in evs[1:]:
        e["output_index"] = 10**9
    stream = sr.ResponsesStream()
    stream.feed(body(evs))
    # Indices address a sparse map: a far index costs one entry (no holes), and is kept as is.
    assert len(stream._acc.items.slots) == 1
    assert stream.snapshot().output_text == "a"  # type: ignore[union-attr]
    for e in evs[1:]:
        e["output_index"] = -1
    stream = sr.ResponsesStream()
    stream.feed(body(evs))
    assert "bad-output-index" in codes(stream)
    assert stream.snapshot().output_text == "a"  # type: ignore[union-attr]
