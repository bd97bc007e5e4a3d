"""``states`` and ``rules``: the tables the library prints, from the command line."""

from __future__ import annotations

import argparse
from typing import IO

from .._responses.stream import format_accumulation_rules, format_state_table
from .common import EXIT_OK, Subcommands


def cmd_states(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``states``: the Responses stream lifecycle table."""
    out.write(format_state_table() + "\n")
    return EXIT_OK


def cmd_rules(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``rules``: which event may touch which kind of output item, and what it does."""
    out.write(format_accumulation_rules() + "\n")
    return EXIT_OK


def add_parsers(sub: Subcommands) -> None:
    """Add ``states`` and ``rules``."""
    p = sub.add_parser("states", help="print the Responses stream lifecycle table")
    p.set_defaults(func=cmd_states)

    p = sub.add_parser(
        "rules", help="print the accumulation rules (event -> item kind it may touch -> action)"
    )
    p.set_defaults(func=cmd_rules)
