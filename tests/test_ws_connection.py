"""ResponsesConnection (WebSocket mode, sans-IO): lanes, steering, the rules table, reconnects."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

import sansio_responses as sr
from sansio_responses.testing import StreamBuilder


def on_lane(events: list[dict[str, Any]], lane: str | None) -> list[str]:
    """The builder's events as the server's WebSocket messages on *lane*."""
    out: list[str] = []
    for event in events:
        if lane is not None:
            event = {**event, "stream_id": lane}
        out.append(json.dumps(event))
    return out


def feed(conn: sr.ResponsesConnection, messages: list[str]) -> list[Any]:
    return [event for message in messages for event in conn.receive(message)]


def steer_msg(kind: str, target: str, lane: str | None = None, **fields: Any) -> str:
    steer: dict[str, Any] = {"id": "steer_1", "previous_response_id": target}
    data: dict[str, Any] = {"type": kind, "sequence_number": 0, "steer": steer, **fields}
    if lane is not None:
        data["stream_id"] = lane
    return json.dumps(data)


def test_create_gives_the_client_message_and_refuses_http_only_fields() -> None:
    conn = sr.ResponsesConnection()
    text = conn.create({"model": "m", "input": "hi"}, stream_id="a")
    assert json.loads(text) == {
        "type": "response.create",
        "model": "m",
        "input": "hi",
        "stream_id": "a",
    }
    assert "stream_id" not in json.loads(conn.create({"model": "m"}))
    for field in ("stream", "background", "background_options"):
        with pytest.raises(sr.LocalProtocolError, match=field):
            conn.create({"model": "m", field: True}, stream_id="b")
    with pytest.raises(sr.LocalProtocolError, match="differs"):
        conn.create({"model": "m", "stream_id": "x"}, stream_id="b")
    with pytest.raises(sr.LocalProtocolError, match=r"response\.create"):
        conn.create({"type": "response.steer"}, stream_id="b")
    with pytest.raises(sr.LocalProtocolError, match="JSON"):
        conn.create({"model": object()}, stream_id="b")
    assert conn.lanes == ["a", None]  # the refused creates used no lane


def test_a_body_that_cannot_be_sent_is_refused_before_the_lane_is_used() -> None:
    # A lone surrogate has no UTF-8 form: create() returned the text (the lane then in flight for
    # a message no socket can send: UnicodeEncodeError in the adapter); a body nested past
    # json.dumps' recursion raised RecursionError. Both LocalProtocolError now, as over HTTP.
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    conn = sr.ResponsesConnection()
    for body, match in (
        ({"model": "m", "input": "a\ud800"}, r"U\+D800 \(a lone surrogate\) in \['input'\]"),
        (
            {"model": "m", "metadata": {"k\udfff": "v"}},
            r"lone surrogate\) in a key of \['metadata'\]",
        ),
        ({"model": "m", "input": deep}, "too deeply"),
    ):
        with pytest.raises(sr.LocalProtocolError, match=match):
            conn.create(body, stream_id="a")
        assert conn.lanes == [] and not conn.in_flight("a")
    conn.create({"model": "m"}, stream_id="a")
    conn.receive(on_lane(StreamBuilder(response_id="resp_1").events()[:1], "a")[0])
    with pytest.raises(sr.LocalProtocolError, match=r"lone surrogate\) in \['input'\]"):
        conn.steer("resp_1", "b\udc00")
    with pytest.raises(sr.LocalProtocolError, match="too deeply"):
        conn.steer("resp_1", [{"type": "message", "role": "user", "content": deep}])
    assert conn.pending("a") is None
    # the steers refused were not recorded: an answer to one is the server's mistake
    with pytest.raises(sr.RemoteProtocolError, match="did not send"):
        conn.receive(steer_msg("response.steer.accepted", "resp_1", "a"))


def test_two_lanes_interleaved_each_fed_to_its_own_stream() -> None:
    conn = sr.ResponsesConnection()
    conn.create({"model": "m", "input": "one"}, stream_id="a")
    conn.create({"model": "m", "input": "two"}, stream_id="b")
    a = on_lane(StreamBuilder(response_id="resp_a").text("Hello a", 3).completed().events(), "a")
    b = on_lane(StreamBuilder(response_id="resp_b").text("Bye b", 2).completed().events(), "b")
    events = feed(conn, [m for pair in itertools.zip_longest(a, b) for m in pair if m])
    assert {e.stream_id for e in events} == {"a", "b"}
    for lane, text, rid in (("a", "Hello a", "resp_a"), ("b", "Bye b", "resp_b")):
        stream = conn.stream(lane)
        assert stream.outcome == "completed" and stream.diagnostics == []
        snapshot = stream.snapshot()
        assert snapshot is not None and snapshot.output_text == text
        assert stream.response_id == rid
    # the lane is free again: a second turn on it, with the first one still readable
    conn.create({"model": "m", "previous_response_id": "resp_a"}, stream_id="a")
    feed(
        conn, on_lane(StreamBuilder(response_id="resp_a2").text("Again").completed().events(), "a")
    )
    assert [s.response_id for s in conn.responses("a")] == ["resp_a", "resp_a2"]


def test_stream_machinery_is_the_sse_one_strict_mode_and_duplicates() -> None:
    events = StreamBuilder(response_id="resp_1").text("xy", 2).completed().events()
    messages = on_lane(events, None)
    lenient = sr.ResponsesConnection()
    lenient.create({"model": "m"})
    feed(lenient, messages[:3])
    assert lenient.receive(messages[2]) == []  # a duplicate: dropped and noted, as over SSE
    assert [d.code for d in lenient.stream().diagnostics] == ["duplicate-sequence-number"]
    conn = sr.ResponsesConnection(strict=True)
    conn.create({"model": "m"})
    feed(conn, messages[:3])
    events_after = [{**e, "sequence_number": None} for e in events[3:4]]
    with pytest.raises(sr.RemoteProtocolError, match="strict"):
        conn.receive(json.dumps(events_after[0]))
    assert conn.error is not None
    with pytest.raises(sr.LocalProtocolError, match="error state"):
        conn.receive(messages[3])


def test_one_response_in_flight_per_lane() -> None:
    conn = sr.ResponsesConnection()
    conn.create({"model": "m"}, stream_id="a")
    with pytest.raises(sr.LocalProtocolError, match="in flight"):
        conn.create({"model": "m"}, stream_id="a")
    assert conn.in_flight("a") and not conn.in_flight("b")


def test_server_violations_are_remote_protocol_errors() -> None:
    events = StreamBuilder(response_id="resp_1").text("x").completed().events()
    conn = sr.ResponsesConnection()
    with pytest.raises(sr.RemoteProtocolError, match=r"no response\.create"):
        conn.receive(on_lane(events, "ghost")[0])
    for bad, match in (
        ("[1]", "not an object"),
        ("{", "not valid JSON"),
        ('{"type": "response.created", "stream_id": 3}', "stream_id"),
    ):
        fresh = sr.ResponsesConnection()
        with pytest.raises(sr.RemoteProtocolError, match=match) as info:
            fresh.receive(bad)
        assert info.value.offset == 0
    conn = sr.ResponsesConnection(max_message_size=10)
    with pytest.raises(sr.EventTooLarge):
        conn.receive(on_lane(events, None)[0])
    # an unasked response.created while the lane's response runs
    conn = sr.ResponsesConnection()
    conn.create({"model": "m"})
    feed(conn, on_lane(events, None)[:2])
    other = StreamBuilder(response_id="resp_2").text("y").completed().events()
    with pytest.raises(sr.RemoteProtocolError, match="while its response runs"):
        conn.receive(on_lane(other, None)[0])
    # a steering answer for a steer never sent
    conn = sr.ResponsesConnection()
    with pytest.raises(sr.RemoteProtocolError, match="did not send"):
        conn.receive(steer_msg("response.steer.accepted", "resp_1"))


@pytest.mark.parametrize("kind", [[1], {}, ["response.created"], {"a": 1}])
@pytest.mark.parametrize("lane", [None, "a"])
def test_a_type_that_is_a_list_or_object_is_a_remote_error(kind: Any, lane: str | None) -> None:
    # The type of a message on a lane with no response was looked up in the builders' table:
    # an unhashable one raised TypeError, leaving the connection usable.
    conn = sr.ResponsesConnection()
    conn.create({"model": "m"}, stream_id="b")  # another lane in flight
    message = json.dumps(
        {"type": kind, "sequence_number": 4, **({"stream_id": lane} if lane else {})}
    )
    with pytest.raises(sr.RemoteProtocolError, match="field 'type': expected string") as info:
        conn.receive(message)
    assert (info.value.offset, info.value.sequence_number) == (0, 4)
    assert conn.error is info.value
    with pytest.raises(sr.LocalProtocolError):
        conn.receive('{"type": "ping"}')


@pytest.mark.parametrize("ended", [False, True])
def test_a_repeated_response_created_is_a_duplicate_as_over_sse(ended: bool) -> None:
    # The lane's response.created sent twice (same response, same sequence number), while the
    # response runs or after its end: the stream drops it as a duplicate, as over SSE. It was
    # taken for an unasked successor and broke the connection (RemoteProtocolError).
    events = StreamBuilder(response_id="resp_1").text("Hello", 2).completed().events()
    messages = on_lane(events, "a")
    conn = sr.ResponsesConnection()
    conn.create({"model": "m"}, stream_id="a")
    cut = len(messages) if ended else 3
    got = feed(conn, [*messages[:cut], messages[0], *messages[cut:]])
    assert [e.type for e in got] == [e["type"] for e in events]
    stream = conn.stream("a")
    assert conn.error is None and conn.responses("a") == [stream]
    assert (
        stream.outcome == "completed" and stream.diagnostic_counts["duplicate-sequence-number"] == 1
    )
    sse = sr.ResponsesStream()
    body = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
    sse.feed(body)  # the same events over SSE
    snapshot = stream.snapshot()
    assert snapshot is not None and snapshot.to_dict() == sse.snapshot().to_dict()  # type: ignore[union-attr]
    # A created of another response on a lane whose response runs is still refused.
    other = on_lane(StreamBuilder(response_id="resp_2").events(), "b")
    conn.create({"model": "m"}, stream_id="b")
    feed(conn, other[:2])
    with pytest.raises(sr.RemoteProtocolError, match="while its response runs"):
        conn.receive(on_lane(StreamBuilder(response_id="resp_3").events(), "b")[0])


def test_steering_successor_becomes_the_current_stream() -> None:
    conn = sr.ResponsesConnection()
    conn.create({"model": "m", "input": "tell a story"}, stream_id="a")
    first = StreamBuilder(response_id="resp_1").text("Once upon", 2).incomplete("steered")
    messages = on_lane(first.events(), "a")
    feed(conn, messages[:4])
    with pytest.raises(sr.LocalProtocolError, match="no running response"):
        conn.steer("resp_other", "x")
    with pytest.raises(sr.LocalProtocolError, match="user messages"):
        conn.steer("resp_1", [{"type": "message", "role": "assistant", "content": "x"}])
    message = json.loads(conn.steer("resp_1", "make it short"))
    assert message == {
        "type": "response.steer",
        "previous_response_id": "resp_1",
        "input": "make it short",
    }
    (accepted,) = conn.receive(steer_msg("response.steer.accepted", "resp_1", "a"))
    assert isinstance(accepted, sr.ResponseSteerAcceptedEvent)
    assert (accepted.steer_id, accepted.previous_response_id) == ("steer_1", "resp_1")
    feed(conn, messages[4:])
    steered = conn.stream("a")
    assert steered.outcome == "incomplete"
    with pytest.raises(sr.LocalProtocolError, match="awaits its successor"):
        conn.create({"model": "m"}, stream_id="a")
    with pytest.raises(sr.LocalProtocolError, match="already ended"):
        conn.steer("resp_1", "more")
    successor = StreamBuilder(response_id="resp_2").text("Short.").completed().events()
    feed(conn, on_lane(successor, "a"))
    assert [s.response_id for s in conn.responses("a")] == ["resp_1", "resp_2"]
    assert conn.stream("a").outcome == "completed"
    assert conn.responses("a")[0] is steered  # the earlier response stays readable
    snapshot = steered.snapshot()
    assert snapshot is not None and snapshot.incomplete_details is not None
    conn.create({"model": "m"}, stream_id="a")  # the steering is committed: the lane is free


def test_steer_failed_returns_the_input() -> None:
    conn = sr.ResponsesConnection()
    conn.create({"model": "m"})
    events = StreamBuilder(response_id="resp_1").text("abc", 3).completed().events()
    feed(conn, on_lane(events, None)[:3])
    conn.steer("resp_1", [{"type": "message", "role": "user", "content": "hey"}])
    failed_msg = json.dumps(
        {
            "type": "response.steer.failed",
            "sequence_number": 3,
            "steer": {"previous_response_id": "resp_1", "input": [{"role": "user"}]},
            "error": {"code": "brand_new_code", "message": "no", "type": "invalid_request_error"},
        }
    )
    (failed,) = conn.receive(failed_msg)
    assert isinstance(failed, sr.ResponseSteerFailedEvent)
    assert failed.code == "brand_new_code" and failed.input == [{"role": "user"}]
    assert failed.steer_id is None
    with pytest.raises(sr.RemoteProtocolError, match="did not send"):
        conn.receive(failed_msg)  # answered already


def test_steer_pending_requires_the_tool_outputs_in_the_next_create() -> None:
    conn = sr.ResponsesConnection()
    conn.create({"model": "m", "tools": []}, stream_id="t")
    builder = StreamBuilder(response_id="resp_1").function_call("lookup", '{"q": 1}')
    events = builder.completed().events()
    call_id = next(e["item"]["call_id"] for e in events if e["type"] == "response.output_item.done")
    messages = on_lane(events, "t")
    feed(conn, messages[:3])
    conn.steer("resp_1", "also check the weather")
    conn.receive(steer_msg("response.steer.accepted", "resp_1", "t"))
    stub = {"type": "function_call_output", "call_id": call_id, "name": "lookup"}
    pending_msg = steer_msg(
        "response.steer.pending",
        "resp_1",
        "t",
        reason="waiting_for_required_input",
        required_input=[stub],
    )
    with pytest.raises(sr.RemoteProtocolError, match="before its terminal event"):
        sr.ResponsesConnection.receive(_copy_state(conn, messages[3:-1]), pending_msg)
    feed(conn, messages[3:])
    (pending,) = conn.receive(pending_msg)
    assert isinstance(pending, sr.ResponseSteerPendingEvent)
    assert pending.required_call_ids == [("function_call_output", call_id)]
    assert conn.pending("t") is pending
    with pytest.raises(sr.LocalProtocolError, match="previous_response_id must be"):
        conn.create({"model": "m", "input": []}, stream_id="t")
    with pytest.raises(sr.LocalProtocolError, match=f"missing: function_call_output {call_id}"):
        conn.create({"model": "m", "previous_response_id": "resp_1", "input": []}, stream_id="t")
    output = {"type": "function_call_output", "call_id": call_id, "output": "42"}
    body = {"model": "m", "previous_response_id": "resp_1", "input": [output]}
    conn.create(body, stream_id="t")
    assert conn.pending("t") is None


def _copy_state(conn: sr.ResponsesConnection, more: list[str]) -> sr.ResponsesConnection:
    """A fresh connection in *conn*'s state before its terminal event (for a negative check)."""
    fresh = sr.ResponsesConnection()
    fresh.create({"model": "m"}, stream_id="t")
    events = StreamBuilder(response_id="resp_1").function_call("lookup", "{}").completed().events()
    feed(fresh, on_lane(events, "t")[:3])
    fresh.steer("resp_1", "x")
    fresh.receive(steer_msg("response.steer.accepted", "resp_1", "t"))
    return fresh


def test_websocket_error_shape_ends_the_lane_or_is_connection_level() -> None:
    conn = sr.ResponsesConnection()
    conn.create({"model": "m"}, stream_id="a")
    error = {
        "type": "error",
        "status": 400,
        "stream_id": "a",
        "error": {
            "type": "invalid_request_error",
            "code": "invalid_value",
            "message": "bad model",
            "param": "model",
            "headers": {"x-request-id": "req_1"},
        },
    }
    (event,) = conn.receive(json.dumps(error))
    assert isinstance(event, sr.ResponseWebSocketErrorEvent)
    assert isinstance(event, sr.ResponseErrorEvent)
    assert (event.status, event.code, event.param, event.error_type) == (
        400,
        "invalid_value",
        "model",
        "invalid_request_error",
    )
    assert event.headers == {"x-request-id": "req_1"} and event.stream_id == "a"
    assert conn.stream("a").outcome == "error" and conn.stream("a").error_event is event
    assert conn.errors == []
    connection_level = {k: v for k, v in error.items() if k != "stream_id"}
    (event,) = conn.receive(json.dumps(connection_level))
    assert conn.errors == [event]
    with pytest.raises(sr.RemoteProtocolError, match="status"):
        sr.ResponsesConnection().receive(json.dumps({**connection_level, "status": "400"}))


def test_unknown_and_new_steer_types_pass_through() -> None:
    conn = sr.ResponsesConnection()
    conn.create({"model": "m"})
    feed(conn, on_lane(StreamBuilder(response_id="r").text("x").events()[:1], None))
    (event,) = conn.receive('{"type": "response.steer.brand_new", "x": 1}')
    assert isinstance(event, sr.UnknownEvent)
    (event,) = conn.receive('{"type": "ping"}')
    assert isinstance(event, sr.UnknownEvent)


def test_connection_lost_truncates_what_was_in_flight_and_keeps_the_queue() -> None:
    conn = sr.ResponsesConnection(max_queue_bytes=100)
    conn.create({"model": "m"}, stream_id="a")
    conn.create({"model": "m"}, stream_id="b")
    conn.create({"model": "m"}, stream_id="c")
    feed(conn, on_lane(StreamBuilder(response_id="ra").text("done").completed().events(), "a"))
    feed(conn, on_lane(StreamBuilder(response_id="rb").text("half", 2).events()[:4], "b"))
    conn.steer("rb", "x")
    queued = conn.create({"model": "m"}, stream_id="d")
    conn.queue.put(queued)  # no socket open: it waits
    with pytest.raises(sr.QueueFull):
        conn.queue.put("x" * 100)
    lost = conn.connection_lost()
    assert [s.outcome for s in lost] == ["truncated", "truncated", "truncated"]
    assert lost[0] is conn.stream("b") and isinstance(lost[0].error, sr.TruncatedStream)
    assert conn.stream("a").outcome == "completed"  # finished responses are untouched
    assert not conn.in_flight("b")
    conn.create({"model": "m"}, stream_id="b")  # the lane is free again
    with pytest.raises(sr.LocalProtocolError, match="no running response"):
        conn.steer("rb", "x")  # the steering was dropped with its response
    assert conn.connection_made() == [queued] and len(conn.queue) == 0


def test_cancel_marks_what_is_in_flight_cancelled_and_leaves_the_rest() -> None:
    conn = sr.ResponsesConnection()
    conn.create({"model": "m"}, stream_id="a")
    conn.create({"model": "m"}, stream_id="b")
    conn.create({"model": "m"}, stream_id="c")  # requested, nothing received yet
    feed(conn, on_lane(StreamBuilder(response_id="ra").text("done").completed().events(), "a"))
    feed(conn, on_lane(StreamBuilder(response_id="rb").text("half", 2).events()[:5], "b"))
    conn.steer("rb", "x")
    cancelled = conn.cancel()
    assert cancelled == [conn.stream("b"), conn.stream("c")]
    assert [s.outcome for s in cancelled] == ["cancelled", "cancelled"]
    assert conn.stream("b").snapshot().output_text == "ha"  # snapshot intact
    assert conn.stream("a").outcome == "completed"  # a finished response is untouched
    assert not conn.expecting()  # nothing in flight, no steering awaited
    assert conn.cancel() == []  # idempotent
    lost = sr.ResponsesConnection()
    lost.create({"model": "m"})
    lost.connection_lost()
    assert lost.cancel() == [] and lost.stream().outcome == "truncated"  # ended by the drop


def test_reconnect_policy_is_the_sdks() -> None:
    policy = sr.ReconnectPolicy(rand=lambda: 0.0)
    assert [policy.delay(1006, n) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, None]
    assert policy.delay(None, 0) == 0.5  # no close frame: 1006
    assert policy.delay(1000, 0) is None and policy.delay(1008, 0) is None
    assert sr.ReconnectPolicy(rand=lambda: 1.0).delay(1011, 10) is None
    assert sr.ReconnectPolicy(10, rand=lambda: 1.0).delay(1011, 9) == 6.0
    conn = sr.ResponsesConnection(reconnect_policy=sr.ReconnectPolicy(2, rand=lambda: 0.0))
    assert [conn.reconnect_delay(1006) for _ in range(3)] == [0.5, 1.0, None]
    conn = sr.ResponsesConnection(reconnect_policy=sr.ReconnectPolicy(2, rand=lambda: 0.0))
    assert conn.reconnect_delay() == 0.5
    conn.receive('{"type": "ping"}')  # progress on the new socket: the count starts again
    assert conn.reconnect_delay() == 0.5


def test_send_queue_bounds_and_order() -> None:
    queue = sr.SendQueue(max_bytes=6)
    queue.put("ab")
    queue.put("é")  # two bytes in UTF-8
    assert queue.bytes == 4 and len(queue) == 2
    with pytest.raises(sr.QueueFull, match="max_bytes"):
        queue.put("abc")
    assert queue.bytes == 4
    taken = queue.drain()
    assert taken == ["ab", "é"] and queue.bytes == 0
    queue.put("z")
    queue.requeue(taken)
    assert queue.drain() == ["ab", "é", "z"]
    with pytest.raises(ValueError):
        sr.SendQueue(-1)


def test_rules_table_prints(capsys: pytest.CaptureFixture[str]) -> None:
    text = sr.print_connection_rules()
    assert capsys.readouterr().out == text + "\n"
    lines = text.splitlines()
    assert len(lines) == len(sr.CONNECTION_RULES) + 1
    assert all(line.rstrip().endswith("ProtocolError") for line in lines[1:])
