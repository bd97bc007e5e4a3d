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

from sansio_responses._requests import Request
from sansio_responses._transport import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_MAX_RESUME_ATTEMPTS,
    ConnectError,
    ConnectionDropped,
    ConnectTimeout,
    Exchange,
    IdleTimeout,
    StreamHandle,
    TransportError,
)

__all__ = ["EventStream", "open_stream"]


def _failure(
    exc: httpx.TransportError, request: Request, timeouts: tuple[float | None, ...]
) -> TransportError:
    where = f"{request.host}:{request.port}"
    if isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout)):
        return ConnectTimeout(f"no connection to {where} within {timeouts[0]} s")
    if isinstance(exc, httpx.ConnectError):
        return ConnectError(f"cannot connect to {where}: {exc}")
    if isinstance(exc, httpx.TimeoutException):
        return IdleTimeout(f"no bytes from {where} for {timeouts[1]} s", timeout=timeouts[1])
    return ConnectionDropped(f"connection to {where} failed: {exc}")


class EventStream(StreamHandle):
    """The events of one stream, read through httpx as the consumer iterates.

    ``stream`` is the core stream (``snapshot()``, ``outcome``, ``diagnostics``); see
    :class:`StreamHandle` for ``status_code``, ``headers`` and ``resumes``.
    """

    def __init__(
        self, x: Exchange, client: httpx.Client, timeouts: tuple[float | None, ...]
    ) -> None:
        self._x, self._client, self._timeouts = x, client, timeouts
        self._exit = contextlib.ExitStack()
        self._chunks: Iterator[bytes] = iter(())

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        while (event := self._x.pop()) is None:
            if self._x.state == "finished":
                self.close()
                raise StopIteration
            self._step()
        return event

    def _step(self) -> None:
        request = self._x.request
        try:
            if self._x.state == "connect":
                self.close()
                self._open(self._x.begin())
            chunk = next(self._chunks, None)
        except httpx.TransportError as exc:
            self.close()
            self._x.on_error(_failure(exc, request, self._timeouts))
            return
        if chunk is None:
            self.close()
            self._x.on_end()
        else:
            self._x.on_data(chunk)

    def _open(self, request: Request) -> None:
        headers = dict(request.headers)
        # Compressed event streams hold events back in the compressor; ask for none.
        headers.setdefault("accept-encoding", "identity")
        response = self._exit.enter_context(
            self._client.stream(
                request.method,
                request.url,
                headers=headers,
                content=request.body,
                timeout=httpx.Timeout(
                    self._timeouts[1], connect=self._timeouts[0], pool=self._timeouts[0]
                ),
            )
        )
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
    connect_timeout: float | None = DEFAULT_CONNECT_TIMEOUT,
    idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
    max_resume_attempts: int = DEFAULT_MAX_RESUME_ATTEMPTS,
    stream_options: Mapping[str, Any] | None = None,
) -> Iterator[EventStream]:
    """Send *request* with *client* (a new ``httpx.Client`` when ``None``, closed on exit) and
    yield an iterator of its events.

    The response head is read on entry: an HTTP error status raises its ``APIStatusError``, a 2xx
    that is not an event stream raises ``UnexpectedContentType``. *connect_timeout* bounds opening
    the connection; *idle_timeout* bounds every wait for bytes after that (``None``: no limit),
    overriding the client's timeouts. A dropped or truncated background response is resumed (see
    ``ResumePolicy``). The response is closed on leaving the block.
    """
    x = Exchange(request, max_resume_attempts=max_resume_attempts, stream_options=stream_options)
    with contextlib.ExitStack() as owned:
        if client is None:
            client = owned.enter_context(httpx.Client())
        events = EventStream(x, client, (connect_timeout, idle_timeout))
        try:
            while x.state in ("connect", "head", "error-body"):
                events._step()
            yield events
        finally:
            events.close()
