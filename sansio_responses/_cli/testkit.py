"""The commands built on the testing kit's loopback server: ``demo``, ``serve`` and ``recordings``.

``sansio_responses.testing`` (and aiohttp, which its server needs) is imported when one of these
commands runs, never before: the other commands work without the ``testing`` extra.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from typing import IO, Any

from .._http.requests import Request, chat_request, responses_request
from .adapter import ADAPTERS, finish, run_adapter
from .common import (
    EXIT_CODES_HELP,
    EXIT_NETWORK,
    EXIT_OK,
    Subcommands,
    UsageError,
    at_least_one,
    import_optional,
    port,
    positive_int,
    seconds,
)
from .output import Printer

#: The recording ``demo`` plays by default: a real background-mode stream (so it can be resumed).
DEMO_RECORDING = "responses-pydantic-ai-test_background_mode_streaming_starting_after_vcr-1.sse"


def _server(testing: Any, **options: Any) -> Any:
    """A (not yet started) test server; a missing aiohttp is a usage error, not a traceback."""
    try:
        return testing.ResponsesServer(**options)
    except ModuleNotFoundError as exc:
        raise UsageError(str(exc)) from None


def _testing() -> Any:
    return import_optional("sansio_responses.testing", "testing")


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
    return finish(printer, handle, error, elapsed, extra)


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


def _add_fault_options(parser: argparse.ArgumentParser, delay: float) -> None:
    parser.add_argument(
        "--delay",
        type=seconds,
        default=delay,
        help=f"seconds between writes (default {delay})",
    )
    parser.add_argument(
        "--chunk-size", type=at_least_one, help="bytes per write (default: one event per write)"
    )
    parser.add_argument(
        "--drop-after",
        type=positive_int,
        metavar="N",
        help="close the connection abruptly after N events (a background stream is resumed)",
    )


def add_parsers(sub: Subcommands) -> None:
    """Add ``demo``, ``serve`` and ``recordings``."""
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
    p.add_argument("--port", type=port, default=8000, help="default: 8000 (0: any)")
    p.add_argument(
        "--recording",
        action="append",
        help="a bundled recording name or an .sse path (repeatable; default: the demo's)",
    )
    _add_fault_options(p, delay=0.0)
    p.add_argument("--stall-after", type=positive_int, metavar="N", help="stall after N events")
    p.add_argument("--stall-seconds", type=seconds, default=30.0, help="length of the stall")
    p.add_argument(
        "--keepalive-every",
        type=at_least_one,
        metavar="N",
        help="a keep-alive comment every N events",
    )
    p.add_argument("--crlf", action="store_true", help="send CRLF line endings")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("recordings", help="list the bundled recordings")
    p.set_defaults(func=cmd_recordings)
