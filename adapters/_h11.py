"""HTTP/1.1 over h11 for the adapters that own their sockets (trio and plain sockets).

:class:`H11Exchange` turns a sans-IO :class:`~sansio_responses.Request` into request bytes and the
bytes read back into calls on an :class:`~sansio_responses._transport.Exchange` (head, body chunks,
end, dropped connection). h11 handles the framing: ``Content-Length`` and chunked bodies (RFC 9112
sections 6 and 7), and reading until close when neither is given. Each exchange uses its own
connection with ``Connection: close`` (RFC 9112 section 9.6): a stream is one long response, so
keep-alive would save nothing, and a resume after a drop needs a new connection anyway.
"""

from __future__ import annotations

import ssl
import urllib.parse

import h11

from sansio_responses._errors import RemoteProtocolError, excerpt
from sansio_responses._requests import Request
from sansio_responses._transport import ConnectionDropped, Exchange

__all__ = ["MAX_HEAD_SIZE", "H11Exchange", "default_ssl_context"]

MAX_HEAD_SIZE = 64 * 1024
"""The most bytes of a response head (status line and headers) buffered before it is complete."""


def default_ssl_context() -> ssl.SSLContext:
    """``ssl.create_default_context()``: certificates verified against the system store, host
    names checked."""
    return ssl.create_default_context()


def _host_header(request: Request) -> str:
    # RFC 9112 section 3.2: Host is the authority of the target URI, without user info.
    return urllib.parse.urlsplit(request.url).netloc.rpartition("@")[2]


class H11Exchange:
    """One HTTP/1.1 request and its response, driven through h11 into *exchange*.

    Args:
        exchange: receives the head, body chunks, end and failures.
        request: the request to send (``exchange.begin()``).
    """

    def __init__(self, exchange: Exchange, request: Request) -> None:
        self._x = exchange
        self._where = f"{request.host}:{request.port}"
        self._conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_HEAD_SIZE)
        headers = [("host", _host_header(request))]
        headers += [(k, v) for k, v in request.headers if k.lower() not in ("host", "connection")]
        headers.append(("connection", "close"))
        if request.body is not None:
            headers.append(("content-length", str(len(request.body))))
        out = self._conn.send(
            h11.Request(method=request.method, target=request.target, headers=headers)
        )
        if request.body:
            out += self._conn.send(h11.Data(data=request.body)) or b""
        out += self._conn.send(h11.EndOfMessage()) or b""
        #: The bytes to write to the connection.
        self.request_bytes: bytes = out or b""

    @property
    def active(self) -> bool:
        """True while the exchange still waits for bytes of this response."""
        return self._x.state in ("head", "error-body", "body")

    def receive(self, data: bytes | bytearray) -> None:
        """Feed bytes read from the connection (``b""`` at end of file) and pass every complete
        HTTP event to the exchange."""
        self._conn.receive_data(bytes(data))  # no copy when it is bytes already
        while self.active:
            try:
                event = self._conn.next_event()
            except h11.RemoteProtocolError as exc:
                if self._conn.their_state is h11.ERROR and not data:
                    # End of file inside the head or a sized/chunked body.
                    self._x.on_error(
                        ConnectionDropped(f"{self._where} closed the connection: {exc}")
                    )
                    return
                raise RemoteProtocolError(
                    f"invalid HTTP/1.1 response from {self._where}: {exc}",
                    excerpt=excerpt(data[:120].decode("latin-1")),
                ) from None
            if event is h11.NEED_DATA:
                return
            if isinstance(event, h11.Response):
                self._x.on_head(event.status_code, event.headers)
            elif isinstance(event, h11.Data):
                self._x.on_data(event.data)
            elif isinstance(event, h11.EndOfMessage):
                self._x.on_end()
            elif isinstance(event, h11.ConnectionClosed):
                self._x.on_error(ConnectionDropped(f"{self._where} closed the connection"))
            # InformationalResponse (1xx): skipped; the final response follows (RFC 9110 15.2).
