"""Values of a large event read from where they lie in its bytes (see ``load_sharing``).

``load_sharing`` decodes a large event as *the rest*: the data with each shared string or held
span cut out and replaced by a placeholder, decoded from UTF-8 into one ``str``. A container
value at the top of the event is kept, as its exact JSON bytes, for the next event (a *span*).
Those bytes are a slice of the data: only the two ends of the value need mapping from the rest's
characters to the data's bytes, each counted from the nearer end of its piece. Encoding the
value's text instead, as the first version did, held a slice of the rest (two bytes per
character once the text holds a curly quote), its encoding and the join of the pieces at once:
about four times the value's bytes on top of the event, the peak of a stream with logprobs on
every delta (issue 21).

A long string with nothing to unescape (a base64 image) is likewise decoded straight from the
bytes when nothing else is shared (:func:`raw_strings`), not also as part of a ``str`` of the
whole data: the data, one ``str`` of it and the decoded string at once were three times a
partial image's bytes on top of the previous image.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from itertools import islice
from typing import Any

__all__ = ["data_range", "raw_strings", "sliced"]

# Characters encoded (or bytes checked) at a time: no copy of a whole long value.
_PIECE = 64 * 1024
# JSON forbids control characters unescaped in a string (RFC 8259 section 7), and allows these
# three (whitespace) outside strings: a token holding any of them is left to the decoder.
_WHITESPACE = (b"\t", b"\n", b"\r")
_CONTROLS = bytes(c for c in range(0x20) if bytes([c]) not in _WHITESPACE)
# Strings walked at most, looking for the few long raw ones (an image event has about ten).
_MAX_TOKENS = 64


def _utf8_size(text: str, start: int, stop: int) -> int:
    """How many bytes ``text[start:stop]`` takes in UTF-8; -1 if it holds U+FFFD, which may
    stand for invalid bytes of the data (then characters do not map to bytes)."""
    if text.isascii():
        return stop - start
    if text.find("\ufffd", start, stop) >= 0:
        return -1
    size = 0
    for at in range(start, stop, _PIECE):
        size += len(text[at : min(at + _PIECE, stop)].encode("utf-8"))
    return size


def _offset(text: str, at: int, marks: list[int], cuts: list[Any], size: int) -> int:
    """The data offset of the rest's character position *at* (-1: not known).

    The rest is ``piece 0, placeholder 0, piece 1, ..., piece n``: placeholder *k* starts at
    ``marks[k]`` in the rest and stands for ``data[cuts[k][0]:cuts[k][1]]``; each piece is the
    data between two cuts, decoded. *size* is the data's length.
    """
    k = bisect_left(marks, at)  # the piece holding *at* (at its end when at == marks[k])
    first = 0 if k == 0 else marks[k - 1] + len(f'"\\u0000{k - 1}"')
    if at < first:
        return -1  # inside a placeholder: never a value's end (defensive)
    last = marks[k] if k < len(marks) else len(text)
    if at - first <= last - at:
        counted = _utf8_size(text, first, at)
        return -1 if counted < 0 else (0 if k == 0 else cuts[k - 1][1]) + counted
    counted = _utf8_size(text, at, last)
    return -1 if counted < 0 else (cuts[k][0] if k < len(cuts) else size) - counted


def data_range(
    text: str, begin: int, end: int, marks: list[int], cuts: list[Any], size: int
) -> tuple[int, int] | None:
    """Where ``text[begin:end]``, a value of the rest (see the module), lies in the data of
    *size* bytes; ``None`` when an end cannot be mapped (a U+FFFD on the way to it)."""
    start = _offset(text, begin, marks, cuts, size)
    stop = _offset(text, end, marks, cuts, size)
    return None if start < 0 or stop < start else (start, stop)


def sliced(data: Any, start: int, stop: int) -> bytes:
    """``bytes(data[start:stop])`` of bytes or a bytearray *data*, copied once."""
    with memoryview(data) as view:
        return view[start:stop].tobytes()


def raw_strings(
    data: bytes | bytearray, tokens: Iterable[tuple[int, int]], min_size: int
) -> list[tuple[int, int, str, int]]:
    """The string tokens of *data* (the first :data:`_MAX_TOKENS` of *tokens*, ``(start, stop)``
    with the quotes) of at least *min_size* bytes holding no backslash and no control character,
    as cuts ``(start, stop, value, 0)``: the value is the token's content decoded from UTF-8 in
    place, which is what a JSON decoder gives for it (quotes are ASCII, so decoding the token
    alone replaces invalid bytes as decoding the whole data does)."""
    cuts: list[tuple[int, int, str, int]] = []
    clean: bool | None = None  # whether the data hold no control character but whitespace
    for start, stop in islice(tokens, _MAX_TOKENS):
        if stop - start - 2 < min_size or data.find(b"\\", start + 1, stop - 1) >= 0:
            continue
        if clean is None:
            # One C pass over the data (the token is most of it); JSON whitespace is allowed
            # outside strings, so it is looked for in the token alone (memchr).
            clean = len(data.translate(None, _CONTROLS)) == len(data)
        if not clean or any(data.find(ws, start + 1, stop - 1) >= 0 for ws in _WHITESPACE):
            continue
        with memoryview(data) as view:
            cuts.append((start, stop, str(view[start + 1 : stop - 1], "utf-8", "replace"), 0))
    return cuts
