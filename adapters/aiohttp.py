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

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp

from sansio_responses import _transport as t
from sansio_responses._requests import Request

__all__ = ["EventStream", "open_stream"]


class EventStream(t.AsyncEventIterator):
    """The events of one stream, read through aiohttp as the consumer iterates. ``stream`` is the
    core stream; see :class:`StreamHandle` for ``status_code``, ``headers`` and ``resumes``."""

    def __init__(self, x: t.Exchange, session: aiohttp.ClientSession,
                 connect_timeout: float | None, idle_timeout: float | None) -> None:  # fmt: skip
        self._x, self._session = x, session
        # sock_read restarts with every read that brings bytes: the idle timeout.
        self._timeout = aiohttp.ClientTimeout(connect=connect_timeout, sock_read=idle_timeout)
        self._response: aiohttp.ClientResponse | None = None

    async def _step(self) -> None:
        request = self._x.request
        try:
            if self._x.state == "connect":
                await self.aclose()
                await self._open(self._x.begin())
                return
            assert self._response is not None
            chunk = await self._response.content.readany()
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            await self.aclose()
            self._x.on_error(self._failure(exc, request))
            return
        if chunk:
            self._x.on_data(chunk)
        else:
            await self.aclose()
            self._x.on_end()

    def _failure(self, exc: Exception, request: Request) -> t.TransportError:
        if isinstance(exc, aiohttp.ConnectionTimeoutError):
            return t.failure("connect-timeout", request, timeout=self._timeout.connect)
        if isinstance(exc, aiohttp.ClientConnectorError):
            return t.failure("connect", request, cause=exc)
        # asyncio.TimeoutError, not the builtin: they differ before Python 3.11.
        if isinstance(exc, asyncio.TimeoutError):  # aiohttp.SocketTimeoutError: sock_read expired
            return t.failure("idle", request, timeout=self._timeout.sock_read)
        return t.failure("dropped", request, cause=exc)

    async def _open(self, request: Request) -> None:
        headers = dict(request.headers)
        # Compressed event streams hold events back in the compressor; ask for none.
        headers.setdefault("accept-encoding", "identity")
        self._response = await self._session.request(
            request.method, request.url, headers=headers, data=request.body,
            timeout=self._timeout, allow_redirects=False,  # a 3xx is an APIStatusError
        )  # fmt: skip
        self._x.on_head(self._response.status, self._response.raw_headers)

    async def aclose(self) -> None:
        """Close the connection (idempotent); the session stays open."""
        if self._response is not None:
            self._response.close()
            self._response = None


@contextlib.asynccontextmanager
async def open_stream(
    request: Request,
    session: aiohttp.ClientSession | None = None,
    *,
    connect_timeout: float | None = t.DEFAULT_CONNECT_TIMEOUT,
    idle_timeout: float | None = t.DEFAULT_IDLE_TIMEOUT,
    max_resume_attempts: int = t.DEFAULT_MAX_RESUME_ATTEMPTS,
    stream_options: Mapping[str, Any] | None = None,
) -> AsyncIterator[EventStream]:
    """Send *request* with *session* (a new ``aiohttp.ClientSession`` when ``None``, closed on
    exit) and yield an async iterator of its events.

    The response head is read on entry: an HTTP error status raises its ``APIStatusError``, a 2xx
    that is not an event stream raises ``UnexpectedContentType``. *connect_timeout* bounds getting
    a connection; *idle_timeout* bounds every wait for bytes after that (``None``: no limit).
    A dropped or truncated background response is resumed (see ``ResumePolicy``). The connection
    is closed on leaving the block.
    """
    x = t.Exchange(request, max_resume_attempts=max_resume_attempts, stream_options=stream_options)
    async with contextlib.AsyncExitStack() as owned:
        if session is None:
            session = await owned.enter_async_context(aiohttp.ClientSession())
        events = EventStream(x, session, connect_timeout, idle_timeout)
        try:
            await events._start()
            yield events
        finally:
            await events.aclose()
