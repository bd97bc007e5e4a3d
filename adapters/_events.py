"""The part every bundled adapter's events object shares: iteration over a
:class:`sansio_responses.Exchange`, the properties beside it, and closing early.

Written on public names only, as a user's adapter would be: each adapter subclasses
:class:`EventIterator` (blocking) or :class:`AsyncEventIterator` (asyncio and trio) and supplies
``_step`` (one connect or one read, reported to the exchange) and ``_disconnect`` (close the
connection). ``open_stream`` enters the events object, which reads until the first response head
is judged (so an HTTP error status raises on entering the block), and leaves it when its block
ends: a stream that had not finished then gets the outcome ``"cancelled"``.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any, Generic, TypeVar, overload

from sansio_responses import (
    ChatCompletionsStream,
    ChatEvent,
    Exchange,
    LocalProtocolError,
    RemoteProtocolError,
    Request,
    ResponsesStream,
    ResponseStreamEvent,
)

__all__ = [
    "AsyncEventIterator",
    "EventIterator",
    "S",
    "StreamHandle",
    "decoding_error",
    "refused_by_h11",
]

S = TypeVar("S", bound="ResponsesStream | ChatCompletionsStream")
"""The core stream type of a request and of the events object that reads its response."""

_I = TypeVar("_I", bound="EventIterator[Any]")
_A = TypeVar("_A", bound="AsyncEventIterator[Any]")

_CLOSED = (
    "this stream was closed before it finished (its connection was closed when its `with` block "
    "ended, or by close()); iterate the events inside the block"
)


class StreamHandle(Generic[S]):
    """What the events object of every adapter offers besides iteration. Adapters set ``_x`` to
    their :class:`~sansio_responses.Exchange`."""

    _x: Exchange[S]
    _cancelled: bool = False

    @property
    def stream(self) -> S:
        """The core stream: ``snapshot()``, ``outcome``, ``diagnostics``. A
        :class:`~sansio_responses.ResponsesStream` for a Responses request, a
        :class:`~sansio_responses.ChatCompletionsStream` for a Chat request (and so typed, from
        the request's type)."""
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
        :class:`~sansio_responses.RetryPolicy`), the first request's and the resumes' together."""
        return self._x.retries

    @property
    def _opening(self) -> bool:
        # Until the head of the first response has been judged and its first body bytes reached
        # the core stream: entering steps until then, so that HTTP errors, and faults in the
        # first body bytes (a bad coding or chunk header, an empty 2xx), are raised on entering
        # the block on every adapter, however the bytes were split into reads.
        state = self._x.state
        return state in ("connect", "head", "error-body") or (
            state == "body" and not self._x.body_started
        )

    def _check_open(self) -> None:
        # Iterating after an early close must not read on: the connection is gone, and reading
        # would look like a server truncation. A finished stream just hands out what is left.
        if self._cancelled:
            raise LocalProtocolError(_CLOSED)

    def _cancel(self) -> None:
        if self._x.state != "finished":
            self._cancelled = True
            self._x.cancel()


class EventIterator(StreamHandle[S]):
    """Base of the blocking adapters' events objects: iterating pulls events from the exchange,
    calling the adapter's ``_step`` (one connect or one read) whenever none is buffered. A
    context manager: entering reads until the first response head is judged, leaving closes."""

    def __iter__(self) -> EventIterator[S]:
        return self

    @overload
    def __next__(self: EventIterator[ResponsesStream]) -> ResponseStreamEvent: ...
    @overload
    def __next__(self: EventIterator[ChatCompletionsStream]) -> ChatEvent: ...
    @overload
    def __next__(self) -> ResponseStreamEvent | ChatEvent: ...
    def __next__(self) -> ResponseStreamEvent | ChatEvent:
        self._check_open()
        while (event := self._x.pop()) is None:
            if self._x.state == "finished":
                self._disconnect()
                raise StopIteration
            self._step()
        return event

    def __enter__(self: _I) -> _I:
        try:
            while self._opening:
                if self._x.expired():  # raises the TotalTimeout (no event precedes a head)
                    self._x.on_error(self._x.total_failure())
                else:
                    self._step()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _step(self) -> None:
        raise NotImplementedError

    def _disconnect(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Close the connection (idempotent). A stream that had not finished gets the outcome
        ``"cancelled"``, and iterating it again raises :class:`~sansio_responses.LocalProtocolError`."""
        self._cancel()
        self._disconnect()


class AsyncEventIterator(StreamHandle[S]):
    """Base of the async adapters' events objects: ``__anext__`` is a plain coroutine method (no
    async generator is left for the garbage collector to finalize) that awaits the adapter's
    ``_step`` whenever no event is buffered. It awaits nothing itself, so it serves asyncio and
    trio alike. An async context manager: entering reads until the first response head is
    judged, leaving closes."""

    def __aiter__(self) -> AsyncEventIterator[S]:
        return self

    @overload
    async def __anext__(self: AsyncEventIterator[ResponsesStream]) -> ResponseStreamEvent: ...
    @overload
    async def __anext__(self: AsyncEventIterator[ChatCompletionsStream]) -> ChatEvent: ...
    @overload
    async def __anext__(self) -> ResponseStreamEvent | ChatEvent: ...
    async def __anext__(self) -> ResponseStreamEvent | ChatEvent:
        self._check_open()
        while (event := self._x.pop()) is None:
            if self._x.state == "finished":
                await self._disconnect()
                raise StopAsyncIteration
            await self._step()
        return event

    async def __aenter__(self: _A) -> _A:
        try:
            while self._opening:
                if self._x.expired():  # raises the TotalTimeout (no event precedes a head)
                    self._x.on_error(self._x.total_failure())
                else:
                    await self._step()
        except BaseException:
            await self.aclose()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _step(self) -> None:
        raise NotImplementedError

    async def _disconnect(self) -> None:
        raise NotImplementedError

    async def aclose(self) -> None:
        """Close the connection (idempotent; works inside a cancelled scope). A stream that had
        not finished gets the outcome ``"cancelled"``, and iterating it again raises
        :class:`~sansio_responses.LocalProtocolError`."""
        self._cancel()
        await self._disconnect()


def decoding_error(
    exc: BaseException, request: Request[Any], headers: tuple[tuple[str, str], ...]
) -> RemoteProtocolError:
    """The error for a body the HTTP client could not decode (its Content-Encoding): the same
    class and message the socket and trio adapters raise from their own decoder (``_h11``)."""
    coding = ", ".join(v for k, v in headers if k == "content-encoding") or "encoded"
    reason = exc
    while reason.__cause__ is not None:  # the decompressor's own error says what is wrong
        reason = reason.__cause__
    error = RemoteProtocolError(
        f"invalid {coding} body from {request.host}:{request.port}: {reason}"
    )
    error.__cause__ = exc
    return error


def refused_by_h11(exc: BaseException) -> bool:
    """Whether *exc* (an ``httpx.RemoteProtocolError``) says that h11, under httpcore, refused the
    server's bytes as invalid HTTP/1.1 (a head or chunk header it cannot parse, a head past its
    size bound, a ``101``), rather than that the connection ended early. The chain ends in an h11
    error in both cases; h11 words every end of file "peer ...", and httpcore's own end of file
    ("Server disconnected ...") has no h11 error under it."""
    reason, seen = exc, {id(exc)}
    while (inner := reason.__cause__ or reason.__context__) is not None and id(inner) not in seen:
        seen.add(id(inner))
        reason = inner
    return type(reason).__module__.split(".")[0] == "h11" and not str(reason).startswith("peer ")


def dedicated_connection(http_version: str) -> bool:
    """Whether a response of *http_version* (as httpx names it) has its connection to itself
    while its body is read, so that shutting the socket down ends only this response: HTTP/1.0
    and 1.1 carry one request at a time, HTTP/2 multiplexes several over one socket (RFC 9113
    section 5). The httpx adapters' total-deadline watchdogs act only then."""
    return http_version in ("HTTP/1.1", "HTTP/1.0")
