"""The accumulator finds the long strings of the trees that never change once (issue 21).

``OutputItems.long_strings`` gives the large-event decoding the strings the response holds, which
a ``.done`` or terminal event repeats. An item adopted from an event and the response object never
change (a later change replaces them by a copy, or a new object), so their strings are kept from
one call to the next and their nodes are not visited again. Checked here on any event sequence
(the grammar of ``test_accumulate_fuzz``, mutated, with events repeated after the ``.done`` ones):
after every event, what the kept strings give is exactly what a walk of the whole state gives,
whatever budget the calls before had.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_adopted_items import later_events

import sansio_responses as sr

WHOLE = 10**9


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    events=later_events(),
    min_length=st.integers(1, 8),
    budgets=st.lists(st.integers(1, 40), min_size=1, max_size=8),
)
def test_the_kept_strings_are_those_of_a_whole_walk(
    events: list[dict[str, Any]], min_length: int, budgets: list[int]
) -> None:
    stream = sr.ResponsesStream()
    for n, event in enumerate(events):
        try:
            stream.feed(b"data: " + json.dumps(event).encode() + b"\n\n")
        except sr.ProtocolError:
            break
        acc = stream._acc  # pyright: ignore[reportPrivateUsage]
        acc.long_strings(min_length, budgets[n % len(budgets)])  # a walk cut short, maybe
        kept = acc.long_strings(min_length, WHOLE)
        acc._long = {}  # pyright: ignore[reportPrivateUsage]
        whole = acc.long_strings(min_length, WHOLE)
        assert [id(value) for value in kept] == [id(value) for value in whole], event["type"]
        assert all(len(value) >= min_length for value in whole)


def test_only_the_trees_still_held_are_kept() -> None:
    text = "a long enough text"
    item = {"id": "fc_1", "type": "function_call", "arguments": text, "call_id": "c", "name": "f"}
    events = [
        {"type": "response.created", "response": {"id": "r", "instructions": text * 2}},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
    ]
    stream = sr.ResponsesStream()
    for event in events:
        stream.feed(b"data: " + json.dumps(event).encode() + b"\n\n")
    acc = stream._acc  # pyright: ignore[reportPrivateUsage]
    assert sorted(acc.long_strings(15, WHOLE)) == [text, text * 2]
    assert len(acc._long) == 2  # pyright: ignore[reportPrivateUsage]
    # A new response object replaces the old one, whose strings are no longer kept.
    stream.feed(
        b"data: "
        + json.dumps({"type": "response.in_progress", "response": {"id": "r"}}).encode()
        + b"\n\n"
    )
    assert acc.long_strings(15, WHOLE) == [text]
    assert [tree for tree, _ in acc._long.values()] == [acc.response, acc.items.slots[0]]  # pyright: ignore[reportPrivateUsage]


def test_what_was_kept_for_the_next_large_event_is_dropped_at_the_end() -> None:
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    from bench import generate as gen

    data = gen.generate("function_call", 20_000).data  # three events over 64 KiB
    stream = sr.ResponsesStream(json_loads=json.loads)
    kept: list[int] = []
    for i in range(0, len(data), 4096):
        stream.feed(data[i : i + 4096])
        kept.append(len(stream._profiles))  # pyright: ignore[reportPrivateUsage]
    assert max(kept) == 1 and stream.outcome == "completed"
    assert stream._profiles == {} and stream._spans == []  # pyright: ignore[reportPrivateUsage]
    assert stream._acc._long == {}  # pyright: ignore[reportPrivateUsage]
