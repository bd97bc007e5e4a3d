"""HTTP/1.1 over h11 for the adapters that own their sockets (trio and plain sockets).

:class:`H11Exchange` turns a sans-IO :class:`~sansio_responses.Request` into request bytes and the
bytes read back into calls on an :class:`~sansio_responses.Exchange` (head, body chunks,
end, dropped connection). h11 handles the framing: ``Content-Length`` and chunked bodies (RFC 9112
sections 6 and 7), and reading until close when neither is given. Each exchange uses its own
connection with ``Connection: close`` (RFC 9112 section 9.6): a stream is one long response, so
keep-alive would save nothing, and a resume after a drop needs a new connection anyway.

The request asks for ``Accept-Encoding: identity`` (a compressor holds events back); a server
that compresses anyway with ``gzip`` or ``deflate`` is decoded here (RFC 9110 section 8.4.1), and
any other coding fails with an error naming it, never a silent empty stream.
"""

from __future__ import annotations

import ssl
import urllib.parse
import zlib
from collections.abc import Iterator
from typing import Any

import h11

from sansio_responses import ConnectionDropped, Exchange, RemoteProtocolError, Request, send_headers

__all__ = ["MAX_HEAD_SIZE", "READ_SIZE", "H11Exchange", "default_ssl_context"]

READ_SIZE = 65536
"""Bytes asked for per read from the socket, and the most bytes one decompression step gives."""

MAX_HEAD_SIZE = 64 * 1024
"""The most bytes of a response head (status line and headers) buffered before it is complete."""


def default_ssl_context() -> ssl.SSLContext:
    """``ssl.create_default_context()``: certificates verified against the system store, host
    names checked."""
    return ssl.create_default_context()


def _host_header(request: Request[Any]) -> str:
    # RFC 9112 section 3.2: Host is the authority of the target URI, without user info.
    return urllib.parse.urlsplit(request.url).netloc.rpartition("@")[2]


def _request_bytes(conn: h11.Connection, request: Request[Any]) -> bytes:
    # A function of its own so that no frame of the read loop holds the headers (the API key) in
    # a local variable that a traceback with locals would print.
    headers = [("host", _host_header(request))]
    headers += [(k, v) for k, v in send_headers(request) if k.lower() not in ("host", "connection")]
    headers.append(("connection", "close"))
    if request.body is not None:
        headers.append(("content-length", str(len(request.body))))
    out = conn.send(h11.Request(method=request.method, target=request.target, headers=headers))
    if request.body:
        out += conn.send(h11.Data(data=request.body)) or b""
    out += conn.send(h11.EndOfMessage()) or b""
    return out or b""


class _Decoder:
    """Undoes a ``gzip`` or ``deflate`` content coding, bounded per call."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        # gzip: wbits 16+; deflate: the zlib format (RFC 9110 8.4.1.2), raw deflate as fallback
        # for the servers that send that instead (as httpx and browsers accept).
        self._wbits = 16 + zlib.MAX_WBITS if coding in ("gzip", "x-gzip") else zlib.MAX_WBITS
        self._z = zlib.decompressobj(self._wbits)
        self._started = False
        # gzip: a member ended, so what follows is the next member (RFC 1952 section 2.2: a
        # series of members), or, if it is none, trailing bytes ignored (as urllib3 does).
        self._members = False
        self._ignoring = False

    def decode(self, data: bytes) -> Iterator[bytes]:
        """The decoded bytes of *data*, in pieces of at most :data:`READ_SIZE`, each decompressed
        only when the previous one was taken: a caller that feeds each piece before taking the
        next holds one piece at a time, however much a read expands (a "zip bomb": 64 KiB of
        gzip can stand for 64 MB). Raises ``zlib.error`` on a corrupt body, after the pieces
        before it."""
        while data and not self._ignoring:
            if self._z.eof:
                if self.coding == "deflate":
                    break  # after the one zlib stream: ignored, as before
                self._z = zlib.decompressobj(self._wbits)
                self._members = True
            try:
                piece = self._z.decompress(data, READ_SIZE)
            except zlib.error:
                if self.coding == "deflate" and not self._started:
                    self._z = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._started = True
                    yield from self.decode(data)
                    return
                if self._members:
                    self._ignoring = True  # no gzip member after a complete one: ignored
                    break
                raise
            self._started = True
            if piece:
                yield piece
            # A bounded output per call: the rest of the input waits as the unconsumed tail.
            data = self._z.unconsumed_tail or (self._z.unused_data if self._z.eof else b"")

    def flush(self) -> bytes:
        return b"" if self._ignoring else self._z.flush()


class GzipMembers:
    """A gzip decoder with httpx's decoder interface (``decode`` and ``flush`` give bytes) that
    reads every member of the body, as :class:`_Decoder` does: httpx's own stops at the end of
    the first one and drops the rest (RFC 1952 section 2.2: a gzip body is a series of members).
    *error* is the class raised for a corrupt body (``httpx.DecodingError`` for the httpx
    adapters, which report it as the other decoding errors)."""

    def __init__(self, error: type[Exception]) -> None:
        self._decoder = _Decoder("gzip")
        self._error = error

    def decode(self, data: bytes) -> bytes:
        # (httpx's decoder interface returns each read's bytes whole: not bounded per piece.)
        try:
            return b"".join(self._decoder.decode(data))
        except zlib.error as exc:
            raise self._error(str(exc)) from exc

    def flush(self) -> bytes:
        try:
            return self._decoder.flush()
        except zlib.error as exc:
            raise self._error(str(exc)) from exc


def gzip_only(codings: list[str]) -> bool:
    """Whether *codings* (a Content-Encoding's, split at commas) are one ``gzip`` coding (with any
    ``identity``): the body :class:`GzipMembers` decodes."""
    kept = [c.strip().lower() for c in codings if c.strip().lower() not in ("", "identity")]
    return kept in (["gzip"], ["x-gzip"])


class H11Exchange:
    """One HTTP/1.1 request and its response, driven through h11 into *exchange*.

    Args:
        exchange: receives the head, body chunks, end and failures.
        request: the request to send (``exchange.begin()``).
    """

    def __init__(self, exchange: Exchange[Any], request: Request[Any]) -> None:
        self._x = exchange
        self._where = f"{request.host}:{request.port}"
        self._conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_HEAD_SIZE)
        self._decoder: _Decoder | None = None
        #: The bytes to write to the connection.
        self.request_bytes: bytes = _request_bytes(self._conn, request)

    @property
    def active(self) -> bool:
        """True while the exchange still waits for bytes of this response."""
        return self._x.state in ("head", "error-body", "body")

    def receive(self, data: bytes | bytearray) -> None:
        """Feed bytes read from the connection (``b""`` at end of file) and pass every complete
        HTTP event to the exchange. The end of file inside the head or a sized or chunked body
        is a dropped connection; bytes that are not valid HTTP/1.1 (a head or a chunk header h11
        refuses, a ``101``) are the server's fault (``Exchange.on_invalid``), after the events
        decoded before them."""
        self._conn.receive_data(bytes(data))  # no copy when it is bytes already
        while self.active:
            try:
                event = self._conn.next_event()
            except h11.RemoteProtocolError as exc:
                if self._conn.their_state is h11.ERROR and not data:
                    # End of file inside the head or a sized/chunked body.
                    message = f"{self._where} closed the connection: {exc}"
                    error = ConnectionDropped(message)
                    error.__cause__ = RemoteProtocolError(message)
                    self._x.on_error(error)
                else:
                    excerpt = repr(bytes(data[:120]).decode("latin-1"))
                    self._x.on_invalid(exc, excerpt=excerpt)
                return
            if event is h11.NEED_DATA:
                return
            if isinstance(event, h11.Response):
                self._head(event)
            elif isinstance(event, h11.Data):
                self._data(event.data)
            elif isinstance(event, h11.EndOfMessage):
                if self._decoder is not None:
                    self._data(b"", flush=True)
                if self.active:
                    self._x.on_end()
            elif isinstance(event, h11.ConnectionClosed):
                self._x.on_error(ConnectionDropped(f"{self._where} closed the connection"))
            # InformationalResponse (1xx): skipped; the final response follows (RFC 9110 15.2).

    def _head(self, event: h11.Response) -> None:
        codings = [
            c.strip().lower()
            for name, value in event.headers
            if name == b"content-encoding"
            for c in value.decode("latin-1").split(",")
            if c.strip() and c.strip().lower() != "identity"
        ]
        self._x.on_head(event.status_code, event.headers)
        if not codings or not self.active:  # not active: the head ended it (a 204)
            return
        if len(codings) == 1 and codings[0] in ("gzip", "x-gzip", "deflate"):
            self._decoder = _Decoder(codings[0])
            return
        self._x.fail(
            RemoteProtocolError(
                f"{self._where} sent a body in content coding {', '.join(codings)!r}, which this "
                "adapter cannot decode (it asked for identity; gzip and deflate are decoded)"
            )
        )

    def _data(self, data: bytes | bytearray, *, flush: bool = False) -> None:
        if self._decoder is None:
            self._x.on_data(data)
            return
        try:
            # Each piece fed before the next is decompressed (see _Decoder.decode); none once
            # the exchange has ended (a limit error, say).
            for piece in self._decoder.decode(bytes(data)):
                if not self.active:
                    return
                self._x.on_data(piece)
            if flush:
                tail = self._decoder.flush()
                if tail and self.active:
                    self._x.on_data(tail)
        except zlib.error as exc:
            self._x.fail(
                RemoteProtocolError(
                    f"invalid {self._decoder.coding} body from {self._where}: {exc}"
                )
            )
