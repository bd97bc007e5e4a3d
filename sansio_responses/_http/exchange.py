"""The sans-IO exchange: one logical stream over one or more HTTP exchanges, driven by any HTTP
client. Its contract is documented in docs/guide/own-client.md.

An adapter owns sockets and timers; everything it must *decide* lives here, so the five bundled
adapters (httpx blocking and async, aiohttp, trio, plain sockets) and a user's own behave the same
and stay short loops. The adapter reports what its HTTP client saw (the response head, body chunks,
the end of the body, a transport failure); the exchange judges the head, reads a bounded error body,
feeds the core stream, buffers the events, and tells the adapter what to do next through
:attr:`Exchange.state` (connect, after :attr:`Exchange.delay` seconds, read, or stop) and
:meth:`Exchange.limit` (how long the next wait may take). Retries follow :class:`RetryPolicy`,
resumes :class:`ResumePolicy`, and the total deadline is kept on an injectable clock.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, cast, overload

from .._chat.stream import ChatCompletionsStream
from .._errors import ProtocolError, RemoteProtocolError, TruncatedStream
from .._responses.stream import ResponsesStream
from .errors import TotalTimeout, TransportError, clear_locals, failure, innermost, scrub
from .policies import (
    DEFAULT_MAX_RESUME_ATTEMPTS,
    DEFAULT_MAX_RETRIES,
    ResumePolicy,
    RetryPolicy,
    S,
)
from .requests import (
    ERROR_BODY_LIMIT,
    APIStatusError,
    HeadersLike,
    Request,
    UnexpectedContentType,
    check_content_type,
    needs_error_body,
    response_error,
    unusable_response_id,
)

if TYPE_CHECKING:
    from .._chat.stream import ChatEvent
    from .._responses.events import ResponseStreamEvent

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_IDLE_TIMEOUT",
    "MAX_TIMEOUT",
    "Exchange",
    "ExchangeState",
    "check_timeout",
    "new_stream",
    "send_headers",
]

DEFAULT_CONNECT_TIMEOUT = 10.0
"""Seconds allowed to open the connection (TCP and, for https, the TLS handshake)."""

DEFAULT_IDLE_TIMEOUT = 600.0
"""Seconds allowed between two reads that bring bytes (the response head or body chunks). Long,
because reasoning models can think for minutes; servers that send keep-alive comments or ``ping``
events stay alive under much shorter values, since those are bytes too."""

MAX_TIMEOUT = 1e9
"""The longest timeout kept as a limit, in seconds (about 31 years). A longer one, and ``inf``, means
no limit, like ``None``: operating systems cannot wait that long (``socket.settimeout(1e10)`` and a
``threading.Timer`` of that length raise ``OverflowError``), and nobody waits that long anyway."""


def check_timeout(name: str, value: float | None) -> float | None:
    """The one rule for the ``connect_timeout``, ``idle_timeout`` and ``total_timeout`` arguments of
    every adapter (applied by :class:`Exchange`, before anything is sent).

    ``None``, ``inf`` and any value above :data:`MAX_TIMEOUT` mean no limit (returned as ``None``);
    a finite ``int`` or ``float`` above 0 is a limit in seconds (returned as a ``float``). Anything
    else raises ``ValueError`` naming the argument: 0 (a wait that must end before it starts is no
    timeout), a negative number, NaN, a ``bool`` and a non-number.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise ValueError(f"{name} must be a number of seconds > 0 or None, got {value!r:.60}")
    if not value > 0:  # also NaN; compared as is, so an int too large for a float works too
        raise ValueError(f"{name} must be > 0 (inf or None for no limit), got {value!r}")
    return None if value > MAX_TIMEOUT else float(value)


ExchangeState: TypeAlias = Literal["connect", "head", "error-body", "body", "finished"]
"""The states of an :class:`Exchange` (see there for what each asks of the adapter)."""


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


# --- the exchange --------------------------------------------------------------------------------

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

    ``Exchange(request)`` is generic in the request's core stream: for a Responses request
    :attr:`stream` is a :class:`ResponsesStream` and :meth:`pop` gives
    :data:`ResponseStreamEvent` values; for a Chat request, a :class:`ChatCompletionsStream` and
    :data:`ChatEvent` values.

    **The loop.** Take events with :meth:`pop` until it returns ``None``, then act on
    :attr:`state`:

    * ``"connect"``: close any connection, wait :attr:`delay` seconds (non-zero only before a
      retry), open a new connection and send the request :meth:`begin` returns (the first request,
      a retry of it, or a resume ``GET``), with the headers :func:`send_headers` gives.
    * ``"head"``: read the response head and report it with :meth:`on_head`.
    * ``"body"`` and ``"error-body"``: read the body; report each piece with :meth:`on_data` and
      its end (by the HTTP framing) with :meth:`on_end`. In ``"error-body"`` the head was an HTTP
      error (or a 2xx that is not an event stream): the exchange reads at most
      :data:`ERROR_BODY_LIMIT` bytes of it for the error message.
    * ``"finished"``: close the connection and stop once :meth:`pop` returns ``None``.

    Any failure of the connection (connect, reset, invalid HTTP framing, a read that timed out) is
    reported with :meth:`on_error`, with the :class:`TransportError` that :func:`failure` builds
    for what the HTTP library raised, or that :meth:`timed_out` builds for a timeout. Bound every
    wait (connect, each read) by :meth:`limit`, which folds in the total deadline; :meth:`pop`
    raises :class:`TotalTimeout` itself when the deadline passed while nothing was buffered. If
    the consumer stops early, call :meth:`cancel`: the stream's outcome becomes ``"cancelled"``.

    **Retries, resumes, deadline.** A failure before the first body byte of a request reached the
    core stream (an HTTP error the server marks retryable, or a :class:`TransportError`) sends the
    state back to ``"connect"`` with a :attr:`delay`, per :class:`RetryPolicy`, unless the wait
    would overrun the total deadline. A body that ends early (a drop, or a clean end without a
    terminal event) of a background Responses stream sends the state back to ``"connect"`` with a
    resume request as :attr:`request`, per :class:`ResumePolicy`; the events already delivered are
    not repeated. Everything, retries and resumes included, is bounded by *total_timeout*.

    **Errors.** The error that ends the stream is raised by :meth:`pop` (or by the ``on_*`` call
    when no event waits), never before the events decoded ahead of it were taken: an
    :class:`APIStatusError` (body read up to :data:`ERROR_BODY_LIMIT` bytes), an
    :class:`UnexpectedContentType`, the core's :class:`TruncatedStream` or
    :class:`RemoteProtocolError`, or the :class:`TransportError`. :class:`TransportError` and
    :class:`APIStatusError` carry the core stream as ``exc.stream``.

    Args:
        request: the request to send first.
        max_resume_attempts: see :class:`ResumePolicy`.
        stream_options: keyword arguments for the core stream (see :func:`new_stream`).
        max_retries: how often a failed request may be sent again (``RetryPolicy(max_retries)``).
        retry_policy: see :class:`RetryPolicy`; replaces *max_retries* whole when given.
        total_timeout: seconds the whole logical stream may take (``None``: no limit).
        clock: monotonic seconds (``time.monotonic``); the total deadline is measured on it.
        connect_timeout: the adapter's limit on opening a connection, kept as
            :attr:`connect_timeout` for it to use.
        idle_timeout: the adapter's limit on each wait for bytes, kept as :attr:`idle_timeout`.

    The three timeouts follow :func:`check_timeout`: ``None`` or ``inf`` for no limit, a number
    above 0 otherwise; an unusable value (0, negative, NaN, not a number) raises ``ValueError``
    here, before the adapter sends anything.

    Attributes:
        request: the request to send when :attr:`state` is ``"connect"``.
        original: the first request.
        stream: the core stream: ``snapshot()``, ``outcome``, ``diagnostics``.
        state: an :data:`ExchangeState`: what the adapter does next (see above).
        delay: seconds to wait before the next connect (a retry's backoff), else 0.
        status_code: the status of the latest response head (``None`` before one).
        headers: the latest response head's headers, names lower-cased.
        retries: requests sent again by the retry policy (the first request's and resumes').
        resumes: resume requests sent.
        policy: the :class:`ResumePolicy` (its ``attempts`` count resumes without progress).
        retry_policy: the :class:`RetryPolicy`.
        total_timeout, connect_timeout, idle_timeout: as given, after :func:`check_timeout`.
        body_started: a body byte of the current HTTP exchange reached the core stream (a
            failure before that is retried, see :class:`RetryPolicy`).
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
        connect_timeout: float | None = DEFAULT_CONNECT_TIMEOUT,
        idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
    ) -> None:
        total_timeout = check_timeout("total_timeout", total_timeout)
        #: The adapter's connect timeout, checked by :func:`check_timeout` (``None``: no limit).
        self.connect_timeout = check_timeout("connect_timeout", connect_timeout)
        #: The adapter's idle timeout, checked by :func:`check_timeout` (``None``: no limit).
        self.idle_timeout = check_timeout("idle_timeout", idle_timeout)
        self.original = request
        #: The request to send when :attr:`state` is ``"connect"``.
        self.request: Request[S] = request
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
        self.state: ExchangeState = "connect"
        self._pending: collections.deque[ResponseStreamEvent | ChatEvent] = collections.deque()
        self._error_body = bytearray()
        self._deferred: BaseException | None = None
        self._body_seen = False
        self._exchange_body = False  # a body byte of the current HTTP exchange reached the core
        self._tries = 0  # retries of the current request

    def begin(self) -> Request[S]:
        """The adapter is about to send :attr:`request` on a new connection (state ``"connect"``,
        after waiting :attr:`delay`); returns it and waits for the head."""
        self.state = "head"
        self.delay = 0.0
        self._exchange_body = False
        self._error_body = bytearray()
        return self.request

    @overload
    def pop(self: Exchange[ResponsesStream]) -> ResponseStreamEvent | None: ...
    @overload
    def pop(self: Exchange[ChatCompletionsStream]) -> ChatEvent | None: ...
    @overload
    def pop(self) -> ResponseStreamEvent | ChatEvent | None: ...
    def pop(self) -> ResponseStreamEvent | ChatEvent | None:
        """The next decoded event, or ``None`` when there is none: the adapter then acts on
        :attr:`state` (and stops at ``"finished"``). Raises the error that ended the stream once
        the events before it were taken, and :class:`TotalTimeout` when the total deadline passed
        while nothing was buffered."""
        if self._pending:
            return self._pending.popleft()
        if self._deferred is not None:
            exc, self._deferred = self._deferred, None
            raise exc
        if self.state != "finished" and self.expired():
            self.on_error(self.total_failure())  # raises, or defers behind the events it adds
            return self.pop()
        return None

    def cancel(self) -> None:
        """The consumer stopped before the stream finished (its events object was closed: a
        ``break``, an exception in the loop body, a cancelled scope or task). Unless the stream
        already ended, its ``outcome`` becomes ``"cancelled"`` (snapshot intact); the state
        becomes ``"finished"`` and buffered events and errors are dropped. Idempotent."""
        if self.state == "finished":
            return
        self.state = "finished"
        self._pending.clear()
        self._deferred = None
        if self.stream.outcome is None:
            self.stream.outcome = "cancelled"

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
        """The response head arrived. A head no HTTP/1.1 response may have is refused with
        :meth:`on_invalid`: a final ``1xx`` status (a ``101`` to a request that asked for no
        upgrade, RFC 9110 section 15.2.2) and a head with both ``Transfer-Encoding`` and
        ``Content-Length`` (RFC 9112 section 6.1 forbids the server to send both, and section 6.3
        says a client ought to handle it as an error: it is how responses are split)."""
        self.status_code, self.headers = status, _headers(headers)
        if 100 <= status < 200:
            self._invalid(f"a final {status} response, to a request that asked for no upgrade")
            return
        names = {name for name, _ in self.headers}
        if "transfer-encoding" in names and "content-length" in names:
            self._invalid("both Transfer-Encoding and Content-Length in the head")
            return
        self.state = "body"
        if needs_error_body(status, self.headers):
            self.state = "error-body"
        else:
            try:
                check_content_type(status, self.headers)
            except UnexpectedContentType:
                self.state = "error-body"  # read an excerpt of the body for the message
        if self.state == "body" and status in (204, 205):
            # No content follows, whatever the framing says (RFC 9110 15.3.5, 15.3.6): the body
            # has ended. Judged here, with the head, so that every adapter reports it at the
            # same point (on entering the block), however its HTTP library hands the end over.
            self.on_end()

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

    def on_invalid(self, cause: BaseException, *, excerpt: str | None = None) -> None:
        """The response is not valid HTTP/1.1: the HTTP library refused its head (a status line
        or header line it cannot parse, a head past its size or field-count bound) or its body
        framing (a bad chunk header). *cause* is what the library raised.

        The server's fault, not a dropped connection: a :class:`RemoteProtocolError` ("invalid
        HTTP/1.1 response from HOST:PORT: REASON", *cause* as ``__cause__``), never retried (a
        ``POST`` is not sent again because the server spoke badly). When body bytes of a
        background Responses stream came before it, the stream is resumed as after any other
        break (the resume is a ``GET`` of the stored response, see :class:`ResumePolicy`);
        otherwise it is raised after the events decoded before it, with the outcome
        ``"truncated"``. After an HTTP error head, the status is reported instead (the body is
        as complete as it got), as :meth:`on_error` does.
        """
        reason = innermost(cause)
        words = getattr(reason, "message", None)  # aiohttp's, without its "400, message:"
        if not isinstance(words, str) or not words:
            words = str(reason) or repr(reason)
        detail = " ".join(words.split())  # aiohttp's span several lines
        self._invalid(scrub(detail, self.request), cause=cause, excerpt=excerpt)

    def fail(self, error: BaseException) -> None:
        """Stop with *error* (something the adapter found wrong that is no transport failure,
        e.g. a content coding it cannot decode), after the events already decoded. The core
        stream ends as truncated (its outcome set), even when no body byte reached it."""
        self._give_up(error, mark=True)

    @property
    def body_started(self) -> bool:
        """Whether a body byte of the current HTTP exchange reached the core stream."""
        return self._exchange_body

    # -- internals --------------------------------------------------------------------------------

    def _invalid(
        self, reason: str, *, cause: BaseException | None = None, excerpt: str | None = None
    ) -> None:
        where = f"{self.request.host}:{self.request.port}"
        error = RemoteProtocolError(
            f"invalid HTTP/1.1 response from {where}: {reason}", excerpt=excerpt
        )
        if cause is not None:
            clear_locals(cause)  # the library's returned frames hold the headers (the key)
            error.__cause__ = cause
        if self.state == "error-body":
            self._raise_status()  # the status is the news; the body is as complete as it got
        elif self.stream.outcome not in (None, "truncated"):
            self.state = "finished"  # the terminal event arrived: nothing is lost
        elif self._exchange_body:
            # A break in the body: to the resume policy, a body that ended early.
            self._resume_or_fail(error, broken=True)
        else:
            # Never retried: the server spoke badly. The truncation is no reason of its own.
            self._give_up(error, mark=True, chain=False)

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

    def _resume_or_fail(self, failure: BaseException, *, broken: bool = False) -> None:
        # broken: *failure* is the RemoteProtocolError of a body whose framing broke, which the
        # resume policy sees as what it is for the stream, a body that ended early.
        seen = TruncatedStream(str(failure)) if broken else failure
        request = self.policy.next_request(self.original, self.stream, seen)
        if request is None:
            failure = self._id_refused(failure, seen)
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

    def _id_refused(self, failure: BaseException, seen: BaseException) -> BaseException:
        # A stream that would be resumed but for its server-named id (which could move the resume
        # request elsewhere, or cannot be sent): the server's fault, said as such.
        stream = self.stream
        if not isinstance(stream, ResponsesStream):
            return failure
        rid = stream.response_id
        if (
            rid is None
            or self.policy.max_attempts == 0
            or not isinstance(seen, (TruncatedStream, TransportError))
            or not (self.original.background or stream.background)
            or stream.last_sequence_number is None
            or stream.outcome not in (None, "truncated")
        ):
            return failure
        why = unusable_response_id(rid)
        if why is None:
            return failure
        error = RemoteProtocolError(
            f"the stream from {self.request.host}:{self.request.port} broke off, and cannot be "
            f"resumed: the server named the response {ascii(rid)[:80]}, which is no usable "
            f"response id ({why})"
        )
        error.__cause__ = failure
        return error

    def _give_up(self, failure: BaseException, *, mark: bool = False, chain: bool = True) -> None:
        if (mark or self._body_seen) and self.stream.outcome is None:
            # An earlier body was fed (a resume failed): mark the core stream truncated (outcome
            # set, snapshot intact) and chain that as the reason unless a lower one is known.
            try:
                self._pending.extend(self.stream.close())
            except ProtocolError as exc:
                self._pending.extend(getattr(exc, "events", ()))
                exc.__context__ = None  # may be *failure* itself: no cycle in the chain
                if chain and failure.__cause__ is None:
                    failure.__cause__ = exc
        self._fail(failure)

    def _fail(self, exc: BaseException) -> None:
        self.state = "finished"
        if isinstance(exc, (TransportError, APIStatusError)):
            exc.stream = self.stream  # an except block reads the partial snapshot from it
        if self._pending:
            self._deferred = exc
        else:
            raise exc
