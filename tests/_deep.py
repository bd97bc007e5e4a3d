"""How deep data must nest to overflow the running interpreter's recursive walks.

CPython 3.10 and 3.11 overflow ``json.loads``, ``json.dumps``, ``repr`` and ``==`` of nested lists
at about 1,000 levels (the recursion limit), 3.12 at about 2,000, 3.13 much deeper (its C
recursion guard counts differently: 8,000 levels pass there). A test that needs data too deep for
one of them asks for the depth here instead of assuming one.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any


def nested(depth: int) -> Any:
    """``[[...]]``, *depth* levels of lists, built without recursion."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


def overflow_depth(walk: Callable[[int], object], start: int = 500, limit: int = 1 << 20) -> int:
    """The smallest depth, doubling from *start*, at which ``walk(depth)`` raises
    :class:`RecursionError`; fails (AssertionError) if none up to *limit* does."""
    depth = start
    while depth <= limit:
        try:
            walk(depth)
        except RecursionError:
            return depth
        depth *= 2
    raise AssertionError(f"{walk} walks {limit} levels on this interpreter")


@functools.cache
def json_overflow_depth() -> int:
    """Nesting ``json.loads`` cannot decode here."""
    return overflow_depth(lambda depth: json.loads("[" * depth + "]" * depth))


@functools.cache
def dumps_overflow_depth() -> int:
    """Nesting ``json.dumps`` cannot encode here."""
    return overflow_depth(lambda depth: json.dumps(nested(depth)))


@functools.cache
def repr_overflow_depth() -> int:
    """Nesting neither ``repr`` nor ``==`` of plain lists can walk here."""
    return max(
        overflow_depth(lambda depth: repr(nested(depth))),
        overflow_depth(lambda depth: nested(depth) == nested(depth)),
    )


@functools.cache
def decoder_overflow_depth() -> int:
    """Nesting the streams' default decoder cannot decode here: orjson (when installed) refuses
    past its own limit of 1,024 levels and hands the data to ``json.loads``, so both must fail."""
    from sansio_responses._base import DEFAULT_JSON_LOADS

    return overflow_depth(lambda depth: DEFAULT_JSON_LOADS("[" * depth + "]" * depth))
