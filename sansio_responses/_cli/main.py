"""The ``sansio-responses`` command line (also ``python -m sansio_responses``).

Subcommands: ``decode`` (a captured stream from a file or stdin), ``demo`` (a recorded stream served
on loopback and read through an adapter), ``serve`` (the test kit's server on a port), ``stream``
(a live request), ``states`` (the lifecycle table) and ``rules`` (the accumulation rules). The
model's text goes to stdout as it arrives (or, with ``--events``, one JSON line per event); the
report (tool calls, outcome, usage, diagnostics) and errors go to stderr, so
``decode capture.sse > answer.txt`` keeps only the text.

The core never imports this module. The adapters and the test kit are imported inside the
subcommands that need them, so ``decode``, ``states`` and ``rules`` work with no optional dependency.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import math
import os
import re
import sys
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, NoReturn

from .._chat.models import ChatCompletion, ChatCompletionChunk
from .._chat.stream import ChatCompletionsStream
from .._diagnostics import Diagnostic
from .._errors import LocalProtocolError, ProtocolError
from .._http.requests import (
    DEFAULT_BASE_URL,
    APIStatusError,
    Request,
    UnexpectedContentType,
    chat_request,
    responses_request,
    resume_request,
)
from .._install import install_hint
from .._responses.models import Response, ResponseFunctionToolCall, ResponseOutputMessage
from .._responses.stream import ResponsesStream, format_accumulation_rules, format_state_table
from .._sse import DEFAULT_MAX_EVENT_SIZE, SSEDecoder

if TYPE_CHECKING:
    from .._base import JSONValue

__all__ = [
    "EXIT_BAD_STREAM",
    "EXIT_NETWORK",
    "EXIT_OK",
    "EXIT_USAGE",
    "main",
]

EXIT_OK = 0
"""The stream ended with a terminal event (completed, or incomplete with a reason)."""
EXIT_BAD_STREAM = 1
"""The stream ended badly (truncated, protocol error, ``failed`` or ``error`` outcome), or
``--check`` found diagnostics."""
EXIT_USAGE = 2
"""Bad arguments, an unreadable file, input that is not an event stream, a missing package."""
EXIT_NETWORK = 3
"""No connection, a dropped connection, a timeout, or an HTTP error status."""

EXIT_CODES_HELP = """\
exit codes:
  0  the stream ended with a terminal event (completed, or incomplete); serve stopped by Ctrl-C
  1  the stream ended badly: truncated, protocol error, outcome "failed" or "error";
     or --check found diagnostics
  2  usage error: bad arguments, unreadable file, input that is not an event stream,
     a missing optional package
  3  network or HTTP error: no connection, dropped connection, timeout, non-2xx status
"""

#: The recording ``demo`` plays by default: a real background-mode stream (so it can be resumed).
DEMO_RECORDING = "responses-pydantic-ai-test_background_mode_streaming_starting_after_vcr-1.sse"

ADAPTERS = ("httpx", "httpx_async", "aiohttp", "trio", "socket")

#: Which extra provides each adapter's dependencies (for the "missing package" message). httpx
#: itself depends on anyio, so the async httpx adapter needs nothing beyond the httpx extra.
_ADAPTER_EXTRA = {
    "httpx": "httpx",
    "httpx_async": "httpx",
    "aiohttp": "aiohttp",
    "trio": "trio",
    "socket": "socket",
}

#: How many bytes ``decode`` reads at a time.
_READ_SIZE = 65536

#: How many diagnostic codes the report lists (all anomalies are always counted).
_LISTED_DIAGNOSTICS = 20

#: How many events with a JSON object in their data ``decode`` looks at to tell the protocol.
_DETECT_EVENTS = 16


class UsageError(Exception):
    """A problem with what the user asked for (exit code 2)."""


# --- output -------------------------------------------------------------------------------------


class Printer:
    """Prints a stream as it decodes: live text (or JSON lines) to *out*, the report to *err*.

    Both streams are flushed after every write that a person waits for, so text appears as it
    arrives even when stdout is a pipe.
    """

    def __init__(self, out: IO[str], err: IO[str], *, events_json: bool = False) -> None:
        self.out = out
        self.err = err
        self.events_json = events_json
        self.events = 0
        self._text_open = False  # printed text that does not end with a newline
        self._text_key: tuple[Any, ...] | None = None

    # live part

    def event(self, event: Any) -> None:
        """Show one decoded event."""
        self.events += 1
        if self.events_json:
            self.out.write(json.dumps(event_json(event), ensure_ascii=False) + "\n")
            self.out.flush()
            return
        for piece, key in _live_text(event):
            if key != self._text_key:
                if self._text_key is not None:
                    # A new message or content part starts: keep them apart.
                    self.out.write("\n\n" if self._text_open else "\n")
                if key[-1] == "refusal":
                    self.out.write("[refusal] ")
                self._text_key = key
            self.out.write(piece)
            self._text_open = not piece.endswith("\n")
        self.out.flush()

    def end_text(self) -> None:
        """End the live text with a newline, if any text was printed."""
        if self._text_open and not self.events_json:
            self.out.write("\n")
            self.out.flush()
        self._text_open = False

    def note(self, line: str) -> None:
        """A progress line on stderr."""
        self.err.write(line + "\n")
        self.err.flush()

    # report

    def report(
        self,
        stream: ResponsesStream | ChatCompletionsStream | None,
        *,
        error: BaseException | None = None,
        elapsed: float | None = None,
        extra: Sequence[str] = (),
        resumed: bool = False,
    ) -> None:
        """Print the summary: tool calls, outcome, usage, diagnostics, and the error if any."""
        self.end_text()
        lines: list[str] = ["---"]
        if stream is not None:
            if isinstance(stream, ResponsesStream):
                lines += _responses_report(stream)
            else:
                lines += _chat_report(stream)
        if error is not None:
            lines.append(f"error: {_describe_error(error)}")
        timing = f"events: {self.events}"
        if stream is not None:
            label = "bytes of the last body" if resumed else "bytes"
            timing += f", {label}: {stream.bytes_fed}"
        if elapsed is not None:
            timing += f", time: {elapsed:.3f} s"
        lines.append(timing)
        lines += extra
        if stream is not None:
            lines += _diagnostics_report(stream)
        self.err.write("\n".join(lines) + "\n")
        self.err.flush()


def event_json(event: Any) -> dict[str, Any]:
    """One event as the JSON object ``--events`` prints: ``{"class": ..., "data": <wire dict>}``."""
    to_dict = getattr(event, "to_dict", None)
    data = to_dict() if callable(to_dict) else getattr(event, "data", None)
    out: dict[str, Any] = {"class": type(event).__name__, "data": data}
    if type(event).__name__ == "ChatUnknownEvent":
        out["event"] = event.event  # the SSE event name is all that tells these apart
    return out


def _live_text(event: Any) -> list[tuple[str, tuple[Any, ...]]]:
    """The answer text this event adds: pieces with a key naming the part each belongs to
    (position, then ``"text"`` or ``"refusal"``)."""
    if isinstance(event, ChatCompletionChunk):
        pieces: list[tuple[str, tuple[Any, ...]]] = []
        for choice in event.choices or ():
            delta = choice.delta
            # Live text follows choice 0; other choices are shown whole in the report.
            if delta is None or (choice.index or 0) != 0:
                continue
            if delta.content:
                pieces.append((delta.content, (0, "text")))
            if delta.refusal:
                pieces.append((delta.refusal, (0, "refusal")))
        return pieces
    etype = getattr(event, "type", None)
    if etype in ("response.output_text.delta", "response.refusal.delta"):
        delta = getattr(event, "delta", None)
        if isinstance(delta, str) and delta:
            # Positions, not item ids: some proxies send a new item_id with every delta.
            where = (getattr(event, "output_index", None), getattr(event, "content_index", None))
            return [(delta, (*where, "refusal" if etype == "response.refusal.delta" else "text"))]
    return []


def _usage_line(usage: Any) -> str | None:
    if usage is None:
        return None
    if hasattr(usage, "input_tokens"):
        # The details are typed models (InputTokensDetails / OutputTokensDetails) or None.
        reasoning = getattr(usage.output_tokens_details, "reasoning_tokens", None)
        cached = getattr(usage.input_tokens_details, "cached_tokens", None)
        line = f"usage: input {usage.input_tokens}"
        if cached:
            line += f" ({cached} cached)"
        line += f", output {usage.output_tokens}"
        if reasoning is not None:
            line += f" ({reasoning} reasoning)"
        return line + f", total {usage.total_tokens} tokens"
    return (
        f"usage: prompt {usage.prompt_tokens}, completion {usage.completion_tokens}, "
        f"total {usage.total_tokens} tokens"
    )


def _responses_report(stream: ResponsesStream) -> list[str]:
    lines: list[str] = []
    snapshot: Response | None = stream.snapshot()
    tool_lines: list[str] = []
    other: list[str] = []
    for item in (snapshot.output or ()) if snapshot is not None else ():
        if isinstance(item, ResponseFunctionToolCall):
            tool_lines.append(f"  {item.name}({item.arguments or ''})  call_id={item.call_id}")
        elif not isinstance(item, ResponseOutputMessage):
            status = getattr(item, "status", None)
            other.append(f"  {item.type}" + (f" ({status})" if status else ""))
    if tool_lines:
        lines.append("tool calls:")
        lines += tool_lines
    if other:
        lines.append("other output items:")
        lines += other
    outcome = stream.outcome or "open (no terminal event yet)"
    detail = ""
    if snapshot is not None:
        if stream.outcome == "incomplete" and snapshot.incomplete_details is not None:
            detail = f" (reason: {snapshot.incomplete_details.reason})"
        elif stream.outcome == "failed" and snapshot.error is not None:
            detail = f" ({snapshot.error.code}: {snapshot.error.message})"
    if stream.outcome == "error" and stream.error_event is not None:
        wire = stream.error_event.to_dict()
        nested: JSONValue = wire.get("error")
        error: dict[str, Any] = nested if isinstance(nested, dict) else wire
        detail = f" ({error.get('code')}: {error.get('message')})"
    lines.append(f"outcome: {outcome}{detail}")
    if stream.response_id is not None:
        model = snapshot.model if snapshot is not None else None
        lines.append(
            f"response: {stream.response_id}"
            + (f", model {model}" if model else "")
            + (" (background)" if stream.background else "")
        )
    usage = _usage_line(snapshot.usage if snapshot is not None else None)
    if usage:
        lines.append(usage)
    return lines


def _chat_report(stream: ChatCompletionsStream) -> list[str]:
    lines: list[str] = []
    snapshot: ChatCompletion | None = stream.snapshot()
    choices = snapshot.choices if snapshot is not None else []
    for choice in choices:
        message = choice.message
        if choice.index != 0 and message.content:
            lines.append(f"choice {choice.index}: {message.content}")
        calls = list(message.tool_calls)
        if message.function_call is not None:
            calls_text = [f"  {message.function_call.name}({message.function_call.arguments})"]
        else:
            calls_text = []
        calls_text += [f"  {c.function.name}({c.function.arguments})  id={c.id}" for c in calls]
        if calls_text:
            lines.append("tool calls" + (f" (choice {choice.index}):" if len(choices) > 1 else ":"))
            lines += calls_text
    finishes = ", ".join(f"{c.index}: {c.finish_reason}" for c in choices)
    outcome = stream.outcome or "open (no [DONE] yet)"
    detail = f" (finish_reason {finishes})" if finishes else ""
    if stream.outcome == "error" and stream.error_event is not None:
        detail = f" ({stream.error_event.code}: {stream.error_event.message})"
    lines.append(f"outcome: {outcome}{detail}")
    if snapshot is not None and snapshot.id:
        lines.append(
            f"completion: {snapshot.id}" + (f", model {snapshot.model}" if snapshot.model else "")
        )
    usage = _usage_line(snapshot.usage if snapshot is not None else None)
    if usage:
        lines.append(usage)
    return lines


def _diagnostics_report(stream: ResponsesStream | ChatCompletionsStream) -> list[str]:
    """One line per diagnostic code: its count and its first occurrence."""
    counts = stream.diagnostic_counts
    total = sum(counts.values())
    if not total:
        return ["diagnostics: none"]
    lines = [f"diagnostics: {total}"]
    first: dict[str, Diagnostic] = {}
    for diagnostic in stream.diagnostics:
        first.setdefault(diagnostic.code, diagnostic)
    for code in [*first, *sorted(set(counts) - set(first))][:_LISTED_DIAGNOSTICS]:
        line = f"  {code} x{counts.get(code, 0)}"
        diagnostic_ = first.get(code)
        if diagnostic_ is not None:
            where: list[str] = []
            if diagnostic_.sequence_number is not None:
                where.append(f"sequence_number {diagnostic_.sequence_number}")
            if diagnostic_.offset is not None:
                where.append(f"byte {diagnostic_.offset}")
            line += f": {diagnostic_.message}"
            if where:
                line += f" [first at {', '.join(where)}]"
        lines.append(line)
    if len(counts) > _LISTED_DIAGNOSTICS:
        lines.append(f"  ... {len(counts) - _LISTED_DIAGNOSTICS} more codes")
    return lines


def _describe_error(error: BaseException) -> str:
    kind = type(error).__name__
    return f"{kind}: {error}"


def _exit_code(
    stream: ResponsesStream | ChatCompletionsStream | None,
    error: BaseException | None,
    *,
    check: bool = False,
    allowed: Iterable[str] = (),
) -> int:
    if error is not None:
        if _is_network_error(error):
            return EXIT_NETWORK
        return EXIT_BAD_STREAM
    if stream is None or stream.outcome in (None, "truncated", "failed", "error"):
        return EXIT_BAD_STREAM
    if check and set(stream.diagnostic_counts) - set(allowed):
        return EXIT_BAD_STREAM
    return EXIT_OK


def _is_network_error(error: BaseException) -> bool:
    if isinstance(error, (APIStatusError, UnexpectedContentType, OSError)):
        return True
    transport = sys.modules.get("sansio_responses._http.errors")
    return transport is not None and isinstance(error, transport.TransportError)


# --- decode -------------------------------------------------------------------------------------


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

    With ``fmt="auto"`` the protocol is told from the first event whose data says it; the chunks
    read until then (at most one event past ``max_event_size``) are kept and then fed.
    """
    iterator = iter(chunks)
    held: list[bytes] = []
    kind = None if fmt == "auto" else fmt
    if kind is None:
        kind = _detect_kind(iterator, held, max_event_size)
    stream: ResponsesStream | ChatCompletionsStream
    if kind == "chat":
        stream = ChatCompletionsStream(strict=strict, max_event_size=max_event_size)
    else:
        stream = ResponsesStream(strict=strict, max_event_size=max_event_size)
    try:
        for chunk in _chain(held, iterator):
            for event in stream.feed(chunk):
                printer.event(event)
        for event in stream.close():
            printer.event(event)
    except ProtocolError as exc:
        for event in getattr(exc, "events", ()):
            printer.event(event)
        return stream, exc
    return stream, None


def _chain(first: list[bytes], rest: Iterator[bytes]) -> Iterator[bytes]:
    yield from first
    first.clear()
    yield from rest


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


def _detect_kind(iterator: Iterator[bytes], held: list[bytes], max_event_size: int | None) -> str:
    decoder = SSEDecoder(max_event_size=max_event_size)
    head = b""
    looked = 0
    for chunk in iterator:
        held.append(chunk)
        if len(head) < 64:
            head += chunk[:64]
        try:
            events = decoder.feed(chunk)
        except ProtocolError as exc:
            # An event too large to frame: guess from its bytes, and let the stream itself report
            # the error at its place (exit 1), as it would have without detection.
            kind = _sniff(b"".join(held)[:_SNIFF_BYTES])
            if kind is None:
                raise UsageError(f"not an event stream: {exc}") from None
            return kind
        for event in events:
            if not event.data.strip():
                continue
            kind = _detect(event.data)
            if kind is not None:
                return kind
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
            return kind
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
    code = _exit_code(stream, error, check=args.check, allowed=args.allow)
    if args.check and code == EXIT_OK:
        printer.note("check: ok")
    elif args.check:
        printer.note("check: failed")
    return code


# --- adapters -------------------------------------------------------------------------------------


def _import(module: str, extra: str) -> Any:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise UsageError(
            f"{module} needs the package {exc.name!r}: {install_hint(extra)}"
        ) from None


def _server(testing: Any, **options: Any) -> Any:
    """A (not yet started) test server; a missing aiohttp is a usage error, not a traceback."""
    try:
        return testing.ResponsesServer(**options)
    except ModuleNotFoundError as exc:
        raise UsageError(str(exc)) from None


def run_adapter(
    adapter: str,
    request: Request,
    printer: Printer,
    *,
    stream_options: dict[str, Any] | None = None,
    connect_timeout: float | None = 10.0,
    idle_timeout: float | None = 600.0,
) -> tuple[Any, BaseException | None]:
    """Send *request* through *adapter*, print every event; return the adapter's events object
    (``None`` if the request failed before the body) and the error that ended it, if any."""
    if adapter not in ADAPTERS:
        raise UsageError(f"unknown adapter {adapter!r}; choose one of {', '.join(ADAPTERS)}")
    module_name = {"httpx": "httpx_sync"}.get(adapter, adapter)
    module = _import(f"sansio_responses.adapters.{module_name}", _ADAPTER_EXTRA[adapter])
    options: dict[str, Any] = {
        "stream_options": stream_options,
        "connect_timeout": connect_timeout,
        "idle_timeout": idle_timeout,
    }
    holder: list[Any] = []
    errors = (ProtocolError, APIStatusError, OSError, _transport_error())
    if adapter in ("httpx", "socket"):
        try:
            with module.open_stream(request, **options) as events:
                holder.append(events)
                for event in events:
                    printer.event(event)
        except errors as exc:
            return (holder[0] if holder else None), exc
        return holder[0], None

    async def consume() -> BaseException | None:
        try:
            async with module.open_stream(request, **options) as events:
                holder.append(events)
                async for event in events:
                    printer.event(event)
        except errors as exc:
            return exc
        return None

    if adapter == "trio":
        trio = _import("trio", "trio")
        error = trio.run(consume)
    else:  # aiohttp, and httpx_async (anyio: asyncio here, trio in a trio program)
        error = asyncio.run(consume())
    return (holder[0] if holder else None), error


def _transport_error() -> type[Exception]:
    from .._http.errors import TransportError

    return TransportError


def _finish(
    printer: Printer,
    handle: Any,
    error: BaseException | None,
    elapsed: float,
    extra: Sequence[str] = (),
) -> int:
    stream = handle.stream if handle is not None else None
    lines = list(extra)
    if handle is not None and handle.resumes:
        lines.append(f"resumes: {handle.resumes}")
    resumed = handle is not None and bool(handle.resumes)
    printer.report(stream, error=error, elapsed=elapsed, extra=lines, resumed=resumed)
    return _exit_code(stream, error)


# --- demo and serve -------------------------------------------------------------------------------


def _testing() -> Any:
    return _import("sansio_responses.testing", "testing")


def _faults(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {"delay": args.delay}
    if args.chunk_size is not None:
        options["chunk_size"] = args.chunk_size
    if args.drop_after is not None:
        options["disconnect_after_events"] = args.drop_after
    if getattr(args, "stall_after", None) is not None:
        options["stall_after_events"] = args.stall_after
        options["stall_seconds"] = args.stall_seconds
    if getattr(args, "keepalive_every", None) is not None:
        options["keepalive_every"] = args.keepalive_every
    if getattr(args, "crlf", False):
        options["crlf"] = True
    return options


def _recording_bytes(testing: Any, name: str) -> bytes:
    if os.path.sep in name or (name.endswith(".sse") and os.path.exists(name)):
        try:
            with open(name, "rb") as handle:
                return handle.read()
        except OSError as exc:
            raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
    try:
        return bytes(testing.recording(name))
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None


def cmd_demo(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``demo``: serve a recording on loopback and stream it through an adapter."""
    testing = _testing()
    body = _recording_bytes(testing, args.recording)
    kind = "chat" if os.path.basename(args.recording).startswith("chat") else "responses"
    printer = Printer(out, err, events_json=args.events)
    script = testing.Script(body, **_faults(args))
    server = _server(testing)
    server.set_default(script)
    with server:
        printer.note(
            f"demo: {args.recording} served on {server.base_url} (loopback), "
            f"read with the {args.adapter} adapter"
        )
        if kind == "chat":
            request: Request[Any] = chat_request(
                {"model": "demo", "messages": [{"role": "user", "content": "demo"}]},
                base_url=server.base_url,
            )
        else:
            create: dict[str, Any] = {"model": "demo", "input": "demo"}
            if script.is_background():
                create["background"] = True  # as the recorded request did: resumable
            request = responses_request(create, base_url=server.base_url)
        started = time.perf_counter()
        handle, error = run_adapter(args.adapter, request, printer, idle_timeout=30.0)
        elapsed = time.perf_counter() - started
        extra = [f"adapter: {args.adapter}"]
        extra += [
            f"request: {r.method} {r.path}" + (f"?{_query(r.query)}" if r.query else "")
            for r in server.requests
        ]
    return _finish(printer, handle, error, elapsed, extra)


def _query(pairs: Sequence[tuple[str, str]]) -> str:
    return "&".join(f"{key}={value}" for key, value in pairs)


def cmd_serve(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``serve``: run the test kit's server until Ctrl-C."""
    testing = _testing()
    names = args.recording or [DEMO_RECORDING]
    scripts = [testing.Script(_recording_bytes(testing, n), **_faults(args)) for n in names]
    server = _server(testing, host=args.host, port=args.port)
    try:
        server.enqueue(*scripts[:-1])
        server.set_default(scripts[-1])
        server.start()
    except OSError as exc:
        err.write(f"error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}\n")
        return EXIT_NETWORK
    try:
        out.write(f"serving on {server.base_url} (Ctrl-C to stop)\n")
        out.write("answers POST /responses and POST /chat/completions with, in turn: ")
        out.write(", ".join(names) + (" (the last one repeats)\n" if len(names) > 1 else "\n"))
        out.write(f"try: sansio-responses stream --base-url {server.base_url} --input hello\n")
        out.flush()
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        out.write(f"stopped after {len(server.requests)} request(s)\n")
        out.flush()
    finally:
        server.stop()
    return EXIT_OK


def cmd_recordings(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``recordings``: list the bundled recordings."""
    for name in _testing().recordings():
        out.write(name + "\n")
    return EXIT_OK


# --- stream ---------------------------------------------------------------------------------------


def cmd_stream(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``stream``: a live request (or a resume) to the API or a compatible server."""
    base_url = args.base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
    api_key = os.environ.get("OPENAI_API_KEY") or None
    if api_key is None and _is_openai(base_url):
        raise UsageError("set OPENAI_API_KEY (or pass --base-url for a server that needs no key)")
    if args.after is not None and args.resume is None:
        raise UsageError("--after needs --resume ID")
    stream_options: dict[str, Any] = {"strict": args.strict}
    if args.resume is not None:
        if args.chat:
            raise UsageError("Chat Completions streams cannot be resumed")
        request: Request[Any] = resume_request(
            args.resume, starting_after=args.after, base_url=base_url, api_key=api_key
        )
        if args.after is not None:
            stream_options["starting_after"] = args.after
    else:
        text = args.input
        if text == "-":
            try:
                text = sys.stdin.read()
            except UnicodeDecodeError as exc:
                raise UsageError(
                    f"stdin is not UTF-8 text (byte {exc.start}): {exc.reason}"
                ) from None
        if text is None:
            raise UsageError("pass --input TEXT (or --input - to read it from stdin)")
        if args.chat:
            body: dict[str, Any] = {
                "model": args.model,
                "messages": [{"role": "user", "content": text}],
                "stream_options": {"include_usage": True},
            }
            if args.instructions:
                body["messages"].insert(0, {"role": "system", "content": args.instructions})
            request = chat_request(body, base_url=base_url, api_key=api_key)
        else:
            body = {"model": args.model, "input": text}
            if args.instructions:
                body["instructions"] = args.instructions
            if args.background:
                body["background"] = True
            if args.max_output_tokens is not None:
                body["max_output_tokens"] = args.max_output_tokens
            request = responses_request(body, base_url=base_url, api_key=api_key)
    printer = Printer(out, err, events_json=args.events)
    started = time.perf_counter()
    handle, error = run_adapter(
        args.adapter,
        request,
        printer,
        stream_options=stream_options,
        idle_timeout=args.idle_timeout,
    )
    elapsed = time.perf_counter() - started
    extra: list[str] = []
    if handle is not None and isinstance(handle.stream, ResponsesStream):
        stream = handle.stream
        if stream.resumable and stream.last_sequence_number is not None:
            extra.append(
                f"resume with: sansio-responses stream --resume {stream.response_id} "
                f"--after {stream.last_sequence_number}"
            )
    return _finish(printer, handle, error, elapsed, extra)


def _is_openai(base_url: str) -> bool:
    try:
        return urllib.parse.urlsplit(base_url).hostname == "api.openai.com"
    except ValueError:
        return False  # not a URL at all: the request builder says what is wrong with it


def cmd_states(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``states``: the Responses stream lifecycle table."""
    out.write(format_state_table() + "\n")
    return EXIT_OK


def cmd_rules(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``rules``: which event may touch which kind of output item, and what it does."""
    out.write(format_accumulation_rules() + "\n")
    return EXIT_OK


# --- arguments ------------------------------------------------------------------------------------


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _at_least_one(text: str) -> int:
    value = _positive_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _port(text: str) -> int:
    value = _positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0-65535, got {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value):
        # nan compares false with everything, inf never elapses: both would hang, not wait.
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds, got {text!r}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (what is wrong, where to look) and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _add_fault_options(parser: argparse.ArgumentParser, delay: float) -> None:
    parser.add_argument(
        "--delay",
        type=_seconds,
        default=delay,
        help=f"seconds between writes (default {delay})",
    )
    parser.add_argument(
        "--chunk-size", type=_at_least_one, help="bytes per write (default: one event per write)"
    )
    parser.add_argument(
        "--drop-after",
        type=_positive_int,
        metavar="N",
        help="close the connection abruptly after N events (a background stream is resumed)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``sansio-responses``."""
    from .. import __version__

    parser = _Parser(
        prog="sansio-responses",
        description=(
            "Decode OpenAI Responses and Chat Completions streams: typed events, the accumulated "
            "response, a clear outcome and diagnostics. Text goes to stdout as it arrives; the "
            "report goes to stderr."
        ),
        epilog=EXIT_CODES_HELP
        + "\nstart here: sansio-responses demo   (no API key, no network: loopback only)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

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
        type=_positive_int,
        default=DEFAULT_MAX_EVENT_SIZE,
        metavar="BYTES",
        help=f"largest event accepted (default {DEFAULT_MAX_EVENT_SIZE}; 0: no limit)",
    )
    p.set_defaults(func=cmd_decode)

    p = sub.add_parser(
        "demo",
        help="stream a bundled recording from a loopback server through an adapter",
        description="Start the test kit's server on 127.0.0.1 with a bundled real recording and "
        "stream it through an adapter: no API key, no network.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--adapter", choices=ADAPTERS, default="httpx", help="default: httpx")
    p.add_argument(
        "--recording",
        default=DEMO_RECORDING,
        help="a bundled recording (see the 'recordings' command) or a path to an .sse file",
    )
    p.add_argument("--events", action="store_true", help="print every event as a JSON line")
    _add_fault_options(p, delay=0.05)
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser(
        "serve",
        help="run the local streaming server until Ctrl-C",
        description="Run the test kit's Responses/Chat server, answering every POST with the "
        "chosen recordings in turn (the last one repeats), with the chosen faults.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    p.add_argument("--port", type=_port, default=8000, help="default: 8000 (0: any)")
    p.add_argument(
        "--recording",
        action="append",
        help="a bundled recording name or an .sse path (repeatable; default: the demo's)",
    )
    _add_fault_options(p, delay=0.0)
    p.add_argument("--stall-after", type=_positive_int, metavar="N", help="stall after N events")
    p.add_argument("--stall-seconds", type=_seconds, default=30.0, help="length of the stall")
    p.add_argument(
        "--keepalive-every",
        type=_at_least_one,
        metavar="N",
        help="a keep-alive comment every N events",
    )
    p.add_argument("--crlf", action="store_true", help="send CRLF line endings")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("recordings", help="list the bundled recordings")
    p.set_defaults(func=cmd_recordings)

    p = sub.add_parser(
        "stream",
        help="a live request to the OpenAI API or a compatible server",
        description="Send a streamed request (key from OPENAI_API_KEY; base URL from --base-url "
        "or OPENAI_BASE_URL) and decode it live; --resume ID --after N continues a background "
        "response.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--model", default="gpt-5-mini", help="default: gpt-5-mini")
    p.add_argument("--input", help="the prompt (- reads it from stdin)")
    p.add_argument("--instructions", help="system instructions")
    p.add_argument("--chat", action="store_true", help="use Chat Completions, not Responses")
    p.add_argument("--background", action="store_true", help='send "background": true')
    p.add_argument("--max-output-tokens", type=_positive_int, metavar="N")
    p.add_argument("--resume", metavar="ID", help="resume the background response ID")
    p.add_argument(
        "--after", type=_positive_int, metavar="N", help="with --resume: skip events up to N"
    )
    p.add_argument("--base-url", help=f"default: $OPENAI_BASE_URL or {DEFAULT_BASE_URL}")
    p.add_argument("--adapter", choices=ADAPTERS, default="httpx", help="default: httpx")
    p.add_argument(
        "--idle-timeout",
        type=_seconds,
        default=600.0,
        metavar="SECONDS",
        help="give up when no byte arrives for this long (default 600)",
    )
    p.add_argument("--events", action="store_true", help="print every event as a JSON line")
    p.add_argument("--strict", action="store_true", help="treat every anomaly as a protocol error")
    p.set_defaults(func=cmd_stream)

    p = sub.add_parser("states", help="print the Responses stream lifecycle table")
    p.set_defaults(func=cmd_states)

    p = sub.add_parser(
        "rules", help="print the accumulation rules (event -> item kind it may touch -> action)"
    )
    p.set_defaults(func=cmd_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with *argv* (default ``sys.argv[1:]``); return the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and argparse's own usage errors
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    func: Callable[[argparse.Namespace, IO[str], IO[str]], int] = args.func
    try:
        return func(args, sys.stdout, sys.stderr)
    except UsageError as exc:
        sys.stdout.flush()
        sys.stderr.write(f"sansio-responses {args.command}: error: {exc}\n")
        return EXIT_USAGE
    except LocalProtocolError as exc:
        # Only the request builders get here (run_adapter reports what goes wrong while
        # streaming): a bad --base-url or OPENAI_BASE_URL, a pasted key with a stray character,
        # text that is not valid Unicode. The message says what and where, never the key.
        sys.stdout.flush()
        source = " (the key comes from OPENAI_API_KEY)" if exc.message.startswith("api_key") else ""
        sys.stderr.write(f"sansio-responses {args.command}: error: {exc.message}{source}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stdout.flush()
        sys.stderr.write("interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader of stdout went away (``| head``): stop quietly, as other tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
