"""``states`` and ``rules``: the tables the library prints, from the command line."""

from __future__ import annotations

import argparse
from typing import IO

from .._responses.stream import format_accumulation_rules, format_state_table
from .._ws.connection import format_connection_rules
from .common import EXIT_OK, Subcommands


def cmd_states(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``states``: the Responses stream lifecycle table."""
    out.write(format_state_table() + "\n")
    return EXIT_OK


def cmd_rules(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``rules``: which event may touch which kind of output item, and what it does; with
    ``--websocket``, the rules of the WebSocket mode (who may send what, and the error)."""
    if args.websocket:
        out.write(format_connection_rules() + "\n")
    else:
        out.write(format_accumulation_rules() + "\n")
    return EXIT_OK


def add_parsers(sub: Subcommands) -> None:
    """Add ``states`` and ``rules``."""
    p = sub.add_parser("states", help="print the Responses stream lifecycle table")
    p.set_defaults(func=cmd_states)

    p = sub.add_parser(
        "rules", help="print the accumulation rules (event -> item kind it may touch -> action)"
    )
    p.add_argument(
        "--websocket",
        action="store_true",
        help="print the WebSocket mode's rules instead (message, side, rule, error)",
    )
    p.set_defaults(func=cmd_rules)
