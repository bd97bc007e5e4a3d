"""``stream``: a live request (or a resume) to the OpenAI API or a compatible server."""

from __future__ import annotations

import argparse
import os
import sys
import time
import urllib.parse
from typing import IO, Any

from .._http.requests import (
    DEFAULT_BASE_URL,
    Request,
    chat_request,
    responses_request,
    resume_request,
)
from .._responses.stream import ResponsesStream
from .adapter import ADAPTERS, finish, run_adapter, run_websocket
from .common import EXIT_CODES_HELP, Subcommands, UsageError, positive_int, seconds
from .output import Printer


def cmd_stream(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``stream``: a live request (or a resume) to the API or a compatible server."""
    request, stream_options, body = request_from_args(args)
    printer = Printer(out, err, events_json=args.events)
    started = time.perf_counter()
    if args.websocket:
        socket_body = {k: v for k, v in body.items() if k != "stream"}
        turn, failure = run_websocket(
            _base_url(args),
            os.environ.get("OPENAI_API_KEY") or None,
            socket_body,
            printer,
            stream_id=args.stream_id,
            stream_options=stream_options,
            idle_timeout=args.idle_timeout,
        )
        return finish(printer, turn, failure, time.perf_counter() - started)
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
    return finish(printer, handle, error, elapsed, extra)


def request_from_args(
    args: argparse.Namespace, *, body: dict[str, Any] | None = None
) -> tuple[Request[Any], dict[str, Any], dict[str, Any]]:
    """The request the options of :func:`add_request_options` describe (``stream`` and
    ``record`` send the same), the stream options (``strict``, ``starting_after``) and the JSON
    body (empty for a resume). A *body* (``record --body``) replaces the one --model, --input and
    the other body options build."""
    base_url = _base_url(args)
    api_key = os.environ.get("OPENAI_API_KEY") or None
    if api_key is None and _is_openai(base_url):
        raise UsageError("set OPENAI_API_KEY (or pass --base-url for a server that needs no key)")
    if args.after is not None and args.resume is None:
        raise UsageError("--after needs --resume ID")
    websocket = getattr(args, "websocket", False)  # stream's option, not record's
    if getattr(args, "stream_id", None) is not None and not websocket:
        raise UsageError("--stream-id needs --websocket")
    if websocket:
        for flag, given in (("--chat", args.chat), ("--background", args.background),
                            ("--resume", args.resume is not None)):  # fmt: skip
            if given:
                raise UsageError(f"{flag} is HTTP only: it cannot be used with --websocket")
    stream_options: dict[str, Any] = {"strict": args.strict}
    if args.resume is not None:
        if args.chat:
            raise UsageError("Chat Completions streams cannot be resumed")
        request: Request[Any] = resume_request(
            args.resume, starting_after=args.after, base_url=base_url, api_key=api_key
        )
        if args.after is not None:
            stream_options["starting_after"] = args.after
    elif body is not None:
        build = chat_request if args.chat else responses_request
        request = build(body, base_url=base_url, api_key=api_key)
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
            body = {
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
    return request, stream_options, body or {}


def _base_url(args: argparse.Namespace) -> str:
    return str(args.base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL)


def _is_openai(base_url: str) -> bool:
    try:
        return urllib.parse.urlsplit(base_url).hostname == "api.openai.com"
    except ValueError:
        return False  # not a URL at all: the request builder says what is wrong with it


def add_parsers(sub: Subcommands) -> None:
    """Add ``stream``."""
    p = sub.add_parser(
        "stream",
        help="a live request to the OpenAI API or a compatible server",
        description="Send a streamed request (key from OPENAI_API_KEY; base URL from --base-url "
        "or OPENAI_BASE_URL) and decode it live; --resume ID --after N continues a background "
        "response.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_request_options(p)
    p.set_defaults(func=cmd_stream)


def add_request_options(p: argparse.ArgumentParser, *, http_only: bool = False) -> None:
    """The options that describe the request and how it is read: ``stream``'s, in ``--help``
    order. With *http_only* (``record``, which reads the HTTP body with httpx itself) there is no
    ``--adapter``, ``--websocket`` or ``--stream-id``."""
    p.add_argument("--model", default="gpt-5-mini", help="default: gpt-5-mini")
    p.add_argument("--input", help="the prompt (- reads it from stdin)")
    p.add_argument("--instructions", help="system instructions")
    p.add_argument("--chat", action="store_true", help="use Chat Completions, not Responses")
    p.add_argument("--background", action="store_true", help='send "background": true')
    p.add_argument("--max-output-tokens", type=positive_int, metavar="N")
    p.add_argument("--resume", metavar="ID", help="resume the background response ID")
    p.add_argument(
        "--after", type=positive_int, metavar="N", help="with --resume: skip events up to N"
    )
    p.add_argument("--base-url", help=f"default: $OPENAI_BASE_URL or {DEFAULT_BASE_URL}")
    if not http_only:
        p.add_argument("--adapter", choices=ADAPTERS, default="httpx", help="default: httpx")
    p.add_argument(
        "--idle-timeout",
        type=seconds,
        default=600.0,
        metavar="SECONDS",
        help="give up when no byte arrives for this long (default 600)",
    )
    if not http_only:
        p.add_argument(
            "--websocket",
            action="store_true",
            help="send it over the Responses WebSocket ({base-url}/responses, ws:// or wss://)",
        )
        p.add_argument("--stream-id", metavar="LANE", help="with --websocket: the lane (stream_id)")
    p.add_argument("--events", action="store_true", help="print every event as a JSON line")
    p.add_argument("--strict", action="store_true", help="treat every anomaly as a protocol error")
