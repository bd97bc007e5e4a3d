"""What every adapter shares, without I/O: transport errors, the resume policy and the exchange.

An adapter owns sockets and timers; everything it must *decide* lives here, so the four adapters
(httpx, aiohttp, trio, plain sockets) behave the same and stay short loops:

* :class:`TransportError` and its subclasses name what went wrong below HTTP (connect failure or
  timeout, a body that went silent for too long, a dropped connection).
* :class:`ResumePolicy` decides whether a body that ended early can be continued with
  ``GET /responses/{id}?stream=true&starting_after=N`` (API reference, "Retrieve a model response",
  background mode) and builds that request.
* :class:`Exchange` is the sans-IO state machine of one logical stream, possibly spread over
  several HTTP exchanges: the adapter reports the response head, body chunks, the end of the body
  or a transport failure; the exchange judges the head, reads a bounded error body, feeds the core
  stream, buffers the events, and tells the adapter whether to open a new connection (a resume)
  or stop.
* :class:`EventIterator` / :class:`AsyncEventIterator` are the adapters' events objects minus the
  I/O: iteration pulls events from the exchange and calls the adapter's one-step ``_step``;
  :func:`failure` builds the :class:`TransportError` for what an HTTP library reported.

The API key never appears in a message here: requests are only ever shown through their redacting
``repr``, and messages name the host, never headers.
"""

from __future__ import annotations

import collections
import urllib.parse
from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeAlias

from ._chat import ChatCompletionsStream
from ._errors import ProtocolError, TruncatedStream
from ._requests import (
    ERROR_BODY_LIMIT,
    HeadersLike,
    Request,
    UnexpectedContentType,
    check_content_type,
    needs_error_body,
    response_error,
    resume_request,
)
from ._stream import ResponsesStream

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_IDLE_TIMEOUT",
    "DEFAULT_MAX_RESUME_ATTEMPTS",
    "READ_SIZE",
    "ConnectError",
    "ConnectTimeout",
    "ConnectionDropped",
    "CoreStream",
    "Exchange",
    "IdleTimeout",
    "ResumePolicy",
    "AsyncEventIterator",
    "EventIterator",
    "StreamHandle",
    "TransportError",
    "failure",
    "new_stream",
]

DEFAULT_CONNECT_TIMEOUT = 10.0
"""Seconds allowed to open the connection (TCP and, for https, the TLS handshake)."""

DEFAULT_IDLE_TIMEOUT = 600.0
"""Seconds allowed between two reads that bring bytes (the response head or body chunks). Long,
because reasoning models can think for minutes; servers that send keep-alive comments or ``ping``
events stay alive under much shorter values, since those are bytes too."""

DEFAULT_MAX_RESUME_ATTEMPTS = 3
"""Resume attempts in a row that may fail to bring a new event before the adapter gives up."""

READ_SIZE = 65536
"""Bytes asked for per read by the adapters that read sockets themselves."""

CoreStream: TypeAlias = "ResponsesStream | ChatCompletionsStream"
"""The core stream object an adapter drives."""


# --- errors ------------------------------------------------------------------------------------


class TransportError(Exception):
    """The connection failed below HTTP: no connection, a silent peer, or a dropped connection.

    Attributes:
        attempts: resume attempts made (in a row, without a new event) before giving up; 0 when the
            stream was not resumable.
    """

    def __init__(self, message: str, *, attempts: int = 0) -> None:
        self.message = message
        self.attempts = attempts
        super().__init__(message)

    def __str__(self) -> str:
        if self.attempts:
            return f"{self.message} (after {self.attempts} resume attempt(s))"
        return self.message


class ConnectError(TransportError):
    """The connection (TCP, or the TLS handshake) could not be opened."""


class ConnectTimeout(ConnectError):
    """The connection was not open within ``connect_timeout`` seconds."""


class IdleTimeout(TransportError):
    """No bytes arrived for ``idle_timeout`` seconds while waiting for the response head or body.

    Keep-alive comments and ``ping`` events are bytes, so they keep a healthy stream alive.

    Attributes:
        timeout: the idle timeout in seconds.
    """

    def __init__(self, message: str, *, timeout: float | None, attempts: int = 0) -> None:
        self.timeout = timeout
        super().__init__(message, attempts=attempts)


class ConnectionDropped(TransportError):
    """The connection ended abruptly (reset, or closed inside a chunked or sized body) and the
    stream could not be resumed (not a background response, or the attempts ran out)."""


# --- the core stream and the resume policy -------------------------------------------------------


def new_stream(request: Request, **stream_options: Any) -> CoreStream:
    """The core stream object that decodes the body of *request*: a :class:`ResponsesStream` for
    ``request.kind == "responses"``, a :class:`ChatCompletionsStream` for ``"chat"``.
    *stream_options* are passed to its constructor."""
    if request.kind == "chat":
        return ChatCompletionsStream(**stream_options)
    return ResponsesStream(**stream_options)


def _base_url(request: Request) -> str:
    # Both request kinds that can be resumed name the base URL before "/responses": the create
    # request ends with it, the resume request continues with "/{id}" (the id is percent-encoded as
    # one segment, so it holds no "/responses").
    parts = urllib.parse.urlsplit(request.url)
    path = parts.path.rsplit("/responses", 1)[0]
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))


# Headers that describe the original request's body; a resume GET has none.
_BODY_HEADERS = frozenset({"content-type", "content-length", "transfer-encoding", "host"})


class ResumePolicy:
    """When and how to continue a Responses stream whose body ended early.

    A stream is resumed when all of these hold: it is a Responses stream (never Chat Completions,
    which cannot be resumed); the request asked for ``"background": true`` or the response says it
    runs in background mode (only background responses can be streamed again, API reference,
    "Background mode"); its response id and last sequence number are known; it has no terminal
    event; what happened is a truncated body or a :class:`TransportError`; and fewer than
    *max_attempts* resumes in a row have failed to bring a new event. A resume that brings events
    resets that count, so a long stream survives many separate drops while a server that keeps
    failing is given up on after *max_attempts* tries.

    Args:
        max_attempts: consecutive resume attempts without progress; 0 disables resuming.

    Attributes:
        attempts: resume attempts made since the last one that brought a new event.
    """

    def __init__(self, max_attempts: int = DEFAULT_MAX_RESUME_ATTEMPTS) -> None:
        if max_attempts < 0:
            raise ValueError(f"max_attempts must be >= 0, got {max_attempts}")
        self.max_attempts = max_attempts
        self.attempts = 0
        self._progress_mark: int | None = None

    def can_resume(self, request: Request, stream: CoreStream) -> bool:
        """Whether *stream*, started by *request*, could be continued by a resume request now."""
        return (
            isinstance(stream, ResponsesStream)
            and request.kind == "responses"
            and (request.background or stream.background)
            and stream.response_id is not None
            and stream.last_sequence_number is not None
            and stream.outcome in (None, "truncated")
        )

    def next_request(
        self, request: Request, stream: CoreStream, failure: BaseException
    ) -> Request | None:
        """The request that continues *stream* after *failure*, or ``None`` to give up.

        *request* is the original request (its base URL and headers, authorization included, are
        reused); *failure* is what ended the body: a :class:`TruncatedStream` (clean end of body
        without a terminal event) or a :class:`TransportError`. Counts the attempt.
        """
        if not isinstance(failure, (TruncatedStream, TransportError)):
            return None
        if not self.can_resume(request, stream):
            return None
        assert isinstance(stream, ResponsesStream)  # can_resume checked it
        last = stream.last_sequence_number
        if last != self._progress_mark:
            self._progress_mark = last
            self.attempts = 0
        if self.attempts >= self.max_attempts:
            return None
        self.attempts += 1
        response_id = stream.response_id
        assert response_id is not None and last is not None
        headers = {k: v for k, v in request.headers if k.lower() not in _BODY_HEADERS}
        return resume_request(
            response_id, starting_after=last, base_url=_base_url(request), headers=headers
        )


# --- the exchange --------------------------------------------------------------------------------

State = Literal["connect", "head", "error-body", "body", "finished"]

# A 2xx with the wrong content type is quoted in the error, not read in full.
_CONTENT_TYPE_EXCERPT = 1024


def _headers(headers: HeadersLike) -> tuple[tuple[str, str], ...]:
    items: Iterable[tuple[str | bytes, str | bytes]]
    items = headers.items() if isinstance(headers, Mapping) else headers
    return tuple(
        (
            (k.decode("latin-1") if isinstance(k, bytes) else k).lower(),
            v.decode("latin-1") if isinstance(v, bytes) else v,
        )
        for k, v in items
    )


class Exchange:
    """The sans-IO driver of one logical stream over one or more HTTP exchanges.

    The adapter loop: while :attr:`state` is ``"connect"``, open a connection and send the
    request :meth:`begin` returns; report the head with :meth:`on_head`, each body chunk with
    :meth:`on_data`, the end of the body with :meth:`on_end` and any :class:`TransportError` with
    :meth:`on_error`; hand the events from :meth:`pop` to the consumer. When the state goes back
    to ``"connect"`` the adapter closes the connection and sends the new :attr:`request` (a
    resume); at ``"finished"`` it closes and stops once :meth:`pop` returns ``None``.

    Errors: an HTTP error status raises its :class:`APIStatusError` (body read up to
    ``ERROR_BODY_LIMIT`` bytes, intact); a 2xx that is not an event stream raises
    :class:`UnexpectedContentType`; a body that ends early and cannot be resumed raises the core's
    :class:`TruncatedStream` or the :class:`TransportError`. An error is raised as soon as no
    already-decoded events wait in :meth:`pop`, so the consumer never loses an event.

    Args:
        request: the request to send first.
        max_resume_attempts: see :class:`ResumePolicy`.
        stream_options: keyword arguments for the core stream (see :func:`new_stream`).
    """

    def __init__(
        self,
        request: Request,
        *,
        max_resume_attempts: int = DEFAULT_MAX_RESUME_ATTEMPTS,
        stream_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.original = request
        #: The request to send when :attr:`state` is ``"connect"``.
        self.request = request
        #: The core stream: ``snapshot()``, ``outcome``, ``diagnostics``.
        self.stream: CoreStream = new_stream(request, **dict(stream_options or {}))
        self.policy = ResumePolicy(max_resume_attempts)
        #: How many resume requests were sent.
        self.resumes = 0
        #: Status and lower-case headers of the latest response head.
        self.status_code: int | None = None
        self.headers: tuple[tuple[str, str], ...] = ()
        self.state: State = "connect"
        self._pending: collections.deque[Any] = collections.deque()
        self._error_body = bytearray()
        self._deferred: BaseException | None = None
        self._body_seen = False

    def begin(self) -> Request:
        """The adapter is about to send :attr:`request` on a new connection (state ``"connect"``);
        returns it and waits for the head."""
        self.state = "head"
        return self.request

    def pop(self) -> Any:
        """The next decoded event, or ``None`` when the adapter must read more (or is finished).
        Raises a pending error once the events before it were taken."""
        if self._pending:
            return self._pending.popleft()
        if self._deferred is not None:
            exc, self._deferred = self._deferred, None
            raise exc
        return None

    def on_head(self, status: int, headers: HeadersLike) -> None:
        """The response head arrived."""
        self.status_code, self.headers = status, _headers(headers)
        self.state = "body"
        if needs_error_body(status, self.headers):
            self.state = "error-body"
        else:
            try:
                check_content_type(status, self.headers)
            except UnexpectedContentType:
                self.state = "error-body"  # read an excerpt of the body for the message

    def on_data(self, data: bytes | bytearray | memoryview) -> None:
        """A piece of the response body arrived."""
        if self.state == "error-body":
            assert self.status_code is not None
            limit = (
                ERROR_BODY_LIMIT if needs_error_body(self.status_code) else _CONTENT_TYPE_EXCERPT
            )
            self._error_body += data[: limit - len(self._error_body)]
            if len(self._error_body) >= limit:
                self._raise_status()
            return
        self._body_seen = True
        try:
            self._pending.extend(self.stream.feed(data))
        except ProtocolError as exc:
            self._pending.extend(getattr(exc, "events", ()))
            self._fail(exc)

    def on_end(self) -> None:
        """The response body ended cleanly (by its framing)."""
        if self.state == "error-body":
            self._raise_status()
        try:
            self._pending.extend(self.stream.close())
        except TruncatedStream as exc:
            self._pending.extend(getattr(exc, "events", ()))
            self._resume_or_fail(exc)
        except ProtocolError as exc:
            self._pending.extend(getattr(exc, "events", ()))
            self._fail(exc)
        else:
            self.state = "finished"

    def on_error(self, error: TransportError) -> None:
        """The connection failed (connect, idle timeout, reset or closed inside the body)."""
        if self.state == "error-body":
            self._raise_status()  # the status is the news; the body is as complete as it got
        if self.stream.outcome not in (None, "truncated"):
            # The terminal event already arrived: nothing is lost, so nothing to report.
            self.state = "finished"
            return
        self._resume_or_fail(error)

    # -- internals --------------------------------------------------------------------------------

    def _raise_status(self) -> None:
        assert self.status_code is not None
        body = bytes(self._error_body)
        error: Exception | None = response_error(
            self.status_code, self.headers, body, request=self.request
        )
        if error is None:
            try:
                check_content_type(self.status_code, self.headers, body)
            except UnexpectedContentType as exc:
                error = exc
        assert error is not None  # the head was judged an error
        self._give_up(error)

    def _resume_or_fail(self, failure: BaseException) -> None:
        request = self.policy.next_request(self.original, self.stream, failure)
        if request is not None:
            self.stream.reconnect()  # type: ignore[union-attr]  # only ResponsesStream resumes
            self.request = request
            self.resumes += 1
            self.state = "connect"
            return
        if isinstance(failure, TransportError):
            failure.attempts = self.policy.attempts
        self._give_up(failure)

    def _give_up(self, failure: BaseException) -> None:
        if self._body_seen and self.stream.outcome is None:
            # An earlier body was fed (a resume failed): mark the core stream truncated (outcome
            # set, snapshot intact) and chain that as the reason unless a lower one is known.
            try:
                self._pending.extend(self.stream.close())
            except ProtocolError as exc:
                self._pending.extend(getattr(exc, "events", ()))
                exc.__context__ = None  # may be *failure* itself: no cycle in the chain
                if failure.__cause__ is None:
                    failure.__cause__ = exc
        self._fail(failure)

    def _fail(self, exc: BaseException) -> None:
        self.state = "finished"
        if self._pending:
            self._deferred = exc
        else:
            raise exc


def failure(
    kind: Literal["connect", "connect-timeout", "idle", "dropped"],
    request: Request,
    *,
    timeout: float | None = None,
    cause: BaseException | None = None,
) -> TransportError:
    """The :class:`TransportError` an adapter raises for what its HTTP library reported.

    *kind*: ``"connect"`` (:class:`ConnectError`), ``"connect-timeout"`` (:class:`ConnectTimeout`),
    ``"idle"`` (:class:`IdleTimeout`) or ``"dropped"`` (:class:`ConnectionDropped`). The message
    names the host and port only; *cause*, the library's exception, becomes ``__cause__``.
    """
    where = f"{request.host}:{request.port}"
    detail = f": {cause!r}" if cause is not None else ""
    error: TransportError
    if kind == "connect-timeout":
        error = ConnectTimeout(f"no connection to {where} within {timeout} s")
    elif kind == "connect":
        error = ConnectError(f"cannot connect to {where}{detail}")
    elif kind == "idle":
        error = IdleTimeout(f"no bytes from {where} for {timeout} s", timeout=timeout)
    else:
        error = ConnectionDropped(f"the connection to {where} dropped{detail}")
    error.__cause__ = cause
    return error


class StreamHandle:
    """What the events object of every adapter offers besides iteration. Adapters set ``_x`` to
    their :class:`Exchange`."""

    _x: Exchange

    @property
    def stream(self) -> CoreStream:
        """The core stream: ``snapshot()``, ``outcome``, ``diagnostics``."""
        return self._x.stream

    @property
    def status_code(self) -> int | None:
        """The status of the latest response (``None`` before the head)."""
        return self._x.status_code

    @property
    def headers(self) -> tuple[tuple[str, str], ...]:
        """The headers of the latest response, names lower-cased."""
        return self._x.headers

    @property
    def resumes(self) -> int:
        """How many resume requests were sent."""
        return self._x.resumes

    @property
    def _opening(self) -> bool:
        # Before the head of the first response has been judged: open_stream steps until then,
        # so that HTTP errors are raised on entering the block.
        return self._x.state in ("connect", "head", "error-body")


class EventIterator(StreamHandle):
    """Base of the blocking adapters' events objects: iterating pulls events from the exchange,
    calling the adapter's ``_step`` (one connect or one read) whenever none is buffered."""

    def __iter__(self) -> EventIterator:
        return self

    def __next__(self) -> Any:
        while (event := self._x.pop()) is None:
            if self._x.state == "finished":
                self.close()
                raise StopIteration
            self._step()
        return event

    def _start(self) -> None:
        while self._opening:
            self._step()

    def _step(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Close the connection (idempotent)."""
        raise NotImplementedError


class AsyncEventIterator(StreamHandle):
    """Base of the async adapters' events objects: ``__anext__`` is a plain coroutine method (no
    async generator is left for the garbage collector to finalize) that awaits the adapter's
    ``_step`` whenever no event is buffered. It awaits nothing itself, so it serves asyncio and
    trio alike."""

    def __aiter__(self) -> AsyncEventIterator:
        return self

    async def __anext__(self) -> Any:
        while (event := self._x.pop()) is None:
            if self._x.state == "finished":
                await self.aclose()
                raise StopAsyncIteration
            await self._step()
        return event

    async def _start(self) -> None:
        while self._opening:
            await self._step()

    async def _step(self) -> None:
        raise NotImplementedError

    async def aclose(self) -> None:
        """Close the connection (idempotent)."""
        raise NotImplementedError
