"""The cheaper paths of the large-event machinery agree with the general ones (issue 21).

- A held string is compared with the data as its UTF-8 bytes plus only the replaces it needs
  (``_profile``), instead of the JSON encoder's passes: on any string and any data around it,
  the answer is the general comparison's.
- ``too_deep`` with a budget answers as without one, or says it does not know.
- ``load_sharing`` looks for escaped NULs (its placeholders' mark) only in what it decodes: a
  held string holding one is still shared, a decoded string holding one still refuses sharing
  on the placeholder path (the in-order path, ``tests/test_in_order.py``, has no such mark).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansio_responses import _base
from sansio_responses._base import load_sharing, stdlib_loads, too_deep

# Characters that need each kind of escape, non-ASCII of every width, and lone surrogates.
ALPHABET = st.sampled_from(
    ['"', "\\", "\n", "\t", "\x00", "\x1f", "\x7f", "a", "é", "\u2019", "\U0001f600", "\ud800"]
)
strings = st.text(ALPHABET | st.characters(), max_size=40) | st.text(ALPHABET, max_size=40)


def _general(data: bytes, at: int, value: str) -> int:
    return _base._match(data, at, value, _base._utf8_json, True)  # pyright: ignore[reportPrivateUsage]


@settings(max_examples=500, deadline=None)
@given(value=strings, before=st.binary(max_size=8), after=st.binary(max_size=8), flip=st.integers())
def test_the_profiled_comparison_is_the_encoders(
    value: str, before: bytes, after: bytes, flip: int
) -> None:
    profile = _base._profile(value)  # pyright: ignore[reportPrivateUsage]
    try:
        form = json.dumps(value, ensure_ascii=False)[1:-1].encode("utf-8")
    except UnicodeEncodeError:
        form = b""
    candidates = [before + form + after]
    if form:  # the same with one byte changed: never a match
        i = flip % len(form)
        changed = bytes([form[i] ^ 1])
        candidates.append(before + form[:i] + changed + form[i + 1 :] + after)
    for data in candidates:
        fast = _base._match(data, len(before), value, _base._utf8_json, True, profile)  # pyright: ignore[reportPrivateUsage]
        assert fast == _general(data, len(before), value)


@given(value=strings)
def test_the_profile_names_the_escapes_needed(value: str) -> None:
    profile = _base._profile(value)  # pyright: ignore[reportPrivateUsage]
    general = any(c < " " and c != "\n" for c in value) or any(
        "\ud800" <= c <= "\udfff" for c in value
    )
    if general:
        assert profile == _base._GENERAL  # pyright: ignore[reportPrivateUsage]
    else:
        assert bool(profile & _base._BACKSLASH) == ("\\" in value)  # pyright: ignore[reportPrivateUsage]
        assert bool(profile & _base._QUOTE) == ('"' in value)  # pyright: ignore[reportPrivateUsage]
        assert bool(profile & _base._LF) == ("\n" in value)  # pyright: ignore[reportPrivateUsage]


json_trees = st.recursive(
    st.none() | st.integers() | st.text(max_size=3),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=2), children, max_size=3)
    ),
    max_leaves=30,
)


@given(tree=json_trees, limit=st.integers(1, 6), budget=st.integers(0, 10))
def test_too_deep_with_a_budget_answers_the_same_or_not_at_all(
    tree: Any, limit: int, budget: int
) -> None:
    wrapped = {"v": tree}
    known = too_deep(wrapped, limit, budget)
    assert known is None or known == too_deep(wrapped, limit)


HELD = "held text " * 500 + "\\u0000 and a NUL \x00"


def test_a_held_string_holding_an_escaped_nul_is_still_shared() -> None:
    data = json.dumps({"type": "t", "text": HELD}, ensure_ascii=False).encode()
    result: Any = load_sharing(data, [HELD], stdlib_loads)
    assert result == json.loads(data)
    assert result["text"] is HELD


@pytest.mark.parametrize("kept", [False, True])
def test_a_held_string_after_an_escaped_quote_is_still_shared(kept: bool) -> None:
    # Inside another string, an escaped quote followed by the held string's encoding and the
    # closing quote looks like the held string's token: the search must skip it (an odd run of
    # backslashes before the quote) and find the real one after it. Taken as a cut, it would
    # leave its placeholder after a backslash: the event decoded as usual, nothing shared.
    held = "d\u00e9j\u00e0 " * 40  # non-ASCII: an event that may be followed keeps its proof
    for value in ('x"' + held, 'x\\"' + held):
        data = json.dumps({"type": "t", "a": value, "b": held}, ensure_ascii=False).encode()
        assert b'\\"' + held.encode()[:8] in data  # the escaped quote the needle meets first
        profiles: _base.Profiles = {}
        if kept:  # the needle, profile and proof of an earlier event (the terminal event's path)
            first: Any = load_sharing(data, [held], stdlib_loads, None, profiles, [], [])
            assert first == json.loads(data) and first["b"] is held
            assert profiles[id(held)][3] is not None
        result: Any = load_sharing(data, [held], stdlib_loads, None, profiles)
        assert result == json.loads(data)
        assert result["b"] is held


def test_a_decoded_string_holding_an_escaped_nul_refuses_the_placeholder_path() -> None:
    # "\u00000" would read as a placeholder: such data is decoded as usual on the placeholder
    # path (spans to find); the in-order path (none to find) has no such mark and shares it.
    for other in ("\x00" + "0", "x\x00"):
        for doc in ({"text": HELD, "other": other}, {"other": other, "text": HELD}):
            data = json.dumps(doc, ensure_ascii=False).encode()
            for form in (data, data.decode()):
                assert load_sharing(form, [HELD], stdlib_loads, found=[]) is None
                result: Any = load_sharing(form, [HELD], stdlib_loads)
                assert result == doc and result["text"] is HELD
            # ... unless the rest holds a NaN too: then the placeholder path decides
            data = json.dumps({**doc, "nan": "NaN"}, ensure_ascii=False).encode()
            assert load_sharing(data, [HELD], stdlib_loads) is None


def _identical(tree: Any, value: str) -> int:
    """How many values (not keys) of the JSON tree are *value* itself."""
    count, stack = 0, [tree]
    while stack:
        node = stack.pop()
        children: list[Any] = list(node.values()) if type(node) is dict else node
        for child in children:
            if type(child) in (dict, list):
                stack.append(child)
            elif child is value:
                count += 1
    return count


def _held(pad: int, value: str) -> str | None:
    """A held string of at least *pad* characters ending with *value*; None if it cannot be in
    UTF-8 data (a lone surrogate)."""
    held = "p" * pad + value
    try:
        held.encode()
    except UnicodeEncodeError:
        return None
    return held


@settings(max_examples=300, deadline=None)
@given(value=strings, pad=st.integers(0, 70), repeats=st.integers(1, 3), ascii_too=st.booleans())
def test_a_kept_needle_and_profile_find_what_a_fresh_search_finds(
    value: str, pad: int, repeats: int, ascii_too: bool
) -> None:
    # The stream keeps each held string's needle and profile (_profile_of) for the next event;
    # after a match the search goes on past its closing quote. Every occurrence as a value is
    # still found: side by side in a list, and in the other JSON form.
    held = _held(pad, value)
    if held is None:
        return
    doc: dict[str, Any] = {"type": "t", "v": held, "n": [held] * repeats + ["x"]}
    data = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
    if ascii_too:  # the \u-escaped form, searched only for a string not found in the API's
        data = data[:-1] + b', "a": ' + json.dumps(held).encode() + b"}"
    expected = json.loads(data)
    profiles: _base.Profiles = {}
    copy = "".join(["", held])  # equal to the held string, another object when long
    fresh = load_sharing(data, [copy], stdlib_loads, None, None)
    first = load_sharing(data, [copy], stdlib_loads, None, profiles)
    again = load_sharing(data, [copy], stdlib_loads, None, profiles)  # the kept needle
    for result in (fresh, first, again):
        if result is not None:
            assert result == expected
    if fresh is None:
        assert first is None and again is None
        return
    assert first is not None and again is not None
    shared = _identical(fresh, copy)
    assert shared >= 1 + repeats  # every occurrence in the API's form
    assert _identical(first, copy) == _identical(again, copy) == shared
    assert list(profiles) == [id(copy)]
    kept, profile, needle, proof = profiles[id(copy)]
    assert kept is copy and profile == _base._profile(copy)  # pyright: ignore[reportPrivateUsage]
    assert needle == b'"' + _base._utf8_json(copy[:64], True)  # pyright: ignore[reportPrivateUsage]
    assert proof is None  # kept only when another large event may follow (found=...)


@settings(max_examples=300, deadline=None)
@given(
    value=strings,
    pad=st.integers(0, 70),
    before=st.sampled_from(["", " ", "x"]),
    flip=st.integers(0, 200),
    ascii_too=st.booleans(),
    ascii_first=st.booleans(),
    curly=st.booleans(),
    mutable=st.booleans(),
    pad_after=st.integers(0, 3),
)
def test_a_kept_proof_finds_what_a_fresh_search_finds(
    value: str,
    pad: int,
    before: str,
    flip: int,
    ascii_too: bool,
    ascii_first: bool,
    curly: bool,
    mutable: bool,
    pad_after: int,
) -> None:
    # An event that may be followed (found=[...]) keeps the proof of the bytes a held string
    # matched (where they lie: in the event's data itself, or a copy of them); the next event's
    # bytes are compared with those. On the next event, the same string elsewhere, or the
    # string with one byte of one occurrence changed: the result is json.loads' and shares
    # exactly what a search without anything kept shares. (The first event may hold the string
    # in the ASCII-escaped form only: no proof is kept of that form.) The first event's data as
    # bytes or as a bytearray (the decoder's buffer of a large event), mostly the string or
    # mostly other bytes (pad_after: a proof pointing into the data, or a copy).
    held = _held(pad, value + ("\u2019" if curly else ""))  # (non-ASCII: a proof is kept)
    if held is None:
        return
    copy = "".join(["", held])
    form = json.dumps(held, ensure_ascii=False)
    profiles: _base.Profiles = {}
    other = "x" * (len(form.encode()) * pad_after)
    text = f'{{"type":"t","v":{json.dumps(held, ensure_ascii=ascii_first)},"o":"{other}"}}'
    data: bytes | bytearray = bytearray(text.encode()) if mutable else text.encode()
    first = load_sharing(data, [copy], stdlib_loads, None, profiles, found=[])
    if first is None:
        return
    assert first == json.loads(data) and first["v"] is copy
    if not ascii_first:  # (the ASCII-escaped form: compared by its copy, no proof kept)
        inner = form.encode()[1:-1]
        proof = profiles[id(copy)][3]
        if held.isascii() and inner == held.encode():  # nothing to escape: compared by a copy
            assert proof is None
        else:
            assert proof is not None
            buffer, start, stop = proof
            assert bytes(memoryview(buffer)[start:stop]) == inner
            # In the data itself when the proven bytes are half of it or more, else a copy;
            # a bytearray only through a read-only view.
            if 2 * len(inner) >= len(data):
                assert memoryview(buffer).obj is data
                assert (buffer is data) == (not mutable)
            else:
                assert type(buffer) is bytes and buffer == inner
    nexts = [f'{{"type":"u","w":[{before}{form},{form}]}}'.encode()]
    raw = form.encode()
    i = 1 + flip % max(1, len(raw) - 2)  # inside the token, between its quotes
    nexts.append(
        f'{{"type":"u","w":[{before}'.encode()
        + raw[:i]
        + bytes([raw[i] ^ 1])
        + raw[i + 1 :]
        + b"]}"
    )
    if ascii_too:
        nexts = [n[:-1] + b',"a":' + json.dumps(held).encode() + b"}" for n in nexts]
    for later in nexts:
        try:  # what the streams decode (invalid UTF-8 replaced)
            expected = json.loads(later.decode("utf-8", "replace"))
        except ValueError:
            expected = None
        fresh = load_sharing(later, [copy], stdlib_loads, None, None)
        kept_result = load_sharing(later, [copy], stdlib_loads, None, dict(profiles))
        assert (fresh is None) == (kept_result is None)
        if fresh is not None:
            assert expected is not None
            assert fresh == expected and kept_result == expected
            assert _identical(kept_result, copy) == _identical(fresh, copy)


def test_a_proof_refuses_other_bytes_of_its_length() -> None:
    # Each form of a proof (the data itself, a read-only view of a bytearray, a copy of the
    # bytes), on bytes that differ from the proven ones in one byte anywhere, or end early.
    data = json.dumps({"v": "caf\u00e9 " * 40}, ensure_ascii=False).encode()
    start = data.index(b'"caf') + 1
    stop = data.rindex(b'"')
    proofs: list[_base.Proof] = [
        (data, start, stop),
        (memoryview(bytearray(data)).toreadonly(), start, stop),
        (data[start:stop], 0, stop - start),
    ]
    for proof in proofs:
        assert _base._proved(data, start, proof) == stop  # pyright: ignore[reportPrivateUsage]
        assert _base._proved(bytearray(data), start, proof) == stop  # pyright: ignore[reportPrivateUsage]
        for i in range(start, stop):
            other = data[:i] + bytes([data[i] ^ 1]) + data[i + 1 :]
            assert _base._proved(other, start, proof) == -1  # pyright: ignore[reportPrivateUsage]
        assert _base._proved(data[: stop - 1], start, proof) == -1  # pyright: ignore[reportPrivateUsage]
        assert _base._proved(data, start + 1, proof) == -1  # pyright: ignore[reportPrivateUsage]
