"""``load_sharing``'s in-order path (no spans to find: a stream's terminal event) agrees with
``json.loads`` and with the placeholder path (issue 21).

Each cut string or span is replaced by the constant ``NaN``, which the standard library's scanner
hands to ``parse_constant`` in document order; nothing is walked afterwards and the nesting is
bounded by the brackets of the rest. Checked here on any document with held strings and spans
anywhere (a value, a key, inside another string, twice, nested, next to ``NaN``/``Infinity``
constants of its own, surrounded by whitespace) and any depth limit: the result is
``json.loads``'s (each held value that object itself) or ``None``; a tree deeper than the limit
is never returned; and where the placeholder path shares, so does this one, with the same tree.
"""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from sansio_responses import _base  # pyright: ignore[reportPrivateUsage]
from sansio_responses._base import SHARE_MIN, load_sharing, stdlib_loads, too_deep

HELD = ["one held text, " * (SHARE_MIN // 14 + 1), 'two \u2019"\\\n' * (SHARE_MIN // 7 + 1)]
SPAN_VALUE = {"logprobs": [{"token": "a", "top": [1, 2]}], "n": 1}
SPAN_RAW = json.dumps(SPAN_VALUE, separators=(",", ":")).encode()

small = st.recursive(
    st.integers() | st.text(max_size=4) | st.none() | st.sampled_from(["NaN", "Infinity", "[{"]),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=3), children, max_size=3)
    ),
    max_leaves=8,
)
PLACES = ["value0", "value1", "span", "key", "inside", "twice", "ascii", "nested", "nan", "inf"]


def _document(places: list[str], filler: Any) -> tuple[str, dict[str, Any]]:
    """The JSON text of an event holding the held values at *places*, and what it decodes to."""
    parts: list[str] = ['"type":"t"']
    for n, where in enumerate(places):
        if where in ("value0", "value1"):
            parts.append(f'"v{n}":' + json.dumps(HELD[int(where[-1])], ensure_ascii=False))
        elif where == "span":
            parts.append(f'"v{n}":' + SPAN_RAW.decode())
        elif where == "key":
            parts.append(json.dumps(HELD[0]) + f":{n}")
        elif where == "inside":
            parts.append(f'"v{n}":' + json.dumps("x" + json.dumps(HELD[1]) + "y"))
        elif where == "twice":
            twice = [HELD[0], HELD[1]]
            parts.append(f'"v{n}":' + json.dumps(twice, ensure_ascii=False, separators=(", ", ":")))
        elif where == "ascii":  # \u escapes: shared only where not found in the API's form
            parts.append(f'"v{n}":' + json.dumps(HELD[1]))
        elif where == "nested":
            parts.append(f'"v{n}":{{"a":[{{"b":' + SPAN_RAW.decode() + "}]}")
        elif where == "nan":
            parts.append(f'"v{n}":NaN')
        else:
            parts.append(f'"v{n}":[-Infinity,Infinity]')
    parts.append('"filler":' + json.dumps(filler))
    text = " \n{" + ",".join(parts) + "}\t"
    return text, json.loads(text)


def _same(a: Any, b: Any) -> bool:
    """Equal JSON trees, NaN equal to NaN."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        da: dict[str, Any] = a  # pyright: ignore[reportUnknownVariableType]
        db: dict[str, Any] = b  # pyright: ignore[reportAssignmentType]
        return da.keys() == db.keys() and all(_same(da[k], db[k]) for k in da)
    if isinstance(a, list):
        la: list[Any] = a  # pyright: ignore[reportUnknownVariableType]
        lb: list[Any] = b  # pyright: ignore[reportAssignmentType]
        return len(la) == len(lb) and all(_same(x, y) for x, y in zip(la, lb, strict=True))
    return bool(a == b)


def _held_in_place(result: dict[str, Any], places: list[str], spans: bool) -> None:
    for n, where in enumerate(places):
        if where in ("value0", "value1"):
            assert result[f"v{n}"] is HELD[int(where[-1])]
        elif where == "twice":
            assert result[f"v{n}"][0] is HELD[0] and result[f"v{n}"][1] is HELD[1]
        elif where == "span" and spans:
            assert result[f"v{n}"] is SPAN_HELD
        elif where == "nested" and spans:
            assert result[f"v{n}"]["a"][0]["b"] is SPAN_HELD


def _levels(value: Any) -> int:
    """How many levels *value* nests (a flat container: 1)."""
    return next(limit for limit in range(1, 100) if not too_deep(value, limit))


SPAN_HELD = json.loads(SPAN_RAW)
SPAN_LEVELS = _levels(SPAN_HELD)


@settings(max_examples=300, deadline=None)
@given(
    places=st.lists(st.sampled_from(PLACES), min_size=1, max_size=5),
    filler=small,
    limit=st.none() | st.integers(1, 12),
    as_bytes=st.booleans(),
)
@example(places=["value0", "value1"], filler=None, limit=None, as_bytes=True)
@example(places=["value1", "span", "value0"], filler=None, limit=None, as_bytes=True)
@example(places=["value0", "nan"], filler=None, limit=None, as_bytes=True)
@example(places=["inside", "value0"], filler=None, limit=None, as_bytes=False)
@example(places=["nested"], filler=None, limit=4, as_bytes=True)
@example(places=["nested"], filler=None, limit=5, as_bytes=True)
def test_the_in_order_path_gives_json_loads_or_nothing(
    places: list[str], filler: Any, limit: int | None, as_bytes: bool
) -> None:
    text, expected = _document(places, filler)
    data: Any = text.encode() if as_bytes else text
    spans = [(SPAN_RAW, SPAN_HELD, SPAN_LEVELS)] if as_bytes else []
    try:
        result = load_sharing(data, HELD, stdlib_loads, limit, None, spans)
    except RecursionError:  # the placeholder path (more brackets than the limit) measured it
        assert limit is not None and too_deep(expected, limit)
        return
    if limit is not None and too_deep(expected, limit):
        assert result is None, "a tree too deep was returned"
        return
    try:
        general = load_sharing(data, HELD, stdlib_loads, limit, None, spans, [])
    except RecursionError:
        general = None
    if result is None:
        # Refused only where the placeholder path refuses too: a held string as a key (never
        # a value), or a NaN of the document's own with an escaped NUL (neither applies here).
        assert general is None
        return
    assert _same(result, expected)
    _held_in_place(result, places, as_bytes)
    if general is not None:
        assert _same(result, general)
    elif "key" not in places and "\\u0000" not in text:  # that path's mark (see its tests)
        raise AssertionError("the placeholder path refused what this one shares")


@settings(max_examples=100, deadline=None)
@given(before=st.text(max_size=6), after=st.text(max_size=6), first=st.booleans())
def test_a_cut_that_is_no_string_of_the_data_is_never_taken(
    before: str, after: str, first: bool
) -> None:
    # The held text is what lies between two strings of an array (a closing quote, then the
    # text, then the next string's opening quote): cut out, its NaN lands inside a string.
    between = "," + ",".join(str(n) for n in range(SHARE_MIN // 2)) + ","
    doc = [before, *[int(n) for n in between.strip(",").split(",")], after]
    text = json.dumps(doc, separators=(",", ":"))
    held = [between] if first else [between, HELD[0]]
    for data in (text, text.encode()):
        result = load_sharing(data, held, stdlib_loads)
        assert result is None or result == doc


def test_the_in_order_path_is_taken_and_steps_aside_for_nan_and_brackets() -> None:
    text, expected = _document(["value0", "value1"], None)
    cuts = _base._cuts(text.encode(), HELD)  # pyright: ignore[reportPrivateUsage]
    assert len(cuts) == 2
    placed = _base._load_in_order(text.encode(), cuts, 256)  # pyright: ignore[reportPrivateUsage]
    assert placed == expected and placed["v0"] is HELD[0] and placed["v1"] is HELD[1]
    text, _ = _document(["value0", "nan"], None)
    cuts = _base._cuts(text.encode(), HELD)  # pyright: ignore[reportPrivateUsage]
    assert _base._load_in_order(text.encode(), cuts, 256) is _base._ELSEWHERE  # pyright: ignore[reportPrivateUsage]
    text, _ = _document(["value0", "nested"], None)
    cuts = _base._cuts(text.encode(), HELD)  # pyright: ignore[reportPrivateUsage]
    assert _base._load_in_order(text.encode(), cuts, 3) is _base._ELSEWHERE  # pyright: ignore[reportPrivateUsage]
