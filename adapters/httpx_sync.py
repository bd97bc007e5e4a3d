"""Blocking adapter on ``httpx.Client``.

with open_stream(request, client) as events:
    for event in events:
        ...
    events.stream.snapshot()
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any

import httpx

from sansio_responses import _transport as t
from sansio_responses._requests import Request

__all__ = ["EventStream", "open_stream"]


class EventStream(t.EventIterator):
    """The events of one stream, read through httpx as the consumer iterates. ``stream`` is the
    core stream; see :class:`StreamHandle` for ``status_code``, ``headers`` and ``resumes``."""

    def __init__(self, x: t.Exchange, client: httpx.Client, connect_timeout: float | None,
                 idle_timeout: float | None) -> None:  # fmt: skip
        self._x, self._client = x, client
        # The pool wait is part of getting a connection: bounded like the connect.
        self._timeout = httpx.Timeout(idle_timeout, connect=connect_timeout, pool=connect_timeout)
        self._exit = contextlib.ExitStack()
        self._chunks: Iterator[bytes] = iter(())

    def _step(self) -> None:
        request = self._x.request
        try:
            if self._x.state == "connect":
                self.close()
                self._open(self._x.begin())
            chunk = next(self._chunks, None)
        except httpx.TransportError as exc:
            self.close()
            self._x.on_error(self._failure(exc, request))
            return
        if chunk is None:
            self.close()
            self._x.on_end()
        else:
            self._x.on_data(chunk)

    def _failure(self, exc: httpx.TransportError, request: Request) -> t.TransportError:
        if isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout)):
            return t.failure("connect-timeout", request, timeout=self._timeout.connect)
        if isinstance(exc, httpx.ConnectError):
            return t.failure("connect", request, cause=exc)
        if isinstance(exc, httpx.TimeoutException):
            return t.failure("idle", request, timeout=self._timeout.read)
        return t.failure("dropped", request, cause=exc)

    def _open(self, request: Request) -> None:
        headers = dict(request.headers)
        # Compressed event streams hold events back in the compressor; ask for none.
        headers.setdefault("accept-encoding", "identity")
        stream = self._client.stream(
            request.method, request.url, headers=headers, content=request.body,
            timeout=self._timeout,
        )  # fmt: skip
        response = self._exit.enter_context(stream)
        # iter_bytes: the body bytes as they arrive, undoing any Content-Encoding (iter_raw would
        # not); the core does the text decoding.
        self._chunks = response.iter_bytes()
        self._x.on_head(response.status_code, response.headers.raw)

    def close(self) -> None:
        """Close the response (idempotent); the client stays open."""
        self._chunks = iter(())
        self._exit.close()


@contextlib.contextmanager
def open_stream(
    request: Request,
    client: httpx.Client | None = None,
    *,
    connect_timeout: float | None = t.DEFAULT_CONNECT_TIMEOUT,
    idle_timeout: float | None = t.DEFAULT_IDLE_TIMEOUT,
    max_resume_attempts: int = t.DEFAULT_MAX_RESUME_ATTEMPTS,
    stream_options: Mapping[str, Any] | None = None,
) -> Iterator[EventStream]:
    """Send *request* with *client* (a new ``httpx.Client`` when ``None``, closed on exit) and
    yield an iterator of its events.

    The response head is read on entry: an HTTP error status raises its ``APIStatusError``, a 2xx
    that is not an event stream raises ``UnexpectedContentType``. *connect_timeout* bounds getting
    a connection; *idle_timeout* bounds every wait for bytes after that (``None``: no limit); both
    override the client's timeouts. A dropped or truncated background response is resumed (see
    ``ResumePolicy``). The response is closed on leaving the block.
    """
    x = t.Exchange(request, max_resume_attempts=max_resume_attempts, stream_options=stream_options)
    with contextlib.ExitStack() as owned:
        if client is None:
            client = owned.enter_context(httpx.Client())
        events = EventStream(x, client, connect_timeout, idle_timeout)
        try:
            events._start()
            yield events
        finally:
            events.close()
