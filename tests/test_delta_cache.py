"""The accumulator's shortcut for repeated deltas (``Accumulator._extended``) changes nothing.

A delta with the same type and locator as the previous event is appended to the Text builder
the previous one found, without locating it again. Here every sequence of events (deltas of
every extending type with arbitrary locators, items of every kind, missing items, values of
the wrong type) gives the same tree, the same diagnostics and the same returned builders
contents with the shortcut and with it switched off (the general path alone).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sansio_responses._responses import accumulate
from sansio_responses._responses.accumulate import Accumulator, Text, materialize

DELTAS = sorted(accumulate._EXTENDERS)  # pyright: ignore[reportPrivateUsage]
KINDS = ["function_call", "reasoning", "message", "mcp_call", "custom_tool_call"]
locator = st.none() | st.integers(0, 2) | st.sampled_from([True, 1.0, -1, "0"])
item_ids = st.none() | st.sampled_from(["a", "b", 7])


@st.composite
def events(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    choice = draw(st.integers(0, 9))
    if choice == 0:
        index = draw(st.integers(0, 2))
        kind = draw(st.sampled_from(KINDS))
        item = {"id": draw(st.sampled_from(["a", "b", "c"])), "type": kind}
        kind_added = draw(st.sampled_from(["added", "done"]))
        return f"response.output_item.{kind_added}", {"output_index": index, "item": item}
    if choice == 1:
        return "response.output_text.delta", {
            "output_index": draw(st.integers(0, 2)),
            "content_index": 0,
            "delta": "t",
        }
    event: dict[str, Any] = {"delta": draw(st.sampled_from(["x", "yz", "", 5]))}
    for key, strategy in (
        ("item_id", item_ids),
        ("output_index", locator),
        ("content_index", locator),
        ("summary_index", locator),
    ):
        if draw(st.booleans()):
            event[key] = draw(strategy)
    return draw(st.sampled_from(DELTAS)), event


def _replay(
    sequence: list[tuple[str, dict[str, Any]]], strict: bool
) -> tuple[list[Any], list[str], Any]:
    notes: list[str] = []

    def note(code: str, message: str) -> None:
        if strict:
            raise RuntimeError(code)
        notes.append(f"{code}: {message}")

    acc = Accumulator(note)
    returned: list[Any] = []
    for event_type, event in sequence:
        try:
            result = acc.apply(event_type, {"type": event_type, **event})
        except RuntimeError as exc:
            returned.append(("raised", str(exc)))
            continue
        returned.append(result.value() if isinstance(result, Text) else result)
    return returned, notes, (materialize(acc.items.values()), acc.version)


@settings(max_examples=400, deadline=None)
@given(sequence=st.lists(events(), max_size=25), strict=st.booleans())
# Found by hypothesis in a CI run: True == 1, so output_index true matched the remembered 1.
@example(
    sequence=[
        ("response.output_text.delta", {"output_index": 0, "content_index": 0, "delta": "t"}),
        ("response.code_interpreter_call_code.delta", {"delta": "x"}),
        ("response.code_interpreter_call_code.delta", {"delta": "x", "output_index": 1}),
        ("response.code_interpreter_call_code.delta", {"delta": "x", "output_index": True}),
    ],
    strict=False,
)
def test_the_shortcut_gives_what_the_general_path_gives(
    sequence: list[tuple[str, dict[str, Any]]], strict: bool
) -> None:
    fast = _replay(sequence, strict)
    saved = accumulate._EXTENDERS  # pyright: ignore[reportPrivateUsage]
    accumulate._EXTENDERS = frozenset()  # pyright: ignore[reportPrivateUsage]
    try:
        general = _replay(sequence, strict)
    finally:
        accumulate._EXTENDERS = saved  # pyright: ignore[reportPrivateUsage]
    assert fast == general


@pytest.mark.parametrize("event_type", DELTAS)
def test_the_shortcut_is_taken_for_a_run_of_deltas(event_type: str) -> None:
    """Not vacuous: a run of deltas to one target does reuse the builder."""
    acc = Accumulator(lambda code, message: None)
    kind = {
        "response.function_call_arguments.delta": "function_call",
        "response.mcp_call_arguments.delta": "mcp_call",
        "response.custom_tool_call_input.delta": "custom_tool_call",
        "response.code_interpreter_call_code.delta": "code_interpreter_call",
        "response.refusal.delta": "message",
    }.get(event_type, "reasoning")
    acc.apply("response.output_item.added", {"output_index": 0, "item": {"id": "a", "type": kind}})
    locator = {"item_id": "a", "output_index": 0, "content_index": 0, "summary_index": 0}
    first = acc.apply(event_type, {"type": event_type, "delta": "ab", **locator})
    assert acc.delta_key is not None
    second = acc.apply(event_type, {"type": event_type, "delta": "cd", **locator})
    assert first is second and second is not None and second.value() == "abcd"
