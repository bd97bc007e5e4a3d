"""Values of a large event read from where they lie in its bytes (``sansio_responses._spans``).

Two paths of ``load_sharing`` that save memory (issue 21) against the ones they replace:

- a held span is the data's own bytes, sliced once, not the rest's text encoded again: on any
  document (non-ASCII, escapes, several cuts, before and after the text) the spans found are the
  same bytes, values and nesting as the encoding path's; with invalid UTF-8 before or inside a
  span they are still the value's exact bytes in the data (or the encoding path's);
- a long string with nothing to unescape is decoded straight from the bytes when nothing is
  shared: on any document holding long strings (escapes, control characters, invalid UTF-8,
  quotes near the string) the result is ``json.loads``'s, or ``None`` exactly when that fails.

Whole generated streams (the image shape takes the second path on every partial image) give the
same events, snapshots, diagnostics and errors with both paths on and off.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_held_spans import _run as outcome  # pyright: ignore[reportPrivateUsage]

import sansio_responses._base as base_module
from sansio_responses._base import SHARE_MIN, load_sharing, stdlib_loads

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # ``pytest`` run without ``python -m`` does not put the root there
    sys.path.insert(0, str(ROOT))

from bench import generate as gen  # noqa: E402

HELD = "held text, \u2019 " * (SHARE_MIN // 10 + 1)


def _no_range(*args: Any) -> None:
    """``data_range`` never mapping: every span takes the encoding path."""


def _no_strings(*args: Any) -> list[Any]:
    """``raw_strings`` finding nothing: the path before it."""
    return []


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _spans(data: bytes, shared: list[str], encoded: bool) -> Any:
    """``load_sharing``'s result and spans found, by the slicing path or the encoding one."""
    with pytest.MonkeyPatch.context() as patched:
        if encoded:
            patched.setattr(base_module, "data_range", _no_range)
        found: list[Any] = []
        result = load_sharing(data, shared, stdlib_loads, None, None, [], found)
        return result, found


values = st.recursive(
    st.integers() | st.floats(allow_nan=False) | st.text(max_size=6) | st.none(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=3), children, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None)
@given(
    parts=st.lists(
        st.tuples(st.sampled_from(["span", "text", "small"]), values), min_size=1, max_size=5
    ),
    pad=st.text(min_size=1, max_size=3),
)
def test_spans_are_the_encoding_paths_bytes(parts: list[tuple[str, Any]], pad: str) -> None:
    doc: dict[str, Any] = {"type": "t"}
    for n, (kind, value) in enumerate(parts):
        if kind == "span":  # large, with the held text inside it once in two
            doc[f"v{n}"] = {"v": value, "pad": pad * SHARE_MIN, "t": HELD if n % 2 else pad}
        elif kind == "text":
            doc[f"v{n}"] = HELD
        else:
            doc[f"v{n}"] = value
    data = _dumps(doc)
    sliced = _spans(data, [HELD], False)
    assert sliced == _spans(data, [HELD], True)
    result, found = sliced
    if result is not None:
        assert result == json.loads(data)
        for raw, value, _ in found:
            assert raw in data and json.loads(raw) == value


@settings(max_examples=100, deadline=None)
@given(
    bad=st.sampled_from([b"\xff", b"\xe2\x80", b"\xc3", b"\xed\xa0\x80"]),
    where=st.sampled_from(["before", "inside", "after"]),
)
def test_spans_with_invalid_utf8_are_the_values_bytes(bad: bytes, where: str) -> None:
    doc = {"type": "t", "a": "@A@", "part": {"x": "@B@", "pad": "p" * SHARE_MIN}, "t": HELD}
    data = _dumps(doc)
    marker = {"before": b"@A@", "inside": b"@B@", "after": b'p"},'}[where]
    data = data.replace(marker, marker[:1] + bad + marker[1:], 1)
    result, found = _spans(data, [HELD], False)
    assert result == json.loads(data.decode("utf-8", "replace"))
    assert len(found) == 1
    raw, value, _ = found[0]
    assert value is result["part"]
    assert json.loads(raw.decode("utf-8", "replace")) == value
    if where == "inside":  # the ends are counted away from it: the data's own bytes
        assert raw in data and bad in raw
    elif raw not in data:  # a U+FFFD on the way to an end: the encoding path's bytes
        assert (result, found) == _spans(data, [HELD], True)


long_strings = st.lists(
    st.sampled_from(["a", "\u00e9", "\u2019", "\U0001f600", "\\", '"', "\n", "\x01", "/", "\x7f"]),
    min_size=0,
    max_size=3,
).map(lambda extra: "b" * SHARE_MIN + "".join(extra))


@settings(max_examples=200, deadline=None)
@given(
    strings=st.lists(long_strings, min_size=1, max_size=3),
    small=values,
    ascii_only=st.booleans(),
    raw_bytes=st.sampled_from([b"", b"\xff", b"\xc3", b"\x1f", b"\t", b"\n", b"\\u0000"]),
    indent=st.sampled_from([None, 1, "\t"]),
    key=st.booleans(),
)
def test_raw_strings_give_json_loads_or_nothing(
    strings: list[str], small: Any, ascii_only: bool, raw_bytes: bytes, key: bool, indent: Any
) -> None:
    doc: dict[str, Any] = {"type": "t", "small": small}
    for n, value in enumerate(strings):
        doc[f"s{n}"] = value
    if key:
        doc[strings[0]] = 1
    data = json.dumps(doc, ensure_ascii=ascii_only, indent=indent).encode()
    if raw_bytes:  # into the first long string, unescaped (invalid UTF-8, a control, a NUL)
        data = data.replace(b"bbbb", b"bb" + raw_bytes + b"bb", 1)
    try:
        expected = json.loads(data.decode("utf-8", "replace"))
    except ValueError:
        expected = None
    result = load_sharing(data, [], stdlib_loads, None, None, [], [])
    if expected is None:
        assert result is None
        return
    if result is not None:
        assert result == expected
    plain = "\\" not in json.dumps(strings[0], ensure_ascii=ascii_only)
    if plain and not key and raw_bytes in (b"", b"\xff", b"\xc3") and b"\\u0000" not in data:
        # the first long string has nothing to unescape: it is read from the bytes
        assert result is not None


def test_a_raw_string_is_decoded_from_the_bytes_once() -> None:
    image = "QUJD" * SHARE_MIN
    data = _dumps({"type": "response.image_generation_call.partial_image", "b64": image})
    result = load_sharing(data, [], stdlib_loads, None, None, [], [])
    assert result == json.loads(data)
    # past the first 64 strings, strings are not walked
    busy = _dumps({"type": "t", "many": ["q"] * 70, "b64": image})
    assert load_sharing(busy, [], stdlib_loads, None, None, [], []) is None


def _run(data: bytes, new: bool, **options: Any) -> Any:
    """What a stream gives (test_held_spans' ``_run``) with the two paths, or without them."""
    with pytest.MonkeyPatch.context() as patched:
        if not new:
            patched.setattr(base_module, "data_range", _no_range)
            patched.setattr(base_module, "raw_strings", _no_strings)
        return outcome(data, True, patched, **options)


@pytest.mark.parametrize("scenario", ["text_logprobs", "image", "reasoning"])
@pytest.mark.parametrize("max_nesting_depth", [None, 256, 6])
def test_streams_are_the_same_with_the_new_paths_and_without(
    scenario: str, max_nesting_depth: int | None
) -> None:
    n = {"text_logprobs": 1500, "image": 100_000, "reasoning": 20_000}[scenario]
    data = gen.generate(scenario, n).data
    options = {"max_nesting_depth": max_nesting_depth, "json_loads": json.loads}
    assert _run(data, True, **options) == _run(data, False, **options)
