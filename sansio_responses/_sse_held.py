"""The start of an event-stream block: held as received while chunk boundaries cut it, read as a
head once whole.

:class:`HeldStart` is the base of :class:`~sansio_responses._sse.SSEDecoder` that knows what the
block fast path (``SSEDecoder._blocks``) accepts as the start of a block, the shapes the OpenAI API
sends (``event: <type>`` then ``data: <payload>``, or ``data: <payload>`` alone): the head of a
whole block (:meth:`HeldStart._shape_at`), and the start of a block that a chunk ended before its
blank line, kept as received (:meth:`HeldStart._holds`) until the chunk that ends it, which is then
read as if those bytes began it (:meth:`HeldStart._after_held`), or handed to the line rules
(:meth:`HeldStart._absorb_held`). Holding changes nothing observable (WHATWG §9.2.6): such lines
only set the block's own buffers, and the held bytes count at least what ``max_event_size`` counts.
"""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING, Any

from ._sse_lines import TYPE_CACHE_BYTES, TYPE_CACHE_SIZE, LineMachine

__all__ = ["HeldStart"]

_LF = 0x0A
# The most bytes of an unfinished block kept as received (see HeldStart._held).
_HOLD_MAX = 8 * 1024
# The head of a block of one "data: " line (see SSEDecoder._blocks).
_DATA_ONLY = (b"data: ", "message", 6)


class HeldStart(LineMachine):
    """The held start of a block and the heads of whole blocks (see the module docstring).

    Args:
        limit: as :class:`~sansio_responses._sse_lines.LineMachine`'s.
        report_comments: as :class:`~sansio_responses._sse_lines.LineMachine`'s.
    """

    # _line and _line_start (the open line and where it starts: set by SSEDecoder) are here
    # because a held start that the line rules take (_absorb_held) becomes the open line.
    __slots__ = ("_heads", "_held", "_hold_max", "_line", "_line_start", "_shape")
    _line: bytearray
    _line_start: int

    if TYPE_CHECKING:
        # SSEDecoder's: the bytes fed, and the paths a held start resumes on.
        offset: int

        def _blocks(self, data: bytes, base: int, end: int, full: bool) -> list[Any]: ...

        def _chunk(self, data: bytes, n: int, full: bool) -> list[Any]: ...

    def __init__(self, limit: int, report_comments: bool) -> None:
        super().__init__(limit, report_comments)
        # The start of a block begun in an earlier chunk, kept as received instead of fed to
        # the line machine, when its complete lines (at most two) are "event: " or "data: "
        # lines and it has no CR and is shorter than _HOLD_MAX and the limit (_holds): what the
        # OpenAI API sends, cut by chunk boundaries, however small. The chunk that ends it is
        # read as if the held bytes began it, so the whole block takes the block fast path
        # (_blocks) instead of the line machine. Holding them changes nothing observable: such
        # lines only set the block's own buffers, and the bytes held count at least what the
        # limit counts.
        # None when nothing is held; the open line, comment state and block buffers are then
        # empty (the block starts at _line_start).
        self._held: bytearray | None = None
        self._hold_max = min(limit, _HOLD_MAX)
        # Whole "event: <type>" lines (the block path) and their types, keyed with their prefix.
        self._heads: dict[bytes, str] = {}
        # The head of the last block read whole (see _blocks): its bytes, event type, length.
        self._shape = _DATA_ONLY

    def _after_held(self, held: bytearray, data: bytes, n: int, full: bool) -> list[Any]:
        """Feed *data* (*n* bytes, no CR, counted in :attr:`offset`) after the *held* start of
        its block (see _held), as if those bytes began it. A chunk that ends a line of it but
        not the block (small chunks) is held with it, at most twice per block (two line ends),
        so each byte is copied a bounded number of times."""
        # Held bytes hold no CR and no blank line, nor is an LF to swallow: what _chunk would
        # find is an LF-only chunk, whose last blank line (if any) is in *data* or starts at
        # the held bytes' last LF. It is found before joining, so that a chunk that completes
        # blocks is copied once, into the bytes _blocks reads, and the held start is not grown
        # to the chunk's size alongside that copy while its events are read (issue 21: with
        # 256 KiB chunks the two copies were a third of the peak of a stream of deltas).
        h = len(held)
        end = data.rfind(b"\n\n")
        if end >= 0:
            end += h
        elif data[0] == _LF and held.endswith(b"\n"):
            end = h - 1
        if end >= 0:
            data = b"".join((held, data))
            return self._blocks(data, self.offset - len(data), end, full)
        held += data
        if self._holds(held):
            self._held = held
            return []
        return self._chunk(bytes(held), len(held), full)

    def _absorb_held(self) -> None:
        """Give the held start of a block (see _held) to the line machine, as if it had been
        read when it arrived: its complete lines (an event line) are interpreted and the rest is
        the open line."""
        held = self._held
        self._held = None
        assert held is not None
        lf = held.rfind(_LF)
        if lf >= 0:
            # An "event: " line only sets the block's buffers: nothing is dispatched or raised.
            self._lines(bytes(held[:lf]).split(b"\n"), repeat(1), self._line_start, True, [])
            self._line_start += lf + 1
            del held[: lf + 1]
        self._line = held

    def _holds(self, start: bytes | bytearray) -> bool:
        """Whether *start*, the start of a block (no CR), may be held (see _held): up to two
        lines begun, each an ``event: `` or ``data: `` line (or, open, the start of one), the
        second one, while open, anything. So no blank line: the block is not complete."""
        if len(start) > self._hold_max:
            return False
        if not (start.startswith(b"event: ") or start.startswith(b"data: ")):
            return len(start) < 7 and (b"event: ".startswith(start) or b"data: ".startswith(start))
        lf = start.find(_LF)
        if lf < 0 or (second := start.find(_LF, lf + 1)) < 0:
            return True
        return start.find(_LF, second + 1) < 0 and (
            start.startswith(b"data: ", lf + 1) or start.startswith(b"event: ", lf + 1)
        )

    def _shape_at(self, data: bytes, pos: int) -> tuple[bytes, str, int] | None:
        """The head of the block at *pos* if it is ``event: <type>\\ndata: `` or ``data: ``:
        the head's bytes, the event type, the head's length (see ``SSEDecoder._blocks``)."""
        if data.startswith(b"data: ", pos):
            return _DATA_ONLY
        if not data.startswith(b"event: ", pos):
            return None
        lf = data.find(b"\n", pos)
        if lf - pos - 7 > TYPE_CACHE_BYTES or not data.startswith(b"data: ", lf + 1):
            return None  # (a longer type takes the line machine: the caches stay small)
        line = data[pos:lf]
        heads = self._heads
        event = heads.get(line)
        if event is None:
            event = line[7:].decode("utf-8", "replace") or "message"
            if len(heads) < TYPE_CACHE_SIZE:
                heads[line] = event
        return data[pos : lf + 7], event, lf + 7 - pos
