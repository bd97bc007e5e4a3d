"""A text part's ``logprobs``, kept as the JSON text the deltas brought until read (issue 21).

With ``include=["message.output_text.logprobs"]`` every ``response.output_text.delta`` brings a
few token entries. Kept decoded in the accumulated part, they stay alive for the whole stream
(5.85x the largest event on ``bench/shapes.py``'s text_logprobs stream; see ``_held_entries``),
and the ``response.output_text.done`` event then decodes all of them a second time. Here the part
holds a :class:`Logprobs`: the entries decoded so far (``items``, from the general path) followed
by the JSON texts of the deltas' arrays (``raw``), decoded when the part is first materialised (a
snapshot) with the decoder that decoded them in their events.

:func:`split_logprobs` is how the inline text-delta path reads a delta's data: its ``logprobs``
array and the rest are decoded apart, so the array's text is known exactly, at no more decoding
than the whole (the event's fields are the same values). :func:`done_span` turns the held texts
into one held span for the ``.done`` event (see ``_base.load_sharing``): where that event's data
hold exactly those bytes as a value, the value is put in already decoded (decoded here piece by
piece, so no ``str`` of the whole array exists at once), and never decoded from the event.

Why the values are the same: see ``_held_entries``; tests/test_lazy_logprobs.py holds the two
paths equal.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from typing import Any

from .._base import (
    Span,
    _scan_once,  # pyright: ignore[reportPrivateUsage]  # the stream's own scanner
)
from .._held_entries import UNPACK, HeldEntries

__all__ = ["Logprobs", "add_entries", "done_span", "exact_levels", "split_logprobs"]


# Texts decoded in one call by a flush or a span's value: about this many bytes (the transient
# text of each call stays small).
_GROUP = 64 * 1024


class Logprobs(HeldEntries):
    """The holder of a text part's ``logprobs`` (a ``HeldEntries``): its texts are the deltas'
    whole arrays, read by the standard library's scanner ``_GROUP`` bytes at a time."""

    __slots__ = ()
    arrays = True
    group = _GROUP


# The API writes the delta's fields in alphabetical order: what follows the logprobs array.
_AFTER = (b',"obfuscation":', b',"output_index":')


def split_logprobs(payload: Any, scan: Callable[[str, int], tuple[Any, int]] | None) -> Any:
    """``(obj, text)``: a text delta's *payload* decoded (by *scan*, or by orjson for bytes) and
    the text of its ``logprobs`` array, a slice of *payload*; ``None`` when that does not apply
    (the caller decodes the payload as usual).

    The array is decoded apart from the rest, where a ``0`` stands in for it, and then put in
    its place: the same dict as decoding the whole, field order included. It applies only when
    the array is certainly the object's ``logprobs`` field: the one ``"logprobs"`` token of the
    data (a quote inside a string is escaped, so a string's content cannot hold one), written
    with no escape (no ``\\u`` anywhere: a key spelt with escapes would be another token for
    the same name), directly followed by ``:[``.
    """
    if scan is not None:
        if payload.__class__ is not str:
            return None
        start = _array_start(payload, '"logprobs"', ":[", "]", "\\u")
        if start < 0:
            return None
        try:
            entries, stop = scan(payload, start)
            obj, end = scan(payload[:start] + "0" + payload[stop:], 0)
        except (ValueError, RecursionError, StopIteration):
            return None
        if end != len(payload) - (stop - start) + 1:
            return None
    else:
        if payload.__class__ is not bytes or UNPACK is None:
            return None
        start = _array_start(payload, b'"logprobs"', b":[", b"]", b"\\u")
        if start < 0:
            return None
        # orjson reads whole documents only: the array ends before the field the API writes
        # next, and decoding the slice proves it (an array's text ends at its own bracket).
        stop = -1
        for after in _AFTER:
            stop = payload.find(after, start)
            if stop >= 0:
                break
        if stop < 0 or payload[stop - 1] != 0x5D:  # (the array's own "]", no space before)
            return None
        try:
            entries = UNPACK(payload[start:stop])
            obj = UNPACK(payload[:start] + b"0" + payload[stop:])
        except ValueError:  # (orjson.JSONDecodeError)
            return None
    if obj.__class__ is not dict or obj.get("logprobs") != 0 or entries.__class__ is not list:
        return None
    obj["logprobs"] = entries
    return obj, payload[start:stop]


def _array_start(payload: Any, key: Any, opens: Any, closes: Any, escape: Any) -> int:
    """Where the array of the field *key* starts in *payload* (``str`` or ``bytes``, the
    literals of its kind): the one *key* token of the data, directly followed by *opens*, the
    array not empty, no *escape* anywhere (see :func:`split_logprobs`); -1 if not so."""
    at: int = payload.find(key + opens)
    start = at + len(key) + 1
    if (
        at < 0
        or payload[start + 1 : start + 2] == closes
        or payload.count(key) != 1
        or payload.find(escape) >= 0
    ):
        return -1
    return start


def add_entries(part: dict[str, Any], entries: list[Any], text: Any, orjson: bool) -> None:
    """Add a text delta's *entries* (non-empty) to its *part*, as their JSON *text* when given
    (see :func:`split_logprobs`), else decoded (as ``Accumulator.text_delta`` does)."""
    held: Any = part.get("logprobs")
    if held.__class__ is not Logprobs:
        if text is None:
            if held.__class__ is list:
                held.extend(entries)
            else:
                part["logprobs"] = list(entries)
            return
        held = part["logprobs"] = Logprobs(held if held.__class__ is list else [], orjson)
    if text is None:
        held.extend(entries)
    else:
        held.add(text, len(entries))


def exact_levels(span: Span) -> Span:
    """*span* (from :func:`done_span`) with its levels measured on its value.

    :func:`done_span` gives an upper bound (a walk of the decoded entries costs about half their
    decoding); it decides the same as the exact count wherever it is within the nesting limit,
    and where it is not the caller measures (see ``InlineFeed._load_big``)."""
    return (span[0], span[1], _nesting(span[1]))


def _nesting(value: list[Any]) -> int:
    """How many levels *value* (a list) nests, itself the first (as ``_base.load_sharing``
    counts a span's levels)."""
    levels = 0
    layer: list[Any] = [value]
    while layer:
        levels += 1
        below: list[Any] = []
        for node in layer:
            children = node.values() if node.__class__ is dict else node
            kinds = set(map(type, children))
            if dict in kinds or list in kinds:
                below += [c for c in children if c.__class__ is dict or c.__class__ is list]
        layer = below
    return levels


def done_span(held: Logprobs, data: bytes | bytearray) -> Span | None:
    """A held span for a large event's *data* (the ``.done`` event, repeating the part's
    logprobs): the held texts as one array's bytes, its value (the standard library's, as a
    large event is decoded) and its levels; ``None`` when the data do not hold those bytes, or
    *held* has decoded entries or was joined already.

    The texts are joined first and let go (one copy of them at a time), then the value is
    decoded a group of texts at a time from the joined bytes: no ``str`` of the whole array
    exists at once.
    """
    with held.lock:
        raw = held.raw
        if not raw or held.items or held.joined:
            return None
        inner = [t[1:-1] if t.__class__ is bytes else t[1:-1].encode("utf-8") for t in raw]
        ends: list[int] = []  # where each group of texts ends in the joined bytes
        at = 1
        size = 0
        for text in inner:
            at += len(text) + 1
            size += len(text)
            if size >= _GROUP:
                ends.append(at - 1)
                size = 0
        joined = b"[" + b",".join(inner) + b"]"
        # At most this many levels (the brackets of the text that has the most, the array's own
        # one more), counted at C speed; exact_levels() measures them when that matters.
        bound = (
            1
            + max(map(bytes.count, inner, repeat(b"[")))
            + max(map(bytes.count, inner, repeat(b"{")))
        )
        del inner, raw  # (the texts go with held.raw's old list)
        if not ends or ends[-1] != len(joined) - 1:
            ends.append(len(joined) - 1)
        held.raw = [joined]
        held.joined = True
    if data.find(joined) < 0:
        return None
    value: list[Any] = []
    start = 1
    for end in ends:
        value += _scan_once("[" + joined[start:end].decode("utf-8", "replace") + "]", 0)[0]
        start = end + 1
    return joined, value, bound
