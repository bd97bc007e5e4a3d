"""The WebSocket adapter (anyio + wsproto) over real loopback sockets against the test server's
WebSocket mode, on asyncio and trio; and the official SDK's client.responses.connect() against the
same server (the outside check that the server speaks the protocol as the SDK expects)."""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest
import trustme
from test_adapters_common import server, tls_proxy  # noqa: F401  # pytest fixture

import sansio_responses as sr
from sansio_responses.adapters.websocket import WebSocketConnection, open_connection
from sansio_responses.testing import ResponsesServer, Script, StreamBuilder

BACKENDS = ["asyncio", "trio"]
API_KEY = "sk-test-ws"
T = TypeVar("T")


def run(
    backend: str,
    server: ResponsesServer,  # noqa: F811
    body: Callable[[WebSocketConnection], Awaitable[T]],
    **options: Any,
) -> T:
    async def main() -> T:
        async with open_connection(base_url=server.base_url, api_key=API_KEY, **options) as conn:
            return await body(conn)

    return anyio.run(main, backend=backend)


async def drain(conn: WebSocketConnection) -> list[Any]:
    return [event async for event in conn]


def text_of(stream: sr.ResponsesStream) -> str | None:
    snapshot = stream.snapshot()
    return None if snapshot is None else snapshot.output_text


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_lanes_on_one_socket(server: ResponsesServer, backend: str) -> None:  # noqa: F811
    server.enqueue(
        Script(StreamBuilder(response_id="resp_a").text("Hello from a", 5).completed(), delay=0.01),
        Script(StreamBuilder(response_id="resp_b").text("Hello from b", 3).completed()),
    )

    async def body(conn: WebSocketConnection) -> tuple[list[Any], list[sr.ResponsesStream]]:
        a = await conn.send_create({"model": "m", "input": "one"}, stream_id="a")
        b = await conn.send_create({"model": "m", "input": "two"}, stream_id="b")
        return await drain(conn), [a, b]

    events, (a, b) = run(backend, server, body)
    assert a.outcome == b.outcome == "completed"
    assert (text_of(a), text_of(b)) == ("Hello from a", "Hello from b")
    assert {e.stream_id for e in events} == {"a", "b"}
    lanes = [e.stream_id for e in events if e.type == "response.output_text.delta"]
    assert lanes.count("a") == 5 and lanes.count("b") == 3
    (upgrade,) = server.requests
    assert (upgrade.method, upgrade.path) == ("GET", "/v1/responses")
    assert upgrade.header("authorization") == f"Bearer {API_KEY}"
    assert upgrade.header("upgrade") == "websocket"


@pytest.mark.parametrize("backend", BACKENDS)
def test_tool_loop_turns_on_one_lane(server: ResponsesServer, backend: str) -> None:  # noqa: F811
    call = StreamBuilder(response_id="resp_1").function_call("lookup", '{"q": "x"}').completed()
    server.enqueue(Script(call), Script(StreamBuilder(response_id="resp_2").text("42").completed()))

    async def body(conn: WebSocketConnection) -> list[str | None]:
        first = await conn.send_create({"model": "m", "input": "q", "tools": []})
        await drain(conn)
        snapshot = first.snapshot()
        assert snapshot is not None and snapshot.output
        call_id = getattr(snapshot.output[0], "call_id")  # noqa: B009
        output = {"type": "function_call_output", "call_id": call_id, "output": "42"}
        await conn.send_create({"model": "m", "previous_response_id": "resp_1", "input": [output]})
        await drain(conn)
        return [s.response_id for s in conn.protocol.responses()]

    assert run(backend, server, body) == ["resp_1", "resp_2"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_steering_ends_the_response_and_the_successor_runs(
    server: ResponsesServer,  # noqa: F811
    backend: str,
) -> None:
    story = StreamBuilder(response_id="resp_1").text("Once upon a time there was", 6).completed()
    server.enqueue(
        Script(story, stall_after_events=5, stall_seconds=30),
        Script(StreamBuilder(response_id="resp_2").text("Short story.").completed()),
    )

    async def body(conn: WebSocketConnection) -> list[Any]:
        await conn.send_create({"model": "m", "input": "a story"}, stream_id="s")
        seen: list[Any] = []
        async for event in conn:
            seen.append(event)
            if event.type == "response.output_text.delta" and len(seen) == 5:
                await conn.send_steer("resp_1", "make it short")
        return seen

    events = run(backend, server, body)
    kinds = [e.type for e in events]
    assert "response.steer.accepted" in kinds
    assert kinds.index("response.incomplete") < kinds.index("response.created", 1)
    # the lane's streams: the steered one (readable), then its successor
    # (the connection object is gone with the block; the events carry what happened)
    incomplete = next(e for e in events if e.type == "response.incomplete")
    assert incomplete.response.incomplete_details.reason == "steered"
    assert kinds[-1] == "response.completed" and events[-1].response.id == "resp_2"
    assert all(e.stream_id == "s" for e in events)


@pytest.mark.parametrize("backend", BACKENDS)
def test_steering_a_tool_call_asks_for_the_outputs(
    server: ResponsesServer,  # noqa: F811
    backend: str,
) -> None:
    call = StreamBuilder(response_id="resp_1").function_call("lookup", "{}", deltas=2).completed()
    server.enqueue(
        Script(call, stall_after_events=3, stall_seconds=30),
        Script(StreamBuilder(response_id="resp_2").text("done").completed()),
    )

    async def body(conn: WebSocketConnection) -> tuple[list[str], list[str | None]]:
        await conn.send_create({"model": "m", "input": "go"}, stream_id="t")
        kinds: list[str] = []
        async for event in conn:
            kinds.append(event.type)
            if len(kinds) == 3:
                await conn.send_steer("resp_1", "and hurry")
        pending = conn.protocol.pending("t")
        assert pending is not None
        answers = [
            {"type": kind, "call_id": call_id, "output": "ok"}
            for kind, call_id in pending.required_call_ids
        ]
        body = {"model": "m", "previous_response_id": "resp_1", "input": answers}
        await conn.send_create(body, stream_id="t")
        kinds += [e.type async for e in conn]
        return kinds, [s.response_id for s in conn.protocol.responses("t")]

    kinds, ids = run(backend, server, body)
    assert kinds.index("response.completed") < kinds.index("response.steer.pending")
    assert ids == ["resp_1", "resp_2"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_drop_truncates_in_flight_reconnects_and_flushes(
    server: ResponsesServer,  # noqa: F811
    backend: str,
) -> None:
    server.enqueue(
        Script(StreamBuilder(response_id="resp_1").text("cut short", 4).completed(),
               disconnect_after_events=3),
        Script(StreamBuilder(response_id="resp_2").text("again").completed()),
    )  # fmt: skip
    policy = sr.ReconnectPolicy(initial_delay=0.01, max_delay=0.01)

    async def body(conn: WebSocketConnection) -> tuple[sr.ResponsesStream, sr.ResponsesStream]:
        lost = await conn.send_create({"model": "m"})
        with pytest.raises(sr.ConnectionDropped, match="1 response"):
            await drain(conn)
        assert conn.reconnects == 1
        again = await conn.send_create({"model": "m"})
        await drain(conn)
        return lost, again

    lost, again = run(backend, server, body, reconnect_policy=policy)
    assert lost.outcome == "truncated" and isinstance(lost.error, sr.TruncatedStream)
    assert again.outcome == "completed" and text_of(again) == "again"
    assert [r.method for r in server.requests] == ["GET", "GET"]  # two upgrades


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_reconnect_when_the_policy_says_no(
    server: ResponsesServer,  # noqa: F811
    backend: str,
) -> None:
    server.enqueue(Script(StreamBuilder().text("x", 4).completed(), disconnect_after_events=2))

    async def body(conn: WebSocketConnection) -> None:
        await conn.send_create({"model": "m"})
        with pytest.raises(sr.ConnectionDropped, match="not reopened"):
            await drain(conn)
        with pytest.raises(sr.LocalProtocolError, match="closed"):
            await conn.send_create({"model": "m"})

    run(backend, server, body, reconnect_policy=sr.ReconnectPolicy(0))


@pytest.mark.parametrize("backend", BACKENDS)
def test_idle_timeout(server: ResponsesServer, backend: str) -> None:  # noqa: F811
    server.enqueue(Script(StreamBuilder().text("x", 4).completed(), stall_after_events=2))

    async def body(conn: WebSocketConnection) -> None:
        stream = await conn.send_create({"model": "m"})
        with pytest.raises(sr.IdleTimeout):
            await drain(conn)
        assert stream.outcome is None and text_of(stream) == ""

    run(backend, server, body, idle_timeout=0.3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_total_timeout(server: ResponsesServer, backend: str) -> None:  # noqa: F811
    server.enqueue(Script(StreamBuilder().text("x", 4).completed(), stall_after_events=2))

    async def body(conn: WebSocketConnection) -> None:
        await conn.send_create({"model": "m"})
        with pytest.raises(sr.TotalTimeout):
            await drain(conn)

    run(backend, server, body, idle_timeout=None, total_timeout=0.5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_error_script_is_the_websocket_error(server: ResponsesServer, backend: str) -> None:  # noqa: F811
    server.enqueue(Script.error(400, "Unknown model", code="model_not_found", param="model"))

    async def body(conn: WebSocketConnection) -> tuple[list[Any], sr.ResponsesStream]:
        stream = await conn.send_create({"model": "nope"}, stream_id="x")
        return await drain(conn), stream

    (event,), stream = run(backend, server, body)
    assert isinstance(event, sr.ResponseWebSocketErrorEvent)
    assert (event.status, event.code, event.param) == (400, "model_not_found", "model")
    assert stream.outcome == "error" and event.stream_id == "x"


@pytest.mark.parametrize("backend", BACKENDS)
def test_connect_failures(server: ResponsesServer, backend: str) -> None:  # noqa: F811
    async def refused() -> None:
        base = f"http://127.0.0.1:{server.port}/v2"  # no WebSocket route there: HTTP 404
        async with open_connection(base_url=base, api_key=API_KEY):
            pass

    with pytest.raises(sr.ConnectError, match="refused the WebSocket upgrade"):
        anyio.run(refused, backend=backend)
    with pytest.raises(ValueError, match="idle_timeout"):
        run(backend, server, drain, idle_timeout=0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_connect_timeout_covers_the_upgrade(backend: str) -> None:
    # A listener that never answers: the kernel completes the TCP handshake, the upgrade request
    # goes out, and no answer comes; connect_timeout bounds TCP, TLS and the upgrade together.
    with socket.create_server(("127.0.0.1", 0)) as silent:
        base = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"

        async def main() -> None:
            async with open_connection(base_url=base, api_key=API_KEY, connect_timeout=0.3):
                pass

        with pytest.raises(sr.ConnectTimeout):
            anyio.run(main, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tls_verified(server: ResponsesServer, backend: str) -> None:  # noqa: F811
    ca = trustme.CA()
    server.set_default(Script(StreamBuilder().text("over tls", 2).completed()))
    with tls_proxy(server, ca) as base_url:
        context = ssl.create_default_context()
        ca.configure_trust(context)

        async def trusted() -> str | None:
            async with open_connection(
                base_url=base_url, api_key=API_KEY, ssl_context=context
            ) as conn:
                stream = await conn.send_create({"model": "m"})
                await drain(conn)
                return text_of(stream)

        assert anyio.run(trusted, backend=backend) == "over tls"

        async def untrusted() -> None:
            async with open_connection(base_url=base_url, api_key=API_KEY):
                pass

        with pytest.raises(sr.ConnectError) as info:
            anyio.run(untrusted, backend=backend)
        assert "CERTIFICATE_VERIFY_FAILED" in str(info.value).upper()


# The SDK 3.57 calls websockets' connect() in a way websockets 14+ deprecates: its warning, not ours.
@pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")
def test_the_official_sdk_completes_a_response_over_our_server(
    server: ResponsesServer,  # noqa: F811
) -> None:
    openai = pytest.importorskip("openai")
    server.enqueue(
        Script(StreamBuilder(response_id="resp_sdk").text("Hello from the socket", 4).completed())
    )
    client = openai.OpenAI(base_url=server.base_url, api_key=API_KEY)
    types: list[str] = []
    lanes: set[str | None] = set()
    last: object = None
    with client.responses.connect() as connection:
        connection.send(
            {"type": "response.create", "model": "gpt-4o-mini", "input": "hi", "stream_id": "l1"}
        )
        for event in connection:
            last = event
            types.append(event.type)
            lanes.add(getattr(event, "stream_id", None))
            if event.type == "response.completed":
                assert event.response.output_text == "Hello from the socket"
                break
    assert types[0] == "response.created" and types[-1] == "response.completed"
    assert types.count("response.output_text.delta") == 4 and lanes == {"l1"}
    assert type(last).__name__ == "ResponseWsCompleted"  # the SDK's typed WebSocket event


def test_the_latency_bench_runs() -> None:
    # bench/ws_latency.py (the closing note's numbers): one loop per transport, the figures unchecked.
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, str(root / "bench" / "ws_latency.py"), "1"],
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    rows = done.stdout.splitlines()[2:]
    assert [row.split("  ")[0] for row in rows] == [
        "WebSocket (one socket)",
        "HTTP httpx_async (keep-alive)",
        "HTTP aiohttp (keep-alive)",
        "HTTP aiohttp (new connection)",
    ]


# --- leaving the block early: "cancelled", as on the HTTP adapters; one timeout rule -------------


def _stalled() -> Script:
    # Five events (the first delta last), then silence: a response still in flight.
    return Script(
        StreamBuilder().text("a b c d", 4).completed(), stall_after_events=5, stall_seconds=30
    )


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("how", ["break", "raise", "cancel scope"])
def test_leaving_early_cancels_what_is_in_flight(
    server: ResponsesServer,  # noqa: F811
    backend: str,
    how: str,
) -> None:
    # Before: the in-flight stream kept the outcome None (still running) after the block.
    server.enqueue(Script(StreamBuilder().text("done").completed()), _stalled())
    streams: dict[str, sr.ResponsesStream] = {}

    async def main() -> None:
        with anyio.CancelScope() as scope:
            async with open_connection(base_url=server.base_url, api_key=API_KEY) as conn:
                streams["done"] = await conn.send_create({"model": "m"}, stream_id="done")
                async for event in conn:
                    if event.type == "response.completed":
                        streams["open"] = await conn.send_create({"model": "m"}, stream_id="open")
                    elif event.type == "response.output_text.delta" and "open" in streams:
                        if how == "break":
                            break
                        if how == "raise":
                            raise KeyError(how)
                        scope.cancel()
                        await anyio.sleep(0)  # a checkpoint: the cancellation lands here

    if how == "raise":
        with pytest.raises(KeyError):
            anyio.run(main, backend=backend)
    else:
        anyio.run(main, backend=backend)
    assert streams["done"].outcome == "completed"
    assert streams["open"].outcome == "cancelled"
    assert text_of(streams["open"]) == "a "  # the snapshot as far as it got


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_timeout_is_no_cancellation(server: ResponsesServer, backend: str) -> None:  # noqa: F811
    server.enqueue(_stalled())
    streams: list[sr.ResponsesStream] = []

    async def main() -> None:
        async with open_connection(
            base_url=server.base_url, api_key=API_KEY, idle_timeout=0.3
        ) as conn:
            streams.append(await conn.send_create({"model": "m"}))
            await drain(conn)

    with pytest.raises(sr.IdleTimeout):
        anyio.run(main, backend=backend)
    assert streams[0].outcome is None  # as before: the timeout, not the consumer, ended it


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["connect_timeout", "idle_timeout", "total_timeout"])
@pytest.mark.parametrize("value", [True, False, 0, -1, float("nan"), "5"])
def test_an_unusable_timeout_is_refused_before_connecting(
    server: ResponsesServer,  # noqa: F811
    backend: str,
    name: str,
    value: Any,
) -> None:
    # Before: a bool passed (True as 1 s); a string raised TypeError.
    with pytest.raises(ValueError, match=name):
        run(backend, server, drain, **{name: value})
    assert server.requests == []  # nothing was sent


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("value", [float("inf"), sr.MAX_TIMEOUT * 2, 10**400])
def test_inf_and_huge_timeouts_mean_no_limit(
    server: ResponsesServer,  # noqa: F811
    backend: str,
    value: Any,
) -> None:
    # Before: above about 1e9 s a deadline overflowed on some paths; now, as on the HTTP
    # adapters, it means no limit.
    server.enqueue(Script(StreamBuilder().text("ok").completed()))

    async def body(conn: WebSocketConnection) -> str | None:
        stream = await conn.send_create({"model": "m"})
        await drain(conn)
        return text_of(stream)

    options = {"connect_timeout": value, "idle_timeout": value, "total_timeout": value}
    assert run(backend, server, body, **options) == "ok"


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_events_read_before_a_protocol_error_are_yielded_first(backend: str) -> None:
    # As in the blocking adapter's test of the same name: one read holding several messages,
    # the last one an event for a lane never created.
    import json

    from test_adapters_websocket_sync import one_write_server

    events = StreamBuilder(response_id="resp_1").text("Hello", 2).completed().events()
    good = [json.dumps({**event, "stream_id": "a"}) for event in events[:4]]
    bad = json.dumps({"type": "response.output_text.delta", "stream_id": "ghost"})
    got: list[str] = []

    async def main(base_url: str) -> sr.RemoteProtocolError:
        async with open_connection(base_url=base_url, api_key=API_KEY) as conn:
            await conn.send_create({"model": "m", "input": "x"}, stream_id="a")
            with pytest.raises(sr.RemoteProtocolError, match="ghost") as info:
                async for event in conn:
                    got.append(event.type)
            return info.value

    with one_write_server([*good, bad]) as base_url:
        error = anyio.run(main, base_url, backend=backend)
    assert got == [event["type"] for event in events[:4]]
    assert [event.type for event in error.events] == got
