"""One recorded HTTP exchange (:class:`RecordedExchange`), as cassettes hold it: what
:func:`~sansio_responses.testing.load_cassette` returns, and what the testing server can answer with
or a stream can be fed from."""

from __future__ import annotations

import contextlib
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

import attrs

from ._script import Faults, Script

if TYPE_CHECKING:
    from ._server import ResponsesServer

__all__ = ["RecordedExchange"]

_E_co = TypeVar("_E_co", covariant=True)
_E = TypeVar("_E")

# Not replayed by the testing server: it frames the decoded body itself (RFC 9110 section 7.6.1 for
# the hop-by-hop ones).
_NOT_REPLAYED = frozenset(
    {
        "content-length",
        "content-encoding",
        "transfer-encoding",
        "connection",
        "keep-alive",
        "date",
        "server",
    }
)


class _Stream(Protocol[_E_co]):
    def feed(self, data: bytes) -> Sequence[_E_co]: ...
    def close(self) -> Sequence[_E_co]: ...


@attrs.frozen(repr=False)
class RecordedExchange:
    """One recorded request and its response, as
    :func:`~sansio_responses.testing.load_cassette` returns it.

    Attributes:
        method: the request method, upper-case (``"POST"``).
        url: the request URL.
        status: the response's HTTP status.
        headers: the response headers as recorded, in order (a header recorded with several values
            appears once per value).
        body: the exact bytes of the response body, decompressed when the cassette kept them
            compressed.
        request_headers: the request headers as recorded.
        request_body: the request body (``b""`` when none was recorded).
        chunks: the body as it arrived, one entry per read (``body`` is their concatenation), when the
            cassette recorded it (``sansio-responses record``); empty otherwise.
        arrival: for each of *chunks*, the seconds from sending the request to its arrival.
    """

    method: str
    url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    request_headers: tuple[tuple[str, str], ...] = ()
    request_body: bytes = b""
    chunks: tuple[bytes, ...] = ()
    arrival: tuple[float, ...] = ()

    def __attrs_post_init__(self) -> None:
        if self.chunks and b"".join(self.chunks) != self.body:
            raise ValueError("chunks must join to body")
        if len(self.arrival) != len(self.chunks):
            raise ValueError("arrival needs one time per chunk")

    def header(self, name: str) -> str | None:
        """The first value of response header *name* (case-insensitive), or ``None``."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)

    @property
    def is_chat(self) -> bool:
        """Whether the request went to a Chat Completions URL (``.../chat/completions``)."""
        return "/chat/completions" in self.url.split("?", 1)[0]

    def script(self, faults: Faults | None = None, *, pacing: bool = True) -> Script:
        """A :class:`Script` that makes the testing server answer as this recording: its status,
        its headers (less the framing ones: the server sends the decoded body itself) and its body.

        With recorded *chunks* and *pacing*, the server writes the body in the recorded pieces at
        the recorded pace, unless *faults* sets its own ``chunk_size`` or ``delay``; *faults*' other
        options (disconnects, stalls, ...) apply as usual.
        """
        faults = faults if faults is not None else Faults()
        if pacing and self.chunks and faults.chunk_size is None and faults.delay == 0:
            start = self.arrival[0]
            faults = attrs.evolve(
                faults,
                schedule=tuple(
                    (len(chunk), at - start)
                    for chunk, at in zip(self.chunks, self.arrival, strict=True)
                ),
            )
        headers = {k: v for k, v in self.headers if k.lower() not in _NOT_REPLAYED}
        return Script(self.body, status=self.status, headers=headers, faults=faults)

    @contextlib.contextmanager
    def serve(
        self, faults: Faults | None = None, *, pacing: bool = True
    ) -> Generator[ResponsesServer, None, None]:
        """Run the testing server answering the next request with this recording (see
        :meth:`script`): ``with exchange.serve() as server: ...``."""
        from ._server import serve

        with serve(self.script(faults, pacing=pacing)) as server:
            yield server

    def feed(self, stream: _Stream[_E], *, close: bool = True) -> list[_E]:
        """Feed the body to *stream* (a :class:`~sansio_responses.ResponsesStream` or
        :class:`~sansio_responses.ChatCompletionsStream`), in the recorded chunks when there are
        any, then close it unless *close* is false; return every event it gave.

        Closing a stream whose body ended early raises :class:`~sansio_responses.TruncatedStream`
        as usual; the events are then on the stream (its ``snapshot()``)."""
        events: list[_E] = []
        for chunk in self.chunks or (self.body,):
            events += stream.feed(chunk)
        if close:
            events += stream.close()
        return events

    def __repr__(self) -> str:
        return (
            f"RecordedExchange(method={self.method!r}, url={self.url!r}, status={self.status}, "
            f"body=<{len(self.body)} bytes>, chunks={len(self.chunks)})"
        )
