"""What the test server sends for one request: a body plus the faults to inject while sending it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import attrs

from ._builder import ChatStreamBuilder, StreamBuilder

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .._base import JSONValue

__all__ = ["FaultOptions", "Faults", "Script", "split_events"]

_LINE_END = re.compile(rb"\r\n|\r|\n")
# A line end followed by an empty line. "\r(?!\n)" keeps a CRLF from counting as CR then LF.
_BLANK_LINE = re.compile(rb"(?:\r\n|\r(?!\n)|\n)(?:\r\n|\r(?!\n)|\n)")
_DATA_LINE = re.compile(rb"(?:\A|[\r\n])data")


@attrs.frozen
class Faults:
    """How to send a body, and what to break while sending it.

    Attributes:
        chunk_size: bytes per write; ``None`` writes one event block per write.
        delay: seconds to wait between writes.
        chunked: ``Transfer-Encoding: chunked`` when true, else a ``Content-Length`` announcing the
            whole body (so a disconnect is a short body the client can detect).
        disconnect_after_bytes: close the connection abruptly after this many body bytes.
        disconnect_after_events: close it right after the Nth event block (comment-only blocks are
            not events).
        stall_after_events: after the Nth event block, send nothing for *stall_seconds* while
            keeping the connection open, then carry on.
        stall_seconds: length of the stall.
        keepalive_every: insert a ``: keep-alive`` comment block after every N event blocks.
        crlf: rewrite every line ending of the body as CRLF.
        content_type: override the ``Content-Type`` header (``None``: ``text/event-stream;
            charset=utf-8`` for 2xx, ``application/json`` otherwise).
        schedule: write the body in these pieces, each ``(size in bytes, seconds after the first
            write)``, as a recording kept them (``RecordedExchange.script()`` sets it); bytes past
            the last piece follow at once. Replaces *chunk_size* and *delay*.
    """

    chunk_size: int | None = None
    delay: float = 0.0
    chunked: bool = True
    disconnect_after_bytes: int | None = None
    disconnect_after_events: int | None = None
    stall_after_events: int | None = None
    stall_seconds: float = 30.0
    keepalive_every: int | None = None
    crlf: bool = False
    content_type: str | None = None
    schedule: tuple[tuple[int, float], ...] | None = None

    def __attrs_post_init__(self) -> None:
        for name in ("chunk_size", "keepalive_every"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"{name} must be >= 1, got {value}")
        for name in ("disconnect_after_bytes", "disconnect_after_events", "stall_after_events"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"{name} must be >= 0, got {value}")
        if self.delay < 0 or self.stall_seconds < 0:
            raise ValueError("delay and stall_seconds must be >= 0")
        if self.schedule is not None and any(n < 0 or at < 0 for n, at in self.schedule):
            raise ValueError("schedule sizes and times must be >= 0")


def split_events(body: bytes) -> list[bytes]:
    """Split an event-stream body into blocks, each ending with its blank line (the last block may
    be unterminated). Lines end with CRLF, LF or CR (WHATWG event-stream grammar); extra blank lines
    between events form blocks of their own, which carry no event."""
    return list(_iter_blocks(body))


def _iter_blocks(body: bytes) -> Iterator[bytes]:
    start = 0
    for match in _BLANK_LINE.finditer(body):
        yield body[start : match.end()]
        start = match.end()
    if start < len(body):
        yield body[start:]


def _is_event(block: bytes) -> bool:
    # A line starting with "data" is a data field (a comment line starts with ":").
    return _DATA_LINE.search(block) is not None


def _data(block: bytes) -> JSONValue:
    lines = [line[5:] for line in _LINE_END.split(block) if line.startswith(b"data:")]
    text = b"\n".join(line[1:] if line.startswith(b" ") else line for line in lines)
    try:
        data: JSONValue = json.loads(text)
    except ValueError:
        return None
    return data


_Builder = StreamBuilder | ChatStreamBuilder


class FaultOptions(TypedDict, total=False):
    """The fault keywords of :class:`Script` and :meth:`Script.error`: :class:`Faults`' fields."""

    chunk_size: int | None
    delay: float
    chunked: bool
    disconnect_after_bytes: int | None
    disconnect_after_events: int | None
    stall_after_events: int | None
    stall_seconds: float
    keepalive_every: int | None
    crlf: bool
    content_type: str | None
    schedule: tuple[tuple[int, float], ...] | None


_FAULT_DEFAULTS: dict[str, Any] = {field.name: field.default for field in attrs.fields(Faults)}


@attrs.frozen(init=False)
class Script:
    """One scripted answer of :class:`~sansio_responses.testing.ResponsesServer`.

    Build it from the body bytes (or a builder, sent as its ``to_sse()``) and the fault keywords
    of :class:`Faults` (``chunk_size``, ``delay``, ``chunked``, ``disconnect_after_bytes``,
    ``disconnect_after_events``, ``stall_after_events``, ``stall_seconds``, ``keepalive_every``,
    ``crlf``, ``content_type``, ``schedule``)::

        Script(recording("responses-simonw-llm-test_responses_basic_streaming.sse"), chunk_size=7)
        Script(StreamBuilder(background=True).text("hi", 2).completed().to_sse(),
               disconnect_after_events=4, resumes=[Faults(disconnect_after_events=2), Faults()])
        Script.error(429, "Rate limit reached", retry_after=1.5)

    Attributes:
        body: the bytes to send.
        status: the HTTP status.
        headers: extra response headers.
        faults: how to send *body* on the first request.
        background: remember this stream for resume GETs; ``None`` decides from the body (the
            ``response.created`` event's ``response.background``).
        resumes: one entry per successive resume GET of this response: :class:`Faults` to send the
            remaining events with, or a :class:`Script` to answer instead (for example
            ``Script.error(503, "overloaded")``); once they are used up, resumes
            are sent cleanly.
    """

    body: bytes
    status: int
    headers: tuple[tuple[str, str], ...]
    faults: Faults
    background: bool | None
    resumes: tuple[Faults | Script, ...]

    def __init__(
        self,
        body: bytes | _Builder,
        *,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
        background: bool | None = None,
        resumes: Sequence[Faults | Script] = (),
        faults: Faults | None = None,
        # The fault keywords: Faults' fields, with its defaults (a test checks they agree).
        chunk_size: int | None = None,
        delay: float = 0.0,
        chunked: bool = True,
        disconnect_after_bytes: int | None = None,
        disconnect_after_events: int | None = None,
        stall_after_events: int | None = None,
        stall_seconds: float = 30.0,
        keepalive_every: int | None = None,
        crlf: bool = False,
        content_type: str | None = None,
        schedule: tuple[tuple[int, float], ...] | None = None,
    ) -> None:
        fault_options: dict[str, Any] = {
            name: value
            for name, value in (
                ("chunk_size", chunk_size),
                ("delay", delay),
                ("chunked", chunked),
                ("disconnect_after_bytes", disconnect_after_bytes),
                ("disconnect_after_events", disconnect_after_events),
                ("stall_after_events", stall_after_events),
                ("stall_seconds", stall_seconds),
                ("keepalive_every", keepalive_every),
                ("crlf", crlf),
                ("content_type", content_type),
                ("schedule", schedule),
            )
            if value != _FAULT_DEFAULTS[name]  # given: differs from Faults' default
        }
        if isinstance(body, (StreamBuilder, ChatStreamBuilder)):
            body = body.to_sse()
        if not isinstance(body, bytes):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"body must be bytes or a builder, got {type(body).__name__}")
        if faults is not None and fault_options:
            raise TypeError("pass either faults= or fault keywords, not both")
        # attrs' __init__ under its init=False name, which pyright does not know.
        self.__attrs_init__(  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
            body=body,
            status=status,
            headers=tuple((headers or {}).items()),
            faults=faults if faults is not None else Faults(**fault_options),
            background=background,
            resumes=tuple(resumes),
        )

    @classmethod
    def error(
        cls,
        status: int,
        message: str,
        *,
        type: str | None = "invalid_request_error",
        code: str | None = None,
        param: str | None = None,
        retry_after: float | str | None = None,
        retry_after_ms: float | None = None,
        headers: Mapping[str, str] | None = None,
        faults: Faults | None = None,
        **fault_options: Unpack[FaultOptions],
    ) -> Script:
        """An HTTP error answer with the API's JSON error body
        ``{"error": {"message", "type", "param", "code"}}`` and optional ``retry-after`` /
        ``retry-after-ms`` headers."""
        body = {"error": {"message": message, "type": type, "param": param, "code": code}}
        extra = dict(headers or {})
        if retry_after is not None:
            extra["retry-after"] = str(retry_after)
        if retry_after_ms is not None:
            extra["retry-after-ms"] = str(retry_after_ms)
        return cls(
            json.dumps(body, indent=2).encode() + b"\n",
            status=status,
            headers=extra,
            faults=faults,
            **fault_options,
        )

    def blocks(self) -> list[bytes]:
        """The body split into event blocks (see :func:`split_events`)."""
        return split_events(self.body)

    def response_id(self) -> str | None:
        """The response id announced by the first event that carries ``response.id``."""
        for block in _iter_blocks(self.body):
            data = _data(block)
            if isinstance(data, dict):
                response: JSONValue = data.get("response")
                if isinstance(response, dict) and isinstance(response.get("id"), str):
                    return str(response["id"])
        return None

    def is_background(self) -> bool:
        """Whether resume GETs may ask for this stream (see the ``background`` attribute)."""
        if self.background is not None:
            return self.background
        for block in _iter_blocks(self.body):
            data = _data(block)
            if isinstance(data, dict) and isinstance(data.get("response"), dict):
                return data["response"].get("background") is True
        return False

    def events_after(self, starting_after: int | None) -> bytes:
        """The event blocks whose ``sequence_number`` is greater than *starting_after* (all of the
        body when it is ``None``): what a resume GET sends."""
        if starting_after is None:
            return self.body
        kept: list[bytes] = []
        for block in self.blocks():
            data = _data(block)
            if isinstance(data, dict):
                number = data.get("sequence_number")
                if isinstance(number, int) and number > starting_after:
                    kept.append(block)
        return b"".join(kept)


def plan(body: bytes, faults: Faults) -> tuple[bytes, list[int], int | None, int | None]:
    """Apply the framing faults to *body*.

    Returns the bytes to send, the offsets after each block (write boundaries when ``chunk_size``
    is ``None``), the byte offset where to cut the connection (or ``None``) and the byte offset
    where to stall (or ``None``).
    """
    out = bytearray()
    boundaries: list[int] = []
    events = 0
    cut: int | None = None
    stall: int | None = None
    keepalive = b": keep-alive\r\n\r\n" if faults.crlf else b": keep-alive\n\n"
    if faults.disconnect_after_events == 0:
        cut = 0
    if faults.stall_after_events == 0:
        stall = 0
    for block in split_events(body):
        if faults.crlf:
            block = _LINE_END.sub(b"\r\n", block)
        out += block
        boundaries.append(len(out))
        if _is_event(block):
            events += 1
            if events == faults.disconnect_after_events and cut is None:
                cut = len(out)
            if events == faults.stall_after_events:
                stall = len(out)
            if faults.keepalive_every is not None and events % faults.keepalive_every == 0:
                out += keepalive
                boundaries.append(len(out))
    if faults.disconnect_after_bytes is not None:
        cut = min(faults.disconnect_after_bytes, len(out) if cut is None else cut)
    return bytes(out), boundaries, cut, stall
