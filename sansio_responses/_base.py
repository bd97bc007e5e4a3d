"""What the Responses and Chat Completions streams share: bytes -> SSE messages -> JSON objects.

A stream object owns one :class:`~sansio_responses.SSEDecoder`. ``feed`` hands each dispatched message to
the subclass's ``_on_message`` together with the byte offset where it started, so every error can say
where it happened. Tolerated anomalies go through :meth:`EventStreamBase._note`, which records a
:class:`Diagnostic` or, with ``strict=True``, raises :class:`RemoteProtocolError` instead.

Error discipline (as in h11): after a :class:`ProtocolError` the stream is in an error state and further
``feed`` calls raise :class:`LocalProtocolError`; the state decoded before the error (snapshot, outcome,
diagnostics) stays readable. Events decoded by the failing ``feed``/``close`` call before the error are
attached to the exception as ``exc.events`` so nothing already decoded is lost.
"""

from __future__ import annotations

import importlib
import json
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from itertools import repeat, starmap
from typing import Any, Generic, Literal, TypeAlias, TypeVar

from ._diagnostics import Diagnostic
from ._errors import LocalProtocolError, ProtocolError, RemoteProtocolError, excerpt
from ._spans import data_range, raw_strings, sliced
from ._sse import DEFAULT_MAX_EVENT_SIZE, ServerSentEvent, SSEDecoder

__all__ = [
    "DEFAULT_MAX_DIAGNOSTICS",
    "DEFAULT_MAX_NESTING_DEPTH",
    "EventStreamBase",
    "Outcome",
    "too_deep",
]

Outcome: TypeAlias = Literal["completed", "incomplete", "failed", "error", "truncated", "cancelled"]
"""How a stream ended, the type of ``outcome`` once set: ``"completed"``, ``"incomplete"`` and
``"failed"`` (the Responses terminal events; a Chat stream completes with ``[DONE]`` or every choice
finished), ``"error"`` (an error event), ``"truncated"`` (the body ended before a terminal event) or
``"cancelled"`` (an adapter's events object was closed before the stream ended). Typed as a
``Literal``, so a misspelt comparison (``stream.outcome == "complete"``) is a type error."""

#: Default bound on the number of :class:`Diagnostic` records kept per stream. Further anomalies are
#: still counted in ``diagnostic_counts`` but not stored, so a hostile stream cannot grow memory.
DEFAULT_MAX_DIAGNOSTICS = 1000

#: Default bound on how deeply the arrays and objects of one event's data may nest (the event object
#: itself is level 1). Real events nest about ten levels (a tool's JSON schema echoed in a response
#: a few more); a bound checked once, when the data is decoded, keeps every later copy, merge and
#: ``to_dict()`` far from Python's recursion limit, whatever the peer sends.
DEFAULT_MAX_NESTING_DEPTH = 256


def too_deep(value: Any, limit: int, budget: int = -1) -> bool | None:
    """Whether the JSON tree *value* nests more than *limit* levels (iterative: any depth is safe).

    With a *budget* >= 0, ``None`` (not known) once more than *budget* containers were visited.
    """
    stack: list[tuple[dict[str, Any] | list[Any], int]] = [(value, 1)]
    pop, push = stack.pop, stack.append
    child: JSONValue
    while stack:
        node, depth = pop()
        if depth > limit:
            return True
        if budget == 0:
            return None
        budget -= 1
        for child in node.values() if type(node) is dict else node:
            if type(child) is dict or type(child) is list:
                push((child, depth + 1))
    return False


E = TypeVar("E")
JSONLoads = Callable[[str], Any]
#: A decoded JSON value. A local declared with it rather than ``Any`` is narrowed by
#: ``type(v) is dict`` to ``dict[str, Any]`` for the type checkers (``Any`` gives ``dict[Unknown,
#: Unknown]``, which pyright strict reports); annotations only, nothing changes at run time.
JSONValue = dict[str, Any] | list[Any] | str | int | float | bool | None

_orjson_loads: Callable[[str], Any] | None
try:  # optional (the ``fast`` extra): used automatically when it is importable
    _orjson_loads = importlib.import_module("orjson").loads
except ImportError:  # pragma: no cover - depends on the environment
    _orjson_loads = None

_json_loads = json.loads
# The standard library's C scanner, called directly: ``json.loads`` spends about half its time
# on a whitespace regex and two Python-level calls around it, for a small event.
_scan_once: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def stdlib_loads(data: str) -> Any:
    """:func:`json.loads` for a document without surrounding whitespace, faster; otherwise (and
    for every error, so that messages are the standard library's own) ``json.loads`` itself."""
    try:
        obj, end = _scan_once(data, 0)
    except (StopIteration, ValueError):
        return _json_loads(data)
    if end != len(data):
        return _json_loads(data)
    return obj


def orjson_loads(data: str) -> Any:
    """``orjson.loads``; what it refuses goes to the standard library, so that the same
    documents are accepted with or without orjson (``NaN``, lone surrogates) and errors read the
    same. (orjson reads an integer past 64 bits as a float: the one difference.)"""
    try:
        return _orjson_loads(data)  # type: ignore[misc]
    except ValueError:  # orjson.JSONDecodeError is a ValueError
        return stdlib_loads(data)


#: The default JSON decoder for event data: orjson when importable, else the standard library.
DEFAULT_JSON_LOADS: JSONLoads = stdlib_loads if _orjson_loads is None else orjson_loads

#: Event data longer than this (bytes or characters) is decoded by the standard library even when
#: the default decoder is orjson: orjson's transient memory is about 14 times a long string's
#: size (a 465 KB ``response.completed`` peaks at 6 MB; a 23 KB reasoning summary's ``.done``
#: event at 330 KB, 3.4 times the largest event of its stream: issue 21), the standard library's
#: about four times at most, and such events are few (the ``.done`` and terminal events that
#: repeat a whole text or image).
BIG_EVENT_DATA = 16 * 1024

#: Data of more than this many bytes or characters are decoded sharing what the stream holds
#: (:func:`load_sharing`); from :data:`BIG_EVENT_DATA` to here, plainly by the standard library
#: (sharing would cost more time than the copy it saves).
SHARE_OVER = 64 * 1024


#: Strings of a large event at least this long (characters) are compared with the strings the
#: stream already holds, and shared when equal (see :func:`load_sharing`).
SHARE_MIN = 4096

# Candidates are compared in pieces of this many characters, each JSON-encoded on its own.
_PIECE = 16 * 1024
_encode_basestring: Callable[[str], str] = json.encoder.encode_basestring
_encode_basestring_ascii: Callable[[str], str] = json.encoder.encode_basestring_ascii
# The control characters the JSON encoders escape, but for LF (see _utf8_json).
_CONTROLS = bytes(c for c in range(0x20) if c != 0x0A)


def _utf8_json(piece: str, as_bytes: bool) -> Any:
    """The JSON string content of *piece* with non-ASCII as UTF-8 (the OpenAI API's form;
    ``json.dumps(ensure_ascii=False)``), as bytes for bytes data."""
    if as_bytes:
        raw = piece.encode("utf-8")
        if len(raw.translate(None, _CONTROLS)) == len(raw):
            # Only quotes, backslashes and LF to escape: three C-speed replaces do what the
            # encoder does character by character (about ten times faster on a long text).
            return raw.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n")
        return _encode_basestring(piece)[1:-1].encode("utf-8")
    return _encode_basestring(piece)[1:-1]


def _ascii_json(piece: str, as_bytes: bool) -> Any:
    """The JSON string content of *piece* with non-ASCII as \\u escapes (``json.dumps``'s
    default, which some proxies use)."""
    out = _encode_basestring_ascii(piece)[1:-1]
    return out.encode("ascii") if as_bytes else out


def _string_tokens(data: str | bytes | bytearray) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of each string token of the JSON document *data*, quotes included.

    ``find`` from quote to quote (a quote after an odd run of backslashes is escaped): linear,
    with no memory beyond the positions. (A regex holds a backtracking record per escape: 20 MB
    for a 1 MB text full of them.) Outside strings a JSON document has no quotes, so the first
    quote after a token opens the next one; for a document that is not JSON the positions are
    meaningless but harmless (see load_sharing).
    """
    as_bytes = not isinstance(data, str)
    quote: Any = b'"' if as_bytes else '"'
    backslash: Any = 0x5C if as_bytes else "\\"
    find = data.find
    start = find(quote)
    while start >= 0:
        stop = start
        while True:
            stop = find(quote, stop + 1)
            if stop < 0:
                return
            before = stop - 1
            while data[before] == backslash:
                before -= 1
            if (stop - 1 - before) % 2 == 0:
                break
        yield start, stop + 1
        start = find(quote, stop + 1)


#: What :func:`_profile` says of a string, as bits: its UTF-8 form holds backslashes, quotes,
#: line feeds (each escaped by a replace), or :data:`_GENERAL`: other control characters or a
#: lone surrogate (the encoder itself decides). 0: its UTF-8 bytes are its JSON form.
_BACKSLASH, _QUOTE, _LF, _GENERAL = 1, 2, 4, 8


def _profile(value: str) -> int:
    """The escapes the UTF-8 JSON form of *value* needs (bits, see :data:`_GENERAL`), found in
    C-speed passes over its UTF-8 form, piece by piece (no copy of a whole long text)."""
    profile = 0
    for i in range(0, len(value), _PIECE):
        try:
            raw = value[i : i + _PIECE].encode("utf-8")
        except UnicodeEncodeError:
            return _GENERAL
        if len(raw.translate(None, _CONTROLS)) != len(raw):
            return _GENERAL
        if raw.find(b"\\") >= 0:
            profile |= _BACKSLASH
        if raw.find(b'"') >= 0:
            profile |= _QUOTE
        if raw.find(b"\n") >= 0:
            profile |= _LF
    return profile


def _match(
    data: str | bytes | bytearray,
    at: int,
    value: str,
    encode: Any,
    as_bytes: bool,
    profile: int = _GENERAL,
) -> int:
    """Where the JSON encoding of *value* (in the form *encode* writes) ends, if the data hold it
    at *at*; -1 if not. Compared piece by piece in place: no copy of *value* or of the data.

    *profile* (:func:`_profile`, of the UTF-8 form on bytes data): a string with no control
    character but line feeds is compared as its UTF-8 bytes with only the replaces it needs,
    without the encoder's other passes (the piecewise comparison of a long text cost more
    than decoding the whole event).
    """
    if as_bytes and encode is _utf8_json and not profile & _GENERAL:
        startswith: Callable[[bytes, int], bool] = data.startswith  # type: ignore[assignment]
        for i in range(0, len(value), _PIECE):
            raw = value[i : i + _PIECE].encode("utf-8")
            if profile:
                if profile & _BACKSLASH:
                    raw = raw.replace(b"\\", b"\\\\")
                if profile & _QUOTE:
                    raw = raw.replace(b'"', b'\\"')
                if profile & _LF:
                    raw = raw.replace(b"\n", b"\\n")
            if not startswith(raw, at):
                return -1
            at += len(raw)
        return at
    for i in range(0, len(value), _PIECE):
        try:
            piece = encode(value[i : i + _PIECE], as_bytes)
        except UnicodeEncodeError:  # a lone surrogate: never in UTF-8 data
            return -1
        if not data.startswith(piece, at):
            return -1
        at += len(piece)
    return at


def _forms(value: str) -> tuple[Callable[[str, bool], Any], ...]:
    """The encoders of the JSON forms *value* may take in the data: with non-ASCII as UTF-8 (the
    API's) and as \\u escapes (``json.dumps``'s default). One form when both write the same (ASCII
    but for DEL, which only the ASCII encoder escapes): a 1 MB base64 image is compared once."""
    if value.isascii():
        return (_utf8_json,) if "\x7f" not in value else (_utf8_json, _ascii_json)
    # \u escapes of a high then a low surrogate decode to one character: a string holding such a
    # pair as two code points is not what its ASCII encoding decodes to. (Encoding finds any
    # surrogate at C speed; the regex this replaced took most of a 1 MB image event's time.)
    # In pieces: a copy of the whole of a long text would raise the stream's peak memory.
    try:
        for i in range(0, len(value), _PIECE):
            value[i : i + _PIECE].encode("utf-8")
    except UnicodeEncodeError:
        return (_utf8_json,)  # which then never matches: UTF-8 data hold no surrogate
    return (_utf8_json, _ascii_json)


def _encodes(data: str | bytes | bytearray, start: int, stop: int, value: str) -> bool:
    """Whether ``data[start:stop]`` is exactly the JSON encoding of *value* (in either form)."""
    as_bytes = not isinstance(data, str)
    return any(_match(data, start, value, encode, as_bytes) == stop for encode in _forms(value))


#: Held strings compared by searching the data for each (C speed); with more of them, the
#: string tokens of the data are walked once instead (see :func:`_cuts`).
_FIND_MAX = 64
#: Characters of a held string searched for before comparing the rest.
_HEAD = 64


#: A held value of an earlier large event: ``(its JSON text as bytes, the decoded value, how many
#: levels it nests)`` (see :func:`load_sharing`).
Span: TypeAlias = tuple[bytes, Any, int]
#: A piece of the data replaced by a held value: ``(start, stop, value, levels)``; *levels* is 0
#: for a held string, the nesting of the value for a held span.
Cut: TypeAlias = tuple[int, int, Any, int]
#: Where the bytes of a held string's JSON form (the API's, UTF-8) lie once they were compared
#: with it in one event, kept for the next one: ``(buffer, start, stop)``, the event's data itself
#: (no copy) or a copy of those bytes alone (see :func:`_keep_proofs`). The next event's bytes are
#: compared with these, one ``memcmp``, instead of encoding the string again (see :func:`_proved`).
#: Kept for strings whose JSON form is not a plain copy of them: non-ASCII, or with characters to
#: escape (quotes, backslashes, line feeds: a function call's arguments, which are JSON text);
#: an ASCII string with none is compared by its copy (a 1 MB base64 image is not held twice).
Proof: TypeAlias = tuple[Any, int, int]
#: What a stream keeps of each held string it compared, by id: ``(the string, its
#: :func:`_profile`, the needle its UTF-8 form is searched with, its :data:`Proof` or None)``
#: (see :func:`_cuts`).
Profiles: TypeAlias = dict[int, tuple[str, int, bytes, Proof | None]]


def _cuts(
    data: str | bytes | bytearray,
    shared: list[str],
    profiles: Profiles | None = None,
    spans: list[Span] = (),  # type: ignore[assignment]
    prove: bool = False,
) -> list[Cut]:
    """The pieces of *data* that are a held string's token or a held span, in order.

    Each held string is searched for, quote and first characters, with ``find`` (C speed: the
    Python walk over every string token of a 1.9 MB event with logprobs cost more than decoding
    it). A match counts when its quote is not escaped (an even run of backslashes before it) and
    a quote follows the whole encoding. Such a quote could still be the closing quote of the
    string before, the held string's encoding then lying outside any string: replacing it by the
    placeholder then leaves a backslash outside a string, which no JSON decoder accepts, so the
    caller decodes the data as usual.

    A held span (bytes data only) counts wherever its bytes are, after an even run of
    backslashes: the same argument holds (its placeholder inside a string of the data would end
    that string before a backslash, or make a string that is not a placeholder). A cut inside
    another one is dropped (a part's text inside the part); overlapping ones refuse sharing.

    The UTF-8 form (the API's) is searched first; the \\u-escaped one only for a string not
    found in it. *profiles*, if given, keeps each held string's :func:`_profile` (by id, with
    the string, so that an id is never reused) from one large event to the next; with *prove*
    (another large event may follow), also the :data:`Proof` of its bytes once they matched, by
    which the next event's bytes are checked instead (see :func:`_proved`).
    """
    as_bytes = not isinstance(data, str)
    quote: Any = b'"' if as_bytes else '"'
    backslash: Any = 0x5C if as_bytes else "\\"
    cuts: dict[int, Cut] = {}
    find = data.find
    if as_bytes:
        for raw, value, levels in spans:
            needle = raw[:_HEAD]
            at = find(needle)  # type: ignore[arg-type]
            while at >= 0:
                if not _escaped(data, at, backslash) and data.startswith(raw, at):  # type: ignore[arg-type]
                    cuts[at] = (at, at + len(raw), value, levels)
                    at = find(needle, at + len(raw))  # type: ignore[arg-type]
                else:
                    at = find(needle, at + 1)  # type: ignore[arg-type]
    if len(shared) > _FIND_MAX:
        shortest = min(map(len, shared))
        for start, stop in _string_tokens(data):
            if stop - start - 2 >= shortest and start not in cuts:
                for value in shared:
                    if len(value) <= stop - start - 2 and _encodes(
                        data, start + 1, stop - 1, value
                    ):
                        cuts[start] = (start, stop, value, 0)
                        break
        shared = []
    size = len(data)
    by_length: dict[int, list[str]] = {}
    for value in shared:  # equal strings held twice: the first one takes every occurrence
        same = by_length.setdefault(len(value), [])
        if value not in same:  # (== for str, the identity first)
            same.append(value)
    if len(by_length) < len(shared):
        shared = [value for value in shared if any(value is v for v in by_length[len(value)])]
    cursor = 0  # where the last match ended: held strings come mostly in document order
    proven: list[tuple[int, int, int]] = []  # (id, start, stop) of what this event proves
    matched: list[tuple[str, Any, Any, int, Proof | None]] = []  # with needle, form, profile, proof
    for value in shared:
        profile = -1  # not known yet
        known: Any = profiles.get(id(value)) if as_bytes and profiles is not None else None
        proof: Proof | None = None
        for encode in (_utf8_json, _ascii_json):
            if encode is _ascii_json and _forms(value)[-1] is not _ascii_json:
                break  # the other form is not this string's
            if known is not None and encode is _utf8_json:
                # (known[0] is value: kept with it)
                profile, needle, proof = known[1], known[2], known[3]
            else:
                proof = None
                try:
                    needle = quote + encode(value[:_HEAD], as_bytes)
                except UnicodeEncodeError:
                    continue
            # The first match after the last one, else the first before it (a string token
            # starting before that one's end and ending after it would be inside it): the data
            # are read about once for all held strings, in the order the events write them.
            for lo, hi in ((cursor, size), (0, cursor)):
                if hi - lo < len(value) + 2:
                    continue  # no room for its quotes and one byte a character
                at = find(needle, lo, hi)
                while at >= 0:
                    if not _escaped(data, at, backslash) and at not in cuts:
                        if proof is not None:
                            end = _proved(data, at + 1, proof)
                        else:
                            if encode is _utf8_json and as_bytes and profile < 0:
                                profile = _profile_of(value, needle, profiles)
                            end = _match(data, at + 1, value, encode, as_bytes, profile)
                            if (
                                prove
                                and as_bytes  # (a str: the data of an unterminated final event)
                                and end >= 0
                                and encode is _utf8_json
                                and profiles is not None
                                and (profile or not value.isascii())  # (see Proof)
                            ):
                                proof = (data, at + 1, end)
                                profiles[id(value)] = (value, profile, needle, proof)
                                proven.append((id(value), at + 1, end))
                        if end >= 0 and data[end : end + 1] == quote:
                            cuts[at] = (at, end + 1, value, 0)
                            cursor = end + 1
                            matched.append((value, needle, encode, profile, proof))
                            break
                    at = find(needle, at + 1, hi)
                else:
                    continue
                break  # matched
            else:
                continue  # not in this form: the other one
            break  # matched: the \u-escaped form is searched only for a string not found
    if proven:
        _keep_proofs(data, proven, profiles)  # type: ignore[arg-type]  # (not None: proven)
    if matched:
        # Later occurrences (the same text twice in one event) can only lie between the
        # matches, where nothing else was found: searched there only, and only in the pieces
        # long enough to hold them (none, in the API's events, where each text is once).
        ordered = sorted(cuts.values())
        gaps: list[tuple[int, int]] = []
        last = widest = 0
        for begin, stop, _, _ in ordered:
            if begin > last:
                gaps.append((last, begin))
                widest = max(widest, begin - last)
            last = max(last, stop)
        gaps.append((last, size))
        widest = max(widest, size - last)
        for value, needle, encode, profile, proof in matched:
            if widest < len(value) + 2:
                continue  # no gap can hold it (the commonest case: one pass, not one a gap)
            for lo, hi in gaps:
                if hi - lo < len(value) + 2:
                    continue
                at = find(needle, lo, hi)
                while at >= 0:
                    end = -1
                    if not _escaped(data, at, backslash) and at not in cuts:
                        if proof is not None:
                            end = _proved(data, at + 1, proof)
                        else:
                            end = _match(data, at + 1, value, encode, as_bytes, profile)
                    if end >= 0 and data[end : end + 1] == quote:
                        cuts[at] = (at, end + 1, value, 0)
                        at = find(needle, end + 1, hi)
                    else:
                        at = find(needle, at + 1, hi)
    # By start (each cut's start is its key in *cuts*: no two are equal, no tie to break).
    ordered = sorted(cuts.values()) if len(cuts) > 1 else list(cuts.values())
    kept: list[Cut] = []
    for cut in ordered:
        if kept and cut[0] < kept[-1][1]:
            if cut[1] <= kept[-1][1]:
                continue  # inside the one before: that one's value holds it
            return []
        kept.append(cut)
    return kept


def _escaped(data: Any, at: int, backslash: Any) -> bool:
    """Whether ``data[at]`` follows an odd run of backslashes: inside a JSON string, an escaped
    character, not the quote that starts a token (see :func:`_cuts`)."""
    before = at - 1
    while before >= 0 and data[before] == backslash:
        before -= 1
    return (at - 1 - before) % 2 == 1


def _profile_of(value: str, needle: bytes, profiles: Profiles | None) -> int:
    """:func:`_profile` of *value*, kept in *profiles* (when given) for the next event, with the
    *needle* it is searched with (bytes data)."""
    if profiles is None:
        return _profile(value)
    known = profiles.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    profile = _profile(value)
    profiles[id(value)] = (value, profile, needle, None)
    return profile


def _keep_proofs(data: Any, proven: list[tuple[int, int, int]], profiles: Profiles) -> None:
    """Keep the proofs *data* gave for the next events: *proven* holds ``(id, start, stop)`` of
    each held string whose bytes it proved, ``profiles[id]`` its entry (see :func:`_cuts`).

    Each points into *data* itself when the proven bytes are at least half of it (the event is
    mostly the held strings: a ``.done`` event repeating a text, the summaries of a reasoning
    item), else each is a copy of its own bytes: either way what is kept is at most twice the
    proven bytes, and no copy is made of a large event that is mostly those strings (the copies
    took a stream with four summaries from 2.6 to 3.3 times its largest event). A ``bytearray``
    (the decoder's buffer of a large event, handed over and not used by it again) is held
    through a read-only view, which also forbids resizing it while the proofs last.
    """
    total = 0
    for _, start, stop in proven:
        total += stop - start
    whole = 2 * total >= len(data)
    with memoryview(data) as view:
        pinned: Any = view.toreadonly() if whole and type(data) is bytearray else None
        if whole and pinned is None:
            return  # bytes: held as they are
        for key, start, stop in proven:
            value, profile, needle, _ = profiles[key]
            proof = (
                (pinned, start, stop) if whole else (view[start:stop].tobytes(), 0, stop - start)
            )
            profiles[key] = (value, profile, needle, proof)


def _proved(data: Any, at: int, proof: Proof) -> int:
    """Where the bytes *proof* holds end, if the data (bytes) hold them at *at*; -1 if not.

    One ``memcmp``: the bytes are compared, not a digest of them (the terminal event of a 90
    KB function call on a cold cache: about 4 µs, against 33 µs for copying and hashing its part
    with the interpreter's SipHash, and more for encoding the string again). The price is the
    proven bytes held from the event that first matched them to the end of the stream (see
    :func:`_keep_proofs`).
    """
    buffer, start, stop = proof
    with memoryview(buffer) as view:
        return at + stop - start if data.startswith(view[start:stop], at) else -1


_whitespace: Callable[[str, int], Any] = json.decoder.WHITESPACE.match  # type: ignore[attr-defined]
_scanstring: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


def _scan_object(text: str) -> tuple[dict[str, Any], dict[str, tuple[int, int]]] | None:
    """``json.loads(text)`` of a document that is an object, with where each of its values lies.

    The standard library's own scanner decodes each top-level key and value (the same objects,
    the same acceptance); the object's punctuation is read here. ``None`` for anything else (not
    an object, invalid: the caller's decoding gives the located error).
    """
    try:
        i = _whitespace(text, 0).end()
        if text[i : i + 1] != "{":
            return None
        i = _whitespace(text, i + 1).end()
        obj: dict[str, Any] = {}
        where: dict[str, tuple[int, int]] = {}
        if text[i : i + 1] != "}":
            while True:
                if text[i : i + 1] != '"':
                    return None
                key, i = _scanstring(text, i + 1, True)
                i = _whitespace(text, i).end()
                if text[i : i + 1] != ":":
                    return None
                i = _whitespace(text, i + 1).end()
                obj[key], stop = _scan_once(text, i)
                where[key] = (i, stop)
                i = _whitespace(text, stop).end()
                if text[i : i + 1] == "}":
                    break
                if text[i : i + 1] != ",":
                    return None
                i = _whitespace(text, i + 1).end()
        if _whitespace(text, i + 1).end() != len(text):
            return None
    except (StopIteration, ValueError, RecursionError):
        return None
    return obj, where


def _put_back(node: Any, level: int, cuts: list[Cut], limit: int) -> tuple[int, int]:
    """Put the held values in place of their placeholders in the container *node* (at nesting
    *level*); return how many, and the deepest level of the tree. :class:`RecursionError` past
    *limit*."""
    placed = 0
    deepest = level
    stack: list[tuple[Any, int]] = [(node, level)]
    pop, push = stack.pop, stack.append
    # ``type(node) is dict`` narrows the Any to dict[Unknown, Unknown]: pyright's unknowns ignored.
    while stack:
        node, depth = pop()
        if depth > limit:
            raise RecursionError(f"the data nest deeper than {limit} levels")
        if depth > deepest:
            deepest = depth
        items = node.items() if type(node) is dict else enumerate(node)  # pyright: ignore[reportUnknownVariableType]
        for key, child in items:  # pyright: ignore[reportUnknownVariableType]
            t = type(child)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
            if t is str:
                if child[:1] == "\x00":
                    cut = cuts[int(child[1:])]  # pyright: ignore[reportUnknownArgumentType]
                    node[key] = cut[2]
                    placed += 1
                    if cut[3]:  # a held span: its own levels below this node's
                        bottom = depth + cut[3]
                        if bottom > limit:
                            raise RecursionError(f"the data nest deeper than {limit} levels")
                        if bottom > deepest:
                            deepest = bottom
            elif t is dict or t is list:
                push((child, depth + 1))  # pyright: ignore[reportUnknownArgumentType]
    return placed, deepest


#: What :func:`_load_in_order` gives when it does not apply (the placeholder path then decides).
_ELSEWHERE: Any = object()
_NAN_TOKEN = "NaN"
_CONSTANTS: dict[str, float] = json.decoder._CONSTANTS  # type: ignore[attr-defined]


def _load_in_order(data: str | bytes | bytearray, cuts: list[Cut], max_depth: int | None) -> Any:
    """:func:`load_sharing` with the standard library's decoder and no spans to find: each cut is
    replaced by the constant ``NaN``, which the decoder's scanner hands to ``parse_constant``,
    and that gives the held values in document order. Nothing is walked afterwards: the values
    are put in where the decoder meets them, and the nesting is bounded by the brackets of the
    rest (a 0.1 MB terminal event repeating one text cost twice its ``json.loads``, a third of
    it in the walk and the top-level scan of the placeholder path).

    Sound because the rest holds no other ``NaN``: a successful decode that takes exactly one
    value per placeholder has met each one as a value (a placeholder inside a string or straddled
    by another token takes none, or fails), so the data decode to the same tree with the cut
    strings and spans, whole JSON values, in those places; a placeholder where a key must be
    fails. ``None`` when the decoder refuses the rest or the count is wrong (the caller decodes
    the data as usual); :data:`_ELSEWHERE` when this does not apply (a ``NaN`` in the rest, or
    more brackets than *max_depth*, where the placeholder path measures the nesting exactly).
    """
    as_bytes = not isinstance(data, str)
    nan: Any = b"NaN" if as_bytes else _NAN_TOKEN
    pieces: list[Any] = []
    last = 0
    levels = 0
    values: list[Any] = []
    for start, stop, value, nested in cuts:
        piece = data[last:start]
        if piece.find(nan) >= 0:
            return _ELSEWHERE
        pieces.append(piece)
        values.append(value)
        if nested > levels:
            levels = nested
        last = stop
    piece = data[last:]
    if piece.find(nan) >= 0:
        return _ELSEWHERE
    pieces.append(piece)
    del piece
    rest: Any = nan.join(pieces)
    del pieces
    text: str = rest.decode("utf-8", "replace") if as_bytes else rest
    del rest
    # The event object is level 1 (its own brace), each container one more; a span's value
    # nests its own levels below the container that holds it.
    if max_depth is not None and text.count("{") + text.count("[") + levels > max_depth:
        return _ELSEWHERE
    values.reverse()
    held = _held
    held.values = values
    obj: Any
    try:
        obj, end = _scan_in_order(text, _whitespace(text, 0).end())
        if _whitespace(text, end).end() != len(text):
            return None
    except (StopIteration, ValueError, RecursionError, IndexError):
        return None
    finally:
        held.values = []
    return None if values else obj


class _Held(threading.local):
    """The values :func:`_load_in_order` puts in, in reverse order, for this thread."""

    values: list[Any]


_held = _Held()


def _constant(name: str) -> Any:
    if name != _NAN_TOKEN:
        return _CONSTANTS[name]  # Infinity, -Infinity: json.loads' own values
    return _held.values.pop()  # IndexError past the last one: refused by _load_in_order


# One scanner for every call (building a decoder cost more than the scan of a terminal
# event's rest); the values come through _held, one list per thread.
_in_order_decoder: Any = json.JSONDecoder(parse_constant=_constant)
_scan_in_order: Callable[[str, int], tuple[Any, int]] = _in_order_decoder.scan_once


def load_sharing(
    data: str | bytes | bytearray,
    shared: list[str],
    loads: JSONLoads,
    max_depth: int | None = None,
    profiles: Profiles | None = None,
    spans: list[Span] = (),  # type: ignore[assignment]
    found: list[Span] | None = None,
) -> Any | None:
    """Decode *data* with *loads*, each long string equal to one of *shared* being that object.

    The ``.done`` and terminal events of a response repeat strings the stream already holds (the
    whole text, the instructions): decoded as usual, each would exist twice, and the data as a
    ``str`` besides. Here every long string token equal to a held string (see :func:`_cuts`) is
    cut out of the document (replaced by a short placeholder), the rest is decoded by *loads*,
    and the held strings are put where the placeholders landed. The result equals
    ``loads(data)``: a cut token is a whole string token whose content encodes the held string
    exactly, and only a document the decoder accepts is returned. ``None`` when nothing was
    shared or anything is unusual (the caller then decodes the data as usual).

    *spans* are whole values of an earlier event, as their exact JSON bytes: each event of a
    response repeats the previous one's (the part of ``content_part.done`` is the item's
    content in ``output_item.done``, that item the terminal response's output), and such a
    value is put in as that very object, never decoded again (a message with logprobs: issue
    21). With *found* (a list) and the standard library's decoder, the container values of at
    least :data:`SHARE_MIN` characters at the top of this event are appended to it as spans,
    for the next event.

    With *max_depth*, the walk that puts the strings in also measures the nesting (the event
    object is level 1) and raises :class:`RecursionError` past it, so that the caller need not
    walk the tree a second time; a returned tree nests *max_depth* levels at most.
    """
    cuts = _cuts(data, shared, profiles, spans, found is not None)
    if not cuts and not isinstance(data, str):
        cuts = raw_strings(data, _string_tokens(data), SHARE_MIN)  # see there (issue 21)
    if not cuts:
        return None
    if found is None and loads is stdlib_loads:
        placed = _load_in_order(data, cuts, max_depth)
        if placed is not _ELSEWHERE:
            return placed
    # The placeholders hold a NUL: unambiguous only if no string decoded from the rest can
    # contain one. (Searched in the rest, not the data: the cut strings are not decoded, and a
    # string of the rest lies within one piece, see _cuts.)
    as_bytes = not isinstance(data, str)
    nul: Any = b"\\u0000" if as_bytes else "\\u0000"
    rest: list[str] = []
    marks: list[int] = []  # where each placeholder starts in the rest
    size = 0
    last = 0
    for number, (start, stop, _, _) in enumerate(cuts):
        chunk = data[last:start]
        if chunk.find(nul) >= 0:
            return None
        piece = chunk if isinstance(chunk, str) else chunk.decode("utf-8", "replace")
        placeholder = f'"\\u0000{number}"'
        rest += (piece, placeholder)
        marks.append(size + len(piece))
        size += len(piece) + len(placeholder)
        last = stop
    chunk = data[last:]
    if chunk.find(nul) >= 0:
        return None
    rest.append(chunk if isinstance(chunk, str) else chunk.decode("utf-8", "replace"))
    del chunk
    piece = ""  # the loop's last one can be most of the data, as a str: not held on (issue 21)
    text = "".join(rest)
    del rest
    where: dict[str, tuple[int, int]] = {}
    if found is not None and as_bytes and loads is stdlib_loads:
        scanned = _scan_object(text)
        if scanned is None:
            return None  # the caller's decoding gives the error, located
        obj, where = scanned
    else:
        try:
            obj = loads(text)
        except (ValueError, RecursionError):
            return None  # the caller's decoding gives the error, located
    # Put the held values in; every placeholder must be found exactly once, as a value.
    limit = sys.maxsize if max_depth is None else max_depth
    if type(obj) is not dict:
        placed, _ = _put_back(obj, 1, cuts, limit)
        return obj if placed == len(cuts) else None
    # The top level one value at a time, so that each one's nesting is known (for *found*).
    top: dict[str, Any] = obj  # pyright: ignore[reportUnknownVariableType]
    placed = 0
    levels: dict[str, int] = {}
    value: Any
    for key, value in top.items():
        t = type(value)  # pyright: ignore[reportUnknownVariableType]
        if t is str:
            if value[:1] == "\x00":
                cut = cuts[int(value[1:])]
                top[key] = cut[2]
                placed += 1
                if cut[3]:
                    if 1 + cut[3] > limit:
                        raise RecursionError(f"the data nest deeper than {limit} levels")
                    levels[key] = cut[3]
        elif t is dict or t is list:
            if limit < 2:
                raise RecursionError(f"the data nest deeper than {limit} levels")
            count, deepest = _put_back(value, 2, cuts, limit)
            placed += count
            levels[key] = deepest - 1
    if placed != len(cuts):
        return None
    if found is not None:
        kept: list[tuple[bytes | tuple[int, int], Any, int]] = []
        for key, (begin, end) in where.items():
            value = top[key]
            # Large apart from the held strings in it (those are shared anyway), or holding a
            # span: a text's part is not kept, a message's with logprobs is.
            if (type(value) is dict or type(value) is list) and (
                end - begin >= SHARE_MIN
                or any(
                    begin <= mark < end and cut[3] for mark, cut in zip(marks, cuts, strict=True)
                )
            ):
                at = data_range(text, begin, end, marks, cuts, len(data))
                raw = _span_bytes(text, begin, end, marks, cuts, data) if at is None else at
                kept.append((raw, value, levels[key]))  # pyright: ignore[reportUnknownArgumentType]
        del text  # not held while the spans are copied out of the data (issue 21)
        for raw, value, level in kept:
            found.append((raw if type(raw) is bytes else sliced(data, *raw), value, level))
    return top


def _span_bytes(
    text: str, begin: int, end: int, marks: list[int], cuts: list[Cut], data: Any
) -> bytes:
    """The JSON bytes of ``text[begin:end]`` (the rest, with placeholders) as in the data: each
    placeholder is the cut piece of the data again, the rest encoded (which is the data's own
    bytes when it was valid UTF-8, and otherwise still decodes to the same value)."""
    out: list[bytes] = []
    at = begin
    for number, mark in enumerate(marks):
        if mark < begin:
            continue
        if mark >= end:
            break
        out.append(text[at:mark].encode("utf-8"))
        start, stop = cuts[number][0], cuts[number][1]
        out.append(data[start:stop])
        at = mark + len(f'"\\u0000{number}"')
    out.append(text[at:end].encode("utf-8"))
    return b"".join(out)


#: A feed() that frames more events than this releases each one's data once read (see framed).
RELEASE_OVER = 64


def framed(raw: list[Any]) -> Iterable[Any]:
    """The events a ``feed_raw()`` call returned (*raw*), to iterate once: a long list is taken
    apart as it is read, each event's data released once read, so that the decoded events grow
    as the data shrink and a large chunk's peak is about the larger of the two, not their sum
    (issue 21: about 380 bytes per delta of a 256 KiB chunk); a short one is iterated as it is
    (about 10 ns per event less; the data of :data:`RELEASE_OVER` events are a few KiB)."""
    if len(raw) <= RELEASE_OVER:
        return raw
    raw.reverse()
    return starmap(raw.pop, repeat((), len(raw)))


class EventStreamBase(Generic[E]):
    """Shared machinery of :class:`ResponsesStream` and :class:`ChatCompletionsStream`.

    Args:
        max_event_size: bound on the bytes buffered for one event (see :class:`SSEDecoder`); ``None``
            disables it.
        strict: raise :class:`RemoteProtocolError` for every anomaly that is otherwise tolerated and
            recorded in :attr:`diagnostics`.
        max_diagnostics: how many :class:`Diagnostic` records to keep (counts are always complete).
        json_loads: the JSON decoder for event data. By default ``orjson`` when it is importable
            (the ``fast`` extra), falling back to the standard library for what orjson refuses, so
            the same documents are accepted either way; else :func:`json.loads` (called through
            its C scanner). It must raise :class:`ValueError` on invalid input.
        max_nesting_depth: the deepest nesting of arrays and objects accepted in one event's data
            (default 256; the event object is level 1); deeper data is a located
            :class:`RemoteProtocolError`. ``None`` leaves only the JSON decoder's own limit (about
            1000 levels for :func:`json.loads`, 1024 for orjson, both also reported as
            :class:`RemoteProtocolError`).
    """

    def __init__(
        self,
        *,
        max_event_size: int | None = DEFAULT_MAX_EVENT_SIZE,
        strict: bool = False,
        max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS,
        json_loads: JSONLoads | None = None,
        max_nesting_depth: int | None = DEFAULT_MAX_NESTING_DEPTH,
    ) -> None:
        if max_nesting_depth is not None and max_nesting_depth < 1:
            raise ValueError(f"max_nesting_depth must be >= 1 or None, got {max_nesting_depth}")
        self.max_event_size = max_event_size
        self.max_nesting_depth = max_nesting_depth
        # Data shorter than this cannot nest deeper than the limit (each level costs two brackets),
        # so the depth is only measured for longer data: nothing is paid per ordinary delta.
        self._deep_len = sys.maxsize if max_nesting_depth is None else 2 * max_nesting_depth + 1
        self.strict = strict
        self.max_diagnostics = max_diagnostics
        #: Tolerated anomalies, in the order they were met (at most ``max_diagnostics`` of them).
        self.diagnostics: list[Diagnostic] = []
        #: How many anomalies of each code were met, including those not stored.
        self.diagnostic_counts: dict[str, int] = {}
        #: ``None`` while the outcome is open; then an :data:`Outcome` naming how the stream ended.
        self.outcome: Outcome | None = None
        if json_loads is None:
            json_loads = DEFAULT_JSON_LOADS
        elif json_loads is _json_loads:
            json_loads = stdlib_loads  # the same results and errors, faster
        self._loads: JSONLoads = json_loads
        # What the hot path calls first: orjson itself when it is the default (its failures then
        # go through _load_object, i.e. through _loads and its fallback).
        self._fast_loads: JSONLoads = (
            _orjson_loads if json_loads is orjson_loads and _orjson_loads else json_loads
        )
        # stdlib_loads' scanner, for the hot path to call itself (None: call _fast_loads).
        self._scan: Callable[[str, int], tuple[Any, int]] | None = (
            _scan_once if self._fast_loads is stdlib_loads else None
        )
        # ... and for data over BIG_EVENT_DATA (see there), as text.
        self._big_loads: JSONLoads = stdlib_loads if json_loads is orjson_loads else json_loads
        self._decoder = self._new_decoder()
        self._closed = False
        self._error: ProtocolError | None = None
        # The last tree _load_big decoded with its depth measured (see _check_depth).
        self._depth_checked: object = None
        # The escape profile of each held string compared so far (see load_sharing): only the
        # strings still held are kept.
        self._profiles: Profiles = {}
        # The large values of the last large event, which the next one may repeat (see
        # load_sharing); dropped once the stream ends (see _drop_spans).
        self._spans: list[Span] = []

    # -- public surface ------------------------------------------------------------------------

    def _not_copied(self, *_: Any) -> Any:
        # A copy would share its builders, caches and proofs with the original (its accumulator
        # still reporting to the original stream): its events would be silently wrong. Events,
        # chunks and snapshots copy and pickle; a stream says it does not.
        raise LocalProtocolError(
            f"a {type(self).__name__} is not copied or pickled: its events share its live state. "
            "copy or pickle its events and snapshots instead"
        )

    __copy__ = __deepcopy__ = __reduce_ex__ = _not_copied

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called (until a reconnect, where supported)."""
        return self._closed

    @property
    def error(self) -> ProtocolError | None:
        """The :class:`ProtocolError` that put this stream in its error state, if any."""
        return self._error

    @property
    def bytes_fed(self) -> int:
        """Bytes fed to the current body so far."""
        return self._decoder.offset

    def feed(self, data: bytes | bytearray | memoryview) -> list[E]:
        """Feed the next piece of the response body; return the events it completed, in order.

        Chunk boundaries carry no meaning: any split of the same body gives the same events.
        """
        if isinstance(data, str):
            raise LocalProtocolError(
                "feed() takes bytes, not str: pass the response body's raw bytes, or encode the "
                "text first (text.encode())"
            )
        if self._closed:
            raise LocalProtocolError("feed() called after close()")
        if self._error is not None:
            raise LocalProtocolError(f"the stream is in an error state after: {self._error}")
        out: list[E] = []
        try:
            on_message = self._on_message
            for event_type, payload, offset in framed(self._decoder.feed_raw(data)):
                if event_type:
                    on_message(event_type, payload, offset, out)
                else:
                    self._on_comment()
            # The decoder defers a limit error past the events it completed; raise it now, with
            # those events attached, so EventTooLarge comes as soon as the limit is passed.
            self._decoder.raise_pending()
        except ProtocolError as exc:
            self._fail(exc, out)
            raise
        return out

    def close(self) -> list[E]:
        """Signal the end of the body; return any events this completes.

        Raises :class:`TruncatedStream` (setting ``outcome`` to ``"truncated"``) when the body ended
        before the protocol's terminal event. Calling it again is a no-op returning ``[]``.
        """
        if self._closed or self._error is not None:
            self._closed = True
            return []
        self._closed = True
        out: list[E] = []
        try:
            self._decoder.close()
            if self._decoder.discarded is not None:
                self._on_unterminated(self._decoder.discarded, out)
            self._on_end(out)
        except ProtocolError as exc:
            self._fail(exc, out)
            raise
        return out

    # -- for subclasses ----------------------------------------------------------------------

    def _on_message(self, event_type: str, data: str, offset: int, out: list[E]) -> None:
        raise NotImplementedError

    def _on_comment(self) -> None:
        """A comment line arrived (servers send them as keep-alives)."""
        self._note("keepalive-comment", "comment line (keep-alive) in the event stream")

    def _on_unterminated(self, event: ServerSentEvent, out: list[E]) -> None:
        """The body ended inside an event (no blank line after it); the default drops it."""

    def _on_end(self, out: list[E]) -> None:
        raise NotImplementedError

    def _reset_decoder(self) -> None:
        """Start a new body (a reconnection): fresh framing state, everything else kept."""
        self._decoder = self._new_decoder()
        self._closed = False

    #: Whether ``_on_message`` accepts the data as bytes (the SSE decoder then skips decoding it
    #: when the hot-path JSON decoder is orjson, which reads UTF-8 bytes itself).
    _BYTES_DATA = False

    def _new_decoder(self) -> SSEDecoder:
        decoder = SSEDecoder(max_event_size=self.max_event_size, report_comments=True)
        decoder._keep_bytes = self._BYTES_DATA and self._fast_loads is _orjson_loads  # pyright: ignore[reportPrivateUsage]
        if self._BYTES_DATA:
            # Large events as bytes whatever the decoder: _load_big reads them as such.
            decoder._bytes_over = BIG_EVENT_DATA  # pyright: ignore[reportPrivateUsage]
        return decoder

    def _fail(self, exc: ProtocolError, out: list[E]) -> None:
        self._error = exc
        exc.events = out

    def _note(
        self,
        code: str,
        message: str,
        *,
        sequence_number: int | None = None,
        offset: int | None = None,
    ) -> None:
        """Record a tolerated anomaly, or raise it in strict mode."""
        if self.strict:
            raise RemoteProtocolError(
                f"{message} [{code}; strict mode]", offset=offset, sequence_number=sequence_number
            )
        self.diagnostic_counts[code] = self.diagnostic_counts.get(code, 0) + 1
        if len(self.diagnostics) < self.max_diagnostics:
            self.diagnostics.append(Diagnostic(code, message, sequence_number, offset))

    def _shared_strings(self, size: int) -> list[str]:
        """The long strings the stream holds, which a large event of *size* bytes or characters
        may repeat (see _load_big); found at a cost in proportion to *size*."""
        return []

    #: Whether large events keep their large values for the next one (see :meth:`_load_big`).
    _keep_spans = False
    #: How the data of the stream's last large events begin (its terminal events): nothing
    #: follows to repeat their values, which are then not kept (see :meth:`_load_big`).
    _last_heads: tuple[bytes, ...] = ()

    def _drop_spans(self) -> None:
        """Forget what was kept for the next large event (the stream has ended): the large
        values, and what was learnt of the held strings."""
        self._spans = []
        self._profiles = {}

    def _load_big(self, data: str | bytes | bytearray) -> Any:
        """Decode the data of a large event (over ``BIG_EVENT_DATA``) with bounded memory (by
        the standard library unless ``json_loads`` is a function of the caller's).

        A long string equal to one the stream holds comes out as that very object, and is never
        decoded (:func:`load_sharing`): a terminal event repeating the whole text then costs
        about its data, not also two more copies of the text.
        """
        if len(data) <= SHARE_OVER:
            return self._big_loads(
                data if isinstance(data, str) else data.decode("utf-8", "replace")
            )
        shared = self._shared_strings(len(data))
        profiles = self._profiles
        if profiles:
            # (No comprehension here, nor in the other steps of a terminal event: each is a
            # call of its own before Python 3.12, and on a cold cache each call level costs.)
            held = set(map(id, shared))
            if not held.issuperset(profiles):
                for k in set(profiles).difference(held):
                    del profiles[k]
        spans, self._spans = self._spans, []
        if shared or spans:
            # The walk that puts the shared strings in measures the depth too (RecursionError
            # past the limit: the caller's error path); _check_depth then skips this object.
            found: list[Span] = []
            obj = load_sharing(
                data,
                shared,
                self._big_loads,
                self.max_nesting_depth,
                self._profiles,
                spans,
                found
                if self._keep_spans
                and (isinstance(data, str) or not data.startswith(self._last_heads))
                else None,
            )
            del spans
            if obj is not None:
                self._spans = found
                self._depth_checked = obj
                return obj
        if not isinstance(data, str):
            data = data.decode("utf-8", "replace")
        return self._big_loads(data)

    def _load_object(self, data: str, offset: int) -> dict[str, Any]:
        """Decode one event's data as a JSON object, or raise a located RemoteProtocolError."""
        obj: JSONValue
        try:
            obj = self._loads(data) if len(data) <= BIG_EVENT_DATA else self._big_loads(data)
        except RecursionError:
            raise self._deep_error(data, offset) from None
        except ValueError as exc:
            raise RemoteProtocolError(
                f"event data is not valid JSON ({exc})", offset=offset, excerpt=excerpt(data)
            ) from None
        if type(obj) is not dict:
            raise RemoteProtocolError(
                f"event data is JSON but not an object (got {type(obj).__name__})",
                offset=offset,
                excerpt=excerpt(data),
            )
        if len(data) > self._deep_len:
            self._check_depth(obj, data, offset)
        return obj

    def _check_depth(self, obj: dict[str, Any], data: str | bytes | bytearray, offset: int) -> None:
        """Raise a located error when *obj* nests deeper than ``max_nesting_depth``."""
        limit = self.max_nesting_depth
        if limit is None:
            return
        if obj is self._depth_checked:  # measured while it was decoded (see _load_big)
            self._depth_checked = None
            return
        # A tree of few containers (a long text or image in a small object) is walked at once,
        # cheaper than reading the data again; past that many, counting brackets runs at C
        # speed and bounds the depth from above: the whole walk is only needed for large events
        # with many containers (and stops at the limit).
        if len(data) > BIG_EVENT_DATA:
            known = too_deep(obj, limit, len(data) >> 10)
            if known is not None:
                if known:
                    raise self._deep_error(data, offset)
                return
        # (The data are bytes on the orjson path, see _BYTES_DATA.)
        if isinstance(data, str):
            brackets = data.count("{") + data.count("[")
        else:
            brackets = data.count(b"{") + data.count(b"[")
        if brackets > limit and too_deep(obj, limit):
            raise self._deep_error(data, offset)

    def _deep_error(self, data: str | bytes | bytearray, offset: int) -> RemoteProtocolError:
        if not isinstance(data, str):
            data = data.decode("utf-8", "replace")
        limit = self.max_nesting_depth
        bound = "the JSON decoder's limit" if limit is None else f"max_nesting_depth ({limit})"
        return RemoteProtocolError(
            f"event data nests arrays/objects deeper than {bound}",
            offset=offset,
            excerpt=excerpt(data),
        )
