"""A choice's ``logprobs.content`` token entries, kept as the JSON text they came in until read.

With ``logprobs=True`` every chunk brings a few token entries (each an object holding lists and
objects: about 13 containers a chunk). Kept decoded, they stay alive for the whole stream, and
the garbage collector walks every one of them again at each of its older-generation passes: on
a stream of 5,000 chunks that walk costs more than decoding them (bench/chat_peers.py). Kept as
text (one string a chunk, which the collector never walks: a ``str`` holds no references) they
cost nothing until someone reads them, and they take a quarter of the memory.

The logprobs template (:meth:`ChatFastPaths._logprobs_templated`) has already read each chunk's
entries with the standard library's scanner, checked them (an array of objects, within
``max_nesting_depth``) and built the chunk's event from that value; here it keeps the same
array's text. Decoding the texts again with the same scanner gives equal values: a JSON text
decodes the same wherever it stands (RFC 8259 section 2), and the arrays' elements joined with
commas into one array are the same elements in the same order.

:class:`Entries` is the list :meth:`ChoiceAcc.extend_logprobs` extends (decoded entries, from
every other path) followed by those texts; :meth:`Entries.flush` decodes the texts into the
list, once, and the snapshot's ``Choice.logprobs`` does it on first access (see
:func:`pending_logprobs`). tests/test_chat_entries.py proves the result equal to the general
path's, which keeps every entry decoded.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from .shape import ScanValue

__all__ = ["Entries", "pending_logprobs"]


class Entries:
    """The token entries of one choice's ``logprobs.content``: :attr:`items` (decoded, the very
    list of ``ChoiceAcc.logprobs["content"]``), then :attr:`raw` (texts of non-empty JSON arrays
    of entries, read by *scan*, not decoded yet), which hold :attr:`pending` entries."""

    __slots__ = ("items", "pending", "raw", "scan")

    def __init__(self, items: list[Any], scan: ScanValue) -> None:
        self.items = items
        self.raw: list[str] = []
        self.pending = 0
        self.scan = scan

    def __len__(self) -> int:
        return len(self.items) + self.pending

    def flush(self) -> list[Any]:
        """Decode the texts not decoded yet onto :attr:`items` (in order), and return it."""
        raw = self.raw
        if raw:
            # One array of every element: one call of the scanner, not one per chunk.
            joined = "[" + ",".join([text[1:-1] for text in raw]) + "]"
            self.items.extend(self.scan(joined, 0)[0])
            self.raw = []
            self.pending = 0
        return self.items


def _materialize(entries: Entries, count: int, base: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    out["content"] = entries.flush()[:count]
    return {"logprobs": out}


def pending_logprobs(entries: Entries, base: dict[str, Any]) -> Any:
    """What makes a snapshot's ``logprobs`` on first access (see ``models._Pending``): *base*
    (the other fields, as of now) with ``content`` the first ``len(entries)`` entries (those
    received so far; later chunks only add after them)."""
    return partial(_materialize, entries, len(entries), base)
