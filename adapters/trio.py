"""trio adapter: ``trio.open_tcp_stream`` (+ ``trio.SSLStream`` for https), HTTP/1.1 by h11.

    async with open_stream(request) as events:
        async for event in events:
            ...
        events.stream.snapshot()

Timeouts are trio deadlines (``fail_after``); cancelling the surrounding cancel scope cancels the
read in progress and leaving the block closes the connection. The events object implements
``__anext__`` itself (no async generator is left to be finalized by the garbage collector), and
nothing here touches asyncio.
"""

from __future__ import annotations

import contextlib
import math
import ssl
from collections.abc import AsyncIterator, Mapping
from typing import Any

import trio

from sansio_responses._requests import Request
from sansio_responses._transport import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_MAX_RESUME_ATTEMPTS,
    READ_SIZE,
    ConnectError,
    ConnectionDropped,
    ConnectTimeout,
    Exchange,
    IdleTimeout,
    StreamHandle,
    TransportError,
)

from ._h11 import H11Exchange, default_ssl_context

__all__ = ["EventStream", "open_stream"]


def _limit(seconds: float | None) -> float:
    return math.inf if seconds is None else seconds


class EventStream(StreamHandle):
    """The events of one stream, read with trio as the consumer iterates (``async for``).

    ``stream`` is the core stream (``snapshot()``, ``outcome``, ``diagnostics``); see
    :class:`StreamHandle` for ``status_code``, ``headers`` and ``resumes``.
    """

    def __init__(self, x: Exchange, timeouts: tuple[float | None, float | None],
                 ssl_context: ssl.SSLContext | None) -> None:  # fmt: skip
        self._x, self._timeouts, self._ssl = x, timeouts, ssl_context
        self._conn: trio.abc.Stream | None = None
        self._h: H11Exchange | None = None
        self._out = b""
        self._where = ""

    def __aiter__(self) -> EventStream:
        return self

    async def __anext__(self) -> Any:
        while (event := self._x.pop()) is None:
            if self._x.state == "finished":
                await self.aclose()
                raise StopAsyncIteration
            await self._step()
        return event

    async def _step(self) -> None:
        if self._x.state == "connect":
            await self.aclose()
            await self._connect(self._x.begin())
            return
        assert self._conn is not None and self._h is not None
        idle = self._timeouts[1]
        try:
            with trio.fail_after(_limit(idle)):
                if self._out:  # the request, sent under the idle timeout like any other I/O
                    await self._conn.send_all(self._out)
                    self._out = b""
                data = await self._conn.receive_some(READ_SIZE)
        except trio.TooSlowError:
            failure: TransportError = IdleTimeout(
                f"no bytes from {self._where} for {idle} s", timeout=idle
            )
        except (trio.BrokenResourceError, OSError) as exc:
            failure = ConnectionDropped(f"connection to {self._where} failed: {exc!r}")
        else:
            self._h.receive(data)
            return
        await self.aclose()
        self._x.on_error(failure)

    async def _connect(self, request: Request) -> None:
        self._where = f"{request.host}:{request.port}"
        try:
            with trio.fail_after(_limit(self._timeouts[0])):
                self._conn = await trio.open_tcp_stream(request.host, request.port)
                if request.scheme == "https":
                    context = self._ssl or default_ssl_context()
                    # https_compatible: an EOF without close_notify ends the body (RFC 2818 5).
                    self._conn = tls = trio.SSLStream(
                        self._conn, context, server_hostname=request.host, https_compatible=True
                    )
                    await tls.do_handshake()
            self._h = H11Exchange(self._x, request)
            self._out = self._h.request_bytes
        except trio.TooSlowError:
            failure: TransportError = ConnectTimeout(f"no connection to {self._where} in time")
        except (trio.BrokenResourceError, OSError) as exc:
            failure = ConnectError(f"cannot connect to {self._where}: {exc!r}")
            failure.__cause__ = exc
        else:
            return
        await self.aclose()
        self._x.on_error(failure)

    async def aclose(self) -> None:
        """Close the connection (idempotent; works inside a cancelled scope)."""
        if self._conn is not None:
            conn, self._conn, self._h = self._conn, None, None
            await trio.aclose_forcefully(conn)


@contextlib.asynccontextmanager
async def open_stream(
    request: Request,
    *,
    connect_timeout: float | None = DEFAULT_CONNECT_TIMEOUT,
    idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
    max_resume_attempts: int = DEFAULT_MAX_RESUME_ATTEMPTS,
    stream_options: Mapping[str, Any] | None = None,
    ssl_context: ssl.SSLContext | None = None,
) -> AsyncIterator[EventStream]:
    """Send *request* over a new trio connection and yield an async iterator of its events.

    The response head is read on entry: an HTTP error status raises its ``APIStatusError``, a 2xx
    that is not an event stream raises ``UnexpectedContentType``. *connect_timeout* bounds the TCP
    connect and TLS handshake; *idle_timeout* bounds every wait for bytes after that (``None``:
    no limit). A dropped or truncated background response is resumed (see ``ResumePolicy``).
    *ssl_context* defaults to ``ssl.create_default_context()`` (certificates verified). The
    connection is closed on leaving the block, also when it is cancelled.
    """
    x = Exchange(request, max_resume_attempts=max_resume_attempts, stream_options=stream_options)
    events = EventStream(x, (connect_timeout, idle_timeout), ssl_context)
    try:
        while x.state in ("connect", "head", "error-body"):
            await events._step()
        yield events
    finally:
        await events.aclose()
