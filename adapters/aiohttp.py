"""asyncio adapter on ``aiohttp.ClientSession``.

    async with open_stream(request, session) as events:
        async for event in events:
            ...
        events.stream.snapshot()

The body is read with ``readany()`` (what ``iter_any()`` iterates), never the line reader, so an
event of any size passes (aiohttp's line reader stops at 128 KiB; ``response.completed`` events
carrying a whole response are often larger). Each wait for body bytes is bounded by aiohttp's
``sock_read`` (the idle timeout) and, with a total deadline, by one timer per response (a watchdog
that closes the response at the deadline), not by a timer per read (issue 21). A ``readany()``
whose chunk parser failed on a later segment never wakes by itself: the adapter wakes it when
aiohttp closes the connection.

A response that is not valid HTTP/1.1 is an ``sr.RemoteProtocolError``, never retried, as on every
adapter (``Exchange.on_invalid``). What aiohttp does not allow, and the others do: a head with more
than 128 header fields or a header line over 8190 bytes (its session's ``max_headers`` and
``max_field_size``; h11 under the other adapters bounds the head by its size instead), so such a
head is an invalid response here only; and a response whose head, body bytes and invalid framing
arrive in one TCP segment is discarded whole by aiohttp's parser, so its invalid response comes
with no event (the others deliver the events before the fault). A head with both chunked framing
and a Content-Length, which aiohttp refuses, is refused by the exchange on every adapter.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Mapping
from typing import Any

import aiohttp
from aiohttp.http_exceptions import ContentEncodingError, HttpProcessingError
from multidict import CIMultiDict, CIMultiDictProxy

import sansio_responses as sr

from ._events import AsyncEventIterator, S, decoding_error

__all__ = ["EventStream", "open_stream"]


def _salvage(content: aiohttp.StreamReader) -> bytes:
    # When aiohttp's parser fails on bytes after the ones it buffered (a Content-Length shorter
    # than the body sent, a bad chunk header), readany() raises at once and the buffered body
    # bytes would be lost: take them from the buffer. Private API, hence the guards.
    buffer = getattr(content, "_buffer", None)
    read = getattr(content, "_read_nowait", None)
    if not buffer or read is None:
        return b""
    try:
        data = read(-1)
    except Exception:
        return b""
    return data if isinstance(data, bytes) else b""


def _redact(exc: BaseException) -> None:
    # aiohttp's ClientResponseError (raised for an invalid response head, among others) carries
    # the request's headers in its repr: the API key would show in every message and log line.
    if not isinstance(exc, aiohttp.ClientResponseError):
        return
    info = exc.request_info
    headers = CIMultiDict(
        (k, "<redacted>" if k.lower() in sr.SENSITIVE_HEADERS else v)
        for k, v in info.headers.items()
    )
    exc.request_info = aiohttp.RequestInfo(
        info.url, info.method, CIMultiDictProxy(headers), info.real_url
    )
    exc.args = (exc.request_info, exc.history)


# The content codings aiohttp decodes (br and zstd need their optional libraries, and fail with
# aiohttp's decoding error without them). It passes any other coding through undecoded, and does
# not decode stacked codings such as "gzip, gzip" at all.
_DECODED = frozenset({"gzip", "deflate", "br", "zstd"})


def _undecodable(headers: tuple[tuple[str, str], ...]) -> str | None:
    codings = [
        c.strip().lower()
        for name, value in headers
        if name == "content-encoding"
        for c in value.split(",")
        if c.strip() and c.strip().lower() != "identity"
    ]
    if not codings or (len(codings) == 1 and codings[0] in _DECODED):
        return None
    return ", ".join(codings)


def _refused(exc: BaseException) -> bool:
    # aiohttp's parser refused the server's bytes as invalid HTTP/1.1: a head it cannot parse or
    # that passes its bounds (max_headers, max_field_size, max_line_size; chunked framing with a
    # Content-Length), or a bad chunk header. Its HttpProcessingError reaches the adapter as the
    # cause of a ClientResponseError (the head) or of the ClientPayloadError raised from the
    # connection's fault (the body). An end of file inside the body is "Response payload is not
    # completed" over its TransferEncodingError / ContentLengthError: a drop, not a refusal.
    if isinstance(exc, aiohttp.ClientPayloadError) and "payload is not completed" in str(exc):
        return False
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, HttpProcessingError):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _decoding_failed(exc: BaseException) -> bool:
    # aiohttp's ClientPayloadError for a body its decompressor rejects (a corrupt gzip body).
    return isinstance(exc, aiohttp.ClientPayloadError) and isinstance(
        exc.__cause__, ContentEncodingError
    )


def _wake_on_close(response: aiohttp.ClientResponse) -> None:
    # When aiohttp's parser fails on body bytes (a bad chunk header), it closes the connection
    # but leaves the body reader waiting: readany() would sleep until the idle timeout (600 s by
    # default). The connection's `closed` future ends that wait with the parser's error.
    connection = response.connection
    closed = getattr(connection.protocol if connection is not None else None, "closed", None)
    if not isinstance(closed, asyncio.Future):
        return
    on_close: asyncio.Future[Any] = closed  # pyright: ignore[reportUnknownVariableType]
    content = response.content

    def wake(future: asyncio.Future[Any]) -> None:
        if not future.cancelled():
            future.exception()  # retrieved, so asyncio does not log it as never retrieved
        fault = _protocol_error(response)
        if fault is not None and not content.is_eof():
            error = aiohttp.ClientPayloadError(f"invalid HTTP/1.1 framing: {fault}")
            error.__cause__ = fault
            content.set_exception(error)

    on_close.add_done_callback(wake)


def _protocol_error(response: aiohttp.ClientResponse) -> BaseException | None:
    connection = response.connection
    protocol = connection.protocol if connection is not None else None
    exception = getattr(protocol, "exception", None)
    fault = exception() if callable(exception) else None
    # aiohttp's own sock_read timeout is recorded there too: that one is an idle timeout.
    if not isinstance(fault, BaseException) or isinstance(fault, asyncio.TimeoutError):
        return None
    return fault


class EventStream(AsyncEventIterator[S]):
    """The events of one stream, read through aiohttp as the consumer iterates. ``stream`` is the
    core stream; see :class:`StreamHandle` for ``status_code``, ``headers``, ``resumes`` and
    ``retries``."""

    def __init__(self, x: sr.Exchange[S], session: aiohttp.ClientSession,
                 connect_timeout: float | None, idle_timeout: float | None) -> None:  # fmt: skip
        self._x, self._session = x, session
        self._connect_timeout, self._idle_timeout = connect_timeout, idle_timeout
        self._response: aiohttp.ClientResponse | None = None
        self._timer: asyncio.TimerHandle | None = None  # the watchdog of the total deadline
        self._fired = False  # it fired and closed the response

    async def _step(self) -> None:
        request = self._x.request
        try:
            if self._x.state == "connect":
                await self._disconnect()
                if self._x.delay:  # a retry's backoff; the exchange kept it inside the deadline
                    await asyncio.sleep(self._x.delay)
                await self._open(self._x.begin())
                return
            assert self._response is not None
            content = self._response.content
            try:
                # aiohttp's sock_read (set in _open) bounds the wait by the idle timeout, the
                # watchdog by the total deadline: no timer of the adapter's per read (issue 21).
                chunk = await content.readany()
            except (asyncio.TimeoutError, RuntimeError) as exc:
                # aiohttp's parser may have failed on a later segment without waking readany()
                # (the error goes to the connection's protocol, not to the body), or readany()
                # found the connection it closed then ("Connection closed."): report a drop.
                fault = _protocol_error(self._response)
                if fault is not None:
                    raise aiohttp.ClientPayloadError(
                        f"invalid HTTP/1.1 framing: {fault}"
                    ) from fault
                if isinstance(exc, RuntimeError) and "Connection closed" in str(exc):
                    raise aiohttp.ClientConnectionError(str(exc)) from exc
                raise
            except aiohttp.ClientError:
                salvaged = _salvage(content)
                if salvaged:
                    self._x.on_data(salvaged)
                raise
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            late = self._fired  # before _disconnect(): it resets the watchdog
            await self._disconnect()
            if late:  # the watchdog closed the response at the total deadline
                self._x.on_error(self._x.total_failure())
                return
            if _decoding_failed(exc):  # the server's fault, as on the other adapters
                self._x.fail(decoding_error(exc, request, self._x.headers))
                return
            if _refused(exc):  # not valid HTTP/1.1: the server's fault, never retried
                _redact(exc)
                self._x.on_invalid(exc)
                return
            self._x.on_error(self._failure(exc, request))
            return
        if chunk:
            self._x.on_data(chunk)
        else:
            # A body framed by the connection's close also ends when the watchdog closes it:
            # that end is the deadline, not the server's.
            late = self._fired and self._x.state == "body"
            await self._disconnect()
            if late:
                self._x.on_error(self._x.total_failure())
            else:
                self._x.on_end()

    def _failure(self, exc: Exception, request: sr.Request[Any]) -> sr.TransportError:
        _redact(exc)
        if isinstance(exc, aiohttp.ConnectionTimeoutError):
            return self._x.timed_out("connect-timeout", self._connect_timeout)
        if isinstance(exc, aiohttp.ClientConnectorError):
            return sr.failure("connect", request, cause=exc)
        # asyncio.TimeoutError, not the builtin: they differ before Python 3.11.
        if isinstance(exc, asyncio.TimeoutError):  # sock_read or our own timer expired
            return self._x.timed_out("idle", self._idle_timeout)
        return sr.failure("dropped", request, cause=exc)

    async def _open(self, request: sr.Request[Any]) -> None:
        # sock_read restarts with every read that brings bytes: the idle timeout for the head.
        # The whole request (connect, send, head) also runs under the total deadline.
        # (limit() last for sock_read: timed_out() then tells an idle from a total timeout.)
        total = self._x.limit(None)
        connect = self._x.limit(self._connect_timeout)
        timeout = aiohttp.ClientTimeout(
            connect=connect, sock_read=self._x.limit(self._idle_timeout)
        )
        self._response = await asyncio.wait_for(
            self._session.request(
                request.method, request.url, headers=sr.send_headers(request), data=request.body,
                timeout=timeout, allow_redirects=False,  # a 3xx is an APIStatusError
            ),
            total,
        )  # fmt: skip
        # A final 1xx (a 101 to a request that asked for no upgrade), which aiohttp hands over,
        # is refused by the exchange, as h11 refuses it under the other adapters.
        self._x.on_head(self._response.status, self._response.raw_headers)
        coding = _undecodable(self._x.headers)
        if coding is not None and self._x.state == "body":
            self._x.fail(
                sr.RemoteProtocolError(
                    f"{request.host}:{request.port} sent a body in content coding {coding!r}, which "
                    "this adapter cannot decode (it asked for identity; aiohttp decodes one of "
                    "gzip, deflate, br, zstd)"
                )
            )
            return
        _wake_on_close(self._response)
        left = self._x.limit(None)
        if left is not None:  # the watchdog: one timer for the total deadline of the body
            self._timer = asyncio.get_running_loop().call_later(left, self._fire)
        self._x.limit(self._idle_timeout)  # limit() last for the idle bound: see timed_out()

    def _fire(self) -> None:
        # At the total deadline: closing the response ends the read in progress.
        self._fired = True
        if self._response is not None:
            self._response.close()

    async def _disconnect(self) -> None:
        """Close the connection (idempotent); the session stays open."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._fired = None, False
        if self._response is not None:
            self._response.close()
            self._response = None


@contextlib.asynccontextmanager
async def open_stream(
    request: sr.Request[S],
    session: aiohttp.ClientSession | None = None,
    *,
    connect_timeout: float | None = sr.DEFAULT_CONNECT_TIMEOUT,
    idle_timeout: float | None = sr.DEFAULT_IDLE_TIMEOUT,
    total_timeout: float | None = None,
    max_retries: int = sr.DEFAULT_MAX_RETRIES,
    retry_policy: sr.RetryPolicy | None = None,
    max_resume_attempts: int = sr.DEFAULT_MAX_RESUME_ATTEMPTS,
    stream_options: Mapping[str, Any] | None = None,
) -> AsyncGenerator[EventStream[S], None]:
    """Send *request* with *session* (a new ``aiohttp.ClientSession`` when ``None``, closed on
    exit) and yield an async iterator of its events.

    The response head is read on entry: an HTTP error status raises its ``APIStatusError``, a 2xx
    that is not an event stream raises ``UnexpectedContentType``. *connect_timeout* bounds getting
    a connection; *idle_timeout* bounds every wait for bytes after that (``None``: no limit);
    *total_timeout* bounds the whole stream, retries and resumes included (``TotalTimeout``). A
    retryable failure before the first body byte is retried up to *max_retries* times
    (``RetryPolicy``; *retry_policy* replaces it whole). A dropped or truncated background
    response is resumed (see ``ResumePolicy``). The connection is closed on leaving the block.
    """
    x = sr.Exchange(
        request, max_resume_attempts=max_resume_attempts, stream_options=stream_options,
        max_retries=max_retries, retry_policy=retry_policy, total_timeout=total_timeout,
        connect_timeout=connect_timeout, idle_timeout=idle_timeout,
    )  # fmt: skip
    async with contextlib.AsyncExitStack() as owned:
        if session is None:
            session = await owned.enter_async_context(aiohttp.ClientSession())
        async with EventStream(x, session, x.connect_timeout, x.idle_timeout) as events:
            yield events
