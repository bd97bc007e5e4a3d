"""The blocking WebSocket adapter (plain sockets + wsproto) over real loopback sockets against the
test server's WebSocket mode: the async adapter's cases that differ in I/O only."""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
from collections.abc import Iterator
from typing import Any

import pytest
import trustme
from test_adapters_common import server, tls_proxy  # noqa: F401  # pytest fixture

import sansio_responses as sr
from sansio_responses.adapters.websocket_sync import connect
from sansio_responses.testing import ResponsesServer, Script, StreamBuilder

API_KEY = "sk-test-ws"


def text_of(stream: sr.ResponsesStream) -> str | None:
    snapshot = stream.snapshot()
    return None if snapshot is None else snapshot.output_text


def test_two_lanes_on_one_socket(server: ResponsesServer) -> None:  # noqa: F811
    server.enqueue(
        Script(StreamBuilder(response_id="resp_a").text("Hello from a", 5).completed(), delay=0.01),
        Script(StreamBuilder(response_id="resp_b").text("Hello from b", 3).completed()),
    )
    with connect(base_url=server.base_url, api_key=API_KEY) as conn:
        a = conn.send_create({"model": "m", "input": "one"}, stream_id="a")
        b = conn.send_create({"model": "m", "input": "two"}, stream_id="b")
        events = list(conn)
    assert (text_of(a), text_of(b)) == ("Hello from a", "Hello from b")
    assert {e.stream_id for e in events} == {"a", "b"}
    (upgrade,) = server.requests
    assert upgrade.header("authorization") == f"Bearer {API_KEY}"


def test_steering_successor(server: ResponsesServer) -> None:  # noqa: F811
    story = StreamBuilder(response_id="resp_1").text("Once upon a time there was", 6).completed()
    server.enqueue(
        Script(story, stall_after_events=5, stall_seconds=30),
        Script(StreamBuilder(response_id="resp_2").text("Short story.").completed()),
    )
    with connect(base_url=server.base_url, api_key=API_KEY) as conn:
        conn.send_create({"model": "m", "input": "a story"}, stream_id="s")
        for n, _ in enumerate(conn, 1):
            if n == 5:
                conn.send_steer("resp_1", "make it short")
        lane = [(s.response_id, s.outcome) for s in conn.protocol.responses("s")]
    assert lane == [("resp_1", "incomplete"), ("resp_2", "completed")]


def test_drop_reconnects_and_the_next_turn_runs(server: ResponsesServer) -> None:  # noqa: F811
    server.enqueue(
        Script(StreamBuilder().text("cut short", 4).completed(), disconnect_after_events=3),
        Script(StreamBuilder().text("again").completed()),
    )
    policy = sr.ReconnectPolicy(initial_delay=0.01, max_delay=0.01)
    with connect(base_url=server.base_url, api_key=API_KEY, reconnect_policy=policy) as conn:
        lost = conn.send_create({"model": "m"})
        with pytest.raises(sr.ConnectionDropped, match="1 response"):
            list(conn)
        again = conn.send_create({"model": "m"})
        list(conn)
        assert conn.reconnects == 1
    assert lost.outcome == "truncated" and text_of(again) == "again"


def test_idle_timeout(server: ResponsesServer) -> None:  # noqa: F811
    server.enqueue(Script(StreamBuilder().text("x", 4).completed(), stall_after_events=2))
    with connect(base_url=server.base_url, api_key=API_KEY, idle_timeout=0.3) as conn:
        conn.send_create({"model": "m"})
        with pytest.raises(sr.IdleTimeout):
            list(conn)


def test_tls_verified(server: ResponsesServer) -> None:  # noqa: F811
    ca = trustme.CA()
    server.set_default(Script(StreamBuilder().text("over tls", 2).completed()))
    with tls_proxy(server, ca) as base_url:
        context = ssl.create_default_context()
        ca.configure_trust(context)
        with connect(base_url=base_url, api_key=API_KEY, ssl_context=context) as conn:
            stream = conn.send_create({"model": "m"})
            list(conn)
        assert text_of(stream) == "over tls"
        with pytest.raises(sr.ConnectError) as info, connect(base_url=base_url, api_key=API_KEY):
            pass
        assert "CERTIFICATE_VERIFY_FAILED" in str(info.value).upper()


def test_connect_timeout_covers_the_upgrade() -> None:
    with socket.create_server(("127.0.0.1", 0)) as silent:
        base = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
        with (
            pytest.raises(sr.ConnectTimeout),
            connect(base_url=base, api_key=API_KEY, connect_timeout=0.3),
        ):
            pass


# --- leaving the block early: "cancelled", as on the HTTP adapters; one timeout rule -------------


@pytest.mark.parametrize("how", ["break", "raise"])
def test_leaving_early_cancels_what_is_in_flight(server: ResponsesServer, how: str) -> None:  # noqa: F811
    # Before: the in-flight stream kept the outcome None (still running) after the block.
    server.enqueue(
        Script(
            StreamBuilder().text("a b c d", 4).completed(), stall_after_events=5, stall_seconds=30
        )
    )
    with contextlib.suppress(KeyError), connect(base_url=server.base_url, api_key=API_KEY) as conn:
        stream = conn.send_create({"model": "m"})
        for event in conn:
            if event.type == "response.output_text.delta":
                if how == "raise":
                    raise KeyError(how)
                break
    assert stream.outcome == "cancelled" and text_of(stream) == "a "


def test_a_timeout_is_no_cancellation(server: ResponsesServer) -> None:  # noqa: F811
    server.enqueue(
        Script(
            StreamBuilder().text("a b c d", 4).completed(), stall_after_events=5, stall_seconds=30
        )
    )
    with (
        pytest.raises(sr.IdleTimeout),
        connect(base_url=server.base_url, api_key=API_KEY, idle_timeout=0.3) as conn,
    ):
        stream = conn.send_create({"model": "m"})
        list(conn)
    assert stream.outcome is None  # as before: the timeout, not the consumer, ended it


@pytest.mark.parametrize("name", ["connect_timeout", "idle_timeout", "total_timeout"])
@pytest.mark.parametrize("value", [True, 0, -1, float("nan"), "5"])
def test_an_unusable_timeout_is_refused_before_connecting(
    server: ResponsesServer,  # noqa: F811
    name: str,
    value: Any,
) -> None:
    with pytest.raises(ValueError, match=name), connect(base_url=server.base_url, **{name: value}):
        pass
    assert server.requests == []


@pytest.mark.parametrize("value", [float("inf"), sr.MAX_TIMEOUT * 2, 10**400])
def test_inf_and_huge_timeouts_mean_no_limit(server: ResponsesServer, value: Any) -> None:  # noqa: F811
    # Before: socket.settimeout(1e10) raised OverflowError.
    server.enqueue(Script(StreamBuilder().text("ok").completed()))
    options = {"connect_timeout": value, "idle_timeout": value, "total_timeout": value}
    with connect(base_url=server.base_url, api_key=API_KEY, **options) as conn:
        stream = conn.send_create({"model": "m"})
        list(conn)
    assert text_of(stream) == "ok"


@contextlib.contextmanager
def one_write_server(messages: list[str]) -> Iterator[str]:
    """A WebSocket server on a loopback socket that accepts the upgrade, waits for the client's
    first message and answers with *messages* in ONE write (so in one read of the client)."""
    import threading

    import wsproto
    import wsproto.events as wse

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve() -> None:
        peer, _ = listener.accept()
        with peer:
            ws = wsproto.WSConnection(wsproto.ConnectionType.SERVER)
            answered = False
            while True:
                data = peer.recv(65536)
                if not data:
                    return
                ws.receive_data(data)
                for event in ws.events():
                    if isinstance(event, wse.Request):
                        peer.sendall(ws.send(wse.AcceptConnection()))
                    elif isinstance(event, wse.TextMessage) and not answered:
                        answered = True
                        peer.sendall(b"".join(ws.send(wse.Message(data=m)) for m in messages))
                    elif isinstance(event, wse.CloseConnection):
                        return

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        listener.close()
        thread.join(5)


def test_the_events_read_before_a_protocol_error_are_yielded_first() -> None:
    # Several messages in one read, the last one breaking a rule (an event for a lane never
    # created): the events of the messages before it were applied to their lane and are yielded,
    # then the error is raised (the events were dropped with the exception).
    events = StreamBuilder(response_id="resp_1").text("Hello", 2).completed().events()
    good = [json.dumps({**event, "stream_id": "a"}) for event in events[:4]]
    bad = json.dumps({"type": "response.output_text.delta", "stream_id": "ghost"})
    got: list[str] = []
    with one_write_server([*good, bad]) as base_url:
        with connect(base_url=base_url, api_key=API_KEY) as conn:
            lane = conn.send_create({"model": "m", "input": "x"}, stream_id="a")
            with pytest.raises(sr.RemoteProtocolError, match="ghost") as info:
                for event in conn:
                    got.append(event.type)
    assert got == [event["type"] for event in events[:4]]
    assert [event.type for event in info.value.events] == got
    assert lane.last_sequence_number == events[3]["sequence_number"]
