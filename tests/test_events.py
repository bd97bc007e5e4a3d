"""Tests of the typed Responses stream events (sansio_responses._responses.events)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansio_responses._errors import SchemaError
from sansio_responses._responses.events import (
    EVENT_TYPES,
    ResponseCompletedEvent,
    ResponseErrorEvent,
    ResponseFunctionCallArgumentsDeltaEvent,
    ResponseFunctionCallArgumentsDoneEvent,
    ResponseOutputItemAddedEvent,
    ResponseTextDeltaEvent,
    ResponseTextDoneEvent,
    ResponseWebSearchCallSearchingEvent,
    UnknownEvent,
    _set_lazy,
    parse_event,
)
from sansio_responses._responses.models import (
    Response,
    ResponseFunctionToolCall,
    ResponseOutputText,
    UnknownOutputItem,
    URLCitation,
    copy_json,
)

REAL = Path(__file__).parent / "data" / "real"
RESPONSES_STREAMS = sorted(REAL.glob("responses-*.sse"))


def sse_data(path: Path) -> Iterator[dict[str, Any]]:
    """Tiny test-only SSE reader: split on blank lines, join ``data:`` lines, skip ``[DONE]``.

    The corpus uses LF line endings only (tests/data/real/README.md), which is all this handles.
    """
    for block in path.read_text("utf-8").split("\n\n"):
        lines = [line[5:] for line in block.split("\n") if line.startswith("data:")]
        if not lines:
            continue
        data = "\n".join(line[1:] if line.startswith(" ") else line for line in lines)
        if data == "[DONE]":
            continue
        yield json.loads(data)


# The SDK's ResponseStreamEvent union as listed in official-sdk.md section 1 (58 types of the source
# snapshot + response.compaction.compacting of the newest release), with each type's wire fields.
# Field kinds: a trailing "?" marks a field that may be absent (optional in the SDK, or an index/id
# field that compatible servers omit); the others are required.
SDK_EVENTS: dict[str, tuple[str, dict[str, str]]] = {
    "error": ("ResponseErrorEvent", {}),  # tested separately: two wire shapes
    "response.completed": ("ResponseCompletedEvent", {"response": "response"}),
    "response.created": ("ResponseCreatedEvent", {"response": "response"}),
    "response.failed": ("ResponseFailedEvent", {"response": "response"}),
    "response.in_progress": ("ResponseInProgressEvent", {"response": "response"}),
    "response.incomplete": ("ResponseIncompleteEvent", {"response": "response"}),
    "response.queued": ("ResponseQueuedEvent", {"response": "response"}),
    "response.audio.delta": ("ResponseAudioDeltaEvent", {"delta": "str"}),
    "response.audio.done": ("ResponseAudioDoneEvent", {}),
    "response.audio.transcript.delta": ("ResponseAudioTranscriptDeltaEvent", {"delta": "str"}),
    "response.audio.transcript.done": ("ResponseAudioTranscriptDoneEvent", {}),
    "response.code_interpreter_call.completed": (
        "ResponseCodeInterpreterCallCompletedEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.code_interpreter_call.in_progress": (
        "ResponseCodeInterpreterCallInProgressEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.code_interpreter_call.interpreting": (
        "ResponseCodeInterpreterCallInterpretingEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.code_interpreter_call_code.delta": (
        "ResponseCodeInterpreterCallCodeDeltaEvent",
        {"delta": "str", "item_id": "str?", "output_index": "int?"},
    ),
    "response.code_interpreter_call_code.done": (
        "ResponseCodeInterpreterCallCodeDoneEvent",
        {"code": "str", "item_id": "str?", "output_index": "int?"},
    ),
    "response.content_part.added": (
        "ResponseContentPartAddedEvent",
        {"content_index": "int?", "item_id": "str?", "output_index": "int?", "part": "part"},
    ),
    "response.content_part.done": (
        "ResponseContentPartDoneEvent",
        {"content_index": "int?", "item_id": "str?", "output_index": "int?", "part": "part"},
    ),
    "response.custom_tool_call_input.delta": (
        "ResponseCustomToolCallInputDeltaEvent",
        {"delta": "str", "item_id": "str?", "output_index": "int?"},
    ),
    "response.custom_tool_call_input.done": (
        "ResponseCustomToolCallInputDoneEvent",
        {"input": "str", "item_id": "str?", "output_index": "int?"},
    ),
    "response.file_search_call.completed": (
        "ResponseFileSearchCallCompletedEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.file_search_call.in_progress": (
        "ResponseFileSearchCallInProgressEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.file_search_call.searching": (
        "ResponseFileSearchCallSearchingEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.function_call_arguments.delta": (
        "ResponseFunctionCallArgumentsDeltaEvent",
        {"delta": "str", "item_id": "str?", "output_index": "int?"},
    ),
    "response.function_call_arguments.done": (
        "ResponseFunctionCallArgumentsDoneEvent",
        # name: required in the source snapshot, dropped in the newest release -> optional.
        {"arguments": "str", "item_id": "str?", "name": "str?", "output_index": "int?"},
    ),
    "response.image_generation_call.completed": (
        "ResponseImageGenCallCompletedEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.image_generation_call.generating": (
        "ResponseImageGenCallGeneratingEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.image_generation_call.in_progress": (
        "ResponseImageGenCallInProgressEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.image_generation_call.partial_image": (
        "ResponseImageGenCallPartialImageEvent",
        {
            "item_id": "str?",
            "output_index": "int?",
            "partial_image_b64": "str",
            "partial_image_index": "int",
            "background": "str?",
            "output_format": "str?",
            "quality": "str?",
            "size": "str?",
        },
    ),
    "response.mcp_call.completed": (
        "ResponseMcpCallCompletedEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.mcp_call.failed": (
        "ResponseMcpCallFailedEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.mcp_call.in_progress": (
        "ResponseMcpCallInProgressEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.mcp_call_arguments.delta": (
        "ResponseMcpCallArgumentsDeltaEvent",
        {"delta": "str", "item_id": "str?", "output_index": "int?"},
    ),
    "response.mcp_call_arguments.done": (
        "ResponseMcpCallArgumentsDoneEvent",
        {"arguments": "str", "item_id": "str?", "output_index": "int?"},
    ),
    "response.mcp_list_tools.completed": (
        "ResponseMcpListToolsCompletedEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.mcp_list_tools.failed": (
        "ResponseMcpListToolsFailedEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.mcp_list_tools.in_progress": (
        "ResponseMcpListToolsInProgressEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.output_item.added": (
        "ResponseOutputItemAddedEvent",
        {"item": "item", "output_index": "int?"},
    ),
    "response.output_item.done": (
        "ResponseOutputItemDoneEvent",
        {"item": "item", "output_index": "int?"},
    ),
    "response.output_text.annotation.added": (
        "ResponseOutputTextAnnotationAddedEvent",
        {
            "annotation": "annotation?",
            "annotation_index": "int",
            "content_index": "int?",
            "item_id": "str?",
            "output_index": "int?",
        },
    ),
    "response.output_text.delta": (
        "ResponseTextDeltaEvent",
        {
            "content_index": "int?",
            "delta": "str",
            "item_id": "str?",
            "logprobs": "list?",
            "output_index": "int?",
        },
    ),
    "response.output_text.done": (
        "ResponseTextDoneEvent",
        {
            "content_index": "int?",
            "item_id": "str?",
            "logprobs": "list?",
            "output_index": "int?",
            "text": "str",
        },
    ),
    "response.reasoning_summary_part.added": (
        "ResponseReasoningSummaryPartAddedEvent",
        {"item_id": "str?", "output_index": "int?", "part": "part", "summary_index": "int?"},
    ),
    "response.reasoning_summary_part.done": (
        "ResponseReasoningSummaryPartDoneEvent",
        {
            "item_id": "str?",
            "output_index": "int?",
            "part": "part",
            "summary_index": "int?",
            "status": "str?",
        },
    ),
    "response.reasoning_summary_text.delta": (
        "ResponseReasoningSummaryTextDeltaEvent",
        {"delta": "str", "item_id": "str?", "output_index": "int?", "summary_index": "int?"},
    ),
    "response.reasoning_summary_text.done": (
        "ResponseReasoningSummaryTextDoneEvent",
        {"item_id": "str?", "output_index": "int?", "summary_index": "int?", "text": "str"},
    ),
    "response.reasoning_text.delta": (
        "ResponseReasoningTextDeltaEvent",
        {"content_index": "int?", "delta": "str", "item_id": "str?", "output_index": "int?"},
    ),
    "response.reasoning_text.done": (
        "ResponseReasoningTextDoneEvent",
        {"content_index": "int?", "item_id": "str?", "output_index": "int?", "text": "str"},
    ),
    "response.refusal.delta": (
        "ResponseRefusalDeltaEvent",
        {"content_index": "int?", "delta": "str", "item_id": "str?", "output_index": "int?"},
    ),
    "response.refusal.done": (
        "ResponseRefusalDoneEvent",
        {"content_index": "int?", "item_id": "str?", "output_index": "int?", "refusal": "str"},
    ),
    "response.shell_call_command.added": (
        "ResponseShellCallCommandAddedEvent",
        {"command": "str", "command_index": "int", "output_index": "int?"},
    ),
    "response.shell_call_command.delta": (
        "ResponseShellCallCommandDeltaEvent",
        {"command_index": "int", "delta": "str", "output_index": "int?", "obfuscation": "str?"},
    ),
    "response.shell_call_command.done": (
        "ResponseShellCallCommandDoneEvent",
        {"command": "str", "command_index": "int", "output_index": "int?"},
    ),
    "response.shell_call_output_content.delta": (
        "ResponseShellCallOutputContentDeltaEvent",
        {"command_index": "int", "delta": "dict", "item_id": "str?", "output_index": "int?"},
    ),
    "response.shell_call_output_content.done": (
        "ResponseShellCallOutputContentDoneEvent",
        {"command_index": "int", "item_id": "str?", "output": "list", "output_index": "int?"},
    ),
    "response.web_search_call.completed": (
        "ResponseWebSearchCallCompletedEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.web_search_call.in_progress": (
        "ResponseWebSearchCallInProgressEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.web_search_call.searching": (
        "ResponseWebSearchCallSearchingEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
    "response.compaction.compacting": (
        "ResponseCompactionCompactingEvent",
        {"item_id": "str?", "output_index": "int?"},
    ),
}

# A valid value and wrong-typed values for each field kind.
GOOD: dict[str, Any] = {
    "str": "x",
    "int": 3,
    "list": [],
    "dict": {"stdout": "a"},
    "response": {"id": "resp_1", "output": []},
    "item": {"type": "function_call", "id": "fc_1", "arguments": ""},
    "part": {"type": "output_text", "text": "", "annotations": []},
    "annotation": {"type": "url_citation", "url": "https://example.com"},
}
BAD: dict[str, list[Any]] = {
    "str": [5, True, ["x"], {"a": 1}],
    "int": ["3", 3.0, True, [3]],
    "list": [{}, "[]"],
    "dict": [[], "x"],
    "response": ["x", []],
    "item": [5, []],
    "part": ["x"],
    "annotation": [3],
}

# Lazy helpers the stream fills: `snapshot` on the per-part/per-field deltas, `parsed` on those
# and on four done events.
SNAPSHOT_TYPES = {
    "response.output_text.delta",
    "response.refusal.delta",
    "response.function_call_arguments.delta",
    "response.custom_tool_call_input.delta",
    "response.mcp_call_arguments.delta",
    "response.code_interpreter_call_code.delta",
    "response.reasoning_summary_text.delta",
    "response.reasoning_text.delta",
    "response.audio.transcript.delta",
    "response.shell_call_command.delta",
}
PARSED_ONLY_TYPES = {
    "response.output_text.done",
    "response.function_call_arguments.done",
    "response.custom_tool_call_input.done",
    "response.mcp_call_arguments.done",
}


def kind_of(spec: str) -> tuple[str, bool]:
    return spec.rstrip("?"), spec.endswith("?")


def full_event(wire_type: str, seq: int | None = 7) -> dict[str, Any]:
    """A valid event of *wire_type* with every SDK field present."""
    event: dict[str, Any] = {"type": wire_type}
    if seq is not None:
        event["sequence_number"] = seq
    for name, spec in SDK_EVENTS[wire_type][1].items():
        event[name] = copy_json(GOOD[kind_of(spec)[0]])
    return event


NON_ERROR_TYPES = sorted(t for t in SDK_EVENTS if t != "error")


# --- registry -------------------------------------------------------------------------------------


def test_all_59_sdk_types_are_registered_under_the_sdk_class_names() -> None:
    assert len(SDK_EVENTS) == 59
    assert set(EVENT_TYPES) == set(SDK_EVENTS)
    for wire_type, (class_name, _) in SDK_EVENTS.items():
        assert EVENT_TYPES[wire_type].__name__ == class_name


def test_event_classes_are_distinct() -> None:
    assert len(set(EVENT_TYPES.values())) == 59


# --- corpus ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", RESPONSES_STREAMS, ids=lambda p: p.stem)
def test_every_corpus_event_parses_to_its_class_and_round_trips(path: Path) -> None:
    facts = json.loads(path.with_suffix(".json").read_text("utf-8"))
    count = 0
    for data in sse_data(path):
        original = copy_json(data)
        event = parse_event(data)
        if data["type"] in EVENT_TYPES:
            assert type(event) is EVENT_TYPES[data["type"]]
        else:
            assert type(event) is UnknownEvent
        assert event.type == data["type"]
        assert event.sequence_number == data.get("sequence_number")
        out = event.to_dict()
        assert out == original
        assert json.dumps(out) == json.dumps(original)
        if "obfuscation" in data and data["type"] != "response.shell_call_command.delta":
            assert event.extra["obfuscation"] == data["obfuscation"]
        count += 1
    assert count == facts["event_count"]


def test_corpus_covers_unknown_and_unsequenced_streams() -> None:
    # Guards the corpus test above against vacuity on the tolerant paths.
    apply_patch = REAL / "responses-vercel-ai-openai-apply-patch-tool.1.sse"
    unknown = [parse_event(d) for d in sse_data(apply_patch)]
    diff_events = [e for e in unknown if e.type.startswith("response.apply_patch_call_operation")]
    assert diff_events and all(isinstance(e, UnknownEvent) for e in diff_events)
    assert isinstance(diff_events[0], UnknownEvent) and "delta" in diff_events[0].data

    unsequenced = REAL / "responses-dd-trace-py-response_function_call_streamed.sse"
    events = [parse_event(d) for d in sse_data(unsequenced)]
    assert events and all(e.sequence_number is None for e in events)
    done = [e for e in events if isinstance(e, ResponseFunctionCallArgumentsDoneEvent)]
    assert done and done[0].arguments.startswith("{")


def test_corpus_error_event_nested_shape() -> None:
    path = REAL / "responses-vercel-ai-openai-error.1.sse"
    errors = [parse_event(d) for d in sse_data(path) if d["type"] == "error"]
    assert len(errors) == 1
    error = errors[0]
    assert isinstance(error, ResponseErrorEvent)
    assert error.code == "insufficient_quota"
    assert error.error_type == "insufficient_quota"
    assert error.message is not None and error.message.startswith("You exceeded your current quota")
    assert error.param is None


def test_terminal_event_carries_a_typed_response() -> None:
    path = REAL / "responses-pydantic-ai-test_openai_responses_web_search_citations_stream.sse"
    events = [parse_event(d) for d in sse_data(path)]
    completed = [e for e in events if isinstance(e, ResponseCompletedEvent)]
    assert len(completed) == 1
    assert isinstance(completed[0].response, Response)
    assert completed[0].response.status == "completed"
    annotations = [e for e in events if e.type == "response.output_text.annotation.added"]
    assert annotations
    assert all(isinstance(getattr(e, "annotation", None), URLCitation) for e in annotations)


# --- per-type fields ------------------------------------------------------------------------------


@pytest.mark.parametrize("wire_type", NON_ERROR_TYPES)
def test_fields_are_exposed_under_their_wire_names(wire_type: str) -> None:
    data = full_event(wire_type)
    data["brand_new_field"] = {"x": 1}
    event = parse_event(data)
    assert event.type == wire_type
    assert event.sequence_number == 7
    for name, spec in SDK_EVENTS[wire_type][1].items():
        kind = kind_of(spec)[0]
        value = getattr(event, name)
        if kind in ("str", "int", "list", "dict"):
            assert value == GOOD[kind]
        else:
            assert value.to_dict() == GOOD[kind]
    # Only the undeclared key is extra: every SDK field is declared.
    assert event.extra == {"brand_new_field": {"x": 1}}
    assert event.to_dict() == data


@pytest.mark.parametrize("wire_type", [*NON_ERROR_TYPES, "error", "ping"])
def test_stream_id_is_read_on_every_event_class(wire_type: str) -> None:
    # WebSocket mode: every server event may carry the lane (stream_id) of its response.create.
    data = full_event(wire_type) if wire_type in SDK_EVENTS else {"type": wire_type}
    assert parse_event(dict(data)).stream_id is None
    event = parse_event({**data, "stream_id": "lane-a"})
    assert event.stream_id == "lane-a"
    assert "stream_id" not in event.extra
    assert event.to_dict()["stream_id"] == "lane-a"
    with pytest.raises(SchemaError) as info:
        _ = parse_event({**data, "stream_id": 3}).stream_id
    assert info.value.path == "stream_id"


@pytest.mark.parametrize("wire_type", NON_ERROR_TYPES)
def test_optional_fields_may_be_absent(wire_type: str) -> None:
    data = full_event(wire_type, seq=None)
    optional = [n for n, s in SDK_EVENTS[wire_type][1].items() if kind_of(s)[1]]
    for name in optional:
        del data[name]
    event = parse_event(data)
    assert event.sequence_number is None
    for name in optional:
        assert getattr(event, name) is None


@pytest.mark.parametrize(
    ("wire_type", "field"),
    [
        (t, n)
        for t in NON_ERROR_TYPES
        for n, s in SDK_EVENTS[t][1].items()
        if not kind_of(s)[1]  # required fields only
    ],
)
def test_missing_required_field_raises(wire_type: str, field: str) -> None:
    data = full_event(wire_type)
    del data[field]
    with pytest.raises(SchemaError) as info:
        parse_event(data)
    assert info.value.path == field


@pytest.mark.parametrize(
    ("wire_type", "field", "bad"),
    [
        (t, n, bad)
        for t in NON_ERROR_TYPES
        for n, s in SDK_EVENTS[t][1].items()
        for bad in BAD[kind_of(s)[0]]
    ],
)
def test_wrong_json_type_raises_with_path(wire_type: str, field: str, bad: Any) -> None:
    data = full_event(wire_type)
    data[field] = bad
    with pytest.raises(SchemaError) as info:
        parse_event(data)
    assert info.value.path == field
    assert info.value.got == bad


@pytest.mark.parametrize("bad", ["5", 5.0, True, [5]])
@pytest.mark.parametrize("wire_type", [*NON_ERROR_TYPES, "error"])
def test_non_integer_sequence_number_raises(wire_type: str, bad: Any) -> None:
    data = full_event(wire_type) if wire_type != "error" else {"type": "error", "message": "m"}
    data["sequence_number"] = bad
    with pytest.raises(SchemaError) as info:
        parse_event(data)
    assert info.value.path == "sequence_number"


def test_nested_errors_carry_the_full_path() -> None:
    data = {
        "type": "response.completed",
        "sequence_number": 9,
        "response": {
            "id": "r",
            "output": [{"type": "message", "content": [{"type": "output_text", "text": 1}]}],
        },
    }
    with pytest.raises(SchemaError) as info:
        parse_event(data)
    assert info.value.path == "response.output[0].content[0].text"

    item = {"type": "response.output_item.added", "output_index": 0, "item": {"type": 3}}
    with pytest.raises(SchemaError) as info:
        parse_event(item)
    assert info.value.path == "item.type"

    ann = {
        "type": "response.output_text.annotation.added",
        "annotation_index": 0,
        "annotation": {"type": "file_citation", "index": "0"},
    }
    with pytest.raises(SchemaError) as info:
        parse_event(ann)
    assert info.value.path == "annotation.index"


def test_text_delta_fields_and_tolerated_omissions() -> None:
    event = parse_event({"type": "response.output_text.delta", "delta": "Hel"})
    assert isinstance(event, ResponseTextDeltaEvent)
    assert (event.delta, event.item_id, event.output_index, event.content_index) == (
        "Hel",
        None,
        None,
        None,
    )
    assert event.logprobs is None and event.sequence_number is None
    assert event.extra == {}


def test_unknown_item_type_inside_an_event() -> None:
    data = {
        "type": "response.output_item.added",
        "sequence_number": 1,
        "output_index": 0,
        "item": {"type": "hologram_call", "id": "h_1", "frames": 3},
    }
    event = parse_event(data)
    assert isinstance(event, ResponseOutputItemAddedEvent)
    assert isinstance(event.item, UnknownOutputItem) and event.item.id == "h_1"
    assert event.to_dict() == data


def test_typed_item_inside_an_event() -> None:
    data = full_event("response.output_item.done")
    event = parse_event(data)
    assert isinstance(event.item, ResponseFunctionToolCall)  # type: ignore[union-attr]
    part_event = parse_event(full_event("response.content_part.added"))
    assert isinstance(part_event.part, ResponseOutputText)  # type: ignore[union-attr]


# --- type dispatch, unknown events ----------------------------------------------------------------


@pytest.mark.parametrize("data", [{}, {"type": None}, {"type": 5}, {"type": ["error"]}])
def test_missing_or_non_string_type_raises(data: dict[str, Any]) -> None:
    with pytest.raises(SchemaError) as info:
        parse_event(data)
    assert info.value.path == "type"


@pytest.mark.parametrize("data", [[], "x", 5, None])
def test_non_object_event_raises(data: Any) -> None:
    with pytest.raises(SchemaError):
        parse_event(data)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "ping"},
        {"type": "keepalive", "sequence_number": 4},
        {"type": "response.brand_new.delta", "sequence_number": 12, "delta": 5, "x": [1]},
        {"type": "response.output_text.deltas", "delta": "x"},
        {"type": "", "sequence_number": "not checked"},
    ],
)
def test_unregistered_types_become_unknown_events(data: dict[str, Any]) -> None:
    original = copy_json(data)
    event = parse_event(data)
    assert type(event) is UnknownEvent
    assert event.type == data["type"]
    seq = data.get("sequence_number")
    assert event.sequence_number == (seq if isinstance(seq, int) else None)
    assert event.data == original
    assert event.to_dict() == original
    assert event.extra == {
        k: v for k, v in original.items() if k not in ("type", "sequence_number")
    }


# --- the error event ------------------------------------------------------------------------------


def test_error_event_flat_shape() -> None:
    data = {
        "type": "error",
        "sequence_number": 3,
        "code": "rate_limit_exceeded",
        "message": "slow down",
        "param": None,
    }
    event = parse_event(data)
    assert isinstance(event, ResponseErrorEvent)
    assert (event.code, event.message, event.param, event.error_type) == (
        "rate_limit_exceeded",
        "slow down",
        None,
        None,
    )
    assert event.error is None
    assert event.to_dict() == data
    assert event.extra == {}


def test_error_event_nested_shape_gives_the_same_attributes() -> None:
    data = {
        "type": "error",
        "sequence_number": 3,
        "error": {
            "type": "invalid_request_error",
            "code": "rate_limit_exceeded",
            "message": "slow down",
            "param": "input",
        },
    }
    event = parse_event(data)
    assert isinstance(event, ResponseErrorEvent)
    assert (event.code, event.message, event.param, event.error_type) == (
        "rate_limit_exceeded",
        "slow down",
        "input",
        "invalid_request_error",
    )
    assert event.error == data["error"]
    assert event.to_dict() == data
    assert event.extra == {}


def test_error_event_tolerances_and_errors() -> None:
    minimal = parse_event({"type": "error"})
    assert isinstance(minimal, ResponseErrorEvent)
    assert minimal.message is None and minimal.code is None
    numeric = parse_event({"type": "error", "error": {"code": 429, "message": "busy"}})
    assert isinstance(numeric, ResponseErrorEvent) and numeric.code == 429
    with pytest.raises(SchemaError) as info:
        parse_event({"type": "error", "error": {"message": ["x"]}})
    assert info.value.path == "error.message"
    with pytest.raises(SchemaError) as info:
        parse_event({"type": "error", "message": 5})
    assert info.value.path == "message"
    with pytest.raises(SchemaError) as info:
        parse_event({"type": "error", "error": "boom"})
    assert info.value.path == "error"
    extra = parse_event({"type": "error", "message": "m", "status": 500})
    assert extra.extra == {"status": 500}


# --- lazy helpers, immutability -------------------------------------------------------------------


@pytest.mark.parametrize("wire_type", sorted(SNAPSHOT_TYPES))
def test_snapshot_and_parsed_are_lazy_and_settable(wire_type: str) -> None:
    event = parse_event(full_event(wire_type))
    twin = parse_event(full_event(wire_type))
    assert event.snapshot is None  # type: ignore[union-attr]
    assert event.parsed is None  # type: ignore[union-attr]
    calls: list[str] = []

    def snapshot() -> str:
        calls.append("snapshot")
        return "Hello"

    assert _set_lazy(event, snapshot_fn=snapshot, parsed_fn=lambda: {"a": 1})
    assert calls == []  # nothing computed until read
    assert event.snapshot == "Hello"  # type: ignore[union-attr]
    assert event.parsed == {"a": 1}  # type: ignore[union-attr]
    assert calls == ["snapshot"]
    assert event == twin  # the helpers take no part in equality
    assert "snapshot" not in repr(event)
    assert event.to_dict() == full_event(wire_type)


@pytest.mark.parametrize("wire_type", sorted(PARSED_ONLY_TYPES))
def test_done_events_have_parsed_only(wire_type: str) -> None:
    event = parse_event(full_event(wire_type))
    assert event.parsed is None  # type: ignore[union-attr]
    assert not hasattr(event, "snapshot")
    assert not _set_lazy(event, snapshot_fn=lambda: "x")
    assert _set_lazy(event, parsed_fn=lambda: [1, 2])
    assert event.parsed == [1, 2]  # type: ignore[union-attr]


def test_set_lazy_ignores_events_without_the_slots() -> None:
    status = parse_event(full_event("response.web_search_call.searching"))
    assert isinstance(status, ResponseWebSearchCallSearchingEvent)
    assert not _set_lazy(status, snapshot_fn=lambda: "x", parsed_fn=lambda: 1)
    assert not _set_lazy(parse_event({"type": "ping"}), snapshot_fn=lambda: "x")


def test_events_are_frozen() -> None:
    event = parse_event(full_event("response.output_text.done"))
    assert isinstance(event, ResponseTextDoneEvent)
    with pytest.raises(AttributeError):
        event.text = "changed"  # type: ignore[misc]
    delta = parse_event(full_event("response.function_call_arguments.delta"))
    assert isinstance(delta, ResponseFunctionCallArgumentsDeltaEvent)
    with pytest.raises(AttributeError):
        delta.delta = "changed"  # type: ignore[misc]


def test_to_dict_is_a_fresh_copy() -> None:
    data = full_event("response.completed")
    event = parse_event(data)
    out = event.to_dict()
    out["response"]["id"] = "other"
    assert event.to_dict() == full_event("response.completed")


# --- garbage in: only events or SchemaError ----------------------------------------------------------

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
ALL_FIELD_NAMES = sorted(
    {"type", "sequence_number", "code", "message", "param", "error"}
    | {name for _, fields in SDK_EVENTS.values() for name in fields}
)


@st.composite
def mutated_events(draw: st.DrawFn) -> dict[str, Any]:
    """A valid event of a random registered type with random fields replaced by random JSON."""
    wire_type = draw(st.sampled_from(sorted(SDK_EVENTS)))
    data: dict[str, Any] = (
        full_event(wire_type) if wire_type != "error" else {"type": "error", "message": "m"}
    )
    for name in draw(st.lists(st.sampled_from(ALL_FIELD_NAMES), max_size=4)):
        if draw(st.booleans()):
            data[name] = draw(json_values)
        else:
            data.pop(name, None)
    return data


@settings(max_examples=400, deadline=None)
@given(mutated_events())
def test_mutated_events_give_an_event_or_schema_error(data: dict[str, Any]) -> None:
    original = copy_json(data)
    try:
        event = parse_event(data)
    except SchemaError as exc:
        assert exc.path  # says where
        return
    assert event.to_dict() == original
    if event.type in EVENT_TYPES:
        assert type(event) is EVENT_TYPES[event.type]
    else:
        assert type(event) is UnknownEvent
