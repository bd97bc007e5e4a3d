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
from collections.abc import AsyncGenerator, Mapping
from typing import Any

import trio

import sansio_responses as sr

from ._events import AsyncEventIterator, S
from ._h11 import READ_SIZE, H11Exchange, default_ssl_context

__all__ = ["EventStream", "open_stream"]


class EventStream(AsyncEventIterator[S]):
    """The events of one stream, read with trio as the consumer iterates. ``stream`` is the core
    stream; see :class:`StreamHandle` for ``status_code``, ``headers``, ``resumes`` and
    ``retries``."""

    def __init__(self, x: sr.Exchange[S], connect_timeout: float | None, idle_timeout: float | None,
                 ssl_context: ssl.SSLContext | None) -> None:  # fmt: skip
        self._x, self._ssl = x, ssl_context
        self._connect_timeout, self._idle_timeout = connect_timeout, idle_timeout
        self._conn: trio.abc.Stream | None = None
        self._h: H11Exchange | None = None
        self._out = b""

    async def _step(self) -> None:
        if self._x.state == "connect":
            await self._disconnect()
            if self._x.delay:  # a retry's backoff; the exchange kept it inside the deadline
                await trio.sleep(self._x.delay)
            await self._connect(self._x.begin())
            return
        assert self._conn is not None and self._h is not None
        try:
            # Every wait ends within the idle timeout and the total deadline, whichever is first.
            with trio.fail_after(_seconds(self._x.limit(self._idle_timeout))):
                if self._out:  # the request, sent under the idle timeout like any other I/O
                    await self._conn.send_all(self._out)
                    self._out = b""
                data = await self._conn.receive_some(READ_SIZE)
        except trio.TooSlowError:
            error = self._x.timed_out("idle", self._idle_timeout)
        except (trio.BrokenResourceError, OSError) as exc:
            error = sr.failure("dropped", self._x.request, cause=exc)
        else:
            self._h.receive(data)
            return
        await self._disconnect()
        self._x.on_error(error)

    async def _connect(self, request: sr.Request[Any]) -> None:
        try:
            with trio.fail_after(_seconds(self._x.limit(self._connect_timeout))):
                self._conn = await trio.open_tcp_stream(request.host, request.port)
                if request.scheme == "https":
                    context = self._ssl or default_ssl_context()
                    # https_compatible: an EOF without close_notify ends the body (RFC 2818 5).
                    self._conn = tls = trio.SSLStream(
                        self._conn, context, server_hostname=request.host, https_compatible=True
                    )
                    await tls.do_handshake()
        except trio.TooSlowError:
            error = self._x.timed_out("connect-timeout", self._connect_timeout)
        except (trio.BrokenResourceError, OSError) as exc:
            error = sr.failure("connect", request, cause=exc)
        else:
            self._h = H11Exchange(self._x, request)
            self._out = self._h.request_bytes
            return
        await self._disconnect()
        self._x.on_error(error)

    async def _disconnect(self) -> None:
        """Close the connection (idempotent; works inside a cancelled scope)."""
        if self._conn is not None:
            conn, self._conn, self._h = self._conn, None, None
            await trio.aclose_forcefully(conn)


def _seconds(timeout: float | None) -> float:
    # No limit is an infinite deadline (which never trips, so never shows in a message).
    return math.inf if timeout is None else timeout


@contextlib.asynccontextmanager
async def open_stream(
    request: sr.Request[S],
    *,
    connect_timeout: float | None = sr.DEFAULT_CONNECT_TIMEOUT,
    idle_timeout: float | None = sr.DEFAULT_IDLE_TIMEOUT,
    total_timeout: float | None = None,
    max_retries: int = sr.DEFAULT_MAX_RETRIES,
    retry_policy: sr.RetryPolicy | None = None,
    max_resume_attempts: int = sr.DEFAULT_MAX_RESUME_ATTEMPTS,
    stream_options: Mapping[str, Any] | None = None,
    ssl_context: ssl.SSLContext | None = None,
) -> AsyncGenerator[EventStream[S], None]:
    """Send *request* over a new trio connection and yield an async iterator of its events.

    The response head is read on entry: an HTTP error status raises its ``APIStatusError``, a 2xx
    that is not an event stream raises ``UnexpectedContentType``. *connect_timeout* bounds the TCP
    connect and TLS handshake; *idle_timeout* bounds every wait for bytes after that (``None``:
    no limit); *total_timeout* bounds the whole stream, retries and resumes included
    (``TotalTimeout``). A retryable failure before the first body byte is retried up to
    *max_retries* times (``RetryPolicy``; *retry_policy* replaces it whole). A dropped or
    truncated background response is resumed (see ``ResumePolicy``). *ssl_context* defaults to
    ``ssl.create_default_context()`` (certificates verified). The connection is closed on leaving
    the block, also when it is cancelled.
    """
    x = sr.Exchange(
        request, max_resume_attempts=max_resume_attempts, stream_options=stream_options,
        max_retries=max_retries, retry_policy=retry_policy, total_timeout=total_timeout,
        connect_timeout=connect_timeout, idle_timeout=idle_timeout,
    )  # fmt: skip
    async with EventStream(x, x.connect_timeout, x.idle_timeout, ssl_context) as events:
        yield events
