"""Blocking WebSocket adapter: the Responses API's WebSocket mode over a plain socket, framed by wsproto.

    with connect(base_url=..., api_key=...) as conn:
        stream = conn.send_create({"model": ..., "input": ...}, stream_id="a")
        for event in conn:            # ends when no response is in flight any more
            ...

The twin of ``websocket`` (same :class:`~sansio_responses.ResponsesConnection`, same framing, same
timeouts, reconnects and queue; see that module), with ``socket`` and ``ssl`` from the standard
library and blocking calls.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import time
from collections.abc import Generator, Iterable, Mapping
from typing import Any

import sansio_responses as sr
from sansio_responses import (
    DEFAULT_BASE_URL,
    LocalProtocolError,
    ReconnectPolicy,
    Request,
    ResponsesConnection,
    ResponsesServerEvent,
    ResponsesStream,
)

from ._h11 import default_ssl_context
from ._ws_framing import READ_SIZE, ConnectionState, Framing, websocket_request

__all__ = ["BlockingWebSocketConnection", "connect"]


class BlockingWebSocketConnection(ConnectionState):
    """An open Responses WebSocket (blocking). ``protocol`` is the sans-IO
    :class:`~sansio_responses.ResponsesConnection`.

    Attributes:
        reconnects: how many times the socket was opened again after a drop.
    """

    def __init__(
        self,
        request: Request[Any],
        protocol: ResponsesConnection,
        *,
        connect_timeout: float | None,
        idle_timeout: float | None,
        total_timeout: float | None,
        ssl_context: ssl.SSLContext | None,
    ) -> None:
        super().__init__(
            request,
            protocol,
            connect_timeout=connect_timeout,
            idle_timeout=idle_timeout,
            total_timeout=total_timeout,
            ssl_context=ssl_context,
            now=time.monotonic(),
        )
        self._sock: socket.socket | None = None

    def send_create(
        self, body: Mapping[str, Any], *, stream_id: str | None = None
    ) -> ResponsesStream:
        """Send ``response.create`` on lane *stream_id*; return the lane's new stream."""
        self._send(self.protocol.create(body, stream_id=stream_id))
        return self.protocol.stream(stream_id)

    def send_steer(
        self, previous_response_id: str, input: str | Iterable[Mapping[str, Any]]
    ) -> None:
        """Send ``response.steer`` for the running response *previous_response_id*."""
        self._send(self.protocol.steer(previous_response_id, input))

    def _send(self, text: str) -> None:
        if self._closed:
            raise LocalProtocolError("send on a closed WebSocket connection")
        if self._sock is None or self._framing is None:
            self.protocol.queue.put(text)  # bounded: QueueFull past max_queue_bytes
            self._reconnect(None)
            return
        try:
            self._write(self._framing.message(text))
        except OSError:
            self.protocol.queue.put(text)
            self._dropped(None)

    def _write(self, data: bytes) -> None:
        assert self._sock is not None
        self._sock.settimeout(self._limit(self._idle_timeout))
        self._sock.sendall(data)

    def __iter__(self) -> BlockingWebSocketConnection:
        return self

    def __next__(self) -> ResponsesServerEvent:
        """The next server event; stops when no response is expected any more."""
        while not self._ready:
            self._raise_failed()
            if not self.protocol.expecting():
                raise StopIteration
            self._read()
        return self._ready.pop(0)

    def _read(self) -> None:
        if self._sock is None or self._framing is None:
            self._reconnect(None)
            return
        framing = self._framing
        try:
            self._sock.settimeout(self._limit(self._idle_timeout))
            data = self._sock.recv(READ_SIZE)
        except TimeoutError:
            self._shutdown()  # the timeout ends the connection: nothing was cancelled
            if self._past(time.monotonic()):
                raise self._total_error() from None
            raise sr.failure("idle", self._request, timeout=self._idle_timeout) from None
        except OSError:
            self._dropped(None)
            return
        if not data:
            self._dropped(None)
            return
        reply = self._received(framing, data)
        if reply:
            with contextlib.suppress(OSError):
                self._write(reply)
        if framing.closed_with is not None:
            self._dropped(framing.closed_with)

    def _open(self) -> None:
        request = self._request
        framing = Framing(request, self.protocol)
        timeout = self._limit(self._connect_timeout)
        try:
            sock = socket.create_connection((request.host, request.port), timeout=timeout)
            if request.scheme == "https":
                context = self._ssl or default_ssl_context()
                sock = context.wrap_socket(sock, server_hostname=request.host)
            sock.sendall(framing.handshake())
            while not framing.accepted(sock.recv(READ_SIZE)):
                pass
        except TimeoutError:
            raise sr.failure("connect-timeout", request, timeout=self._connect_timeout) from None
        except OSError as exc:
            raise sr.failure("connect", request, cause=exc) from None
        self._sock, self._framing = sock, framing
        for text in self.protocol.connection_made():
            self._write(framing.message(text))

    def _dropped(self, code: int | None) -> None:
        self._close_socket()
        lost = self.protocol.connection_lost()
        self._reconnect(code)
        if lost:
            raise self._lost_error(code, len(lost))

    def _reconnect(self, code: int | None) -> None:
        while True:
            delay = self.protocol.reconnect_delay(code)
            if delay is None:
                raise self._not_reopened(code)
            if self._past(time.monotonic(), delay):
                raise self._total_error()
            time.sleep(delay)
            try:
                self._open()
            except sr.ConnectError:
                code = None
                continue
            self.reconnects += 1
            return

    def _limit(self, timeout: float | None) -> float | None:
        return self._left(timeout, time.monotonic(), 0.001)

    def _close_socket(self) -> None:
        sock, self._sock, self._framing = self._sock, None, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()

    def __enter__(self) -> BlockingWebSocketConnection:
        """Open the socket (``open_connection`` enters the connection for its block)."""
        self._open()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the socket (a normal close frame first when it is open; idempotent).
        Responses still in flight get the outcome ``"cancelled"``, unless the connection had
        already ended (see ``WebSocketConnection.aclose`` in the ``websocket`` module)."""
        self._cancel_in_flight()
        self._shutdown()

    def _shutdown(self) -> None:
        self._closed = True
        if self._sock is not None and self._framing is not None:
            with contextlib.suppress(OSError):
                self._sock.settimeout(1)
                self._sock.sendall(self._framing.close())
        self._close_socket()


@contextlib.contextmanager
def connect(
    *,
    base_url: str = DEFAULT_BASE_URL,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    organization: str | None = None,
    project: str | None = None,
    connect_timeout: float | None = sr.DEFAULT_CONNECT_TIMEOUT,
    idle_timeout: float | None = sr.DEFAULT_IDLE_TIMEOUT,
    total_timeout: float | None = None,
    ssl_context: ssl.SSLContext | None = None,
    reconnect_policy: ReconnectPolicy | None = None,
    max_queue_bytes: int = 1 << 20,
    **connection_options: Any,
) -> Generator[BlockingWebSocketConnection, None, None]:
    """Open the Responses WebSocket at ``{base_url}/responses`` for the ``with`` block (blocking).

    Arguments, timeouts and the ``"cancelled"`` outcome as
    :func:`sansio_responses.adapters.websocket.open_connection`.
    """
    connect_timeout = sr.check_timeout("connect_timeout", connect_timeout)
    idle_timeout = sr.check_timeout("idle_timeout", idle_timeout)
    total_timeout = sr.check_timeout("total_timeout", total_timeout)
    protocol = ResponsesConnection(
        reconnect_policy=reconnect_policy, max_queue_bytes=max_queue_bytes, **connection_options
    )
    conn = BlockingWebSocketConnection(
        websocket_request(base_url, api_key, headers, organization, project),
        protocol,
        connect_timeout=connect_timeout,
        idle_timeout=idle_timeout,
        total_timeout=total_timeout,
        ssl_context=ssl_context,
    )
    with conn:
        yield conn
