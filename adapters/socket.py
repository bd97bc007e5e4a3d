"""Blocking adapter on plain sockets: ``socket`` + ``ssl``, HTTP/1.1 by h11.

with open_stream(request) as events:
    for event in events:
        ...
    events.stream.snapshot()
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import time
from collections.abc import Generator, Mapping
from typing import Any

import sansio_responses as sr

from ._events import EventIterator, S
from ._h11 import READ_SIZE, H11Exchange, default_ssl_context

__all__ = ["EventStream", "open_stream"]


class EventStream(EventIterator[S]):
    """The events of one stream, read from a socket as the consumer iterates. ``stream`` is the
    core stream; see :class:`StreamHandle` for ``status_code``, ``headers``, ``resumes`` and
    ``retries``."""

    def __init__(self, x: sr.Exchange[S], connect_timeout: float | None,
                 idle_timeout: float | None, ssl_context: ssl.SSLContext | None) -> None:  # fmt: skip
        self._x, self._ssl = x, ssl_context
        self._connect_timeout, self._idle_timeout = connect_timeout, idle_timeout
        self._sock: socket.socket | None = None
        self._h: H11Exchange | None = None
        self._out = b""

    def _step(self) -> None:
        if self._x.state == "connect":
            self._disconnect()
            if self._x.delay:  # a retry's backoff; the exchange kept it inside the deadline
                time.sleep(self._x.delay)
            self._connect(self._x.begin())
            return
        assert self._sock is not None and self._h is not None
        try:
            # Every wait ends within the idle timeout and the total deadline, whichever is first.
            self._sock.settimeout(self._x.limit(self._idle_timeout))
            if self._out:  # the request, sent under the idle timeout like any other I/O
                self._sock.sendall(self._out)
                self._out = b""
            data = self._sock.recv(READ_SIZE)
        except TimeoutError:
            error = self._x.timed_out("idle", self._idle_timeout)
        except OSError as exc:
            error = sr.failure("dropped", self._x.request, cause=exc)
        else:
            self._h.receive(data)
            return
        self._disconnect()
        self._x.on_error(error)

    def _connect(self, request: sr.Request[Any]) -> None:
        try:
            address = (request.host, request.port)
            self._sock = socket.create_connection(address, self._x.limit(self._connect_timeout))
            if request.scheme == "https":
                context = self._ssl or default_ssl_context()
                self._sock = context.wrap_socket(self._sock, server_hostname=request.host)
        except TimeoutError:
            error = self._x.timed_out("connect-timeout", self._connect_timeout)
        except OSError as exc:
            error = sr.failure("connect", request, cause=exc)
        else:
            self._h = H11Exchange(self._x, request)
            self._out = self._h.request_bytes
            return
        self._disconnect()
        self._x.on_error(error)

    def _disconnect(self) -> None:
        """Close the connection (idempotent)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = self._h = None


@contextlib.contextmanager
def open_stream(
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
) -> Generator[EventStream[S], None, None]:
    """Send *request* over a new socket and yield an iterator of its events.

    The response head is read on entry: an HTTP error status raises its ``APIStatusError``, a 2xx
    that is not an event stream raises ``UnexpectedContentType``. *connect_timeout* bounds the TCP
    connect and TLS handshake; *idle_timeout* bounds every wait for bytes after that (``None``:
    no limit); *total_timeout* bounds the whole stream, retries and resumes included
    (``TotalTimeout``). A retryable failure before the first body byte is retried up to
    *max_retries* times (``RetryPolicy``; *retry_policy* replaces it whole). A dropped or
    truncated background response is resumed (see ``ResumePolicy``). *ssl_context* defaults to
    ``ssl.create_default_context()`` (certificates verified). The socket is closed on leaving
    the block.
    """
    x = sr.Exchange(
        request, max_resume_attempts=max_resume_attempts, stream_options=stream_options,
        max_retries=max_retries, retry_policy=retry_policy, total_timeout=total_timeout,
        connect_timeout=connect_timeout, idle_timeout=idle_timeout,
    )  # fmt: skip
    with EventStream(x, x.connect_timeout, x.idle_timeout, ssl_context) as events:
        yield events
