"""A large value of one event is reused as that very object when the next event repeats it.

``content_part.done`` repeats the logprobs of ``output_text.done``, ``output_item.done`` that
part, the terminal event that item: ``load_sharing`` keeps the JSON bytes of each large value at
the top of an event (a *span*) and cuts them out of the next event's data, putting the decoded
value back (issue 21). Checked here: on any document and wherever a held span's bytes appear
(a value, inside a string, as a key, nested deeper), the result is ``json.loads``'s or ``None``;
the spans found are the exact bytes of their values, with their nesting; and whole streams give
the same events, snapshots, diagnostics and errors (depth limits included) with the spans on
and off.
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
from sansio_responses._base import SHARE_MIN, load_sharing, stdlib_loads, too_deep

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # ``pytest`` run without ``python -m`` does not put the root there
    sys.path.insert(0, str(ROOT))

from bench import generate as gen  # noqa: E402

HELD_TEXT = "held text, " * (SHARE_MIN // 10 + 1)


def _levels(value: Any) -> int:
    """How many levels *value* nests (a flat container: 1)."""
    for limit in range(1, 100):
        if not too_deep(value, limit):
            return limit
    raise AssertionError("too deep for the test")


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


span_values = st.recursive(
    st.integers() | st.floats(allow_nan=False) | st.text(max_size=4) | st.none(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=3), children, max_size=3)
    ),
    max_leaves=12,
).map(lambda tree: {"logprobs": [tree, {"t": "x" * 10}], "n": 1})


@settings(max_examples=300, deadline=None)
@given(
    value=span_values,
    layout=st.lists(
        st.sampled_from(["top", "nested", "inside", "key", "twice", "changed"]),
        min_size=1,
        max_size=4,
    ),
    limit=st.none() | st.integers(1, 12),
)
def test_a_held_span_gives_json_loads_or_nothing(
    value: dict[str, Any], layout: list[str], limit: int | None
) -> None:
    raw = _dumps(value)
    held = json.loads(raw)  # the object held (equal to value, a distinct tree)
    doc: dict[str, Any] = {"type": "t", "text": HELD_TEXT}
    for n, where in enumerate(layout):
        if where == "top":
            doc[f"v{n}"] = value
        elif where == "nested":
            doc[f"v{n}"] = {"item": {"content": [value]}}
        elif where == "inside":
            doc[f"v{n}"] = "before " + raw.decode() + " after"
        elif where == "key":
            doc[raw.decode()] = n
        elif where == "twice":
            doc[f"v{n}"] = [value, value]
        else:
            doc[f"v{n}"] = {**value, "n": 2}
    data = _dumps(doc)
    expected = json.loads(data)
    spans = [(raw, held, _levels(held))]
    try:
        result = load_sharing(data, [HELD_TEXT], stdlib_loads, limit, None, spans, [])
    except RecursionError:
        assert limit is not None and too_deep(expected, limit)
        return
    if limit is not None and too_deep(expected, limit):
        assert result is None, "a tree too deep was returned"
    if result is not None:
        assert result == expected
    if (
        "key" not in layout
        and "inside" not in layout
        and b"\\u0000" not in data  # a decoded NUL could read as a placeholder: not shared
        and (limit is None or not too_deep(expected, limit))
    ):
        assert result is not None
        if "top" in layout:
            assert result[f"v{layout.index('top')}"] is held


@settings(max_examples=200, deadline=None)
@given(value=span_values, other=span_values, text_first=st.booleans())
def test_the_spans_found_are_their_values_bytes_and_nesting(
    value: dict[str, Any], other: dict[str, Any], text_first: bool
) -> None:
    big = {**value, "pad": "p" * SHARE_MIN}
    doc = {"type": "t", "text": HELD_TEXT, "part": big, "small": other}
    if not text_first:
        doc = {"part": big, "small": other, "text": HELD_TEXT, "type": "t"}
    data = _dumps(doc)
    found: list[Any] = []
    result = load_sharing(data, [HELD_TEXT], stdlib_loads, None, None, [], found)
    if b"\\u0000" in data:  # a decoded NUL could read as a placeholder: not shared
        assert result is None
        return
    assert result == json.loads(data)
    assert len(found) == 1
    raw, held, levels = found[0]
    assert held is result["part"]
    assert json.loads(raw) == held and raw in data
    assert levels == _levels(held)
    # ... and the next event that repeats it shares it
    again = _dumps({"type": "u", "item": {"content": [big]}, "text": HELD_TEXT})
    following = load_sharing(again, [HELD_TEXT], stdlib_loads, None, None, found, [])
    assert following == json.loads(again)
    assert following["item"]["content"][0] is held


def _run(data: bytes, spans: bool, monkeypatch: pytest.MonkeyPatch, **options: Any) -> Any:
    with monkeypatch.context() as patched:
        patched.setattr(sr.ResponsesStream, "_keep_spans", spans)
        stream = sr.ResponsesStream(**options)
        events: list[Any] = []
        error: Any = None
        try:
            for i in range(0, len(data), 4096):
                events += stream.feed(data[i : i + 4096])
            events += stream.close()
        except sr.ProtocolError as exc:
            events += exc.events
            error = (type(exc).__name__, str(exc), exc.offset, exc.sequence_number)
        snapshot = stream.snapshot()
        return (
            [e.to_dict() for e in events],
            None if snapshot is None else snapshot.to_dict(),
            stream.outcome,
            [(d.code, d.message) for d in stream.diagnostics],
            error,
        )


# Every depth limit with the default decoder (orjson for small events when installed, the stdlib's
# for the large ones that keep spans); the stdlib decoder for every event at two limits only: the
# spans are the same code under both, and each case decodes a whole stream twice.
_DECODERS_AND_DEPTHS = [
    *((None, depth) for depth in (None, 256, 7, 6, 5)),
    *((json.loads, depth) for depth in (None, 6)),
]


@pytest.mark.parametrize("scenario", ["text_logprobs", "text", "image", "function_call"])
@pytest.mark.parametrize(("json_loads", "max_nesting_depth"), _DECODERS_AND_DEPTHS)
def test_streams_are_the_same_with_and_without_spans(
    scenario: str, max_nesting_depth: int | None, json_loads: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    n = {"text_logprobs": 1500, "text": 20_000, "image": 100_000, "function_call": 20_000}[scenario]
    data = gen.generate(scenario, n).data
    options = {"max_nesting_depth": max_nesting_depth, "json_loads": json_loads}
    with_spans = _run(data, True, monkeypatch, **options)
    assert with_spans == _run(data, False, monkeypatch, **options)
    if max_nesting_depth is None or max_nesting_depth >= 256:
        assert with_spans[2] == "completed"
        # every event as its own data decodes
        payloads = [
            json.loads(line[6:]) for line in data.split(b"\n") if line.startswith(b"data: ")
        ]
        assert with_spans[0] == payloads


def test_the_terminal_response_holds_the_items_of_the_done_events() -> None:
    data = gen.generate("text_logprobs", 1500).data
    stream = sr.ResponsesStream(json_loads=json.loads)
    events = stream.feed(data)
    item_done: Any = next(e for e in events if e.type == "response.output_item.done")
    part_done: Any = next(e for e in events if e.type == "response.content_part.done")
    text_done: Any = next(e for e in events if e.type == "response.output_text.done")
    # The logprobs the deltas brought are one held span (_responses/logprobs.py), offered to
    # each large event after the .done one: one list in every event and in the response.
    logprobs = text_done.logprobs
    item = item_done._data["item"]  # pyright: ignore[reportPrivateUsage]
    assert item["content"][0] == part_done._data["part"]  # pyright: ignore[reportPrivateUsage]
    assert item["content"][0]["logprobs"] is logprobs
    assert part_done._data["part"]["logprobs"] is logprobs  # pyright: ignore[reportPrivateUsage]
    terminal: Any = stream.terminal_event
    assert terminal is not None
    assert terminal._data["response"]["output"][0] == item  # pyright: ignore[reportPrivateUsage]
    output = terminal._data["response"]["output"]  # pyright: ignore[reportPrivateUsage]
    assert output[0]["content"][0]["logprobs"] is logprobs
    assert stream._spans == []  # pyright: ignore[reportPrivateUsage]  # dropped at the end
