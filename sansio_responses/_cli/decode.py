"""``decode``: a captured stream body from a file or stdin, its protocol detected from its first events."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

from .._chat.stream import ChatCompletionsStream
from .._errors import ProtocolError
from .._responses.stream import ResponsesStream
from .._sse import DEFAULT_MAX_EVENT_SIZE, SSEDecoder
from .common import EXIT_CODES_HELP, EXIT_OK, Subcommands, UsageError, exit_code, positive_int
from .output import Printer

if TYPE_CHECKING:
    from .._base import JSONValue

#: How many bytes ``decode`` reads at a time.
_READ_SIZE = 65536

#: How many events with a JSON object in their data ``decode`` looks at to tell the protocol.
_DETECT_EVENTS = 16


def _detect(data: str) -> str | None:
    """``"responses"``, ``"chat"`` or ``None`` (undecided) from one event's data."""
    if data == "[DONE]":
        return "chat"
    try:
        obj: JSONValue = json.loads(data)
    except ValueError:
        raise UsageError(
            "the first event's data is not JSON, so this is neither a Responses nor a Chat "
            f"Completions stream: {data[:80]!r}"
        ) from None
    except RecursionError:
        return None  # nested too deep to sniff: the stream itself reports it, located
    if not isinstance(obj, dict):
        return None
    etype = obj.get("type")
    if "choices" in obj or obj.get("object") == "chat.completion.chunk":
        return "chat"
    if isinstance(etype, str) and (etype.startswith("response.") or etype == "error"):
        return "responses"
    if "error" in obj and etype is None:
        return "chat"  # Chat streams send errors as {"error": {...}} with no type
    return None


def _not_sse_hint(head: bytes) -> str:
    start = head.lstrip()[:64]
    if not start:
        return "the input is empty"
    if start.startswith(b"\x1f\x8b"):
        return "the input is gzip-compressed: decompress it first"
    if start[:1] in (b"{", b"["):
        return "the input looks like JSON (a non-streamed response?), not an event stream"
    if start[:1] == b"<":
        return "the input looks like HTML or XML, not an event stream"
    if start.startswith(b"HTTP/"):
        return "the input starts with an HTTP status line: save only the response body"
    return f"no 'data:' line found; the input starts with {start[:40]!r}"


def _read_chunks(source: IO[bytes]) -> Iterator[bytes]:
    # read1 returns what is available now, so piped input is decoded as it arrives.
    read = getattr(source, "read1", source.read)
    while chunk := read(_READ_SIZE):
        yield chunk


def decode_chunks(
    chunks: Iterable[bytes],
    printer: Printer,
    *,
    fmt: str = "auto",
    strict: bool = False,
    max_event_size: int | None = DEFAULT_MAX_EVENT_SIZE,
) -> tuple[ResponsesStream | ChatCompletionsStream, BaseException | None]:
    """Decode a body given as chunks, printing as it goes; return the stream and any error.

    With ``fmt="auto"`` the protocol is told from the first event whose data says it. Until then
    the chunks are fed to a stream of each protocol, which keep the few events decoded so far,
    not the bytes: memory stays bounded by one event (``max_event_size``) however much comes
    before the first event (keep-alive comments, say).
    """
    iterator = iter(chunks)

    def new(kind: str) -> ResponsesStream | ChatCompletionsStream:
        if kind == "chat":
            return ChatCompletionsStream(strict=strict, max_event_size=max_event_size)
        return ResponsesStream(strict=strict, max_event_size=max_event_size)

    if fmt == "auto":
        candidates = {kind: _Candidate(new(kind)) for kind in ("responses", "chat")}
        kind, ended = _detect_kind(iterator, candidates, max_event_size)
        chosen = candidates[kind]
        if ended:
            chosen.close()
        for event in chosen.events:
            printer.event(event)
        if chosen.error is not None or ended:
            return chosen.stream, chosen.error
        stream = chosen.stream
    else:
        stream = new(fmt)
    try:
        for chunk in iterator:
            for event in stream.feed(chunk):
                printer.event(event)
        for event in stream.close():
            printer.event(event)
    except ProtocolError as exc:
        for event in getattr(exc, "events", ()):
            printer.event(event)
        return stream, exc
    return stream, None


class _Candidate:
    """A stream of one protocol, fed while the protocol is not known yet: the events it decodes
    and the error it raised are kept (detection stops after a few events)."""

    def __init__(self, stream: ResponsesStream | ChatCompletionsStream) -> None:
        self.stream = stream
        self.events: list[Any] = []
        self.error: ProtocolError | None = None

    def feed(self, chunk: bytes) -> None:
        if self.error is None:
            try:
                self.events += self.stream.feed(chunk)
            except ProtocolError as exc:
                self.events += getattr(exc, "events", ())
                self.error = exc

    def close(self) -> None:
        if self.error is None:
            try:
                self.events += self.stream.close()
            except ProtocolError as exc:
                self.events += getattr(exc, "events", ())
                self.error = exc


_SNIFF = re.compile(
    rb'"type"\s*:\s*"(?P<responses>response\.)|"object"\s*:\s*"(?P<chat>chat\.completion\.chunk)"'
)
_SNIFF_BYTES = 65536


def _sniff(head: bytes) -> str | None:
    """The protocol named by the first ``type``/``object`` marker in raw bytes, if any."""
    match = _SNIFF.search(head)
    if match is None:
        return None
    return "responses" if match.group("responses") else "chat"


def _detect_kind(
    iterator: Iterator[bytes], candidates: dict[str, _Candidate], max_event_size: int | None
) -> tuple[str, bool]:
    """The protocol, and whether the input ended while telling it; every chunk read is fed to
    every candidate first. Keeps only the first :data:`_SNIFF_BYTES` bytes (for the messages)."""
    decoder = SSEDecoder(max_event_size=max_event_size)
    head = b""
    looked = 0
    for chunk in iterator:
        for candidate in candidates.values():
            candidate.feed(chunk)
        if len(head) < _SNIFF_BYTES:
            head += chunk[: _SNIFF_BYTES - len(head)]
        try:
            events = decoder.feed(chunk)
        except ProtocolError as exc:
            # An event too large to frame: guess from its bytes, and let the stream itself report
            # the error at its place (exit 1), as it would have without detection.
            kind = _sniff(head)
            if kind is None:
                raise UsageError(f"not an event stream: {exc}") from None
            return kind, False
        for event in events:
            if not event.data.strip():
                continue
            kind = _detect(event.data)
            if kind is not None:
                return kind, False
            looked += 1
            if looked >= _DETECT_EVENTS:
                raise UsageError(
                    f"cannot tell Responses from Chat Completions after {looked} events; "
                    "pass --format responses or --format chat"
                )
    try:
        events = decoder.close()
    except ProtocolError:
        events = []
    for event in events:
        if event.data.strip() and (kind := _detect(event.data)) is not None:
            return kind, True
    if looked:
        raise UsageError(
            "no event says which protocol this is; pass --format responses or --format chat"
        )
    raise UsageError(f"not an event stream: {_not_sse_hint(head)}")


def cmd_decode(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``decode FILE|-``."""
    printer = Printer(out, err, events_json=args.events)
    max_event_size = None if args.max_event_size == 0 else args.max_event_size
    started = time.perf_counter()
    if args.file == "-":
        source: IO[bytes] = sys.stdin.buffer
        stream, error = decode_chunks(
            _read_chunks(source),
            printer,
            fmt=args.format,
            strict=args.strict,
            max_event_size=max_event_size,
        )
    else:
        try:
            handle = open(args.file, "rb")
        except OSError as exc:
            raise UsageError(f"cannot read {args.file}: {exc.strerror or exc}") from None
        with handle:
            try:
                stream, error = decode_chunks(
                    _read_chunks(handle),
                    printer,
                    fmt=args.format,
                    strict=args.strict,
                    max_event_size=max_event_size,
                )
            except IsADirectoryError:
                raise UsageError(f"cannot read {args.file}: it is a directory") from None
            except OSError as exc:
                raise UsageError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    printer.report(stream, error=error, elapsed=time.perf_counter() - started)
    code = exit_code(stream, error, check=args.check, allowed=args.allow)
    if args.check and code == EXIT_OK:
        printer.note("check: ok")
    elif args.check:
        printer.note("check: failed")
    return code


def add_parsers(sub: Subcommands) -> None:
    """Add ``decode``."""
    p = sub.add_parser(
        "decode",
        help="decode a captured stream (file or stdin)",
        description="Decode a captured Responses or Chat Completions stream body (detected from "
        "its first event): text as it decodes, then tool calls, outcome, usage, diagnostics.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help="the response body, or - for stdin")
    p.add_argument(
        "--format",
        choices=("auto", "responses", "chat"),
        default="auto",
        help="the protocol (default: detect from the first event)",
    )
    p.add_argument("--events", action="store_true", help="print every event as a JSON line")
    p.add_argument(
        "--check",
        action="store_true",
        help="exit 1 on truncation, protocol errors or any diagnostic",
    )
    p.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="CODE",
        help="a diagnostic code --check accepts (repeatable), e.g. keepalive-comment",
    )
    p.add_argument("--strict", action="store_true", help="treat every anomaly as a protocol error")
    p.add_argument(
        "--max-event-size",
        type=positive_int,
        default=DEFAULT_MAX_EVENT_SIZE,
        metavar="BYTES",
        help=f"largest event accepted (default {DEFAULT_MAX_EVENT_SIZE}; 0: no limit)",
    )
    p.set_defaults(func=cmd_decode)
