"""What every adapter shares, without I/O: transport errors, the resume and retry policies, the
total deadline and the exchange.

An adapter owns sockets and timers; everything it must *decide* lives here, so the five adapters
(httpx blocking and async, aiohttp, trio, plain sockets) behave the same and stay short loops:

* :class:`TransportError` and its subclasses name what went wrong below HTTP (connect failure or
  timeout, a body that went silent for too long, a dropped connection or invalid HTTP framing, the
  whole stream over its ``total_timeout``).
* :class:`ResumePolicy` decides whether a body that ended early can be continued with
  ``GET /responses/{id}?stream=true&starting_after=N`` (API reference, "Retrieve a model response",
  background mode) and builds that request.
* :class:`RetryPolicy` decides whether a request that failed before its first body byte (an HTTP
  error status, or a connection failure) is sent again, and after how long, by the official SDK's
  rules; the adapter only sleeps.
* :class:`Exchange` is the sans-IO state machine of one logical stream, possibly spread over
  several HTTP exchanges: the adapter reports the response head, body chunks, the end of the body
  or a transport failure; the exchange judges the head, reads a bounded error body, feeds the core
  stream, buffers the events, and tells the adapter whether to open a new connection (a retry,
  after a delay, or a resume) or stop. It also keeps the total deadline: :meth:`Exchange.limit`
  bounds each of the adapter's waits by it, on an injectable clock.
* :class:`EventIterator` / :class:`AsyncEventIterator` are the adapters' events objects minus the
  I/O: iteration pulls events from the exchange and calls the adapter's one-step ``_step``;
  :func:`failure` builds the :class:`TransportError` for what an HTTP library reported.

The API key never appears in a message here: requests are only ever shown through their redacting
``repr``, messages name the host, never headers, and an HTTP library's exception quoted in a
message is scrubbed of the request's sensitive header values.
"""

from __future__ import annotations

import collections
import random
import time
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, TypeVar, cast, overload

from .._chat.stream import ChatCompletionsStream
from .._errors import LocalProtocolError, ProtocolError, TruncatedStream
from .._responses.stream import ResponsesStream
from .requests import (
    ERROR_BODY_LIMIT,
    SENSITIVE_HEADERS,
    APIStatusError,
    HeadersLike,
    Request,
    UnexpectedContentType,
    check_content_type,
    needs_error_body,
    response_error,
    resume_request,
)

if TYPE_CHECKING:
    from .._chat.stream import ChatEvent
    from .._responses.events import ResponseStreamEvent

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_IDLE_TIMEOUT",
    "DEFAULT_MAX_RESUME_ATTEMPTS",
    "DEFAULT_MAX_RETRIES",
    "INITIAL_RETRY_DELAY",
    "MAX_RETRY_DELAY",
    "MAX_HONOURED_RETRY_AFTER",
    "READ_SIZE",
    "ConnectError",
    "ConnectTimeout",
    "ConnectionDropped",
    "CoreStream",
    "Exchange",
    "IdleTimeout",
    "ResumePolicy",
    "RetryPolicy",
    "TotalTimeout",
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

DEFAULT_MAX_RETRIES = 2
"""Times a failed request is sent again (the official SDK's ``DEFAULT_MAX_RETRIES``)."""

INITIAL_RETRY_DELAY = 0.5
"""Seconds before the first retry when the server names no delay; doubled for each retry."""

MAX_RETRY_DELAY = 8.0
"""The longest backoff between two retries, before jitter."""

MAX_HONOURED_RETRY_AFTER = 60.0
"""A ``retry-after`` / ``retry-after-ms`` delay is waited as asked when it is above 0 and at most
this many seconds (the SDK's ``_calculate_retry_timeout``); otherwise the backoff applies. Above
:data:`~sansio_responses.MAX_RETRY_AFTER` (120 s) the response is not retried at all."""

READ_SIZE = 65536
"""Bytes asked for per read by the adapters that read sockets themselves."""

CoreStream: TypeAlias = "ResponsesStream | ChatCompletionsStream"
"""The core stream object an adapter drives."""

S = TypeVar("S", bound=CoreStream)
""" The core stream type of an exchange and of an adapter's events object."""


# --- errors ------------------------------------------------------------------------------------


class TransportError(Exception):
    """The connection failed below HTTP: no connection, a silent peer, or a dropped connection.

    Attributes:
        attempts: resume attempts made (in a row, without a new event) before giving up; 0 when the
            stream was not resumable.
        retries: retries of the failed request (see :class:`RetryPolicy`) before giving up.
    """

    def __init__(self, message: str, *, attempts: int = 0, retries: int = 0) -> None:
        self.message = message
        self.attempts = attempts
        self.retries = retries
        super().__init__(message)

    def __str__(self) -> str:
        notes: list[str] = []
        if self.retries:
            notes.append(f"{self.retries} retr{'y' if self.retries == 1 else 'ies'}")
        if self.attempts:
            notes.append(f"{self.attempts} resume attempt(s)")
        return f"{self.message} (after {', '.join(notes)})" if notes else self.message


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
    """The connection ended abruptly (reset, closed inside a chunked or sized body, or a response
    whose HTTP framing is invalid) and the stream could not be resumed (not a background
    response, or the attempts ran out)."""


class TotalTimeout(TransportError):
    """The whole logical stream (connects, retries, resumes, heads and bodies) took longer than
    ``total_timeout`` seconds. Never retried or resumed.

    Attributes:
        timeout: the total timeout in seconds.
    """

    def __init__(self, message: str, *, timeout: float, attempts: int = 0) -> None:
        self.timeout = timeout
        super().__init__(message, attempts=attempts)


# --- the core stream and the resume policy -------------------------------------------------------


def send_headers(request: Request[Any]) -> list[tuple[str, str]]:
    """The headers an adapter sends for *request*: its own, plus ``accept-encoding: identity``
    unless it names one (compressed event streams hold events back in the compressor).

    Built in a function of its own so that no adapter frame keeps the headers (the API key) in a
    local variable that a traceback with locals (pytest --showlocals, error trackers) prints.
    """
    headers = list(request.headers)
    if request.header("accept-encoding") is None:
        headers.append(("accept-encoding", "identity"))
    return headers


def new_stream(request: Request[S], **stream_options: Any) -> S:
    """The core stream object that decodes the body of *request*: a :class:`ResponsesStream` for
    ``request.kind == "responses"``, a :class:`ChatCompletionsStream` for ``"chat"``.
    *stream_options* are passed to its constructor."""
    # The type parameter of a request is bound by its builder to the class its kind selects.
    if request.kind == "chat":
        return cast(S, ChatCompletionsStream(**stream_options))
    return cast(S, ResponsesStream(**stream_options))


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


class RetryPolicy:
    """Whether, and after how long, a failed request is sent again: the official SDK's rules.

    A request is retried only when it failed before the first byte of its body reached the core
    stream (once an event may have reached the caller, sending again could duplicate output: that
    is a resume, and only background responses can be resumed). What is retried: an HTTP error
    the server marks retryable (:attr:`APIStatusError.should_retry`: 408, 409, 429 and >= 500,
    ``x-should-retry: true/false`` overriding, never when ``retry-after`` exceeds 120 s) and any
    :class:`TransportError` except :class:`TotalTimeout` (connect failure or timeout, a silent
    peer, a drop before the first body byte). This holds for the first request and for each
    resume ``GET``.

    The delay: the server's ``retry-after-ms`` / ``retry-after`` when above 0 and at most
    *max_retry_after* seconds, else ``min(initial_delay * 2**n, max_delay) * (1 - 0.25 * r)``
    with *n* the retries already taken for this request and *r* from *rand* in ``[0, 1)``.

    The policy holds no state, so one instance can serve many streams; the exchange counts.

    Args:
        max_retries: retries per request; 0 turns retrying off.
        initial_delay: backoff before the first retry, in seconds.
        max_delay: the longest backoff, in seconds.
        max_retry_after: the longest server-named delay waited as asked.
        rand: the jitter source (``random.random``); tests pass a constant.
    """

    def __init__(
        self,
        max_retries: int = DEFAULT_MAX_RETRIES,
        *,
        initial_delay: float = INITIAL_RETRY_DELAY,
        max_delay: float = MAX_RETRY_DELAY,
        max_retry_after: float = MAX_HONOURED_RETRY_AFTER,
        rand: Callable[[], float] = random.random,
    ) -> None:
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(f"max_retries must be an int >= 0, got {max_retries!r}")
        if not (initial_delay >= 0 and max_delay >= 0 and max_retry_after >= 0):
            raise ValueError("retry delays must be >= 0")
        self.max_retries = max_retries
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self.max_retry_after = max_retry_after
        self.rand = rand

    def __repr__(self) -> str:
        return (
            f"RetryPolicy(max_retries={self.max_retries}, initial_delay={self.initial_delay}, "
            f"max_delay={self.max_delay}, max_retry_after={self.max_retry_after})"
        )

    def backoff(self, retries: int) -> float:
        """The delay before retry number ``retries + 1`` when the server names none."""
        # The exponent is capped (as in the SDK) so a huge count cannot overflow.
        delay = min(self.initial_delay * 2.0 ** min(retries, 1000), self.max_delay)
        return max(0.0, delay * (1.0 - 0.25 * self.rand()))

    def delay(self, failure: BaseException, retries: int) -> float | None:
        """Seconds to wait before sending the request again after *failure*, or ``None`` to give
        up. *retries* is how many retries this request already had. The caller has checked that
        no body byte of the failed response reached the core stream."""
        if retries >= self.max_retries:
            return None
        if isinstance(failure, APIStatusError):
            if not failure.should_retry:
                return None
            after = failure.retry_after
            if after is not None and 0 < after <= self.max_retry_after:
                return after
        elif not isinstance(failure, TransportError) or isinstance(failure, TotalTimeout):
            return None
        return self.backoff(retries)


# --- the exchange --------------------------------------------------------------------------------

State = Literal["connect", "head", "error-body", "body", "finished"]

# A 2xx with the wrong content type is quoted in the error, not read in full.
_CONTENT_TYPE_EXCERPT = 1024


def _headers(headers: HeadersLike) -> tuple[tuple[str, str], ...]:
    items: Iterable[tuple[str | bytes, str | bytes]]
    # The cast: pyright's narrowing also allows a Mapping with tuple keys (an Iterable of pairs).
    items = cast("Mapping[str, str]", headers).items() if isinstance(headers, Mapping) else headers
    return tuple(
        (
            (k.decode("latin-1") if isinstance(k, bytes) else k).lower(),
            v.decode("latin-1") if isinstance(v, bytes) else v,
        )
        for k, v in items
    )


class Exchange(Generic[S]):
    """The sans-IO driver of one logical stream over one or more HTTP exchanges.

    The adapter loop: while :attr:`state` is ``"connect"``, wait :attr:`delay` seconds (non-zero
    before a retry), open a connection and send the request :meth:`begin` returns; report the
    head with :meth:`on_head`, each body chunk with :meth:`on_data`, the end of the body with
    :meth:`on_end` and any :class:`TransportError` with :meth:`on_error`; hand the events from
    :meth:`pop` to the consumer. Every wait (connect, read, retry sleep) is bounded by
    :meth:`limit`, and a timeout is reported with the error :meth:`timed_out` builds. When the
    state goes back to ``"connect"`` the adapter closes the connection and sends the new
    :attr:`request` (a retry or a resume); at ``"finished"`` it closes and stops once
    :meth:`pop` returns ``None``.

    Errors: an HTTP error status raises its :class:`APIStatusError` (body read up to
    ``ERROR_BODY_LIMIT`` bytes, intact) unless :class:`RetryPolicy` retries it; a 2xx that is
    not an event stream raises :class:`UnexpectedContentType`; a body that ends early and cannot
    be resumed raises the core's :class:`TruncatedStream` or the :class:`TransportError`. An
    error is raised as soon as no already-decoded events wait in :meth:`pop`, so the consumer
    never loses an event.

    Args:
        request: the request to send first.
        max_resume_attempts: see :class:`ResumePolicy`.
        stream_options: keyword arguments for the core stream (see :func:`new_stream`).
        max_retries: how often a failed request may be sent again (``RetryPolicy(max_retries)``).
        retry_policy: see :class:`RetryPolicy`; replaces *max_retries* whole when given.
        total_timeout: seconds the whole logical stream may take (``None``: no limit).
        clock: monotonic seconds (``time.monotonic``); the total deadline is measured on it.
    """

    def __init__(
        self,
        request: Request[S],
        *,
        max_resume_attempts: int = DEFAULT_MAX_RESUME_ATTEMPTS,
        stream_options: Mapping[str, Any] | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        retry_policy: RetryPolicy | None = None,
        total_timeout: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if total_timeout is not None and not total_timeout > 0:
            raise ValueError(f"total_timeout must be > 0 or None, got {total_timeout!r}")
        self.original = request
        #: The request to send when :attr:`state` is ``"connect"``.
        self.request: Request[Any] = request
        #: The core stream: ``snapshot()``, ``outcome``, ``diagnostics``.
        self.stream: S = new_stream(request, **dict(stream_options or {}))
        self.policy = ResumePolicy(max_resume_attempts)
        self.retry_policy = retry_policy if retry_policy is not None else RetryPolicy(max_retries)
        #: How many resume requests were sent.
        self.resumes = 0
        #: How many requests were sent again by the retry policy (first request and resumes).
        self.retries = 0
        #: Seconds the adapter waits before its next connect (a retry's delay), else 0.
        self.delay = 0.0
        self.total_timeout = total_timeout
        self._clock = clock
        self._deadline = None if total_timeout is None else clock() + total_timeout
        self._total_bound = False
        #: Status and lower-case headers of the latest response head.
        self.status_code: int | None = None
        self.headers: tuple[tuple[str, str], ...] = ()
        self.state: State = "connect"
        self._pending: collections.deque[Any] = collections.deque()
        self._error_body = bytearray()
        self._deferred: BaseException | None = None
        self._body_seen = False
        self._exchange_body = False  # a body byte of the current HTTP exchange reached the core
        self._tries = 0  # retries of the current request

    def begin(self) -> Request[Any]:
        """The adapter is about to send :attr:`request` on a new connection (state ``"connect"``,
        after waiting :attr:`delay`); returns it and waits for the head."""
        self.state = "head"
        self.delay = 0.0
        self._exchange_body = False
        self._error_body = bytearray()
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

    # -- the total deadline -----------------------------------------------------------------------

    def limit(self, timeout: float | None) -> float | None:
        """How long the adapter's next wait may take: *timeout* (its connect or idle timeout,
        ``None`` for none) or what is left of ``total_timeout``, whichever is smaller; never
        below a microsecond (a zero socket timeout would mean non-blocking). Remembers which of
        the two bounds it, for :meth:`timed_out`."""
        if self._deadline is None:
            self._total_bound = False
            return timeout
        left = max(self._deadline - self._clock(), 1e-6)
        self._total_bound = timeout is None or left < timeout
        return left if self._total_bound else timeout

    def expired(self) -> bool:
        """Whether the total deadline has passed."""
        return self._deadline is not None and self._clock() >= self._deadline

    def timed_out(
        self, kind: Literal["connect-timeout", "idle"], timeout: float | None
    ) -> TransportError:
        """The error for a wait that :meth:`limit` bounded and that ran out: a
        :class:`TotalTimeout` when the total deadline bound it, else *kind* with *timeout*."""
        if self._total_bound or self.expired():
            return self.total_failure()
        return failure(kind, self.request, timeout=timeout)

    def total_failure(self) -> TotalTimeout:
        """The :class:`TotalTimeout` for this stream."""
        assert self.total_timeout is not None
        where = f"{self.request.host}:{self.request.port}"
        return TotalTimeout(
            f"the stream from {where} took longer than total_timeout={self.total_timeout} s",
            timeout=self.total_timeout,
        )

    # -- what the adapter reports -----------------------------------------------------------------

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
        if not data:
            return
        self._body_seen = self._exchange_body = True
        self._tries = 0  # this request got through; a later one has its own retries
        try:
            self._pending.extend(self.stream.feed(data))
        except ProtocolError as exc:
            self._pending.extend(getattr(exc, "events", ()))
            self._fail(exc)

    def on_end(self) -> None:
        """The response body ended cleanly (by its framing)."""
        if self.state == "error-body":
            self._raise_status()
            return
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
        """The connection failed (connect, idle or total timeout, reset, closed inside the body
        or invalid HTTP framing)."""
        if self.state == "error-body" and not isinstance(error, TotalTimeout):
            self._raise_status()  # the status is the news; the body is as complete as it got
            return
        if self.stream.outcome not in (None, "truncated"):
            # The terminal event already arrived: nothing is lost, so nothing to report.
            self.state = "finished"
            return
        if isinstance(error, TotalTimeout):
            self._give_up(error)
        elif not self._exchange_body and self._retry(error):
            return
        else:
            self._resume_or_fail(error)

    def fail(self, error: BaseException) -> None:
        """Stop with *error* (something the adapter found wrong that is no transport failure,
        e.g. a content coding it cannot decode), after the events already decoded."""
        self._give_up(error)

    # -- internals --------------------------------------------------------------------------------

    def _retry(self, error: BaseException) -> bool:
        delay = self.retry_policy.delay(error, self._tries)
        if delay is None:
            return False
        if self._deadline is not None and self._clock() + delay >= self._deadline:
            return False  # the wait alone would overrun the total deadline: report the cause
        self._tries += 1
        self.retries += 1
        self.delay = delay
        self.state = "connect"
        return True

    def _raise_status(self) -> None:
        assert self.status_code is not None
        body = bytes(self._error_body)
        error: Exception | None = None
        if needs_error_body(self.status_code):
            error = response_error(self.status_code, self.headers, body, request=self.request)
        else:
            try:
                check_content_type(self.status_code, self.headers, body)
            except UnexpectedContentType as exc:
                error = exc
        assert error is not None  # the head was judged an error
        if self._retry(error):
            return
        self._give_up(error)

    def _resume_or_fail(self, failure: BaseException) -> None:
        request = self.policy.next_request(self.original, self.stream, failure)
        if request is not None:
            self.stream.reconnect()  # type: ignore[union-attr]  # only ResponsesStream resumes
            self.request = request
            self.resumes += 1
            self._tries = 0
            self.state = "connect"
            return
        if isinstance(failure, TransportError):
            failure.attempts = self.policy.attempts
            failure.retries = self._tries
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
    request: Request[Any],
    *,
    timeout: float | None = None,
    cause: BaseException | None = None,
) -> TransportError:
    """The :class:`TransportError` an adapter raises for what its HTTP library reported.

    *kind*: ``"connect"`` (:class:`ConnectError`), ``"connect-timeout"`` (:class:`ConnectTimeout`),
    ``"idle"`` (:class:`IdleTimeout`) or ``"dropped"`` (:class:`ConnectionDropped`). The message
    names the host and port only, and the reason: the innermost exception of *cause*'s chain, the
    most specific one (under trio, ``BrokenResourceError()`` says nothing; the
    ``SSLCertVerificationError`` under it names the certificate or host name problem). *cause*
    becomes ``__cause__``, so the whole chain stays in the traceback.
    """
    where = f"{request.host}:{request.port}"
    reason = _innermost(cause) if cause is not None else None
    detail = f": {_scrub(repr(reason), request)}" if reason is not None else ""
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


def _innermost(exc: BaseException) -> BaseException:
    seen = {id(exc)}
    while True:
        # The context too, even when suppressed (``raise ... from None``): httpx on trio hides
        # the TLS reason that way.
        inner = exc.__cause__ or exc.__context__
        if inner is None or id(inner) in seen:
            return exc
        seen.add(id(inner))
        exc = inner


_DETAIL_LIMIT = 300  # characters of an HTTP library's exception quoted in a message


def _scrub(text: str, request: Request[Any]) -> str:
    # An HTTP library's exception may quote the request headers (aiohttp's request_info does):
    # never let the key through, and keep the message short (it may quote a whole body).
    for name, value in request.headers:
        if name.lower() in SENSITIVE_HEADERS and value:
            secret = value.split(" ", 1)[1] if value.lower().startswith("bearer ") else value
            text = text.replace(value, "<redacted>")
            if len(secret) >= 8:  # a bare key quoted without its scheme
                text = text.replace(secret, "<redacted>")
    return text if len(text) <= _DETAIL_LIMIT else text[: _DETAIL_LIMIT - 3] + "..."


_CLOSED = (
    "this stream's connection was closed when its `with` block ended; iterate the events "
    "inside the block"
)


class StreamHandle(Generic[S]):
    """What the events object of every adapter offers besides iteration. Adapters set ``_x`` to
    their :class:`Exchange`; ``open_stream`` sets ``_exited`` when its block ends."""

    _x: Exchange[S]
    _exited: bool = False

    @property
    def stream(self) -> S:
        """The core stream: ``snapshot()``, ``outcome``, ``diagnostics``. A
        :class:`ResponsesStream` for a Responses request, a :class:`ChatCompletionsStream` for a
        Chat request (and so typed, from the request's type)."""
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
    def retries(self) -> int:
        """How many requests were sent again after a retryable failure (see
        :class:`RetryPolicy`), the first request's and the resumes' together."""
        return self._x.retries

    @property
    def _opening(self) -> bool:
        # Before the head of the first response has been judged: open_stream steps until then,
        # so that HTTP errors are raised on entering the block.
        return self._x.state in ("connect", "head", "error-body")

    def _check_open(self) -> None:
        # Iterating after the block ended must not read on: the connection is gone, and reading
        # would look like a server truncation. A finished stream just hands out what is left.
        if self._exited and self._x.state != "finished":
            raise LocalProtocolError(_CLOSED)

    def _closed_check(self) -> bool:
        # True when iteration is over; enforces the total deadline between reads.
        if self._x.state == "finished":
            return True
        if self._x.expired():
            self._x.on_error(self._x.total_failure())
        return False


class EventIterator(StreamHandle[S]):
    """Base of the blocking adapters' events objects: iterating pulls events from the exchange,
    calling the adapter's ``_step`` (one connect or one read) whenever none is buffered."""

    def __iter__(self) -> EventIterator[S]:
        return self

    @overload
    def __next__(self: EventIterator[ResponsesStream]) -> ResponseStreamEvent: ...
    @overload
    def __next__(self: EventIterator[ChatCompletionsStream]) -> ChatEvent: ...
    @overload
    def __next__(self) -> ResponseStreamEvent | ChatEvent: ...
    def __next__(self) -> Any:
        self._check_open()
        while (event := self._x.pop()) is None:
            if self._closed_check():
                self.close()
                raise StopIteration
            if self._x.state != "finished":  # a total timeout above may have finished it
                self._step()
        return event

    def _start(self) -> None:
        while self._opening:
            if self._x.expired():
                self._x.on_error(self._x.total_failure())
                continue
            self._step()

    def _step(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Close the connection (idempotent)."""
        raise NotImplementedError


class AsyncEventIterator(StreamHandle[S]):
    """Base of the async adapters' events objects: ``__anext__`` is a plain coroutine method (no
    async generator is left for the garbage collector to finalize) that awaits the adapter's
    ``_step`` whenever no event is buffered. It awaits nothing itself, so it serves asyncio and
    trio alike."""

    def __aiter__(self) -> AsyncEventIterator[S]:
        return self

    @overload
    async def __anext__(self: AsyncEventIterator[ResponsesStream]) -> ResponseStreamEvent: ...
    @overload
    async def __anext__(self: AsyncEventIterator[ChatCompletionsStream]) -> ChatEvent: ...
    @overload
    async def __anext__(self) -> ResponseStreamEvent | ChatEvent: ...
    async def __anext__(self) -> Any:
        self._check_open()
        while (event := self._x.pop()) is None:
            if self._closed_check():
                await self.aclose()
                raise StopAsyncIteration
            if self._x.state != "finished":
                await self._step()
        return event

    async def _start(self) -> None:
        while self._opening:
            if self._x.expired():
                self._x.on_error(self._x.total_failure())
                continue
            await self._step()

    async def _step(self) -> None:
        raise NotImplementedError

    async def aclose(self) -> None:
        """Close the connection (idempotent)."""
        raise NotImplementedError
