"""What went wrong below HTTP: the :class:`TransportError` family, and :func:`failure`, which builds
one from what an HTTP library reported.

Every error an exchange raises to the consumer (these and :class:`~sansio_responses.APIStatusError`)
carries the core stream as ``exc.stream``, so an ``except`` block reads the partial snapshot
without keeping the events object in scope.

The API key never appears in a message here: messages name the host and port, never headers, and
an HTTP library's exception quoted in a message is scrubbed of the request's sensitive header values.
"""

from __future__ import annotations

import traceback
from typing import TYPE_CHECKING, Any, Literal

from .requests import SENSITIVE_HEADERS, Request

if TYPE_CHECKING:
    from .._chat.stream import ChatCompletionsStream
    from .._responses.stream import ResponsesStream

__all__ = [
    "ConnectError",
    "ConnectTimeout",
    "ConnectionDropped",
    "IdleTimeout",
    "TotalTimeout",
    "TransportError",
    "clear_locals",
    "failure",
    "innermost",
    "scrub",
]


class TransportError(Exception):
    """The connection failed below HTTP: no connection, a silent peer, or a dropped connection.

    Attributes:
        attempts: resume attempts made (in a row, without a new event) before giving up; 0 when the
            stream was not resumable.
        retries: retries of the failed request (see :class:`RetryPolicy`) before giving up.
        stream: the core stream of the exchange that raised it (``snapshot()``, ``outcome``,
            ``diagnostics`` as far as the stream got); ``None`` for an error no exchange raised.
    """

    def __init__(self, message: str, *, attempts: int = 0, retries: int = 0) -> None:
        self.message = message
        self.attempts = attempts
        self.retries = retries
        self.stream: ResponsesStream | ChatCompletionsStream | None = None
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
    becomes ``__cause__``, so the whole chain stays in the traceback; the locals of its frames,
    which have returned, are cleared (an HTTP library's frames hold the request headers, so the
    API key, there).
    """
    where = f"{request.host}:{request.port}"
    reason = innermost(cause) if cause is not None else None
    detail = f": {scrub(repr(reason), request)}" if reason is not None else ""
    error: TransportError
    if kind == "connect-timeout":
        error = ConnectTimeout(f"no connection to {where} within {timeout} s")
    elif kind == "connect":
        error = ConnectError(f"cannot connect to {where}{detail}")
    elif kind == "idle":
        error = IdleTimeout(f"no bytes from {where} for {timeout} s", timeout=timeout)
    else:
        error = ConnectionDropped(f"the connection to {where} dropped{detail}")
    if cause is not None:
        clear_locals(cause)
    error.__cause__ = cause
    return error


def clear_locals(exc: BaseException) -> None:
    """Clear the locals of the returned frames in the tracebacks of *exc*'s chain (causes and
    contexts), keeping the traceback lines."""
    # The HTTP library's frames in the chained tracebacks hold the request headers (the API key)
    # in their locals (httpx's Client.stream, aiohttp's ClientSession._request), which a crash
    # reporter that captures locals would send. Those frames have returned: their locals are
    # cleared (the traceback's lines stay). Frames still running, the adapter's own, are skipped.
    seen: set[int] = set()
    stack: list[BaseException | None] = [exc]
    while stack:
        current = stack.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        stack += [current.__cause__, current.__context__]
        traceback.clear_frames(current.__traceback__)


def innermost(exc: BaseException) -> BaseException:
    """The last exception of *exc*'s chain (causes, else contexts): the most specific reason."""
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


def scrub(text: str, request: Request[Any]) -> str:
    """*text* (an HTTP library's words) without the request's sensitive header values, cut to
    300 characters."""
    # An HTTP library's exception may quote the request headers (aiohttp's request_info does):
    # never let the key through, and keep the message short (it may quote a whole body).
    for name, value in request.headers:
        if name.lower() in SENSITIVE_HEADERS and value:
            secret = value.split(" ", 1)[1] if value.lower().startswith("bearer ") else value
            text = text.replace(value, "<redacted>")
            if len(secret) >= 8:  # a bare key quoted without its scheme
                text = text.replace(secret, "<redacted>")
    return text if len(text) <= _DETAIL_LIMIT else text[: _DETAIL_LIMIT - 3] + "..."
