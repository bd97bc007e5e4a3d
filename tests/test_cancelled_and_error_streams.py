"""Issue 18 item 4, on every adapter over real loopback sockets: errors carry the core stream
(``exc.stream``), and a stream whose events object is closed before it ended (a ``break``, an
exception in the loop body, a cancelled scope or task) has the outcome ``"cancelled"``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import anyio
import pytest
import trio
from _rawserver import RawServer, Reply, chunk, head
from test_adapters_common import API_KEY
from test_adapters_faults import ADAPTERS, BLOCKS, BODY, drive

import sansio_responses as sr
from adapters import aiohttp as aiohttp_adapter
from adapters import httpx_async, httpx_sync
from adapters import socket as socket_adapter
from adapters import trio as trio_adapter


class Stop(Exception):
    """Raised in a loop body."""


def _request(server: RawServer, background: bool = False) -> sr.Request[sr.ResponsesStream]:
    body: dict[str, Any] = {"model": "gpt-4o-mini", "input": "hi", "background": background}
    return sr.responses_request(body, base_url=server.base_url, api_key=API_KEY)


def _leave_early(adapter: str, request: sr.Request[sr.ResponsesStream], how: str) -> Any:
    """Open *request* on *adapter* and leave its loop by *how*: ``"break"`` or ``"raise"`` after two
    events, or ``"break-at-end"`` once the stream has its outcome (the body still open). Returns
    the events object, after its block ended."""

    def leave(n: int, stream: sr.ResponsesStream) -> bool:
        if how == "break-at-end":
            return stream.outcome is not None
        if n == 2 and how == "raise":
            raise Stop
        return n == 2

    if adapter in ("socket", "httpx"):
        module = socket_adapter if adapter == "socket" else httpx_sync
        with contextlib.suppress(Stop), module.open_stream(request, max_retries=0) as events:
            for n, _ in enumerate(events, 1):
                if leave(n, events.stream):
                    break
        return events

    async def run(open_stream: Any) -> Any:
        events = None
        with contextlib.suppress(Stop):
            async with open_stream(request, max_retries=0) as events:
                n = 0
                async for _ in events:
                    n += 1
                    if leave(n, events.stream):
                        break
        return events

    if adapter == "trio":
        return trio.run(run, trio_adapter.open_stream)
    if adapter == "aiohttp":
        return asyncio.run(run(aiohttp_adapter.open_stream))
    return anyio.run(run, httpx_async.open_stream, backend=adapter.split("-")[1])


@pytest.mark.parametrize("how", ["break", "raise"])
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_leaving_the_loop_early_is_cancelled(raw: RawServer, adapter: str, how: str) -> None:
    # The body stays open after four events: the stream cannot have ended by itself.
    raw.enqueue(Reply([head(), chunk(b"".join(BLOCKS[:4]))], then="hang"))
    events = _leave_early(adapter, _request(raw), how)
    assert events.stream.outcome == "cancelled"
    snapshot = events.stream.snapshot()
    assert snapshot is not None and snapshot.status == "in_progress"  # the snapshot is intact
    with pytest.raises(sr.LocalProtocolError, match="closed when its `with` block ended"):
        next(events) if adapter in ("socket", "httpx") else asyncio.run(events.__anext__())


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_stream_that_ended_is_not_cancelled(raw: RawServer, adapter: str) -> None:
    # The terminal event arrived: leaving before the body's end changes nothing.
    raw.enqueue(Reply([head(), chunk(BODY)], then="hang"))
    events = _leave_early(adapter, _request(raw), "break-at-end")
    assert events.stream.outcome == "completed"


def test_a_cancelled_trio_scope_is_cancelled(raw: RawServer) -> None:
    raw.enqueue(
        Reply([head(), chunk(b"".join(BLOCKS[:3]))], then="hang"),
        Reply([head(), chunk(b"".join(BLOCKS[:3]))], then="hang"),
    )
    request = _request(raw)
    seen: list[Any] = []

    async def main(open_stream: Any) -> None:
        with trio.CancelScope() as scope:
            async with open_stream(request) as events:
                seen.append(events)
                async for _ in events:
                    if events.stream.snapshot() is not None:
                        scope.cancel()  # the next read is cancelled
        assert scope.cancelled_caught

    trio.run(main, trio_adapter.open_stream)
    trio.run(main, httpx_async.open_stream)  # anyio on trio
    assert [events.stream.outcome for events in seen] == ["cancelled", "cancelled"]


@pytest.mark.parametrize("adapter", ["aiohttp", "httpx_async"])
def test_a_cancelled_asyncio_task_is_cancelled(raw: RawServer, adapter: str) -> None:
    raw.enqueue(Reply([head(), chunk(b"".join(BLOCKS[:3]))], then="hang"))
    request = _request(raw)
    module = aiohttp_adapter if adapter == "aiohttp" else httpx_async
    seen: list[Any] = []

    async def consume() -> None:
        async with module.open_stream(request, idle_timeout=30) as events:
            seen.append(events)
            async for _ in events:
                pass

    async def main() -> None:
        task = asyncio.create_task(consume())
        while not seen or seen[0].stream.snapshot() is None:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert seen[0].stream.outcome == "cancelled"


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_transport_error_carries_the_stream(raw: RawServer, adapter: str) -> None:
    # Not a background response: a drop after four events ends the stream.
    raw.enqueue(Reply([head(), chunk(b"".join(BLOCKS[:4]))], then="reset"))
    result = drive(adapter, _request(raw), max_retries=0)
    assert isinstance(result.error, sr.TransportError), repr(result.error)
    stream = result.error.stream
    assert isinstance(stream, sr.ResponsesStream) and stream is result.handle.stream
    assert stream.outcome == "truncated"
    snapshot = stream.snapshot()
    assert snapshot is not None and snapshot.status == "in_progress"


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_status_error_carries_the_stream(raw: RawServer, adapter: str) -> None:
    body = b'{"error": {"message": "overloaded", "type": "server_error"}}'
    error = head(503, chunked=False, length=len(body), content_type="application/json") + body
    raw.enqueue(Reply([error]))
    result = drive(adapter, _request(raw), max_retries=0)
    assert isinstance(result.error, sr.InternalServerError), repr(result.error)
    # Raised on entering the block: no events object, yet the stream is at hand.
    assert result.handle is None
    assert isinstance(result.error.stream, sr.ResponsesStream)
    assert result.error.stream.outcome is None and result.error.stream.snapshot() is None


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_resume_answered_with_an_error_keeps_the_snapshot(raw: RawServer, adapter: str) -> None:
    body = b'{"error": {"message": "gone", "type": "invalid_request_error"}}'
    missing = head(404, chunked=False, length=len(body), content_type="application/json") + body
    raw.enqueue(Reply([head(), chunk(b"".join(BLOCKS[:4]))], then="reset"), Reply([missing]))
    result = drive(adapter, _request(raw, background=True), max_retries=0)
    assert isinstance(result.error, sr.NotFoundError), repr(result.error)
    stream = result.error.stream
    assert isinstance(stream, sr.ResponsesStream) and stream is result.handle.stream
    assert result.handle.resumes == 1 and stream.outcome == "truncated"
    assert len(result.events) == 4
