"""Blocking adapter on ``httpx.Client``.

with open_stream(request, client) as events:
    for event in events:
        ...
    events.stream.snapshot()

httpx reads blocking, with timeouts fixed when the request is sent, and a server that drips one
byte at a time never trips them. So with a *total_timeout* a watchdog thread shuts the
connection's socket down at the deadline, which ends the read in progress; the deadline is also
checked between reads, and each request is sent with timeouts no longer than what is left of it.
The watchdog takes the socket from the response's ``network_stream`` extension, which httpcore
sets for a new and a pooled connection alike, and on a new connection already from httpcore's
``trace`` events of the connect, so that it also ends a head that is slow to come. (A head on a
pooled connection, and every read on a transport that names no socket or on an HTTP/2
connection, whose socket carries other requests' streams too, ends at the latest after the time
that was left when its request was sent.)
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Generator, Iterator, Mapping
from typing import Any

import httpx

import sansio_responses as sr

from ._events import EventIterator, S, decoding_error, dedicated_connection, refused_by_h11
from ._h11 import GzipMembers, gzip_only

__all__ = ["EventStream", "open_stream"]


def _gzip_body(response: httpx.Response) -> Iterator[bytes]:
    """The body of a gzip response decoded member after member (httpx's decoder stops at the
    end of the first one); a corrupt body raises ``httpx.DecodingError`` as ``iter_bytes()``."""
    decoder = GzipMembers(httpx.DecodingError)
    for raw in response.iter_raw():
        data = decoder.decode(raw)
        if data:
            yield data
    tail = decoder.flush()
    if tail:
        yield tail


class _Watchdog:
    """Shuts the connection's socket down when the total deadline passes, from a timer thread:
    a blocking ``recv`` in the reading thread then returns, and httpx reports the connection
    closed."""

    def __init__(self) -> None:
        self._sock: socket.socket | None = None
        self._timer: threading.Timer | None = None
        #: The deadline passed and the socket was shut down.
        self.fired = False

    def trace(self, name: str, info: Mapping[str, Any]) -> None:
        # httpcore's trace extension: the network stream of a new connection (TLS over TCP last),
        # known before the head is read (the response's network_stream comes with the head).
        if name in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            self._take(info.get("return_value"))

    def use(self, response: httpx.Response) -> None:
        """Take the socket of *response*'s connection: httpcore's network stream, which it names
        in the response's extensions for a new and a pooled connection alike (a transport that
        names none leaves the socket the connect's trace events gave, if any).

        Only an HTTP/1 connection's: an HTTP/2 connection carries other requests' streams too,
        which shutting its socket down would end with this one. There the watchdog lets go of
        the socket, and each read is bounded by the time left when the request was sent."""
        if not dedicated_connection(response.http_version):
            self._sock = None
            return
        self._take(response.extensions.get("network_stream"))

    def _take(self, stream: object) -> None:
        get = getattr(stream, "get_extra_info", None)
        sock = get("socket") if callable(get) else None
        if isinstance(sock, socket.socket):
            self._sock = sock
            # The deadline may have passed before the socket was known (_fire found none):
            # _fire sets fired before it reads _sock, this reads fired after setting _sock, so
            # one of the two shuts the socket down.
            if self.fired:
                self._shutdown(sock)

    def arm(self, seconds: float) -> None:
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        self.fired = True
        sock = self._sock
        if sock is not None:
            self._shutdown(sock)

    @staticmethod
    def _shutdown(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._sock = None
        self.fired = False


class EventStream(EventIterator[S]):
    """The events of one stream, read through httpx as the consumer iterates. ``stream`` is the
    core stream; see :class:`StreamHandle` for ``status_code``, ``headers``, ``resumes`` and
    ``retries``."""

    def __init__(self, x: sr.Exchange[S], client: httpx.Client, connect_timeout: float | None,
                 idle_timeout: float | None) -> None:  # fmt: skip
        self._x, self._client = x, client
        self._connect_timeout, self._idle_timeout = connect_timeout, idle_timeout
        self._exit = contextlib.ExitStack()
        self._chunks: Iterator[bytes] = iter(())
        self._watchdog = _Watchdog()

    def _step(self) -> None:
        request = self._x.request
        try:
            if self._x.state == "connect":
                self._disconnect()
                if self._x.delay:  # a retry's backoff; the exchange kept it inside the deadline
                    time.sleep(self._x.delay)
                self._open(self._x.begin())
                if self._x.state == "connect":  # the head ended the body (a 204) and it resumes
                    return
            chunk = next(self._chunks, None)
        except httpx.TransportError as exc:
            error = self._failure(exc, request)  # before _disconnect(): it resets the watchdog
            self._disconnect()
            if error is None:  # not valid HTTP/1.1: the server's fault, never retried
                self._x.on_invalid(exc)
            else:
                self._x.on_error(error)
            return
        except httpx.DecodingError as exc:  # a corrupt gzip/deflate/br body: the server's fault
            self._disconnect()
            self._x.fail(decoding_error(exc, request, self._x.headers))
            return
        if chunk is None:
            # A body framed by the connection's close (no Content-Length, not chunked) also ends
            # when the watchdog shuts the socket down: that end is the deadline, not the server's.
            # (An error body that ended is reported as such: its status is the news.)
            late = self._watchdog.fired and self._x.state == "body"  # before _disconnect()
            self._disconnect()
            if late:
                self._x.on_error(self._x.total_failure())
            else:
                self._x.on_end()
        else:
            self._x.on_data(chunk)

    def _failure(
        self, exc: httpx.TransportError, request: sr.Request[Any]
    ) -> sr.TransportError | None:
        # None: the response is not valid HTTP/1.1 (Exchange.on_invalid).
        if self._watchdog.fired or self._x.expired():  # shut down at the deadline, or timed out
            return self._x.total_failure()
        if isinstance(exc, httpx.RemoteProtocolError) and refused_by_h11(exc):
            return None
        if isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout)):
            return self._x.timed_out("connect-timeout", self._connect_timeout)
        if isinstance(exc, httpx.ConnectError):
            return sr.failure("connect", request, cause=exc)
        if isinstance(exc, httpx.TimeoutException):
            return self._x.timed_out("idle", self._idle_timeout)
        return sr.failure("dropped", request, cause=exc)

    def _open(self, request: sr.Request[Any]) -> None:
        extensions: dict[str, Any] = {}
        left = self._x.limit(None)
        if left is not None:
            extensions["trace"] = self._watchdog.trace
            self._watchdog.arm(left)
        # The pool wait is part of getting a connection: bounded like the connect.
        connect = self._x.limit(self._connect_timeout)
        timeout = httpx.Timeout(self._x.limit(self._idle_timeout), connect=connect, pool=connect)
        stream = self._client.stream(
            request.method, request.url, headers=sr.send_headers(request), content=request.body,
            timeout=timeout, extensions=extensions,
        )  # fmt: skip
        response = self._exit.enter_context(stream)
        if left is not None:
            self._watchdog.use(response)
        # iter_bytes: the body bytes as they arrive, undoing any Content-Encoding (iter_raw would
        # not); the core does the text decoding. A gzip body: every member (see _gzip_body).
        codings = response.headers.get_list("content-encoding", split_commas=True)
        self._chunks = _gzip_body(response) if gzip_only(codings) else response.iter_bytes()
        self._x.on_head(response.status_code, response.headers.raw)

    def _disconnect(self) -> None:
        """Close the response (idempotent); the client stays open."""
        self._chunks = iter(())
        self._watchdog.disarm()
        self._exit.close()


@contextlib.contextmanager
def open_stream(
    request: sr.Request[S],
    client: httpx.Client | None = None,
    *,
    connect_timeout: float | None = sr.DEFAULT_CONNECT_TIMEOUT,
    idle_timeout: float | None = sr.DEFAULT_IDLE_TIMEOUT,
    total_timeout: float | None = None,
    max_retries: int = sr.DEFAULT_MAX_RETRIES,
    retry_policy: sr.RetryPolicy | None = None,
    max_resume_attempts: int = sr.DEFAULT_MAX_RESUME_ATTEMPTS,
    stream_options: Mapping[str, Any] | None = None,
) -> Generator[EventStream[S], None, None]:
    """Send *request* with *client* (a new ``httpx.Client`` when ``None``, closed on exit) and
    yield an iterator of its events.

    The response head is read on entry: an HTTP error status raises its ``APIStatusError``, a 2xx
    that is not an event stream raises ``UnexpectedContentType``. *connect_timeout* bounds getting
    a connection; *idle_timeout* bounds every wait for bytes after that (``None``: no limit); both
    override the client's timeouts. *total_timeout* bounds the whole stream, retries and resumes
    included (``TotalTimeout``). A retryable failure before the first body byte is retried up to
    *max_retries* times (``RetryPolicy``; *retry_policy* replaces it whole). A dropped or
    truncated background response is resumed (see ``ResumePolicy``). The response is closed on
    leaving the block.
    """
    x = sr.Exchange(
        request, max_resume_attempts=max_resume_attempts, stream_options=stream_options,
        max_retries=max_retries, retry_policy=retry_policy, total_timeout=total_timeout,
        connect_timeout=connect_timeout, idle_timeout=idle_timeout,
    )  # fmt: skip
    with contextlib.ExitStack() as owned:
        if client is None:
            client = owned.enter_context(httpx.Client())
        with EventStream(x, client, x.connect_timeout, x.idle_timeout) as events:
            yield events
