"""Structured outputs and tool arguments through ChatCompletionsStream: parsed values, final and
partial (the Chat half of what test_structured.py checks for the Responses API)."""

from __future__ import annotations

import copy
import itertools
import json
from typing import Any, Literal

import attrs
import pytest
from _corpus import byte_chunks, load, random_chunks
from hypothesis import given, settings
from hypothesis import strategies as st
from test_chat_tolerance import body, choice, chunk, tool
from test_structured import grows_top, json_values

from sansio_responses._chat.models import ChatCompletionChunk
from sansio_responses._chat.stream import ChatCompletionsStream
from sansio_responses._errors import LocalProtocolError, TruncatedStream
from sansio_responses._json.parsing import FunctionTool, OutputParseError

PREFIX = "chat-openai-python-test_"
MODEL = PREFIX + "parse_pydantic_model"
MULTIPLE = PREFIX + "parse_pydantic_model_multiple_choices"
PYDANTIC_TOOL = PREFIX + "parse_pydantic_tool"
STRICT_TOOLS = PREFIX + "parse_strict_tools"
MAX_TOKENS = PREFIX + "parse_max_tokens_reached"
NON_STRICT = PREFIX + "allows_non_strict_tools_but_no_parsing"
REFUSAL = "chat-openai-node-emits-refusal-logprobs-events"


# The types of the openai-python tests that recorded these streams (pydantic there, attrs here).
@attrs.frozen
class Location:
    city: str
    temperature: float
    units: Literal["c", "f"]


@attrs.frozen
class GetWeatherArgs:
    city: str
    country: str
    units: Literal["c", "f"] = "c"


LOCATION_SCHEMA = {
    "type": "json_schema",
    "json_schema": {
        "name": "Location",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "temperature": {"type": "number"},
                "units": {"type": "string", "enum": ["c", "f"]},
            },
            "required": ["city", "temperature", "units"],
            "additionalProperties": False,
        },
    },
}


def weather_tool(strict: bool) -> dict[str, Any]:
    """The ``get_weather`` tool of the strict / non-strict tests, in the Chat shape."""
    properties = {"city": {"type": "string"}, "state": {"type": "string"}}
    return {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": properties if strict else {"city": {"type": "string"}},
                "required": list(properties) if strict else ["city"],
                "additionalProperties": False,
            },
            "strict": strict,
        },
    }


def copied(value: Any) -> Any:
    return copy.deepcopy(value)  # the partial value is the parser's live tree


def feed_all(stream: ChatCompletionsStream, chunks: Any) -> list[Any]:
    events = []
    for piece in chunks:
        events += stream.feed(piece)
    events += stream.close()
    return events


def chunks_of(events: list[Any]) -> list[ChatCompletionChunk]:
    return [e for e in events if isinstance(e, ChatCompletionChunk)]


# -- corpus: response_format -----------------------------------------------------------------------


def test_json_schema_content_partial_then_final_typed() -> None:
    data, facts = load(MODEL)
    stream = ChatCompletionsStream(response_format=Location)
    partials: list[Any] = []
    for piece in byte_chunks(data):
        for event in stream.feed(piece):
            assert isinstance(event, ChatCompletionChunk)
            partials.append(copied(event.content_parsed()))  # read as it arrives
            snapshot = stream.snapshot()
            assert snapshot is not None
            value = stream.parsed()
            if snapshot.choices and snapshot.choices[0].finish_reason == "stop":
                assert isinstance(value, Location)
            else:  # still streaming: the partial value (a dict), never a typed final one
                assert value is None or isinstance(value, dict)
    stream.close()
    assert all(grows_top(a, b) for a, b in itertools.pairwise(partials))
    assert partials[-1] == json.loads(facts["final_output_text"])
    assert any(p not in (None, {}) and p != partials[-1] for p in partials)  # values grew
    assert stream.parsed() == Location("San Francisco", 61, "f")
    assert stream.parsed() is stream.parsed()  # the final value is parsed once


def test_api_response_format_dict_gives_plain_json() -> None:
    data, facts = load(MODEL)
    stream = ChatCompletionsStream(response_format=LOCATION_SCHEMA)
    events = feed_all(stream, random_chunks(data, seed=5))
    assert stream.parsed() == json.loads(facts["final_output_text"])
    # read late, after the whole body was fed: each chunk still gives the value as of itself
    values = [copied(c.content_parsed()) for c in chunks_of(events)]
    assert values[0] is None  # the first chunk's content is ""
    assert values[1] == {}  # '{"': the object is open, the key not yet complete
    assert all(grows_top(a, b) for a, b in itertools.pairwise(values))


def test_multiple_choices_each_parsed() -> None:
    data, _ = load(MULTIPLE)
    stream = ChatCompletionsStream(response_format=Location)
    events = chunks_of(feed_all(stream, random_chunks(data, seed=1)))
    for index, temperature in ((0, 65), (1, 61), (2, 59)):
        values = [copied(c.content_parsed(index)) for c in events]
        assert all(grows_top(a, b) for a, b in itertools.pairwise(values))
        assert values[-1] == {"city": "San Francisco", "temperature": temperature, "units": "f"}
        assert stream.parsed(index) == Location("San Francisco", temperature, "f")
    assert stream.parsed(3) is None


def test_reading_chunks_backwards_gives_each_prefix() -> None:
    data, _ = load(MULTIPLE)
    forward_stream = ChatCompletionsStream(response_format=dict)
    forward = [copied(c.content_parsed(1)) for c in chunks_of(feed_all(forward_stream, [data]))]
    backward_stream = ChatCompletionsStream(response_format=dict)
    events = chunks_of(feed_all(backward_stream, [data]))
    backward = [copied(c.content_parsed(1)) for c in reversed(events)]
    assert backward[::-1] == forward


def test_max_tokens_reached_is_partial_and_never_raises() -> None:
    data, facts = load(MAX_TOKENS)
    stream = ChatCompletionsStream(response_format=Location)
    feed_all(stream, [data])
    snapshot = stream.snapshot()
    assert snapshot is not None
    assert snapshot.choices[0].finish_reason == "length"
    assert snapshot.choices[0].message.content == facts["final_output_text"] == '{"'
    assert stream.outcome == "completed"
    assert stream.parsed() == {}  # the partial value: an object was opened, no key finished


def test_refusal_gives_no_parsed_value() -> None:
    data, _ = load(REFUSAL)
    stream = ChatCompletionsStream(response_format=Location)
    events = chunks_of(feed_all(stream, [data]))
    assert stream.parsed() is None
    assert all(c.content_parsed() is None for c in events)


@settings(max_examples=200, deadline=None)
@given(
    value=json_values,
    refusals=st.lists(st.text(max_size=3), max_size=4),
    positions=st.lists(st.integers(0, 3), max_size=4),
)
def test_only_a_non_empty_refusal_withholds_the_parsed_value(
    value: Any, refusals: list[str], positions: list[int]
) -> None:
    # Issue 22, item 9: both official SDKs test the refusal's truthiness (``message.content and
    # not message.refusal``), so a refusal that stays "" (however many chunks carry it, wherever
    # they come) still parses the content; one that has any text gives None.
    text = json.dumps(value)
    pieces = [text[: len(text) // 2], text[len(text) // 2 :]]
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": ""}] + [
        {"content": piece} for piece in pieces
    ]
    for refusal, at in zip(refusals, positions, strict=False):
        deltas[min(at, len(deltas) - 1)]["refusal"] = refusal
    stream = ChatCompletionsStream(response_format={"type": "json_object"})
    feed_all(stream, [body(*(chunk(choice(**d)) for d in deltas), chunk(choice(finish="stop")))])
    refused = "".join(d.get("refusal", "") for d in deltas)
    assert stream.parsed() == (None if refused else value)


def test_without_response_format_content_is_not_tracked() -> None:
    data, _ = load(MODEL)
    stream = ChatCompletionsStream()
    events = chunks_of(feed_all(stream, [data]))
    assert stream.parsed() is None
    assert all(c.content_parsed() is None for c in events)
    text_format = ChatCompletionsStream(response_format={"type": "text"})
    feed_all(text_format, [data])
    assert text_format.parsed() is None


def test_tracking_does_not_change_the_snapshot() -> None:
    data, _ = load(MULTIPLE)
    plain, structured = ChatCompletionsStream(), ChatCompletionsStream(response_format=Location)
    feed_all(plain, random_chunks(data, seed=2))
    feed_all(structured, random_chunks(data, seed=3))
    assert plain.snapshot() == structured.snapshot()


# -- corpus: tools ---------------------------------------------------------------------------------


def test_function_tool_arguments_partial_then_converted() -> None:
    data, facts = load(PYDANTIC_TOOL)
    [call] = facts["final_function_calls"]
    stream = ChatCompletionsStream(tools=[FunctionTool(name=call["name"], model=GetWeatherArgs)])
    partials = []
    for piece in random_chunks(data, seed=7, max_size=16):
        for event in stream.feed(piece):
            if isinstance(event, ChatCompletionChunk):
                partials.append(copied(event.tool_arguments_parsed(0, 0)))
                if stream.snapshot().choices[0].finish_reason is None:  # type: ignore[union-attr]
                    assert not isinstance(stream.parsed_tool_arguments()[0], GetWeatherArgs)
    stream.close()
    assert all(grows_top(a, b) for a, b in itertools.pairwise(partials))
    assert partials[-1] == json.loads(call["arguments"])
    assert stream.parsed_tool_arguments() == [GetWeatherArgs("Edinburgh", "UK", "c")]


def test_function_tool_in_chat_param_shape_is_strict_plain_json() -> None:
    data, facts = load(PYDANTIC_TOOL)
    [call] = facts["final_function_calls"]
    chat_param = FunctionTool(name=call["name"], model=GetWeatherArgs).to_chat_param()
    stream = ChatCompletionsStream(tools=[chat_param])
    feed_all(stream, [data])
    assert stream.parsed_tool_arguments() == [json.loads(call["arguments"])]


def test_strict_tools_dict() -> None:
    data, facts = load(STRICT_TOOLS)
    stream = ChatCompletionsStream(tools=[weather_tool(strict=True)])
    events = chunks_of(feed_all(stream, random_chunks(data, seed=11)))
    assert [c["name"] for c in facts["final_function_calls"]] == ["get_weather"]
    assert stream.parsed_tool_arguments() == [{"city": "San Francisco", "state": "CA"}]
    values = [copied(c.tool_arguments_parsed()) for c in events]
    assert values[0] is None  # the first chunk names the tool, its arguments are ""
    assert all(grows_top(a, b) for a, b in itertools.pairwise(values))
    assert values[-1] == {"city": "San Francisco", "state": "CA"}
    assert events[-1].tool_arguments_parsed(0, 1) is None  # no second tool call
    assert events[-1].tool_arguments_parsed(1, 0) is None  # no second choice


def test_non_strict_tool_arguments_are_plain_json() -> None:
    data, facts = load(NON_STRICT)
    expected = json.loads(facts["final_function_calls"][0]["arguments"])
    for tools in ([weather_tool(strict=False)], None):
        stream = ChatCompletionsStream(tools=tools)
        feed_all(stream, [data])
        assert stream.parsed_tool_arguments() == [expected] == [{"city": "New York City"}]
        assert stream.parsed_tool_arguments(1) == []


# -- synthetic: truncation, errors -----------------------------------------------------------------


def test_invalid_json_after_stop_is_a_typed_error_on_read() -> None:
    doc = '{"city": "Paris",,}'
    stream = ChatCompletionsStream(response_format=Location)
    events = feed_all(
        stream,
        [
            body(
                chunk(choice(content=doc[:9])),
                chunk(choice(content=doc[9:])),
                chunk(choice(finish="stop")),
            )
        ],
    )
    assert stream.outcome == "completed"  # nothing raised from feed/close
    assert chunks_of(events)[-1].content_parsed() == {"city": "Paris"}  # the last good partial
    with pytest.raises(OutputParseError) as info:
        stream.parsed()
    assert info.value.raw_text == doc


def test_value_not_fitting_the_format_is_a_typed_error() -> None:
    doc = '{"city": "Paris", "temperature": "warm", "units": "c"}'
    stream = ChatCompletionsStream(response_format=Location)
    feed_all(stream, [body(chunk(choice(finish="stop", content=doc)))])
    with pytest.raises(OutputParseError) as info:
        stream.parsed()
    assert info.value.raw_text == doc
    assert info.value.path == "$.temperature"


def test_truncated_stream_gives_the_partial_value() -> None:
    stream = ChatCompletionsStream(response_format=Location)
    stream.feed(
        body(chunk(choice(content='{"city": "Pa')), chunk(choice(content="ris")), done=False)
    )
    with pytest.raises(TruncatedStream):
        stream.close()
    assert stream.outcome == "truncated"
    assert stream.parsed() == {"city": "Paris"}


def test_error_mid_stream_gives_the_partial_value() -> None:
    stream = ChatCompletionsStream(response_format=Location)
    data = body(
        chunk(choice(content='{"city": "Rome", "temperature": 2')), {"error": {"message": "x"}}
    )
    feed_all(stream, [data])
    assert stream.outcome == "error"
    assert stream.parsed() == {"city": "Rome"}  # 2 may still become 21: not shown yet


def test_content_filter_is_partial() -> None:
    stream = ChatCompletionsStream(response_format=dict)
    feed_all(stream, [body(chunk(choice(finish="content_filter", content='["a", "b"')))])
    assert stream.parsed() == ["a", "b"]


def test_tool_arguments_cut_by_length_are_partial() -> None:
    stream = ChatCompletionsStream(tools=[weather_tool(strict=True)])
    data = body(
        chunk(choice(tool_calls=[tool(0, "call_1", "get_weather", '{"city": "Os')])),
        chunk(choice(tool_calls=[tool(1, "call_2", "get_weather", '{"city": "Lima"}')])),
        chunk(choice(tool_calls=[tool(0, args='lo", "st')])),
        chunk(choice(finish="length")),
    )
    events = chunks_of(feed_all(stream, [data]))
    assert stream.parsed_tool_arguments() == [
        {"city": "Oslo"},
        {"city": "Lima"},
    ]  # "st": an unfinished key
    assert events[0].tool_arguments_parsed(0, 0) == {"city": "Os"}
    assert events[0].tool_arguments_parsed(0, 1) is None  # not started at that chunk
    assert events[1].tool_arguments_parsed(0, 1) == {"city": "Lima"}


def test_invalid_tool_arguments_after_tool_calls_raise_on_read() -> None:
    stream = ChatCompletionsStream()
    data = body(
        chunk(choice(finish="tool_calls", tool_calls=[tool(0, "call_1", "f", '{"a": tru}')]))
    )
    feed_all(stream, [data])
    with pytest.raises(OutputParseError) as info:
        stream.parsed_tool_arguments()
    assert info.value.raw_text == '{"a": tru}'


def test_response_format_dict_of_unknown_type_is_rejected() -> None:
    with pytest.raises(ValueError, match="json_schema"):
        ChatCompletionsStream(response_format={"type": "xml"})


def test_parsed_accessors_need_a_stream() -> None:
    lone = ChatCompletionChunk.from_dict(chunk(choice(content="{}")))
    with pytest.raises(LocalProtocolError, match="content_parsed"):
        lone.content_parsed()
    with pytest.raises(LocalProtocolError, match="tool_arguments_parsed"):
        lone.tool_arguments_parsed()


def test_reading_every_chunk_parses_each_piece_once() -> None:
    doc = json.dumps({"k": ["x" * 5] * 200})
    deltas = [doc[i : i + 3] for i in range(0, len(doc), 3)]
    stream = ChatCompletionsStream(response_format=dict)
    data = body(*(chunk(choice(content=d)) for d in deltas), chunk(choice(finish="stop")))
    for block in data.split(b"\n\n"):  # one event per feed: read each value as it arrives
        for event in stream.feed(block + b"\n\n"):
            if isinstance(event, ChatCompletionChunk):
                event.content_parsed()
                text = stream._choices[0].content
                # the one parser has consumed exactly the text so far: nothing was re-fed
                assert text is not None and text.json is not None
                assert text.json._fed == text.length and not text.json._pending
    assert stream.parsed() == json.loads(doc)


# -- property: any document, any split -------------------------------------------------------------


def split(doc: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(doc) + 1) for c in cuts} | {0, len(doc)})
    return [doc[a:b] for a, b in itertools.pairwise(points) if b > a]


@settings(max_examples=150, deadline=None)
@given(
    content_value=json_values,
    args_value=json_values,
    content_cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
    args_cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
)
def test_any_document_any_split_partials_grow_final_equals_json_loads(
    content_value: Any, args_value: Any, content_cuts: list[int], args_cuts: list[int]
) -> None:
    content_doc, args_doc = json.dumps(content_value), json.dumps(args_value)
    content_deltas, args_deltas = split(content_doc, content_cuts), split(args_doc, args_cuts)
    objs = [chunk(choice(role="assistant", tool_calls=[tool(0, "call_1", "f", "")]))]
    for c, a in itertools.zip_longest(content_deltas, args_deltas):
        delta: dict[str, Any] = {}
        if c is not None:
            delta["content"] = c
        if a is not None:
            delta["tool_calls"] = [tool(0, args=a)]
        objs.append(chunk(choice(**delta)))
    objs.append(chunk(choice(finish="stop")))
    stream = ChatCompletionsStream(response_format={"type": "json_object"})
    contents, arguments = [], []
    for event in stream.feed(body(*objs)):
        assert isinstance(event, ChatCompletionChunk)
        contents.append(copied(event.content_parsed()))
        arguments.append(copied(event.tool_arguments_parsed()))
    stream.close()
    for seen, value in ((contents, content_value), (arguments, args_value)):
        assert all(grows_top(a, b) for a, b in itertools.pairwise(seen))
        if isinstance(value, (dict, list, str)):
            assert grows_top(seen[-1], value)
    assert stream.parsed() == json.loads(content_doc)
    assert stream.parsed_tool_arguments() == [json.loads(args_doc)]
