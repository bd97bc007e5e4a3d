"""Tests for the incremental JSON parser (sansio_responses._json.partial)."""

from __future__ import annotations

import copy
import itertools
import json
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sansio_responses._json.partial import PartialJSON, PartialJSONError

# -- helpers -------------------------------------------------------------------------------------


def extends(new: Any, old: Any) -> bool:
    """Whether *new* extends *old* (the monotonicity relation documented on PartialJSON)."""
    if isinstance(old, dict):
        return (
            isinstance(new, dict)
            and all(k in new for k in old)
            and all(extends(new[k], v) for k, v in old.items())
        )
    if isinstance(old, list):
        return (
            isinstance(new, list)
            and len(new) >= len(old)
            and all(extends(n, o) for n, o in zip(new, old, strict=False))
        )
    if isinstance(old, str):
        return isinstance(new, str) and new.startswith(old)
    return type(new) is type(old) and new == old


def split_at(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in itertools.pairwise(points) if b > a]


def feed_all(deltas: list[str], **kwargs: Any) -> PartialJSON:
    parser = PartialJSON(**kwargs)
    for d in deltas:
        parser.feed(d)
    return parser


# -- strategies ----------------------------------------------------------------------------------

# Text including escapes-to-be (quotes, backslashes, control characters), non-BMP characters and
# non-ASCII, so both ensure_ascii modes and \uXXXX surrogate pairs are exercised.
json_text = st.text(
    st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(['"', "\\", "\n", "\x00", "\x1f", "/", "\U0001f600", "\u00e9"]),
    ),
    max_size=12,
)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    json_text,
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(json_text, children, max_size=5),
    ),
    max_leaves=25,
)
whitespace = st.text(st.sampled_from(" \t\n\r"), max_size=3)


@st.composite
def serialised(draw: st.DrawFn, value: Any) -> str:
    """Serialise *value* with random insignificant whitespace between all tokens."""
    ascii_ = draw(st.booleans())

    def ws() -> str:
        return draw(whitespace)

    def dump(v: Any) -> str:
        if isinstance(v, dict):
            if not v:
                return "{" + ws() + "}"
            items = [
                ws() + json.dumps(k, ensure_ascii=ascii_) + ws() + ":" + ws() + dump(x) + ws()
                for k, x in v.items()
            ]
            return "{" + ",".join(items) + "}"
        if isinstance(v, list):
            if not v:
                return "[" + ws() + "]"
            return "[" + ",".join(ws() + dump(x) + ws() for x in v) + "]"
        return json.dumps(v, ensure_ascii=ascii_)

    return ws() + dump(value) + ws()


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[str]]:
    value = draw(json_values)
    doc = draw(serialised(value))
    mode = draw(st.sampled_from(["chars", "random"]))
    if mode == "chars":
        return doc, list(doc)
    cuts = draw(st.lists(st.integers(min_value=0, max_value=max(len(doc), 1)), max_size=20))
    return doc, split_at(doc, cuts)


# -- properties ----------------------------------------------------------------------------------


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_monotone_final_and_complete(case: tuple[str, list[str]]) -> None:
    doc, deltas = case
    expected = json.loads(doc)
    content_end = len(doc.rstrip(" \t\n\r"))
    bare_number = isinstance(expected, (int, float)) and not isinstance(expected, bool)
    parser = PartialJSON()
    previous: Any = None
    seen = 0
    for delta in deltas:
        parser.feed(delta)
        seen += len(delta)
        assert parser.error is None
        current = copy.deepcopy(parser.value)
        if previous is not None:
            assert extends(current, previous), (previous, current)
        previous = current
        # A number is only known complete once a delimiter follows it.
        done = seen > content_end if bare_number else seen >= content_end
        assert parser.complete is done
    assert parser.text == doc
    assert parser.final() == expected
    assert json.dumps(parser.final()) == json.dumps(expected)  # same types: int stays int
    if parser.complete:
        assert parser.value == expected


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.lists(st.booleans(), min_size=1))
def test_state_depends_only_on_prefix_not_on_split_or_reads(
    case: tuple[str, list[str]], reads: list[bool]
) -> None:
    doc, deltas = case
    chunked = PartialJSON()
    fed = ""
    for n, delta in enumerate(deltas):
        chunked.feed(delta)
        fed += delta
        if reads[n % len(reads)]:
            whole = PartialJSON()
            whole.feed(fed)
            assert chunked.value == whole.value
            assert chunked.complete is whole.complete
    assert chunked.final() == json.loads(doc)


# Text near valid JSON: valid documents with one character deleted, inserted or replaced.
@st.composite
def mutated(draw: st.DrawFn) -> str:
    doc = draw(serialised(draw(json_values)))
    if not doc:
        return doc
    i = draw(st.integers(min_value=0, max_value=len(doc) - 1))
    ch = draw(st.sampled_from(list('{}[]:,"\\ 0-.eE+tfnu9ax\x01')))
    op = draw(st.sampled_from(["delete", "insert", "replace"]))
    if op == "delete":
        return doc[:i] + doc[i + 1 :]
    if op == "insert":
        return doc[:i] + ch + doc[i:]
    return doc[:i] + ch + doc[i + 1 :]


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(mutated(), st.text(st.sampled_from(list('{}[]:," \\0-1.eE+truefalsn')))))
def test_agrees_with_json_loads_on_arbitrary_text(text: str) -> None:
    try:
        expected = json.loads(text)
    except ValueError:
        ok = False
    else:
        ok = True
    parser = PartialJSON()
    for ch in text:
        parser.feed(ch)
    if ok:
        assert parser.final() == expected
    else:
        with pytest.raises(PartialJSONError):
            parser.final()


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_error_found_when_offending_char_arrives(text: str) -> None:
    parser = PartialJSON()
    for n, ch in enumerate(text):
        parser.feed(ch)
        if parser.error is not None:
            # Found on the very character it points at, not later.
            assert parser.error.position == n
            assert parser.text == text[: n + 1]
            whole = PartialJSON()
            whole.feed(text)
            assert whole.error is not None
            assert whole.error.position == n
            assert whole.error.message == parser.error.message
            break


# -- unit tests ----------------------------------------------------------------------------------


def values_after_each(deltas: list[str]) -> list[Any]:
    parser = PartialJSON()
    out = []
    for d in deltas:
        parser.feed(d)
        out.append(copy.deepcopy(parser.value))
    return out


def test_nothing_yet_is_none_and_not_complete() -> None:
    parser = PartialJSON()
    assert parser.value is None
    assert not parser.complete
    parser.feed("  ")
    assert parser.value is None
    with pytest.raises(PartialJSONError, match="no JSON value"):
        parser.final()


def test_partial_strings_grow() -> None:
    assert values_after_each(['{"ti', 'tle": "He', "llo, wor", 'ld"}']) == [
        {},
        {"title": "He"},
        {"title": "Hello, wor"},
        {"title": "Hello, world"},
    ]


def test_key_appears_with_first_visible_form_of_its_value() -> None:
    # After the colon the value has not started: the key is not shown with a placeholder.
    assert values_after_each(['{"a":', " ", '"', "x", '", "b": ', "[", "1", "2", ",", "{"]) == [
        {},
        {},
        {"a": ""},
        {"a": "x"},
        {"a": "x"},
        {"a": "x", "b": []},
        {"a": "x", "b": []},
        {"a": "x", "b": []},
        {"a": "x", "b": [12]},
        {"a": "x", "b": [12, {}]},
    ]


def test_numbers_appear_only_once_delimited() -> None:
    assert values_after_each(["[1", "2", ".", "5", "e", "-", "3", " ", ",-0", "]"]) == [
        [],
        [],
        [],
        [],
        [],
        [],
        [],
        [12.5e-3],
        [12.5e-3],
        [12.5e-3, 0],
    ]
    parser = PartialJSON()
    parser.feed('{"n": -0')
    assert parser.value == {}
    parser.feed("}")
    assert parser.value == {"n": 0}


def test_top_level_number_completed_only_by_final() -> None:
    parser = PartialJSON()
    parser.feed("4")
    parser.feed("2")
    assert parser.value is None
    assert not parser.complete
    assert parser.final() == 42
    assert type(parser.final()) is int
    parser.feed("\n")
    assert parser.complete
    assert parser.value == 42


def test_unfinished_number_is_an_error_at_the_end() -> None:
    parser = PartialJSON()
    parser.feed("1.")
    with pytest.raises(PartialJSONError, match=r"digit after '\.'") as info:
        parser.final()
    assert info.value.position == 2


def test_literals_only_once_complete() -> None:
    assert values_after_each(["[t", "ru", "e,n", "ull,fals", "e]"]) == [
        [],
        [],
        [True],
        [True, None],
        [True, None, False],
    ]


@pytest.mark.parametrize(
    ("encoded", "char"),
    [
        ('"\\ud83d\\ude00"', "\U0001f600"),
        ('"\\u00e9"', "\u00e9"),
        ('"\\n"', "\n"),
        ('"\\""', '"'),
        ('"\\\\"', "\\"),
        ('"\\/"', "/"),
    ],
)
def test_escapes_split_at_every_point(encoded: str, char: str) -> None:
    for cut in range(1, len(encoded)):
        for deltas in ([encoded[:cut], encoded[cut:]], list(encoded)):
            values = values_after_each(deltas)
            # Never a half-decoded character: either nothing yet or the whole character.
            assert all(v in ("", char) for v in values), (cut, values)
            assert values[-1] == char


def test_surrogate_pair_split_mid_second_escape() -> None:
    parser = PartialJSON()
    parser.feed('"a\\ud83d')
    assert parser.value == "a"  # the high surrogate waits for a possible low half
    parser.feed("\\ud")
    assert parser.value == "a"
    parser.feed('e00b"')
    assert parser.value == "a\U0001f600b"
    assert parser.complete


def test_lone_surrogates_kept_as_json_loads_does() -> None:
    for doc in ['"\\ud800"', '"\\ud800x"', '"\\ud800\\n"', '"\\ud800\\u0041"', '"\\udc00"']:
        parser = PartialJSON()
        for ch in doc:
            parser.feed(ch)
        assert parser.final() == json.loads(doc)


def test_error_with_position_and_last_good_value() -> None:
    parser = PartialJSON()
    parser.feed('{"x": [1, "ab"], "a" ')
    parser.feed("1}")
    err = parser.error
    assert isinstance(err, PartialJSONError)
    assert err.position == 21
    assert "expected ':'" in err.message
    assert "1}" in err.excerpt
    assert parser.value == {"x": [1, "ab"]}
    with pytest.raises(PartialJSONError) as info:
        parser.final()
    assert info.value is err
    # Later deltas are stored but not parsed.
    parser.feed("]")
    assert parser.text == '{"x": [1, "ab"], "a" 1}]'
    assert parser.error is err


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ('{"a" 1}', 5, "expected ':'"),
        ("[1,]", 3, "expected a JSON value"),
        ('{"a":1,}', 7, "expected a string key"),
        ("[1 2]", 3, "expected ','"),
        ("[tru]", 4, "invalid literal"),
        ("nul1", 3, "invalid literal"),
        ('"a\\x"', 3, "invalid escape"),
        ('"\\u12g4"', 5, "invalid \\u escape"),
        ('"a\x01"', 2, "control character"),
        ("01", 1, "extra data"),
        ("-a", 1, "digit after '-'"),
        ("1.e5", 2, "digit after '.'"),
        ("1e+", None, "digit in the exponent"),
        ("{} {}", 3, "extra data"),
        ("NaN", 0, "expected a JSON value"),
        ("[1}", 2, "expected ','"),
    ],
)
def test_errors(text: str, position: int | None, message: str) -> None:
    parser = PartialJSON()
    parser.feed(text)
    with pytest.raises(PartialJSONError) as info:
        parser.final()
    assert message in info.value.message
    if position is not None:
        assert info.value.position == position
        assert parser.error is info.value
    else:  # only found at the end of the text
        assert parser.error is None
        assert info.value.position == len(text)


def test_truncated_document_is_not_an_error_until_final() -> None:
    parser = PartialJSON()
    parser.feed('{"a": ["b", {"c": "de')
    assert parser.error is None
    assert parser.value == {"a": ["b", {"c": "de"}]}
    with pytest.raises(PartialJSONError, match="unterminated string") as info:
        parser.final()
    assert info.value.position == len(parser.text)
    parser.feed('"}')
    with pytest.raises(PartialJSONError, match="unclosed bracket"):
        parser.final()
    parser.feed("]}")
    assert parser.final() == {"a": ["b", {"c": "de"}]}


def test_depth_bound() -> None:
    parser = PartialJSON(max_depth=3)
    parser.feed("[[[")
    assert parser.error is None
    parser.feed("[")
    assert parser.error is not None
    assert parser.error.position == 3
    assert "max_depth" in parser.error.message
    parser = PartialJSON(max_depth=3)
    parser.feed('[{"a": [1]}]')
    assert parser.final() == [{"a": [1]}]


def test_default_depth_bound_stops_deep_input_without_recursion_error() -> None:
    parser = PartialJSON()
    parser.feed("[" * 100_000)
    assert parser.error is not None
    assert parser.error.position == 512


def test_size_bound() -> None:
    parser = PartialJSON(max_size=10)
    parser.feed('["abc", ')
    parser.feed('"defgh"]')
    err = parser.error
    assert err is not None
    assert err.position == 10
    assert "max_size" in err.message
    assert parser.text == '["abc", "d'  # text past the limit is not stored
    assert parser.value == ["abc", "d"]
    parser = PartialJSON(max_size=10)
    parser.feed('["abcdef"]')
    assert parser.final() == ["abcdef"]


def test_value_is_live_tree_and_cheap_to_reread() -> None:
    parser = PartialJSON()
    parser.feed('{"a": [1, ')
    first = parser.value
    assert parser.value is first
    parser.feed('"x"]}')
    assert parser.value is first  # documented: the live tree, callers copy to keep a snapshot
    assert first == {"a": [1, "x"]}


@pytest.mark.skipif(
    not hasattr(sys, "get_int_max_str_digits"), reason="Python < 3.11 has no int digit limit"
)
def test_huge_integer_is_an_error_like_json_loads() -> None:
    digits = "9" * 5000
    with pytest.raises(ValueError):
        json.loads(digits)
    parser = PartialJSON()
    parser.feed("[" + digits + "]")
    assert parser.error is not None
    assert parser.error.position == 1
    assert "integer too long" in parser.error.message


def test_constructor_validates_bounds() -> None:
    with pytest.raises(ValueError):
        PartialJSON(max_depth=0)
    with pytest.raises(ValueError):
        PartialJSON(max_size=-1)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.lists(st.integers(min_value=0, max_value=10_000), max_size=10))
def test_error_same_whatever_the_split(text: str, cuts: list[int]) -> None:
    whole = PartialJSON()
    whole.feed(text)
    split = feed_all(split_at(text, cuts))
    if whole.error is None:
        assert split.error is None
        assert split.value == whole.value
    else:
        assert split.error is not None
        assert (split.error.position, split.error.message) == (
            whole.error.position,
            whole.error.message,
        )
        assert split.value == whole.value
