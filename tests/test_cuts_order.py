"""The held strings of a large event are searched in document order (issue 21).

``_cuts`` searches each held string from where the last match ended, then before it for one not
found there, and looks for later occurrences only between the matches (in pieces long enough to
hold them): the data are read about once for all held strings instead of once per string. On
any data (held strings in any order, repeated, inside other strings, escaped, truncated, as
keys, in either JSON form, equal ones held twice), ``load_sharing`` still gives ``json.loads``'
result or nothing, and every value equal to a held string is the first held object equal to it
(what a search of the whole data per string shared), on both decoding paths and with what a
stream keeps from one event to the next (needles, proofs).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sansio_responses import _base
from sansio_responses._base import load_sharing, stdlib_loads
from sansio_responses._responses.items import OutputItems

# Characters that need each kind of escape, non-ASCII of every width, and lone surrogates.
ALPHABET = st.sampled_from(
    ['"', "\\", "\n", "\x00", "\x1f", "\x7f", "a", ",", " ", "é", "\u2019", "\U0001f600", "\ud800"]
)
KINDS = ["value", "deep", "inside", "escaped", "ends", "truncated", "longer", "key", "plain"]


def _leaves(node: Any) -> Iterator[str]:
    """The string values (not keys) of a JSON tree."""
    children: Any = node.values() if type(node) is dict else node if type(node) is list else ()
    for child in children:
        yield from _leaves(child)
    if type(node) is str:
        yield node


def _doc(held: list[str], layout: list[tuple[int, str]]) -> dict[str, Any]:
    doc: dict[str, Any] = {"type": "t"}
    for n, (i, kind) in enumerate(layout):
        value = held[i % len(held)]
        if kind == "value":
            doc[f"v{n}"] = value
        elif kind == "deep":
            doc[f"d{n}"] = [{"t": [value, 1]}, value]
        elif kind == "inside":  # never cut: inside a longer string
            doc[f"i{n}"] = "x" + value + "y"
        elif kind == "escaped":  # its quotes escaped, inside another string
            doc[f"e{n}"] = '"' + value + '"'
        elif kind == "ends":  # after an escaped quote, the other string's closing quote
            doc[f"q{n}"] = '"' + value
        elif kind == "truncated":
            doc[f"s{n}"] = value[:-1]
        elif kind == "longer":
            doc[f"l{n}"] = value + "z"
        elif kind == "key":  # a placeholder there leaves a value unplaced: nothing shared
            doc[value] = n
        else:
            doc[f"p{n}"] = "plain"
    return doc


@settings(max_examples=200, deadline=None)
@given(
    bodies=st.lists(st.text(ALPHABET, max_size=12), min_size=1, max_size=4),
    pads=st.lists(st.integers(1, 30), min_size=4, max_size=4),
    layout=st.lists(st.tuples(st.integers(0, 3), st.sampled_from(KINDS)), max_size=8),
    order=st.permutations(range(4)),
    twice=st.booleans(),
    ensure_ascii=st.booleans(),
    as_bytes=st.booleans(),
)
def test_held_strings_in_any_order_share_every_occurrence(
    bodies: list[str],
    pads: list[int],
    layout: list[tuple[int, str]],
    order: list[int],
    twice: bool,
    ensure_ascii: bool,
    as_bytes: bool,
) -> None:
    # Held strings start with a letter, so none can match between two string tokens (JSON has
    # only punctuation, numbers and literals there); lengths and order differ from the data's.
    held = ["p" * pad + body for pad, body in zip(pads, bodies, strict=False)]
    text = json.dumps(_doc(held, layout), ensure_ascii=ensure_ascii)
    try:
        data: str | bytes = text.encode() if as_bytes else text
    except UnicodeEncodeError:  # a lone surrogate: never in UTF-8 data
        data = text
    expected = json.loads(text)
    # Fresh objects (equal to the doc's, not the same), in another order than the data's; an
    # equal string held twice: the first one held takes every occurrence.
    shared = ["".join(["", held[i]]) for i in order if i < len(held)]
    if twice:
        shared.append("".join(["", shared[0]]))

    def check(result: Any, shared: list[str] = shared) -> None:
        if result is None:
            return
        assert result == expected
        canonical: dict[str, str] = {}
        for value in shared:
            canonical.setdefault(value, value)
        for leaf in _leaves(result):
            if leaf in canonical and _shareable(canonical[leaf], ensure_ascii, as_bytes):
                assert leaf is canonical[leaf]

    plain = load_sharing(data, shared, stdlib_loads)  # the in-order path
    check(plain)
    keys = any(kind == "key" for _, kind in layout)
    held_somewhere = any(
        kind in ("value", "deep") and _shareable(held[i % len(held)], ensure_ascii, as_bytes)
        for i, kind in layout
    )
    if held_somewhere and not keys and "NaN" not in text and "\\u0000" not in text:
        assert plain is not None
    # The placeholder path, keeping needles and proofs; then the next event with them.
    profiles: _base.Profiles = {}
    check(load_sharing(data, shared, stdlib_loads, None, profiles, found=[]))
    check(load_sharing(data, shared, stdlib_loads, None, profiles))
    backwards = list(reversed(shared))
    check(load_sharing(data, backwards, stdlib_loads, None, profiles), backwards)


def _shareable(value: str, ensure_ascii: bool, as_bytes: bool) -> bool:
    """Whether *value* can be found in data written with *ensure_ascii*: a string with a lone
    surrogate only as ``str`` data in the API's form (no UTF-8 and no ``\\u`` form of it is
    searched)."""
    try:
        value.encode()
    except UnicodeEncodeError:
        return not ensure_ascii and not as_bytes
    return True


@settings(max_examples=150, deadline=None)
@given(
    lengths=st.lists(st.integers(0, 3), min_size=1, max_size=5),
    with_response=st.booleans(),
)
def test_long_strings_come_in_document_order(lengths: list[int], with_response: bool) -> None:
    # The response object's own strings, then the items by output_index, each in its tree's
    # order: the order a terminal event writes them in.
    items = OutputItems(lambda code, message: None, None, None)
    expected: list[str] = []
    if with_response:
        own = [f"r{n}" * 8 for n in range(2)]
        items.response = {"instructions": own[0], "meta": {"a": own[1]}}
        expected += own
    for index, count in enumerate(lengths):
        texts = [f"i{index}s{n}" * 8 for n in range(count)]
        item = {"type": "reasoning", "summary": [{"text": t} for t in texts], "id": "x"}
        items.items.adopt(index, item)
        expected += texts
    for _ in range(2):  # the second time from the trees kept by the first
        assert items.long_strings(16, 10_000) == expected


texts = st.text(st.sampled_from("ab\u2019"), min_size=0, max_size=40)


@settings(max_examples=100, deadline=None)
@given(
    items=st.lists(
        st.tuples(
            st.lists(texts, max_size=8) | st.lists(texts, min_size=20, max_size=30),
            st.booleans(),
            st.integers(0, 3),
        ),
        min_size=1,
        max_size=4,
    ),
    min_length=st.integers(1, 30),
)
def test_strings_found_at_adoption_are_the_walks(
    items: list[tuple[list[str], bool, int]], min_length: int
) -> None:
    # An adopted item's long strings are found when it is placed, if its tree is small: what
    # long_strings then gives is what a fresh walk of the same state gives, for small and large
    # trees, items placed by a copy, replaced ones, and before long_strings was ever called.
    state = OutputItems(lambda code, message: None, None, None)
    for index, (strings, adopt, called) in enumerate(items):
        item = {"type": "message", "content": [{"type": "output_text", "text": s} for s in strings]}
        if called == 0:
            state.long_strings(min_length, 1_000_000)  # from here on, adoptions walk their item
        state._place(index - (called == 3), item, adopt=adopt)  # pyright: ignore[reportPrivateUsage]
        got = state.long_strings(min_length, 1_000_000)
        fresh = OutputItems(lambda code, message: None, None, None)
        fresh.items = state.items
        fresh.response = state.response
        expected = fresh.long_strings(min_length, 1_000_000)
        assert [id(s) for s in got] == [id(s) for s in expected]
