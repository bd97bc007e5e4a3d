"""Large events: the fast paths of issue 21 give exactly what the plain decoding gives.

``load_sharing`` finds the held strings with ``find`` (one search per held string) instead of
walking every string token, measures the nesting while it puts the strings in, and the
accumulator's ``long_strings`` looks only near the top of each item. These tests hold the
results to ``json.loads`` and to the located errors of the general path.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansio_responses as sr
from sansio_responses._base import _FIND_MAX as FIND_MAX  # pyright: ignore[reportPrivateUsage]
from sansio_responses._base import SHARE_MIN, load_sharing, stdlib_loads, too_deep
from sansio_responses.testing import StreamBuilder

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # ``pytest`` run without ``python -m`` does not put the root there
    sys.path.insert(0, str(ROOT))

from bench import generate as gen  # noqa: E402

TEXT = st.text(alphabet=st.characters(exclude_categories=["Cs"]), min_size=1, max_size=12)


def _held(seed: str) -> str:
    """A string over SHARE_MIN long built from *seed* (a fresh object each call)."""
    return "".join([seed] * (SHARE_MIN // len(seed) + 2))


def _values_identical(tree: Any, value: str) -> list[bool]:
    """For each string of *tree* equal to *value*: whether it is that very object."""
    out: list[bool] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in node.values() if type(node) is dict else node:
            if type(child) in (dict, list):
                stack.append(child)
            elif type(child) is str and child == value:
                out.append(child is value)
    return out


@settings(max_examples=150, deadline=None)
@given(
    seed=TEXT,
    other=TEXT,
    layout=st.lists(
        st.sampled_from(["value", "inside", "key", "shorter", "longer", "other", "deep"]),
        min_size=1,
        max_size=6,
    ),
    ensure_ascii=st.booleans(),
    as_bytes=st.booleans(),
    many=st.booleans(),
)
def test_sharing_equals_json_loads_wherever_the_held_string_appears(
    seed: str,
    other: str,
    layout: list[str],
    ensure_ascii: bool,
    as_bytes: bool,
    many: bool,
) -> None:
    held = _held(seed)
    doc: dict[str, Any] = {"type": "t"}
    for i, where in enumerate(layout):
        if where == "value":
            doc[f"v{i}"] = held
        elif where == "inside":  # the held text inside a longer string: never cut
            doc[f"i{i}"] = other + held + other
        elif where == "key":  # as a key: a placeholder there leaves a value unplaced
            doc[held + str(i)] = 1
            doc[held] = 2
        elif where == "shorter":
            doc[f"s{i}"] = held[:-1]
        elif where == "longer":
            doc[f"l{i}"] = held + other
        elif where == "other":
            doc[f"o{i}"] = [other, {"x": other * 3}]
        else:
            doc[f"d{i}"] = [[{"t": held}]]
    text = json.dumps(doc, ensure_ascii=ensure_ascii)
    data: str | bytes = text.encode() if as_bytes else text
    # Equal strings that are other objects, and (``many``) past the find path's count.
    shared = [_held(seed), _held(other)]
    if many:
        shared += [_held(other + str(n)) for n in range(FIND_MAX)]
    result = load_sharing(data, shared, stdlib_loads)
    expected = json.loads(text)
    if result is None:
        # Only when nothing could be shared safely (a NUL, a key, no value equal to it).
        plain_values = "value" in layout or "deep" in layout
        assert not plain_values or "key" in layout or "\x00" in text or "\\u0000" in text
        return
    assert result == expected
    assert all(_values_identical(result, shared[0]))


@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_held_string_written_outside_any_string_is_never_shared(as_bytes: bool) -> None:
    """The held text, without quotes or backslashes, between the closing quote of one string and
    the opening quote of the next: the quotes around it are real, but it is not a string. The
    document must come out as ``json.loads`` gives it (here: not JSON at all, a located error)."""
    held = _held("1,")[:-1]  # "1,1,1,...,1": JSON text outside strings
    text = '{"a": ["x"' + held + '"y"]}'
    data: str | bytes = text.encode() if as_bytes else text
    assert load_sharing(data, [held], stdlib_loads) is None
    valid = '{"a": ["x",' + held + ',"y"]}'
    data = valid.encode() if as_bytes else valid
    assert load_sharing(data, [held], stdlib_loads) is None  # no string equals it


@pytest.mark.parametrize("depth", [3, 4, 5, 40])
def test_sharing_measures_the_depth_it_walks(depth: int) -> None:
    held = _held("abc")
    node: Any = held
    for _ in range(depth - 1):
        node = [node]
    doc = {"t": node}  # the object is level 1: depth levels in all
    text = json.dumps(doc)
    for limit in (depth - 1, depth, depth + 1):
        if depth > limit:
            assert too_deep(json.loads(text), limit)
            with pytest.raises(RecursionError):
                load_sharing(text, [held], stdlib_loads, limit)
        else:
            assert not too_deep(json.loads(text), limit)
            assert load_sharing(text, [held], stdlib_loads, limit) == doc


def _deep_done_stream(depth: int) -> bytes:
    """A stream whose ``output_item.done`` (over 64 KiB, repeating the accumulated text) nests
    an unknown field *depth* levels below the item."""
    builder = StreamBuilder(response_id="resp_deep")
    builder.text("word " * 20_000, chunks=50)
    events = builder.completed().events()
    for event in events:
        if event["type"] == "response.output_item.done":
            nested: Any = 1
            for _ in range(depth):
                nested = [nested]
            event["item"]["x"] = nested
    return "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode()


@pytest.mark.parametrize("json_loads", [None, json.loads])
def test_a_too_deep_large_event_is_the_same_located_error(json_loads: Any) -> None:
    limit = 64
    for depth, fails in ((limit - 10, False), (limit + 10, True)):
        stream = sr.ResponsesStream(max_nesting_depth=limit, json_loads=json_loads)
        data = _deep_done_stream(depth)
        if not fails:
            stream.feed(data)
            snapshot = stream.snapshot()
            assert snapshot is not None
            assert snapshot.output_text == "word " * 20_000
            continue
        with pytest.raises(sr.RemoteProtocolError, match="deeper than max_nesting_depth") as info:
            stream.feed(data)
        assert info.value.offset is not None
        assert any(e.type == "response.output_text.done" for e in info.value.events)


def test_deep_lists_of_small_strings_are_not_walked_but_texts_are_still_shared() -> None:
    """With logprobs on every delta the accumulated tree holds thousands of small dicts; the
    texts and arguments above them are still found, and the terminal event shares them."""
    generated = gen.generate("text_logprobs", 1500)  # the benchmark's shape: 5 alternatives
    text = generated.texts["output_text"]
    assert len(text) >= SHARE_MIN
    for json_loads in (None, json.loads):
        stream = sr.ResponsesStream(json_loads=json_loads)
        events = stream.feed(generated.data)
        done = next(e for e in events if e.type == "response.output_text.done")
        final = stream.snapshot()
        assert final is not None
        assert final.output_text == text
        assert final.to_dict() == json.loads(generated.data.rsplit(b"data: ", 1)[1])["response"]
        assert final.output is not None and done.type == "response.output_text.done"
        message = final.output[0]
        assert isinstance(message, sr.ResponseOutputMessage) and message.content is not None
        part = message.content[0]
        assert isinstance(part, sr.ResponseOutputText)
        assert part.text is done.text
