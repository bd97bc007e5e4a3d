"""WebSocket adapter: the Responses API's WebSocket mode on anyio (asyncio or trio), framed by wsproto.

    async with open_connection(base_url=..., api_key=...) as conn:
        stream = await conn.send_create({"model": ..., "input": ...}, stream_id="a")
        async for event in conn:      # ends when no response is in flight any more
            ...
        stream.snapshot()

One socket (``wss://`` for an ``https`` base URL, certificates verified; ``ws://`` for ``http``) to
``{base_url}/responses``, the bearer key in the upgrade request. The protocol is
:class:`~sansio_responses.ResponsesConnection`'s (``conn.protocol``); this module moves its text
messages. Timeouts as the HTTP adapters: ``connect_timeout`` for TCP, TLS and the upgrade,
``idle_timeout`` for each wait for the server while a response is expected, ``total_timeout`` for
the whole connection.

Reconnects: when the socket drops, the connection's :class:`~sansio_responses.ReconnectPolicy` (the
SDK's: 5 attempts, 0.5 s to 8 s) decides whether and when to open a new one. Messages sent while no
socket is open wait in the bounded :attr:`ResponsesConnection.queue` and go out, in order, on the
new socket. The responses in flight when it dropped cannot continue (their state lived on the old
socket) and are not sent again: each ends ``"truncated"``, and the iteration raises
:class:`~sansio_responses.ConnectionDropped` naming how many were lost, the new socket being open
for the next ``send_create``.
"""

from __future__ import annotations

import contextlib
import math
import ssl
from collections.abc import AsyncGenerator, Iterable, Mapping
from typing import Any

import anyio
import anyio.abc

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

__all__ = ["WebSocketConnection", "open_connection"]


class WebSocketConnection(ConnectionState):
    """An open Responses WebSocket. ``protocol`` is the sans-IO
    :class:`~sansio_responses.ResponsesConnection` (lanes, streams, rules).

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
            now=anyio.current_time(),
        )
        self._sock: anyio.abc.ByteStream | None = None
        self._send_lock = anyio.Lock()

    # -- sending ---------------------------------------------------------------------------------

    async def send_create(
        self, body: Mapping[str, Any], *, stream_id: str | None = None
    ) -> ResponsesStream:
        """Send ``response.create`` on lane *stream_id*; return the lane's new stream."""
        await self._send(self.protocol.create(body, stream_id=stream_id))
        return self.protocol.stream(stream_id)

    async def send_steer(
        self, previous_response_id: str, input: str | Iterable[Mapping[str, Any]]
    ) -> None:
        """Send ``response.steer`` for the running response *previous_response_id*."""
        await self._send(self.protocol.steer(previous_response_id, input))

    async def _send(self, text: str) -> None:
        if self._closed:
            raise LocalProtocolError("send on a closed WebSocket connection")
        if self._sock is None:
            self.protocol.queue.put(text)  # bounded: QueueFull past max_queue_bytes
            await self._reconnect(None)
            return
        assert self._framing is not None
        try:
            await self._write(self._framing.message(text))
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            self.protocol.queue.put(text)
            await self._dropped(None)

    async def _write(self, data: bytes) -> None:
        assert self._sock is not None
        if not data:
            return
        async with self._send_lock:
            with anyio.fail_after(_seconds(self._limit(self._idle_timeout))):
                await self._sock.send(data)

    # -- receiving -------------------------------------------------------------------------------

    def __aiter__(self) -> WebSocketConnection:
        return self

    async def __anext__(self) -> ResponsesServerEvent:
        """The next server event; the iteration stops when no response is expected any more
        (no lane in flight, no steering awaiting its answer or successor)."""
        while not self._ready:
            self._raise_failed()
            if not self.protocol.expecting():
                raise StopAsyncIteration
            await self._read()
        return self._ready.pop(0)

    async def _read(self) -> None:
        if self._sock is None:
            await self._reconnect(None)
            return
        framing = self._framing
        assert framing is not None
        try:
            with anyio.fail_after(_seconds(self._limit(self._idle_timeout))):
                data = await self._sock.receive(READ_SIZE)
        except TimeoutError:
            await self._shutdown()  # the timeout ends the connection: nothing was cancelled
            if self._past(anyio.current_time()):
                raise self._total_error() from None
            raise sr.failure("idle", self._request, timeout=self._idle_timeout) from None
        except (anyio.EndOfStream, anyio.BrokenResourceError, OSError):
            await self._dropped(None)
            return
        reply = self._received(framing, data)
        if reply:
            with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                await self._write(reply)
        if framing.closed_with is not None:
            await self._dropped(framing.closed_with)

    # -- the socket ------------------------------------------------------------------------------

    async def _open(self) -> None:
        request = self._request
        framing = Framing(request, self.protocol)
        try:
            with anyio.fail_after(_seconds(self._limit(self._connect_timeout))):
                sock: anyio.abc.ByteStream
                if request.scheme == "https":
                    sock = await anyio.connect_tcp(
                        request.host,
                        request.port,
                        ssl_context=self._ssl or default_ssl_context(),
                        tls_standard_compatible=False,
                    )
                else:
                    sock = await anyio.connect_tcp(request.host, request.port)
                await sock.send(framing.handshake())
                while not framing.accepted(await sock.receive(READ_SIZE)):
                    pass
        except TimeoutError:
            raise sr.failure("connect-timeout", request, timeout=self._connect_timeout) from None
        except (OSError, anyio.BrokenResourceError, anyio.EndOfStream, ssl.SSLError) as exc:
            raise sr.failure("connect", request, cause=exc) from None
        self._sock, self._framing = sock, framing
        for text in self.protocol.connection_made():
            await self._write(framing.message(text))

    async def _dropped(self, code: int | None) -> None:
        """The socket closed (*code*: its close code; ``None``: no close frame)."""
        await self._close_socket()
        lost = self.protocol.connection_lost()
        await self._reconnect(code)
        if lost:
            raise self._lost_error(code, len(lost))

    async def _reconnect(self, code: int | None) -> None:
        while True:
            delay = self.protocol.reconnect_delay(code)
            if delay is None:
                raise self._not_reopened(code)
            if self._past(anyio.current_time(), delay):
                raise self._total_error()
            await anyio.sleep(delay)
            try:
                await self._open()
            except sr.ConnectError:
                code = None
                continue
            self.reconnects += 1
            return

    def _limit(self, timeout: float | None) -> float | None:
        return self._left(timeout, anyio.current_time(), 0.0)

    async def _close_socket(self) -> None:
        sock, self._sock, self._framing = self._sock, None, None
        if sock is not None:
            with contextlib.suppress(Exception):
                await sock.aclose()

    async def __aenter__(self) -> WebSocketConnection:
        """Open the socket (``open_connection`` enters the connection for its block)."""
        await self._open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the socket (a normal close frame first when it is open; idempotent, and works
        inside a cancelled scope). Responses still in flight get the outcome ``"cancelled"``
        (:meth:`ResponsesConnection.cancel <sansio_responses.ResponsesConnection.cancel>`), as
        when an HTTP adapter's block is left early, unless the connection had already ended: a
        timeout, a drop that was not reopened, or a server error that broke the protocol."""
        self._cancel_in_flight()
        await self._shutdown()

    async def _shutdown(self) -> None:
        self._closed = True
        if self._sock is not None and self._framing is not None:
            with contextlib.suppress(Exception), anyio.move_on_after(1):
                await self._write(self._framing.close())
        await self._close_socket()


def _seconds(timeout: float | None) -> float:
    return math.inf if timeout is None else timeout


@contextlib.asynccontextmanager
async def open_connection(
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
) -> AsyncGenerator[WebSocketConnection, None]:
    """Open the Responses WebSocket at ``{base_url}/responses`` for the ``async with`` block.

    *base_url*, *api_key*, *headers*, *organization* and *project* are checked as by
    :func:`~sansio_responses.responses_request` (the key is required for api.openai.com).
    *connection_options* go to :class:`~sansio_responses.ResponsesConnection` (``strict``,
    ``max_message_size``, ``text_format``, ...). The socket is closed on leaving the block.

    The timeouts follow the HTTP adapters' rule (:func:`sansio_responses.check_timeout`):
    ``None``, ``inf`` or more than ``sr.MAX_TIMEOUT`` seconds mean no limit. Leaving the block
    early (a ``break``, an exception, a cancelled scope or task) gives the responses still in
    flight the outcome ``"cancelled"``.

    Raises:
        ConnectError: no connection, a TLS failure or a refused upgrade (``ConnectTimeout`` past
            *connect_timeout*).
        ValueError: an unusable timeout (0, negative, NaN, a ``bool``, not a number), before
            anything is sent.
    """
    connect_timeout = sr.check_timeout("connect_timeout", connect_timeout)
    idle_timeout = sr.check_timeout("idle_timeout", idle_timeout)
    total_timeout = sr.check_timeout("total_timeout", total_timeout)
    protocol = ResponsesConnection(
        reconnect_policy=reconnect_policy, max_queue_bytes=max_queue_bytes, **connection_options
    )
    conn = WebSocketConnection(
        websocket_request(base_url, api_key, headers, organization, project),
        protocol,
        connect_timeout=connect_timeout,
        idle_timeout=idle_timeout,
        total_timeout=total_timeout,
        ssl_context=ssl_context,
    )
    async with conn:
        yield conn
