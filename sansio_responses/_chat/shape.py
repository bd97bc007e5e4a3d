"""Shape templates: read an event that repeats an earlier one's text but for one or two strings.

A streamed completion sends thousands of events whose data differ only inside a few JSON strings:
a Chat Completions chunk repeats its id, model, timestamp and structure, and only the content delta
and the ``obfuscation`` padding change. Decoding each of them with a general JSON parser, and
checking its shape again, redoes the same work every time. A :class:`Template` is learnt from one
decoded event: the text before, between and after its varying strings. An event whose text is
exactly those fixed parts around valid JSON strings has, by the JSON grammar, the same structure
and the same other values (a string token cannot change how the text around it parses: RFC 8259
section 7), so it is read with prefix comparisons and the standard library's own C string scanner,
and nothing else.

(A Responses delta, flat and with a varying ``sequence_number`` too, was measured: there the C
scanner of ``json`` reads the whole event faster than this module's Python-level steps do.)

A template is made only when a probe confirms it (see :func:`learn`): the fixed parts around fresh
marker values must decode, with the stream's own decoder, to exactly the dict that the template
builds from those markers. That rules out whatever the text search could get wrong (a key that
appears twice, a key inside another string).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from .._base import JSONLoads

__all__ = ["Template", "learn", "match"]

# The standard library's string scanner (its C version when the accelerator is present: the
# function json.loads itself uses), strict, so control characters are refused as json.loads
# refuses them. It takes the index just after the opening quote and returns the decoded string
# and the index just after the closing quote.
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


class Template:
    """The fixed text of an event around its one or two varying strings, and what to build.

    ``head`` runs up to the first string's opening quote (included), ``mid`` from the first
    string's closing quote (excluded) to the second one's opening quote (included; ``None`` with
    one string), ``tail`` from the last closing quote (excluded) to the end. ``swapped``: the
    strings appear in the text in the opposite order to the keys given to :func:`learn`.
    ``build(first, second)`` makes the decoded dict, with the strings in the keys' order.
    ``fields``: whatever the caller keeps with it.
    """

    __slots__ = ("build", "fields", "head", "mid", "swapped", "tail")

    def __init__(
        self,
        head: str,
        mid: str | None,
        tail: str,
        swapped: bool,
        build: Callable[..., dict[str, Any]],
    ) -> None:
        self.head = head
        self.mid = mid
        self.tail = tail
        self.swapped = swapped
        self.build = build
        self.fields: Any = None


def match(t: Template, data: str) -> tuple[str, str | None] | None:
    """The varying strings of *data* (in the order of :func:`learn`'s keys) if it fits *t*."""
    head = t.head
    if not data.startswith(head):
        return None
    mid = t.mid
    try:
        first, end = _scanstring(data, len(head))
        if mid is None:
            second = None
        elif data.startswith(mid, end):
            second, end = _scanstring(data, end + len(mid))
        else:
            return None
    except ValueError:  # not a valid string there (json.JSONDecodeError is a ValueError)
        return None
    tail = t.tail
    if end + len(tail) != len(data) or not data.endswith(tail):
        return None
    if t.swapped:
        return second, first  # type: ignore[return-value]
    return first, second


_PATTERNS: dict[str, re.Pattern[str]] = {}
_WS = "[ \t\n\r]*"  # JSON whitespace (RFC 8259 section 2)


def _locate(data: str, key: str, value: str) -> tuple[int, int] | None:
    """Where the string value of the last member named *key* lies in *data*, if it is *value*:
    (the index just after its opening quote, the index just after its closing quote)."""
    pattern = _PATTERNS.get(key)
    if pattern is None:
        member = re.escape(json.dumps(key)) + _WS + ":" + _WS + '"'
        pattern = _PATTERNS[key] = re.compile(member)
    found = None
    for m in pattern.finditer(data):
        found = m
    if found is None:
        return None
    start = found.end()
    try:
        decoded, end = _scanstring(data, start)
    except ValueError:
        return None
    return (start, end) if decoded == value else None


def _marker(data: str, avoid: str | None) -> str:
    """A string whose JSON text occurs nowhere in *data* (with a quote, a backslash and a
    non-ASCII character, so that the probe also goes through the scanner's escapes)."""
    n = 0
    while True:
        n += 1
        marker = f'\u2603"{n}\\'
        if marker != avoid and json.dumps(marker)[1:-1] not in data:
            return marker


def learn(
    data: str,
    keys: tuple[str, ...],
    values: tuple[str, ...],
    build: Callable[..., dict[str, Any]],
    loads: JSONLoads,
) -> Template | None:
    """A template for events shaped like *data*, or None.

    *keys* name the one or two members whose string values vary, *values* are their values in
    *data*, and ``build(first, second)`` must make the decoded dict for any strings (*second*
    None with one key). The template is
    returned only when the probe agrees: the fixed parts around fresh marker strings, decoded by
    *loads*, equal ``build`` of the markers.
    """
    spans: list[tuple[int, int]] = []
    for key, value in zip(keys, values, strict=True):
        span = _locate(data, key, value)
        if span is None:
            return None
        spans.append(span)
    swapped = False
    if len(spans) == 2:
        (s1, e1), (s2, e2) = spans
        if s2 < s1:
            swapped = True
            (s1, e1), (s2, e2) = (s2, e2), (s1, e1)
        if s2 <= e1:  # (the text search went wrong: the probe would refuse it)
            return None
        t = Template(data[:s1], data[e1:s2], data[e2:], swapped, build)
    elif len(spans) == 1:
        ((s1, e1),) = spans
        t = Template(data[:s1], None, data[e1:], False, build)
    else:
        return None
    first = _marker(data, None)
    markers = (first,) if len(spans) == 1 else (first, _marker(data + json.dumps(first), first))
    texts = [json.dumps(m)[1:-1] for m in markers]
    if swapped:
        texts.reverse()
    probe = t.head + texts[0] + '"'
    if t.mid is not None:
        probe += t.mid + texts[1] + '"'
    probe += t.tail
    try:
        decoded = loads(probe)
    except (ValueError, RecursionError):
        return None
    expected = markers if len(markers) == 2 else (first, None)
    if match(t, probe) != expected or decoded != build(*expected):
        return None
    return t
