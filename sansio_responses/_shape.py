"""Shape templates: read an event that repeats an earlier one's text but for a few values.

A streamed response sends thousands of events whose data differ only in a few JSON values: a Chat
Completions chunk repeats its id, model, timestamp and structure, and only the content delta and the
``obfuscation`` padding change; a Responses text delta changes its ``sequence_number`` too. Decoding
each of them with a general JSON parser redoes the same work every time. A :class:`Template` is
learnt from one decoded event: the text before, between and after its varying values (strings, or
non-negative integers). An event whose text is exactly those fixed parts around valid JSON strings
and integers has, by the JSON grammar, the same structure and the same other values (a string or
number token cannot change how the text around it parses: RFC 8259 sections 6 and 7), so it is read
with prefix comparisons and the standard library's own C string scanner, and nothing else.

A template is made only when a probe confirms it (see :func:`learn`): the fixed parts around fresh
marker values must decode, with the stream's own decoder, to exactly the dict that the template
builds from those markers. That rules out whatever the text search could get wrong (a key that
appears twice, a key inside another string).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

from ._base import JSONLoads

__all__ = ["Template", "learn", "match"]

# The standard library's string scanner (its C version when the accelerator is present: the
# function json.loads itself uses), strict, so control characters are refused as json.loads
# refuses them. It takes the index just after the opening quote and returns the decoded string
# and the index just after the closing quote.
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]

# An integer hole takes at most this many digits: both JSON decoders read it as the same int (orjson
# reads integers past 64 bits as floats), and the search for the text after it stays bounded.
_MAX_DIGITS = 18
_WS = "[ \t\n\r]*"  # JSON whitespace (RFC 8259 section 2)


class Template:
    """The fixed text of an event around its varying values, and what to build from them.

    ``head`` runs up to the first value (its opening quote included for a string); ``parts`` holds,
    for each value in text order, whether it is an integer and the fixed text after it (from a
    string's closing quote, exclusive). ``order``: for each value in text order, its position in
    the keys given to :func:`learn` (None: the same order). ``build`` makes the decoded dict
    from the values, in the keys' order.
    """

    __slots__ = ("build", "head", "order", "parts")

    def __init__(
        self,
        head: str,
        parts: tuple[tuple[bool, str], ...],
        order: tuple[int, ...] | None,
        build: Callable[..., dict[str, Any]],
    ) -> None:
        self.head = head
        self.parts = parts
        self.order = order
        self.build = build


def match(t: Template, data: str) -> list[Any] | None:
    """The varying values of *data* (in the order of :func:`learn`'s keys) if it fits *t*."""
    head = t.head
    if not data.startswith(head):
        return None
    pos = len(head)
    values: list[Any] = []
    try:
        for is_int, fixed in t.parts:
            if is_int:
                # The digits run up to the fixed text: found within the longest integer taken.
                end = data.find(fixed, pos, pos + _MAX_DIGITS + len(fixed))
                digits = data[pos:end]
                if (
                    end < 0
                    or not digits.isdigit()
                    or not digits.isascii()  # isdigit() also takes other scripts' digits
                    or (digits[0] == "0" and len(digits) > 1)  # JSON has no leading zeros
                ):
                    return None
                values.append(int(digits))
                pos = end
            else:
                value, pos = _scanstring(data, pos)
                if not data.startswith(fixed, pos):
                    return None
                values.append(value)
            pos += len(fixed)
    except ValueError:  # not a valid string there (json.JSONDecodeError is a ValueError)
        return None
    if pos != len(data):
        return None
    order = t.order
    if order is None:
        return values
    ordered: list[Any] = [None] * len(values)
    for j, i in enumerate(order):
        ordered[i] = values[j]
    return ordered


_PATTERNS: dict[tuple[str, bool], re.Pattern[str]] = {}


def _locate(data: str, key: str, value: Any) -> tuple[int, int] | None:
    """Where the value of the last member named *key* lies in *data*, if it is *value*: (its
    first character after the opening quote for a string, the index just after it)."""
    is_int = type(value) is int
    pattern = _PATTERNS.get((key, is_int))
    if pattern is None:
        member = re.escape(json.dumps(key)) + _WS + ":" + _WS
        pattern = _PATTERNS[(key, is_int)] = re.compile(member + ("[0-9]+" if is_int else '"'))
    found = None
    for m in pattern.finditer(data):
        found = m
    if found is None:
        return None
    if is_int:
        end = found.end()
        digits = str(value)
        if data[end - len(digits) : end] != digits or data[end - len(digits) - 1].isdigit():
            return None
        return end - len(digits), end
    start = found.end()
    try:
        decoded, end = _scanstring(data, start)
    except ValueError:
        return None
    return (start, end) if decoded == value else None


def _markers(data: str, values: Sequence[Any]) -> list[Any]:
    """A fresh value of each hole's kind whose JSON text occurs nowhere in the event (strings hold a
    quote, a backslash and a non-ASCII character, so the probe also goes through escapes)."""
    out: list[Any] = []
    n = 7
    for value in values:
        while True:
            n += 1
            marker: Any = 987_654_321 + n if type(value) is int else f'\u2603"{n}\\'
            text = json.dumps(marker)
            if marker != value and text not in data and text[1:-1] not in data:
                break
        out.append(marker)
    return out


def _text_of(value: Any) -> str:
    return str(value) if type(value) is int else json.dumps(value)[1:-1]


def learn(
    data: str,
    keys: Sequence[str],
    values: Sequence[Any],
    build: Callable[..., dict[str, Any]],
    loads: JSONLoads,
) -> Template | None:
    """A template for events shaped like *data*, or None.

    *keys* name the members whose values vary, *values* are their values in *data* (each a string
    or a non-negative integer of at most 18 digits), and ``build(*values)`` must make the decoded
    dict for any values. The template is returned only when the probe agrees: the fixed parts
    around fresh marker values, decoded by *loads*, equal ``build`` of the markers.
    """
    spans = []
    for i, (key, value) in enumerate(zip(keys, values, strict=True)):
        if type(value) is int:
            if value < 0 or len(str(value)) > _MAX_DIGITS:
                return None
        elif type(value) is not str:
            return None
        span = _locate(data, key, value)
        if span is None:
            return None
        spans.append((span[0], span[1], i, type(value) is int))
    spans.sort()
    for (_, e1, _, _), (s2, _, _, _) in pairwise(spans):
        if s2 <= e1:
            return None
    head = data[: spans[0][0]]
    parts = []
    for j, (_, end, _, is_int) in enumerate(spans):
        stop = spans[j + 1][0] if j + 1 < len(spans) else len(data)
        parts.append((is_int, data[end:stop]))
    if any(is_int and not fixed for is_int, fixed in parts):
        return None  # an integer must be followed by fixed text, which ends its digits
    order = tuple(i for _, _, i, _ in spans)
    t = Template(head, tuple(parts), None if order == tuple(range(len(order))) else order, build)
    markers = _markers(data, values)
    probe = head
    for (_, _, i, is_int), (_, fixed) in zip(spans, parts, strict=True):
        probe += _text_of(markers[i]) + ("" if is_int else '"') + fixed
    try:
        decoded = loads(probe)
    except (ValueError, RecursionError):
        return None
    if match(t, probe) != markers or decoded != build(*markers):
        return None
    return t
