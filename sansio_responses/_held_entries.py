"""Logprobs token entries kept as the JSON text they came in, decoded when first read (issue 21).

With logprobs on, every text delta or chunk brings a few token entries (each an object holding
lists and objects: about 13 containers a delta). Kept decoded, they stay alive for the whole
stream and the garbage collector walks them at each of its older-generation passes; kept as text
(which the collector never walks) they cost nothing until read, and take a quarter of the memory.
:class:`HeldEntries` holds them for a Chat choice's ``logprobs.content`` (``_chat/entries.py``)
and, as its subclass ``Logprobs``, for a Responses text part (``_responses/logprobs.py``).

Why the values are the same: a JSON text decodes the same wherever it stands (RFC 8259 section
2), and the elements of several arrays joined with commas into one array are the same elements
in the same order, read by the decoder that read them in their events (the standard library's
scanner, or orjson, which writes back what it reads exactly).
"""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Callable
from typing import Any, ClassVar

from ._base import _scan_once  # pyright: ignore[reportPrivateUsage]  # the streams' own scanner
from ._responses.models import copy_tree

__all__ = ["PACK", "UNPACK", "HeldEntries"]

# orjson, if installed (optional).
try:
    _orjson: Any = importlib.import_module("orjson")
except ImportError:  # pragma: no cover - orjson is optional
    _orjson = None
#: orjson's ``dumps`` and ``loads``, or None without orjson.
PACK: Callable[[Any], bytes] | None = None if _orjson is None else _orjson.dumps
UNPACK: Callable[[Any], Any] | None = None if _orjson is None else _orjson.loads


class HeldEntries:
    """Token entries: :attr:`items` (decoded), then :attr:`raw` (the JSON texts of non-empty
    arrays of entries, not decoded yet), which hold :attr:`pending` entries.

    A ``str`` text is an array read by the standard library's scanner, a ``bytes`` one is read by
    orjson when *orjson* (the decoder that read it in its event), else as UTF-8 by the scanner.
    """

    __slots__ = ("items", "joined", "lock", "orjson", "pending", "raw")

    #: Whether the ``bytes`` texts read by orjson are whole arrays; here (a Chat choice's) they
    #: are an array's elements alone (orjson's text of entries, ``_chat.entries.pack_entries``).
    arrays: ClassVar[bool] = False

    #: Texts decoded in one call of the standard library's scanner: about this many bytes; here
    #: all (the entries' repeated keys then share one ``str`` each: the scanner's memo lasts a call).
    group: ClassVar[int] = sys.maxsize

    def __init__(self, items: list[Any], orjson: bool = False) -> None:
        self.items = items
        self.raw: list[Any] = []
        self.pending = 0
        self.orjson = orjson
        #: True once :attr:`raw` is one ``bytes`` array (``_responses.logprobs.done_span``).
        self.joined = False
        # A snapshot may be read in another thread while the stream is fed: its flush and the
        # feeding thread's add must not interleave, or a text added between the decode and the
        # reset is lost, or two flushes add twice.
        self.lock = threading.Lock()

    def add(self, text: Any, count: int) -> None:
        """Keep *text* (holding *count* entries) after those kept so far."""
        with self.lock:
            self.raw.append(text)
            self.pending += count

    def extend(self, entries: list[Any]) -> None:
        """Add decoded *entries* after those so far."""
        with self.lock:
            if self.raw:
                self._flush()
            self.items.extend(entries)

    def __len__(self) -> int:
        with self.lock:  # (not between a flush's extend and its reset: counted twice)
            return len(self.items) + self.pending

    def value(self) -> list[Any]:
        """Every entry, decoded onto :attr:`items` (the texts once: from then on they are kept
        decoded), and :attr:`items` returned."""
        with self.lock:
            if self.raw:
                self._flush()
            return self.items

    def _flush(self) -> None:
        raw = self.raw
        if self.orjson:
            # One array of every element: one call of the decoder, not one per text.
            inner = b",".join([t[1:-1] for t in raw] if self.arrays else raw)
            self.items.extend(UNPACK(b"[" + inner + b"]"))  # type: ignore[misc]
        else:
            most = self.group
            start = size = 0
            for end, text in enumerate(raw, 1):  # groups of about `most` bytes, in order
                size += len(text)
                if size >= most or end == len(raw):
                    self.items.extend(_scan_texts(raw[start:end]))
                    start = end
                    size = 0
        self.raw = []
        self.pending = 0
        self.joined = False

    def __deepcopy__(self, memo: dict[int, Any]) -> HeldEntries:
        # The texts are shared (immutable), the decoded entries copied: nothing is decoded.
        with self.lock:
            copy = self.__class__(copy_tree(self.items), self.orjson)
            copy.raw = list(self.raw)
            copy.pending = self.pending
            copy.joined = self.joined
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, (self.value(), self.orjson))


def _scan_texts(texts: list[Any]) -> list[Any]:
    """The elements of the arrays *texts* (``str``, or ``bytes`` read as UTF-8), by the standard
    library's scanner, in one call."""
    inner = [(t if t.__class__ is str else t.decode("utf-8", "replace"))[1:-1] for t in texts]
    return _scan_once("[" + ",".join(inner) + "]", 0)[0]  # type: ignore[no-any-return]
