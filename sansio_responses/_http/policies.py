"""When a stream is resumed and when a request is sent again: :class:`ResumePolicy` and
:class:`RetryPolicy`, pure decisions an :class:`~sansio_responses.Exchange` consults.

* :class:`ResumePolicy` decides whether a body that ended early can be continued with
  ``GET /responses/{id}?stream=true&starting_after=N`` (API reference, "Retrieve a model response",
  background mode) and builds that request.
* :class:`RetryPolicy` decides whether a request that failed before its first body byte (an HTTP
  error status, or a connection failure) is sent again, and after how long, by the official SDK's
  rules; the adapter only sleeps.
"""

from __future__ import annotations

import random
import urllib.parse
from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar, cast

from .._chat.stream import ChatCompletionsStream
from .._errors import TruncatedStream
from .._responses.stream import ResponsesStream
from .errors import TotalTimeout, TransportError
from .requests import APIStatusError, Request, resume_request, unusable_response_id

__all__ = [
    "DEFAULT_MAX_RESUME_ATTEMPTS",
    "DEFAULT_MAX_RETRIES",
    "INITIAL_RETRY_DELAY",
    "MAX_HONOURED_RETRY_AFTER",
    "MAX_RETRY_DELAY",
    "CoreStream",
    "ResumePolicy",
    "RetryPolicy",
    "S",
]

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

CoreStream: TypeAlias = "ResponsesStream | ChatCompletionsStream"
"""The core stream object an exchange drives."""

S = TypeVar("S", bound=CoreStream)
"""The core stream type of a request, an exchange and an adapter's events object."""


def _base_url(request: Request[Any]) -> str:
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
    event; its response id is usable (1 to 1024 visible ASCII characters, not ``.`` or ``..``:
    see ``unusable_response_id`` in ``sansio_responses._http.requests``; the
    :class:`~sansio_responses.Exchange` raises a ``RemoteProtocolError`` for the others); what
    happened is a truncated body, a body whose HTTP framing broke, or a :class:`TransportError`;
    and fewer than
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

    def can_resume(self, request: Request[Any], stream: CoreStream) -> bool:
        """Whether *stream*, started by *request*, could be continued by a resume request now."""
        return (
            isinstance(stream, ResponsesStream)
            and request.kind == "responses"
            and (request.background or stream.background)
            and stream.response_id is not None
            and unusable_response_id(stream.response_id) is None
            and stream.last_sequence_number is not None
            and stream.outcome in (None, "truncated")
        )

    def next_request(
        self, request: Request[S], stream: CoreStream, failure: BaseException
    ) -> Request[S] | None:
        """The request that continues *stream* after *failure*, or ``None`` to give up.

        *request* is the original request (its base URL and headers, authorization included, are
        reused); *failure* is what ended the body: a :class:`TruncatedStream` (clean end of body
        without a terminal event; the exchange also asks so for a body whose HTTP framing broke,
        see :meth:`Exchange.on_invalid`) or a :class:`TransportError`. Counts the attempt.
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
        resume = resume_request(
            response_id, starting_after=last, base_url=_base_url(request), headers=headers
        )
        # Only a Responses request resumes (can_resume checked it), so S is ResponsesStream here.
        return cast("Request[S]", resume)


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
