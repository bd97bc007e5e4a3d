"""How deep JSON must nest to overflow the running interpreter's ``json`` decoder.

CPython 3.10 and 3.11 overflow at about 1,000 levels (the recursion limit), 3.12 a little deeper,
3.13 much deeper (its C recursion guard counts differently: 8,000 levels decode there), so a
test that needs data the decoder cannot decode asks for this depth instead of assuming one.
"""

from __future__ import annotations

import functools
import json


@functools.cache
def json_overflow_depth(start: int = 500, limit: int = 1 << 20) -> int:
    """The smallest depth, doubling from *start*, at which ``json.loads`` of ``[[...]]`` raises
    :class:`RecursionError` here; fails (AssertionError) if none up to *limit* does."""
    depth = start
    while depth <= limit:
        try:
            json.loads("[" * depth + "]" * depth)
        except RecursionError:
            return depth
        depth *= 2
    raise AssertionError(f"json.loads decodes {limit} levels on this interpreter")
