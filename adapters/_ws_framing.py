"""What the WebSocket adapters share, without I/O: the upgrade, framing by wsproto, messages
handed to the :class:`~sansio_responses.ResponsesConnection`, and the state of a connection
(:class:`ConnectionState`: timeouts, deadline, events ready, the errors both raise).

The async adapter (``websocket``) and the blocking one (``websocket_sync``) only move the bytes
this object asks them to send and feed it the bytes they receive.
"""

from __future__ import annotations

import ssl
from typing import Any

import wsproto
import wsproto.events as ws
from wsproto.utilities import LocalProtocolError

import sansio_responses as sr
from sansio_responses import RemoteProtocolError, Request, ResponsesConnection, ResponsesServerEvent

__all__ = ["READ_SIZE", "TRANSPORT_HEADERS", "ConnectionState", "Framing", "websocket_request"]

READ_SIZE = 65536
# The HTTP builder's headers that describe a POST body, not the upgrade request.
TRANSPORT_HEADERS = frozenset({"accept", "content-type", "content-length"})
# The most bytes of a refused upgrade's body kept, to quote in the error.
_REJECT_BODY = 4096


def websocket_request(
    base_url: str,
    api_key: str | None,
    headers: Any,
    organization: str | None,
    project: str | None,
) -> Request[Any]:
    """The upgrade ``GET {base_url}/responses``, its URL and headers checked as
    :func:`~sansio_responses.responses_request` checks them."""
    post = sr.responses_request(
        {},
        base_url=base_url,
        api_key=api_key,
        headers=headers,
        organization=organization,
        project=project,
    )
    kept = tuple((k, v) for k, v in post.headers if k.lower() not in TRANSPORT_HEADERS)
    return Request(method="GET", url=post.url, headers=kept, body=None)


class Framing:
    """One socket's WebSocket state: wsproto plus the text of a message being assembled.

    Attributes:
        closed_with: after the server's close frame, its code (``None`` until then).
    """

    def __init__(self, request: Request[Any], protocol: ResponsesConnection) -> None:
        self.request = request
        self.protocol = protocol
        self._ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        self._text: list[str] = []
        self._size = 0
        self._reject_status = 0
        self._reject_body = b""
        self.closed_with: int | None = None

    def handshake(self) -> bytes:
        """The upgrade request's bytes."""
        request = self.request
        default = 443 if request.scheme == "https" else 80
        host = request.host if request.port == default else f"{request.host}:{request.port}"
        headers = [(k.encode(), v.encode()) for k, v in request.headers]
        return self._ws.send(ws.Request(host=host, target=request.target, extra_headers=headers))

    def accepted(self, data: bytes) -> bool:
        """Feed bytes of the upgrade answer: ``True`` once accepted (a refusal raises
        :class:`~sansio_responses.ConnectError` quoting the server's status and body)."""
        self._ws.receive_data(data)
        for event in self._ws.events():
            if isinstance(event, ws.AcceptConnection):
                return True
            if isinstance(event, ws.RejectConnection):
                self._reject_status = event.status_code
                if not event.has_body:
                    raise self._rejected()
            elif isinstance(event, ws.RejectData):
                self._reject_body += event.data[: _REJECT_BODY - len(self._reject_body)]
                if event.body_finished:
                    raise self._rejected()
        return False

    def message(self, text: str) -> bytes:
        """The bytes of one text message."""
        return self._ws.send(ws.Message(data=text))

    def close(self, code: int = 1000) -> bytes:
        """The bytes of a close frame (empty once the connection can send nothing more)."""
        try:
            return self._ws.send(ws.CloseConnection(code=code))
        except LocalProtocolError:  # wsproto: the connection is already closing or closed
            return b""

    def receive(self, data: bytes) -> tuple[list[ResponsesServerEvent], bytes]:
        """Feed received bytes; return the server events they complete and the bytes to send
        back (pong, the close reply). After a close frame :attr:`closed_with` is set."""
        self._ws.receive_data(data)
        events: list[ResponsesServerEvent] = []
        reply = b""
        limit = self.protocol.max_message_size
        try:
            for event in self._ws.events():
                if isinstance(event, ws.TextMessage):
                    self._text.append(event.data)
                    self._size += len(event.data)
                    if (limit is not None and self._size > limit) or event.message_finished:
                        # An oversized message is the protocol object's to report (EventTooLarge).
                        message = "".join(self._text)
                        self._text, self._size = [], 0
                        events += self.protocol.receive(message)
                elif isinstance(event, ws.Ping):
                    reply += self._ws.send(event.response())
                elif isinstance(event, ws.CloseConnection):
                    reply += self._ws.send(event.response())
                    self.closed_with = event.code
                    break
                elif isinstance(event, ws.BytesMessage):
                    raise RemoteProtocolError(
                        "the server sent a binary message; the API sends text"
                    )
        except sr.ProtocolError as exc:
            # One read can hold several messages: those before the failing one were applied to
            # their lanes, and their events are the caller's (as a stream's feed() carries them).
            exc.events = [*events, *exc.events]
            raise
        return events, reply

    def _rejected(self) -> sr.ConnectError:
        request = self.request
        shown = self._reject_body[:300].decode("utf-8", "replace")
        status = self._reject_status
        return sr.ConnectError(
            f"the server at {request.host}:{request.port} refused the WebSocket upgrade"
            + (f" (HTTP {status})" if status else "")
            + (f": {shown}" if shown else "")
        )


class ConnectionState:
    """The state both WebSocket adapters keep for one connection, and the decisions and errors
    that do not depend on their I/O. Each adapter adds its socket and its clock.

    Attributes:
        protocol: the sans-IO :class:`~sansio_responses.ResponsesConnection`.
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
        now: float,
    ) -> None:
        self.protocol = protocol
        self._request = request
        self._connect_timeout = connect_timeout
        self._idle_timeout = idle_timeout
        self._total_timeout = total_timeout
        self._deadline = None if total_timeout is None else now + total_timeout
        self._ssl = ssl_context
        self._framing: Framing | None = None
        self._ready: list[ResponsesServerEvent] = []
        # A protocol error of the last read, raised once the events before it were taken.
        self._failed: sr.ProtocolError | None = None
        self._closed = False
        self.reconnects = 0

    def _left(self, timeout: float | None, now: float, floor: float) -> float | None:
        # The wait's bound: *timeout* or what is left of the total deadline, whichever is first.
        if self._deadline is None:
            return timeout
        left = max(floor, self._deadline - now)
        return left if timeout is None else min(timeout, left)

    def _past(self, now: float, delay: float = 0.0) -> bool:
        # Whether the total deadline passed (or would, after *delay* seconds).
        return self._deadline is not None and now + delay >= self._deadline

    def _total_error(self) -> sr.TotalTimeout:
        assert self._total_timeout is not None
        return sr.TotalTimeout(
            f"the WebSocket connection took longer than total_timeout ({self._total_timeout} s)",
            timeout=self._total_timeout,
        )

    def _closed_how(self, code: int | None) -> str:
        where = f"{self._request.host}:{self._request.port}"
        return f"the WebSocket to {where} closed ({'no close frame' if code is None else f'code {code}'})"

    def _lost_error(self, code: int | None, lost: int) -> sr.ConnectionDropped:
        return sr.ConnectionDropped(
            f"{self._closed_how(code)} with {lost} response(s) in flight, now ended "
            "'truncated'; the socket is open again",
        )

    def _not_reopened(self, code: int | None) -> sr.ConnectionDropped:
        self._closed = True
        return sr.ConnectionDropped(
            f"{self._closed_how(code)} and was not reopened ({self.reconnects} reconnect(s) made)"
        )

    def _received(self, framing: Framing, data: bytes) -> bytes:
        """Feed *data* to *framing*: its events join the ready queue, and a protocol error is
        kept to be raised after the events decoded before it (:meth:`_raise_failed`). Returns the
        bytes to send back."""
        try:
            events, reply = framing.receive(data)
        except sr.ProtocolError as exc:
            self._ready += exc.events
            self._failed = exc
            return b""
        self._ready += events
        return reply

    def _raise_failed(self) -> None:
        """Raise the protocol error of a read once the events before it were taken."""
        if self._failed is not None:
            failed, self._failed = self._failed, None
            raise failed

    def _cancel_in_flight(self) -> None:
        # The consumer closes the connection: what is still in flight is "cancelled", unless
        # the connection had already ended (a timeout, a drop not reopened, a protocol error).
        if not self._closed and self.protocol.error is None:
            self.protocol.cancel()
