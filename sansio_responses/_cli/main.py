"""The ``sansio-responses`` command line (also ``python -m sansio_responses``): parsing and dispatch.

Subcommands: ``decode`` (a captured stream from a file or stdin), ``demo`` (a recorded stream served
on loopback and read through an adapter), ``serve`` (the test kit's server on a port), ``stream``
(a live request), ``record`` (a live request written to a cassette), ``states`` (the lifecycle
table) and ``rules`` (the accumulation rules). The model's text goes to stdout as it arrives (or,
with ``--events``, one JSON line per event); the report (tool calls, outcome, usage, diagnostics) and
errors go to stderr, so ``decode capture.sse > answer.txt`` keeps only the text.

The package, one module per command group:

- ``main.py``: the top-level parser, dispatch, and the errors every command may end with;
- ``decode.py``: ``decode``; ``stream.py``: ``stream``; ``record.py``: ``record`` (a live request
  written to a cassette); ``tables.py``: ``states`` and ``rules``;
  ``testkit.py``: ``demo``, ``serve`` and ``recordings`` (the testing kit's loopback server);
- ``adapter.py``: a request sent through an adapter, printed as it streams (``demo``, ``stream``);
- ``output.py``: the :class:`~.output.Printer` (live text, JSON lines, the report);
- ``common.py``: exit codes, :class:`~.common.UsageError`, argument types, a stream's exit code.

To add a command: a module ``_cli/<group>.py`` with ``add_parsers(sub)``, which adds the
subcommand(s) and ``set_defaults(func=cmd_x)``, and ``cmd_x(args, out, err) -> int`` (an exit code of
``common.py``; raise ``UsageError`` for a usage mistake); then add the module to ``COMMAND_GROUPS``
below (their order is the order of ``--help``) and a test to tests/test_cli.py.

The core never imports this package. The adapters and the test kit are imported inside the
subcommands that need them, so ``decode``, ``states`` and ``rules`` work with no optional dependency.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, NoReturn

from .._errors import LocalProtocolError
from . import decode, record, stream, tables, testkit
from .common import (
    EXIT_BAD_STREAM,
    EXIT_CODES_HELP,
    EXIT_NETWORK,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
)
from .output import neutral

__all__ = [
    "EXIT_BAD_STREAM",
    "EXIT_NETWORK",
    "EXIT_OK",
    "EXIT_USAGE",
    "main",
]

#: The command modules, in the order ``--help`` lists their commands.
COMMAND_GROUPS = (decode, testkit, stream, record, tables)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (what is wrong, where to look) and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


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

    for group in COMMAND_GROUPS:
        group.add_parsers(sub)
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
    for console in (sys.stdout, sys.stderr):
        # A lone surrogate in model output (a broken \\ud800 escape on the wire) cannot be
        # encoded: it is written as the backslash escape \\ud800 instead of ending the command
        # with a UnicodeEncodeError (so is any character the terminal's encoding lacks).
        reconfigure = getattr(console, "reconfigure", None)
        if callable(reconfigure):
            reconfigure(errors="backslashreplace")
    try:
        return func(args, sys.stdout, sys.stderr)
    except UsageError as exc:
        sys.stdout.flush()
        sys.stderr.write(f"sansio-responses {args.command}: error: {neutral(str(exc))}\n")
        return EXIT_USAGE
    except LocalProtocolError as exc:
        # Only the request builders get here (run_adapter reports what goes wrong while
        # streaming): a bad --base-url or OPENAI_BASE_URL, a pasted key with a stray character,
        # text that is not valid Unicode. The message says what and where, never the key.
        sys.stdout.flush()
        source = " (the key comes from OPENAI_API_KEY)" if exc.message.startswith("api_key") else ""
        message = neutral(exc.message)
        sys.stderr.write(f"sansio-responses {args.command}: error: {message}{source}\n")
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
