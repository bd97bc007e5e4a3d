"""What every command shares: exit codes, the usage error, argument types, the exit code of a stream.

A command module (``decode.py``, ``stream.py``, ...) imports from here and from ``output.py``; none
imports another command's module.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
from collections.abc import Iterable
from typing import Any, Protocol

from .._chat.stream import ChatCompletionsStream
from .._http.requests import APIStatusError, UnexpectedContentType
from .._install import install_hint
from .._responses.stream import ResponsesStream

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


class UsageError(Exception):
    """A problem with what the user asked for (exit code 2)."""


class Subcommands(Protocol):
    """The ``add_subparsers()`` object of the top-level parser, as each command module's
    ``add_parsers(sub)`` uses it (``_cli/main.py`` calls them in order)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        """A new subcommand *name*; *kwargs* as for :class:`argparse.ArgumentParser`."""
        ...


def exit_code(
    stream: ResponsesStream | ChatCompletionsStream | None,
    error: BaseException | None,
    *,
    check: bool = False,
    allowed: Iterable[str] = (),
) -> int:
    """The exit code a command ends with, from the stream's outcome and the error that ended it.

    With *check*, a diagnostic whose code is not in *allowed* makes the stream a bad one.
    """
    if error is not None:
        if is_network_error(error):
            return EXIT_NETWORK
        return EXIT_BAD_STREAM
    if stream is None or stream.outcome in (None, "truncated", "failed", "error"):
        return EXIT_BAD_STREAM
    if check and set(stream.diagnostic_counts) - set(allowed):
        return EXIT_BAD_STREAM
    return EXIT_OK


def is_network_error(error: BaseException) -> bool:
    """Whether *error* is the network's or the server's (exit code 3), not the stream's."""
    if isinstance(error, (APIStatusError, UnexpectedContentType, OSError)):
        return True
    transport = sys.modules.get("sansio_responses._http.errors")
    return transport is not None and isinstance(error, transport.TransportError)


def import_optional(module: str, extra: str) -> Any:
    """*module*, or a :class:`UsageError` naming the extra that installs what it misses."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise UsageError(
            f"{module} needs the package {exc.name!r}: {install_hint(extra)}"
        ) from None


# --- arguments ------------------------------------------------------------------------------------


def positive_int(text: str) -> int:
    """An argument that is an integer >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def at_least_one(text: str) -> int:
    """An argument that is an integer >= 1."""
    value = positive_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def port(text: str) -> int:
    """An argument that is a TCP port, 0-65535."""
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0-65535, got {value}")
    return value


def seconds(text: str) -> float:
    """An argument that is a finite number of seconds >= 0."""
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
