"""Write ranges for a body sent on a recorded schedule (``Faults.schedule``): the recorded pieces,
each due at its recorded time after the first write, so a replay keeps a recording's chunking and
pacing."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["scheduled_pieces"]


def scheduled_pieces(
    end: int, schedule: Sequence[tuple[int, float]], stall: int | None
) -> list[tuple[int, int, float]]:
    """``(start, stop, due)`` ranges covering ``[0, end)``: one per recorded piece (sizes from
    *schedule*, ``due`` its time relative to the first), cut short at *end* (a disconnect), and
    split at *stall*; bytes past the schedule go in one last piece, due with the last one."""
    pieces: list[tuple[int, int, float]] = []
    start = 0
    first = schedule[0][1] if schedule else 0.0
    due = 0.0
    for size, at in schedule:
        if start >= end:
            break
        due = max(at - first, due)  # never earlier than the piece before
        stop = min(start + size, end)
        if stall is not None and start < stall < stop:
            pieces.append((start, stall, due))
            start = stall
        if stop > start:
            pieces.append((start, stop, due))
        start = max(start, stop)
    if start < end:
        if stall is not None and start < stall < end:
            pieces.append((start, stall, due))
            start = stall
        pieces.append((start, end, due))
    return pieces
