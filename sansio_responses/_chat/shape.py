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

A :class:`SlotTemplate` also has slots that hold one whole JSON value (the token entries of a
chunk with logprobs), read by the decoder's own scanner (see :func:`match_slots`).

A template is made only when a probe confirms it (see :func:`learn`): the fixed parts around fresh
marker values must decode, with the stream's own decoder, to exactly the dict that the template
builds from those markers. That rules out whatever the text search could get wrong (a key that
appears twice, a key inside another string).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from typing import Any

from .._base import JSONLoads

__all__ = [
    "SKIMMED",
    "STRING",
    "VALUE",
    "ScanValue",
    "SlotTemplate",
    "Template",
    "learn",
    "learn_slots",
    "match",
    "match_slots",
]

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


# -- templates with a JSON value in them ----------------------------------------------------------
#
# A chunk with logprobs (``logprobs=True``) repeats an earlier one but for its content, its
# padding and the token entries of its ``logprobs.content``: an array of objects, not a string.
# The same argument holds for a slot that holds one whole JSON value read by the decoder's own
# scanner from where the fixed text before it ends: the scanner consumes exactly one value, so
# the text around it parses as it did (RFC 8259 section 2: a value is a complete token sequence)
# and the event decodes to the template's dict with these values in their places.

STRING = "string"
VALUE = "value"

#: Reads one JSON value of a text from an index: ``(value, the index just after it)``; raises
#: ValueError or StopIteration where there is none (the standard library's scanner does).
ScanValue = Callable[[str, int], tuple[Any, int]]


class SlotTemplate:
    """The fixed text of an event around its varying strings and JSON values.

    ``parts[0]`` runs up to the first slot (a string slot's opening quote included), ``parts[i]``
    from slot ``i - 1``'s end (a string's closing quote excluded) to slot ``i``, the last one to
    the end. ``kinds`` says what each slot holds (:data:`STRING` or :data:`VALUE`), in text
    order; ``order[i]`` is the place in :func:`learn_slots`' *slots* of the text's slot ``i``
    (``None``: the same order). ``build(*values)`` makes the decoded dict, from the values in
    *slots*' order. ``fields``: whatever the caller keeps with it.
    """

    __slots__ = ("build", "fields", "kinds", "order", "parts", "scan")

    def __init__(
        self,
        parts: list[str],
        kinds: tuple[str, ...],
        order: tuple[int, ...] | None,
        build: Callable[..., dict[str, Any]],
        scan: ScanValue,
    ) -> None:
        self.parts = parts
        self.kinds = kinds
        self.order = order
        self.build = build
        self.scan = scan
        self.fields: Any = None


#: What :func:`match_slots` gives for a value slot whose text its *skim* pattern matched.
SKIMMED: Any = object()


def match_slots(
    t: SlotTemplate,
    data: str,
    spans: list[int] | None = None,
    skim: re.Pattern[str] | None = None,
) -> list[Any] | None:
    """The values of *data*'s slots (in the order of :func:`learn_slots`' *slots*), if it fits
    *t*.

    A value slot nested deeper than the interpreter allows gives None (the caller's general
    path then reports it as any too-deep event). *spans*, if given, receives where each value
    slot's text starts and ends in *data* (two indices per value slot, in text order). A value
    slot whose text *skim* matches is not decoded: its value is :data:`SKIMMED` (the pattern
    must match only whole JSON values, which then end where the scanner would stop).
    """
    parts = t.parts
    pos = len(parts[0])
    if not data.startswith(parts[0]):
        return None
    scan = t.scan
    values: list[Any] = []
    try:
        for kind, fixed in zip(t.kinds, parts[1:], strict=True):
            if kind is STRING:
                value, pos = _scanstring(data, pos)
            elif spans is None:
                value, pos = scan(data, pos)
            else:
                spans.append(pos)
                m = None if skim is None else skim.match(data, pos)
                if m is None:
                    value, pos = scan(data, pos)
                else:
                    value, pos = SKIMMED, m.end()
                spans.append(pos)
            if not data.startswith(fixed, pos):
                return None
            pos += len(fixed)
            values.append(value)
    except (ValueError, StopIteration, RecursionError):
        return None
    if pos != len(data):
        return None
    order = t.order
    if order is None:
        return values
    ordered: list[Any] = [None] * len(values)
    for i, value in zip(order, values, strict=True):
        ordered[i] = value
    return ordered


def _value_start(data: str, path: tuple[str, ...]) -> int | None:
    """Where the value of the last member reached by the keys *path* (each an object member of
    the one before, written next to each other) starts in *data*."""
    pattern = _PATTERNS.get("\0".join(path))
    if pattern is None:
        members = ("{" + _WS).join(re.escape(json.dumps(key)) + _WS + ":" + _WS for key in path)
        pattern = _PATTERNS["\0".join(path)] = re.compile(members)
    found = None
    for m in pattern.finditer(data):
        found = m
    return None if found is None else found.end()


def learn_slots(
    data: str,
    slots: list[tuple[str, tuple[str, ...], Any]],
    build: Callable[..., dict[str, Any]],
    loads: JSONLoads,
    scan: ScanValue,
) -> SlotTemplate | None:
    """A template for events shaped like *data*, or None.

    *slots*: (kind, the keys that lead to it, its value in *data*), in any order; a string
    slot's path is its member's name alone. ``build(*values)`` must make the decoded dict. As
    :func:`learn`: the template is returned only when a probe with fresh markers, decoded by
    *loads*, equals ``build`` of the markers and matches the template.
    """
    spans: list[tuple[int, int, int]] = []  # (start, end, place in slots)
    for n, (kind, path, value) in enumerate(slots):
        if kind is STRING:
            span = _locate(data, path[-1], value)
        else:
            start = _value_start(data, path)
            span = None
            if start is not None:
                try:
                    found, end = scan(data, start)
                except (ValueError, StopIteration, RecursionError):
                    found = end = None
                if end is not None and found == value:
                    span = (start, end)
        if span is None:
            return None
        spans.append((*span, n))
    spans.sort()
    for (_, end, _), (start, _, _) in itertools.pairwise(spans):
        if start < end:
            return None  # (overlapping: the text search went wrong)
    parts = [data[: spans[0][0]]]
    for (_, end, _), (start, _, _) in itertools.pairwise(spans):
        parts.append(data[end:start])
    parts.append(data[spans[-1][1] :])
    kinds = tuple(slots[n][0] for _, _, n in spans)
    order = tuple(n for _, _, n in spans)
    t = SlotTemplate(
        parts, kinds, None if order == tuple(range(len(slots))) else order, build, scan
    )
    seen = data
    markers: list[Any] = []
    texts: list[str] = []
    for kind in kinds:
        marker = _marker(seen, None)
        seen += json.dumps(marker)
        if kind is STRING:
            markers.append(marker)
            texts.append(json.dumps(marker)[1:-1] + '"')
        else:
            markers.append([{marker: [1.5, None]}])
            texts.append(json.dumps(markers[-1]))
    probe = parts[0] + "".join(text + part for text, part in zip(texts, parts[1:], strict=True))
    try:
        decoded = loads(probe)
    except (ValueError, RecursionError):
        return None
    ordered: list[Any] = [None] * len(markers)
    for i, marker in zip(order, markers, strict=True):
        ordered[i] = marker
    if match_slots(t, probe) != ordered or decoded != build(*ordered):
        return None
    return t
