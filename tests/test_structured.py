"""Structured outputs and tool arguments through ResponsesStream: parsed values, final and partial."""

from __future__ import annotations

import itertools
import json
from typing import Any

import attrs
import pytest
from _corpus import byte_chunks, load
from hypothesis import given, settings
from hypothesis import strategies as st
from test_stream_behaviour import MSG, PART, body, ev, response, text_events

import sansio_responses as sr
from sansio_responses._json.parsing import FunctionTool, OutputParseError

JSON_OBJECT = "responses-mirascope-test_structured_output__json__openai_gpt_4o_responses"
TOOL = "responses-mirascope-test_structured_output__tool__openai_gpt_4o_responses"
REFUSAL = "responses-mirascope-test_refusal__openai_gpt_4o_responses"


@attrs.frozen
class Author:
    first_name: str
    last_name: str


@attrs.frozen
class Book:
    title: str
    author: Author
    rating: int


def grows_top(earlier: Any, later: Any) -> bool:
    """Top level: ``None`` means nothing parsed yet, which anything extends."""
    return earlier is None or grows(earlier, later)


def grows(earlier: Any, later: Any) -> bool:
    """*later* extends *earlier*: the same keys/items, each extended; strings by prefix."""
    if isinstance(earlier, dict):
        return isinstance(later, dict) and all(
            k in later and grows(v, later[k]) for k, v in earlier.items()
        )
    if isinstance(earlier, list):
        return (
            isinstance(later, list)
            and len(later) >= len(earlier)
            and all(grows(a, b) for a, b in zip(earlier, later, strict=False))
        )
    if isinstance(earlier, str):
        return isinstance(later, str) and later.startswith(earlier)
    return earlier == later


def test_json_object_recording_partial_then_final_typed() -> None:
    data, facts = load(JSON_OBJECT)
    stream = sr.ResponsesStream(text_format=Book)
    partials: list[Any] = []
    done = None
    for chunk in byte_chunks(data):
        for event in stream.feed(chunk):
            if event.type == "response.output_text.delta":
                partials.append(json.loads(json.dumps(event.parsed)))  # copy: the tree is live
            elif event.type == "response.output_text.done":
                done = event
    stream.close()
    assert partials and all(grows_top(a, b) for a, b in itertools.pairwise(partials))
    expected = json.loads(facts["final_output_text"])
    assert partials[-1] == expected
    assert done is not None and done.parsed == Book(
        title="THE NAME OF THE WIND", author=Author("Patrick", "Rothfuss"), rating=7
    )
    assert stream.output_parsed == done.parsed


def test_json_format_detected_from_the_response_without_text_format() -> None:
    data, facts = load(JSON_OBJECT)
    stream = sr.ResponsesStream()
    events = stream.feed(data)
    stream.close()
    done = next(e for e in events if e.type == "response.output_text.done")
    assert done.parsed == json.loads(facts["final_output_text"])
    assert stream.output_parsed == done.parsed


def test_tool_arguments_partial_and_strict_tool_converted() -> None:
    data, facts = load(TOOL)
    [call] = facts["final_function_calls"]
    tool = FunctionTool(name=call["name"], model=Book)
    stream = sr.ResponsesStream(tools=[tool])
    events = stream.feed(data)
    stream.close()
    deltas = [e for e in events if e.type == "response.function_call_arguments.delta"]
    values = [json.loads(json.dumps(d.parsed)) for d in deltas]  # read late: re-parsed prefixes
    assert all(grows_top(a, b) for a, b in itertools.pairwise(values))
    assert values[-1] == json.loads(call["arguments"])
    done = next(e for e in events if e.type == "response.function_call_arguments.done")
    assert done.parsed == Book(
        title="THE NAME OF THE WIND", author=Author("Patrick", "Rothfuss"), rating=7
    )


def test_arguments_of_unknown_tools_are_plain_json() -> None:
    data, facts = load(TOOL)
    events = sr.ResponsesStream().feed(data)
    done = next(e for e in events if e.type == "response.function_call_arguments.done")
    assert done.parsed == json.loads(facts["final_function_calls"][0]["arguments"])


def test_refusal_gives_no_parsed_output() -> None:
    data, _ = load(REFUSAL)
    stream = sr.ResponsesStream(text_format=dict)
    stream.feed(data)
    stream.close()
    assert stream.output_parsed is None


def structured_stream(doc: str, pieces: list[str], terminal: str | None) -> bytes:
    evs = text_events(pieces, terminal=terminal)
    evs[0]["response"]["text"] = {"format": {"type": "json_object"}}
    return body(evs)


def test_incomplete_output_is_partial_never_parsed_as_complete() -> None:
    doc = '{"title": "Dune", "rating": 9'
    stream = sr.ResponsesStream(text_format=dict)
    data = structured_stream(doc, [doc[:10], doc[10:]], "response.incomplete")
    # the done text of an incomplete response is cut off too: reading the final parse would fail,
    # but nothing raises from feed/close and the partial value is there
    stream.feed(data)
    stream.close()
    assert stream.outcome == "incomplete"
    assert stream.output_parsed == {"title": "Dune"}


def test_truncated_output_is_partial() -> None:
    doc = '{"items": [1, 2, 3], "na'
    stream = sr.ResponsesStream(text_format=dict)
    evs = text_events([doc[:7], doc[7:15], doc[15:]], terminal=None)[:6]
    evs[0]["response"]["text"] = {"format": {"type": "json_object"}}
    stream.feed(body(evs))
    with pytest.raises(sr.TruncatedStream):
        stream.close()
    assert stream.output_parsed == {"items": [1, 2, 3]}


def test_invalid_json_in_completed_output_is_a_typed_error_with_raw_text() -> None:
    doc = '{"a": 1,,}'
    stream = sr.ResponsesStream(text_format=dict)
    events = stream.feed(structured_stream(doc, [doc[:4], doc[4:]], "response.completed"))
    stream.close()
    done = next(e for e in events if e.type == "response.output_text.done")
    with pytest.raises(OutputParseError) as info:
        _ = done.parsed
    assert info.value.raw_text == doc
    with pytest.raises(OutputParseError):
        _ = stream.output_parsed


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(value=json_values, cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_any_document_any_split_partials_grow_final_equals_json_loads(
    value: Any, cuts: list[int]
) -> None:
    doc = json.dumps(value)
    points = sorted({c % (len(doc) + 1) for c in cuts} | {0, len(doc)})
    deltas = [doc[a:b] for a, b in itertools.pairwise(points) if b > a]
    call = {
        "id": "fc_1",
        "type": "function_call",
        "call_id": "c",
        "name": "f",
        "arguments": "",
        "status": "in_progress",
    }
    evs = [
        ev("response.created", 0, response=response()),
        ev("response.output_item.added", 1, output_index=0, item=call),
    ]
    evs += [
        ev("response.function_call_arguments.delta", i + 2, item_id="fc_1", output_index=0, delta=d)
        for i, d in enumerate(deltas)
    ]
    evs.append(
        ev(
            "response.function_call_arguments.done",
            len(evs),
            item_id="fc_1",
            output_index=0,
            arguments=doc,
        )
    )
    stream = sr.ResponsesStream()
    seen: list[Any] = []
    for event in stream.feed(body(evs)):
        if event.type == "response.function_call_arguments.delta":
            seen.append(json.loads(json.dumps(event.parsed)))
        elif event.type == "response.function_call_arguments.done":
            assert event.parsed == json.loads(doc)
    assert all(grows_top(a, b) for a, b in itertools.pairwise(seen))
    if seen and (isinstance(value, (dict, list, str))):
        assert grows_top(seen[-1], value)


def test_partial_parse_is_incremental_not_reparsed() -> None:
    # Reading every delta's value consumes each delta once: the parser's fed count never goes back.
    doc = json.dumps({"k": ["x" * 5] * 200})
    deltas = [doc[i : i + 3] for i in range(0, len(doc), 3)]
    stream = sr.ResponsesStream(text_format=dict)
    lazy = None
    data = structured_stream(doc, deltas, "response.completed")
    for block in data.split(b"\n\n"):  # one event per feed: read each value as it arrives
        for event in stream.feed(block + b"\n\n"):
            if event.type == "response.output_text.delta":
                _ = event.parsed
                lazy = stream._acc.last_text_json()
                assert lazy is not None and not lazy._pending  # all consumed, nothing re-fed
                assert lazy._fed == lazy._pushed
    assert lazy is not None and lazy._pushed == len(doc)  # positions in characters: the done text
    assert stream.output_parsed == json.loads(doc)


def test_message_item_unchanged_by_structured_tracking() -> None:
    plain = sr.ResponsesStream()
    structured = sr.ResponsesStream(text_format=dict)
    data = body(text_events(['{"a"', ": 1}"]))
    plain.feed(data)
    structured.feed(data)
    assert plain.snapshot().to_dict() == structured.snapshot().to_dict()  # type: ignore[union-attr]
    assert MSG["type"] == "message" and PART["type"] == "output_text"
