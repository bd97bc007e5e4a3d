"""``record``: send a request as ``stream`` does and write the exchange to a cassette file.

The body is read with httpx as it arrives, one chunk per read, each with the time since the request
was sent; the cassette keeps those chunks and times (``response.chunks``), so ``load_cassette``
reads the body back byte for byte and the testing server replays it with the same chunking and pace
(``RecordedExchange.script()``). The request asks for ``Accept-Encoding: identity``, so the chunks
are pieces of the event stream itself, not of a compressed one. The API key (the ``Authorization``
header) is never written: ``save_cassette`` leaves every credential header out.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import IO, Any

from .._chat.stream import ChatCompletionsStream
from .._errors import ProtocolError
from .._http.errors import TransportError, failure
from .._http.requests import Request, response_error
from .._responses.stream import ResponsesStream
from .common import EXIT_CODES_HELP, Subcommands, UsageError, exit_code, import_optional
from .output import Printer
from .stream import add_request_options, request_from_args

__all__ = ["add_parsers", "cmd_record"]

#: Seconds to wait for the connection (as ``stream`` does through the adapters).
_CONNECT_TIMEOUT = 10.0


def cmd_record(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``record``: a live request, decoded as it streams and written to ``-o FILE``."""
    httpx = import_optional("httpx", "httpx")
    testing = import_optional("sansio_responses.testing", "testing")
    body = _json_body(args.body) if args.body is not None else None
    request, stream_options, _ = request_from_args(args, body=body)
    stream: ResponsesStream | ChatCompletionsStream = (
        ChatCompletionsStream(**stream_options)
        if request.kind == "chat"
        else ResponsesStream(**stream_options)
    )
    printer = Printer(out, err, events_json=args.events)
    # Uncompressed: the recorded chunks are then the event stream's own bytes (RFC 9110 12.5.3).
    headers = [(k, v) for k, v in request.headers if k.lower() != "accept-encoding"]
    headers.append(("accept-encoding", "identity"))
    chunks: list[bytes] = []
    arrival: list[float] = []
    status = 0
    response_headers: tuple[tuple[str, str], ...] = ()
    error: BaseException | None = None
    started = time.perf_counter()
    try:
        with (
            httpx.Client(timeout=httpx.Timeout(_CONNECT_TIMEOUT, read=args.idle_timeout)) as client,
            client.stream(
                request.method, request.url, headers=headers, content=request.body
            ) as response,
        ):
            status = response.status_code
            response_headers = tuple(
                (name.decode("latin-1"), value.decode("latin-1"))
                for name, value in response.headers.raw
            )
            for chunk in response.iter_raw():
                arrival.append(time.perf_counter() - started)
                chunks.append(chunk)
                if 200 <= status < 300:
                    for event in stream.feed(chunk):
                        printer.event(event)
            if 200 <= status < 300:
                for event in stream.close():
                    printer.event(event)
    except httpx.TransportError as exc:
        error = _failure(httpx, exc, request, args.idle_timeout)
    except (ProtocolError, OSError) as exc:
        error = exc
    elapsed = time.perf_counter() - started
    if not status:  # nothing came back: nothing to write
        printer.report(None, error=error, elapsed=elapsed, extra=["nothing recorded"])
        return exit_code(None, error)
    exchange = testing.RecordedExchange(
        method=request.method,
        url=request.url,
        status=status,
        headers=response_headers,
        body=b"".join(chunks),
        request_headers=tuple(headers),
        request_body=request.body or b"",
        chunks=tuple(chunks),
        arrival=tuple(arrival),
    )
    from .. import __version__

    testing.save_cassette(
        args.output, [exchange], recorded_with=f"sansio-responses {__version__} record"
    )
    note = f"cassette: {args.output} ({len(chunks)} chunks, {len(exchange.body)} bytes)"
    if not 200 <= status < 300:
        # The error answer is recorded as it came; reported as `stream` reports it.
        error = error or response_error(status, response_headers, exchange.body, request=request)
        printer.report(None, error=error, elapsed=elapsed, extra=[note])
        return exit_code(None, error)
    printer.report(stream, error=error, elapsed=elapsed, extra=[note])
    return exit_code(stream, error)


def _failure(
    httpx: Any, exc: BaseException, request: Request[Any], idle_timeout: float
) -> TransportError:
    """The library's :class:`TransportError` for what httpx raised (as the httpx adapter maps it),
    so the report and the exit code are those of ``stream``."""
    if isinstance(exc, httpx.ConnectTimeout):
        return failure("connect-timeout", request, timeout=_CONNECT_TIMEOUT, cause=exc)
    if isinstance(exc, httpx.ConnectError):
        return failure("connect", request, cause=exc)
    if isinstance(exc, httpx.ReadTimeout):
        return failure("idle", request, timeout=idle_timeout, cause=exc)
    return failure("dropped", request, cause=exc)


def _json_body(text: str) -> dict[str, Any]:
    """``--body``: a JSON object given inline, as ``@FILE`` or as ``-`` (stdin)."""
    if text == "-":
        text = sys.stdin.read()
    elif text.startswith("@"):
        try:
            with open(text[1:], encoding="utf-8") as file:
                text = file.read()
        except OSError as exc:
            raise UsageError(f"cannot read {text[1:]}: {exc.strerror or exc}") from None
    try:
        body = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"--body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise UsageError(f"--body must be a JSON object, got {type(body).__name__}")
    return body  # pyright: ignore[reportUnknownVariableType]


def add_parsers(sub: Subcommands) -> None:
    """Add ``record``."""
    p = sub.add_parser(
        "record",
        help="a live request, written to a cassette with its chunks and their timing",
        description="Send a streamed request as `stream` does (key from OPENAI_API_KEY, never "
        "written; base URL from --base-url or OPENAI_BASE_URL) and write the exchange to FILE: a "
        "vcrpy JSON cassette that sansio_responses.testing.load_cassette reads back byte for "
        "byte, with the body's chunks as they arrived and their arrival times, which the "
        "testing server replays (RecordedExchange.script()).",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the cassette to write")
    add_request_options(p, http_only=True)
    p.add_argument(
        "--body",
        metavar="JSON",
        help="the request body, a JSON object (@FILE reads it from a file, - from stdin); "
        "replaces --model, --input and the other body options",
    )
    p.set_defaults(func=cmd_record)
