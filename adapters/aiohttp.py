"""asyncio adapter on ``aiohttp.ClientSession``.

    async with open_stream(request, session) as events:
        async for event in events:
            ...
        events.stream.snapshot()

The body is read with ``readany()`` (what ``iter_any()`` iterates), never the line reader, so an
event of any size passes (aiohttp's line reader stops at 128 KiB; ``response.completed`` events
carrying a whole response are often larger).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp

from sansio_responses._requests import Request
from sansio_responses._transport import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_MAX_RESUME_ATTEMPTS,
    ConnectError,
    ConnectionDropped,
    ConnectTimeout,
    Exchange,
    IdleTimeout,
    StreamHandle,
    TransportError,
)

__all__ = ["EventStream", "open_stream"]


def _failure(
    exc: Exception, request: Request, timeouts: tuple[float | None, ...]
) -> TransportError:
    where = f"{request.host}:{request.port}"
    if isinstance(exc, aiohttp.ConnectionTimeoutError):
        return ConnectTimeout(f"no connection to {where} within {timeouts[0]} s")
    if isinstance(exc, aiohttp.ClientConnectorError):
        return ConnectError(f"cannot connect to {where}: {exc}")
    if isinstance(exc, TimeoutError):  # aiohttp.SocketTimeoutError: sock_read expired
        return IdleTimeout(f"no bytes from {where} for {timeouts[1]} s", timeout=timeouts[1])
    return ConnectionDropped(f"connection to {where} failed: {exc!r}")


class EventStream(StreamHandle):
    """The events of one stream, read through aiohttp as the consumer iterates (``async for``).

    ``stream`` is the core stream (``snapshot()``, ``outcome``, ``diagnostics``); see
    :class:`StreamHandle` for ``status_code``, ``headers`` and ``resumes``.
    """

    def __init__(self, x: Exchange, session: aiohttp.ClientSession,
                 timeouts: tuple[float | None, float | None]) -> None:  # fmt: skip
        self._x, self._session, self._timeouts = x, session, timeouts
        self._response: aiohttp.ClientResponse | None = None

    def __aiter__(self) -> EventStream:
        return self

    async def __anext__(self) -> Any:
        while (event := self._x.pop()) is None:
            if self._x.state == "finished":
                self.close()
                raise StopAsyncIteration
            await self._step()
        return event

    async def _step(self) -> None:
        request = self._x.request
        try:
            if self._x.state == "connect":
                self.close()
                await self._open(self._x.begin())
                return
            assert self._response is not None
            chunk = await self._response.content.readany()
        except (aiohttp.ClientError, TimeoutError) as exc:
            self.close()
            self._x.on_error(_failure(exc, request, self._timeouts))
            return
        if chunk:
            self._x.on_data(chunk)
        else:
            self.close()
            self._x.on_end()

    async def _open(self, request: Request) -> None:
        headers = dict(request.headers)
        # Compressed event streams hold events back in the compressor; ask for none.
        headers.setdefault("accept-encoding", "identity")
        connect, idle = self._timeouts
        self._response = await self._session.request(
            request.method,
            request.url,
            headers=headers,
            data=request.body,
            timeout=aiohttp.ClientTimeout(total=None, connect=connect, sock_read=idle),
        )
        self._x.on_head(self._response.status, self._response.raw_headers)

    def close(self) -> None:
        """Close the connection (idempotent); the session stays open."""
        if self._response is not None:
            self._response.close()
            self._response = None


@contextlib.asynccontextmanager
async def open_stream(
    request: Request,
    session: aiohttp.ClientSession | None = None,
    *,
    connect_timeout: float | None = DEFAULT_CONNECT_TIMEOUT,
    idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
    max_resume_attempts: int = DEFAULT_MAX_RESUME_ATTEMPTS,
    stream_options: Mapping[str, Any] | None = None,
) -> AsyncIterator[EventStream]:
    """Send *request* with *session* (a new ``aiohttp.ClientSession`` when ``None``, closed on
    exit) and yield an async iterator of its events.

    The response head is read on entry: an HTTP error status raises its ``APIStatusError``, a 2xx
    that is not an event stream raises ``UnexpectedContentType``. *connect_timeout* bounds opening
    the connection; *idle_timeout* bounds every wait for bytes after that (``None``: no limit).
    A dropped or truncated background response is resumed (see ``ResumePolicy``). The connection
    is closed on leaving the block.
    """
    x = Exchange(request, max_resume_attempts=max_resume_attempts, stream_options=stream_options)
    async with contextlib.AsyncExitStack() as owned:
        if session is None:
            session = await owned.enter_async_context(aiohttp.ClientSession())
        events = EventStream(x, session, (connect_timeout, idle_timeout))
        try:
            while x.state in ("connect", "head", "error-body"):
                await events._step()
            yield events
        finally:
            events.close()
