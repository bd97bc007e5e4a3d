"""Run a check over every chunking of a body: the "split at every offset" check.

A decoder fed from a socket sees the body cut at arbitrary places; its result must not depend on
where. This module names the chunkings this project's own tests use (the whole body, one byte at a
time, and two pieces split at every offset) and runs a check over each.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Protocol, TypeVar

__all__ = ["EverySplit", "chunkings", "for_every_split"]

_T = TypeVar("_T")


class EverySplit(Protocol):
    """The type of the ``every_split`` pytest fixture: :func:`for_every_split` itself."""

    def __call__(self, body: bytes, check: Callable[[list[bytes]], _T], *, step: int = 1) -> _T: ...


def chunkings(body: bytes, *, step: int = 1) -> Iterator[tuple[str, list[bytes]]]:
    """Yield ``(label, chunks)`` for every chunking of *body* the check covers: the whole body
    (``"whole"``), one byte at a time (``"byte by byte"``), then two pieces split at each offset
    ``0, step, 2*step, ...`` up to ``len(body)`` (``"split at N"``). Every ``chunks`` joins back to
    *body*. A *step* above 1 thins out the two-piece splits for long bodies."""
    if step < 1:
        raise ValueError(f"step must be >= 1, got {step}")
    yield "whole", [body]
    yield "byte by byte", [body[i : i + 1] for i in range(len(body))]
    offsets = list(range(0, len(body) + 1, step))
    if offsets[-1] != len(body):
        offsets.append(len(body))
    for cut in offsets:
        yield f"split at {cut}", [body[:cut], body[cut:]]


def for_every_split(body: bytes, check: Callable[[list[bytes]], _T], *, step: int = 1) -> _T:
    """Call ``check(chunks)`` for every chunking of *body* (see :func:`chunkings`) and return what
    it returned for the whole body.

    Each call must return a value equal to the whole body's (return ``None`` to check assertions
    only); a different value raises :class:`AssertionError` naming the chunking, and an exception
    raised by *check* is re-raised with the chunking added as a note (PEP 678; on Python 3.10, an
    :class:`AssertionError` naming it, chained from the exception), so a failure says where the
    body was cut.
    """
    expected: _T | None = None
    first = True
    for label, chunks in chunkings(body, step=step):
        try:
            result = check(chunks)
        except Exception as exc:
            where = f"for_every_split: raised for the chunking {label!r}"
            if sys.version_info < (3, 11):  # no PEP 678 notes
                raise AssertionError(f"{where}: {exc!r}") from exc
            exc.add_note(where)
            raise
        if first:
            expected, first = result, False
        elif result != expected:
            raise AssertionError(
                f"for_every_split: the chunking {label!r} gave {result!r}, the whole body gave "
                f"{expected!r}"
            )
    return expected  # type: ignore[return-value]  # set on the first chunking, always "whole"
