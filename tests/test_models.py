"""Tests of the typed Responses models (sansio_responses._responses.models) against the real-stream corpus."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansio_responses._errors import SchemaError
from sansio_responses._responses.models import (
    OUTPUT_ITEM_TYPES,
    ContainerFileCitation,
    FileCitation,
    ReasoningText,
    Response,
    ResponseError,
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputRefusal,
    ResponseOutputText,
    ResponseReasoningItem,
    ResponseUsage,
    SummaryText,
    UnknownAnnotation,
    UnknownContentPart,
    UnknownOutputItem,
    URLCitation,
    annotation_from_dict,
    content_part_from_dict,
    copy_json,
    output_item_from_dict,
)

REAL = Path(__file__).parent / "data" / "real"
RESPONSES_STREAMS = sorted(REAL.glob("responses-*.sse"))
TERMINAL_TYPES = {"response.completed", "response.incomplete", "response.failed"}


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


def corpus_objects(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(kind, wire dict) for every response, item and part object in one stream."""
    for event in sse_data(path):
        if "response" in event:
            yield "response", event["response"]
        if "item" in event:
            yield "item", event["item"]
        if "part" in event:
            yield "part", event["part"]


def test_corpus_is_present() -> None:
    assert len(RESPONSES_STREAMS) >= 40


@pytest.mark.parametrize("path", RESPONSES_STREAMS, ids=lambda p: p.stem)
def test_corpus_objects_round_trip_exactly(path: Path) -> None:
    seen = 0
    for kind, wire in corpus_objects(path):
        original = copy_json(wire)
        if kind == "response":
            model: Any = Response.from_dict(wire)
        elif kind == "item":
            model = output_item_from_dict(wire)
            # Every item type in the corpus is one of the SDK's 28: never the unknown fallback.
            assert type(model) is OUTPUT_ITEM_TYPES[wire["type"]]
        else:
            model = content_part_from_dict(wire)
            assert not isinstance(model, UnknownContentPart)
        out = model.to_dict()
        assert out == original
        assert json.dumps(out) == json.dumps(original)  # same key order, same numbers
        seen += 1
    assert seen > 0


def _final_output_text(path: Path) -> str | None:
    facts = json.loads(path.with_suffix(".json").read_text("utf-8"))
    value: str | None = facts["final_output_text"]
    return value


WITH_OUTPUT_TEXT = [p for p in RESPONSES_STREAMS if _final_output_text(p) is not None]


def test_enough_streams_have_output_text() -> None:
    assert len(WITH_OUTPUT_TEXT) >= 20


@pytest.mark.parametrize("path", WITH_OUTPUT_TEXT, ids=lambda p: p.stem)
def test_output_text_matches_sidecar(path: Path) -> None:
    expected = _final_output_text(path)
    terminal = [e for e in sse_data(path) if e.get("type") in TERMINAL_TYPES]
    assert terminal, "a stream with final_output_text has a terminal response"
    assert Response.from_dict(terminal[-1]["response"]).output_text == expected


def test_typed_attributes_of_a_corpus_response() -> None:
    path = REAL / "responses-pydantic-ai-test_openai_responses_web_search_citations_stream.sse"
    final = [e for e in sse_data(path) if e["type"] == "response.completed"][-1]["response"]
    response = Response.from_dict(final)
    assert response.id == final["id"]
    assert response.status == "completed"
    assert isinstance(response.usage, ResponseUsage)
    assert response.usage.total_tokens == final["usage"]["total_tokens"]
    details = response.usage.input_tokens_details
    assert details is not None and details.to_dict() == final["usage"]["input_tokens_details"]
    assert details.cached_tokens == final["usage"]["input_tokens_details"]["cached_tokens"]
    messages = [item for item in response.output or [] if isinstance(item, ResponseOutputMessage)]
    assert messages
    parts = [p for m in messages for p in m.content or [] if isinstance(p, ResponseOutputText)]
    annotations = [a for p in parts for a in p.annotations or []]
    assert annotations and all(isinstance(a, URLCitation) for a in annotations)
    assert all(isinstance(a.start_index, int) for a in annotations)  # type: ignore[union-attr]


def test_reasoning_item_parts_are_typed() -> None:
    item = output_item_from_dict(
        {
            "id": "rs_1",
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": "thinking"}],
            "content": [{"type": "reasoning_text", "text": "raw"}],
            "encrypted_content": None,
        }
    )
    assert isinstance(item, ResponseReasoningItem)
    assert item.summary == [SummaryText(type="summary_text", text="thinking", raw={})]
    assert isinstance(item.content, list) and isinstance(item.content[0], ReasoningText)
    assert item.content[0].text == "raw"
    assert item.encrypted_content is None
    assert item.status is None


def test_missing_fields_read_as_none() -> None:
    # Compatible servers send minimal objects: tolerated, nothing invented on the way out.
    wire = {"id": "resp_1", "output": [{"type": "function_call", "arguments": "{}"}]}
    response = Response.from_dict(wire)
    assert response.status is None and response.usage is None and response.model is None
    assert response.created_at is None and response.tools is None
    call = (response.output or [])[0]
    assert isinstance(call, ResponseFunctionToolCall)
    assert call.arguments == "{}" and call.name is None and call.call_id is None
    assert response.to_dict() == wire
    assert Response.from_dict({}).output is None
    assert Response.from_dict({}).output_text == ""


def test_unknown_fields_are_kept_in_extra_and_to_dict() -> None:
    wire = {"id": "r", "status": "completed", "store": True, "brand_new": {"a": [1]}, "output": []}
    response = Response.from_dict(wire)
    assert response.extra == {"store": True, "brand_new": {"a": [1]}}
    assert list(response.to_dict()) == ["id", "status", "store", "brand_new", "output"]
    part = content_part_from_dict({"type": "output_text", "text": "x", "annotations": [], "z": 1})
    assert part.extra == {"z": 1}


def test_unknown_item_part_and_annotation_types_are_kept_whole() -> None:
    item_wire = {"type": "hologram_call", "id": "h_1", "frames": [{"n": 1}], "status": 7}
    item = output_item_from_dict(item_wire)
    assert isinstance(item, UnknownOutputItem)
    assert item.type == "hologram_call" and item.id == "h_1"
    assert item.data == item_wire and item.to_dict() == item_wire
    assert item.extra == {"id": "h_1", "frames": [{"n": 1}], "status": 7}

    part = content_part_from_dict({"type": "output_audio", "data": "AAA"})
    assert isinstance(part, UnknownContentPart) and part.type == "output_audio"
    assert part.to_dict() == {"type": "output_audio", "data": "AAA"}

    ann = annotation_from_dict({"type": "page_citation", "page": 3})
    assert isinstance(ann, UnknownAnnotation) and ann.data == {"type": "page_citation", "page": 3}

    untyped = output_item_from_dict({"id": "x"})
    assert isinstance(untyped, UnknownOutputItem) and untyped.type is None


def test_unknown_item_inside_response_round_trips() -> None:
    wire = {
        "id": "r",
        "output": [
            {"type": "hologram_call", "id": "h"},
            {"type": "message", "content": [{"type": "output_text", "text": "hi"}]},
        ],
    }
    response = Response.from_dict(wire)
    assert isinstance((response.output or [])[0], UnknownOutputItem)
    assert response.output_text == "hi"
    assert response.to_dict() == wire


def test_output_text_joins_only_output_text_parts_of_messages() -> None:
    wire = {
        "output": [
            {"type": "reasoning", "summary": [{"type": "summary_text", "text": "no"}]},
            {
                "type": "message",
                "content": [
                    {"type": "output_text", "text": "a"},
                    {"type": "refusal", "refusal": "no"},
                    {"type": "output_text", "text": "b"},
                ],
            },
            {"type": "custom_tool_call", "input": "no"},
            {"type": "message", "content": [{"type": "output_text", "text": "c"}]},
        ]
    }
    response = Response.from_dict(wire)
    assert response.output_text == "abc"
    message = (response.output or [])[1]
    assert isinstance(message, ResponseOutputMessage) and message.content is not None
    refusal = message.content[1]
    assert isinstance(refusal, ResponseOutputRefusal) and refusal.refusal == "no"


@pytest.mark.parametrize(
    ("wire", "path", "expected"),
    [
        ({"id": 5}, "id", "string"),
        ({"output": "x"}, "output", "array"),
        ({"status": 3}, "status", "string"),
        ({"created_at": "yesterday"}, "created_at", "number"),
        ({"created_at": True}, "created_at", "number"),
        ({"max_output_tokens": 1.5}, "max_output_tokens", "integer"),
        ({"max_output_tokens": False}, "max_output_tokens", "integer"),
        ({"parallel_tool_calls": 1}, "parallel_tool_calls", "boolean"),
        ({"usage": {"input_tokens": "3"}}, "usage.input_tokens", "integer"),
        ({"usage": {"input_tokens_details": []}}, "usage.input_tokens_details", "object"),
        ({"usage": []}, "usage", "object"),
        ({"error": {"code": 500}}, "error.code", "string"),
        ({"incomplete_details": {"reason": 1}}, "incomplete_details.reason", "string"),
        ({"output": [5]}, "output[0]", "object"),
        ({"output": [{"type": 9}]}, "output[0].type", "string"),
        (
            {
                "output": [
                    {"type": "message", "content": [{"type": "output_text", "text": "ok"}]},
                    {
                        "type": "message",
                        "content": [
                            {"type": "refusal", "refusal": "x"},
                            {"type": "output_text", "text": ["not", "text"]},
                        ],
                    },
                ]
            },
            "output[1].content[1].text",
            "string",
        ),
        (
            {
                "output": [
                    {"type": "message", "content": [{"type": "output_text", "annotations": {}}]}
                ]
            },
            "output[0].content[0].annotations",
            "array",
        ),
        (
            {
                "output": [
                    {
                        "type": "message",
                        "content": [
                            {
                                "type": "output_text",
                                "annotations": [{"type": "url_citation", "url": 1}],
                            }
                        ],
                    }
                ]
            },
            "output[0].content[0].annotations[0].url",
            "string",
        ),
        (
            {"output": [{"type": "file_search_call", "queries": ["a", 2]}]},
            "output[0].queries[1]",
            "string",
        ),
        (
            {"output": [{"type": "mcp_approval_response", "approve": "yes"}]},
            "output[0].approve",
            "boolean",
        ),
    ],
)
def test_wrong_json_type_raises_schema_error_with_path(
    wire: dict[str, Any], path: str, expected: str
) -> None:
    with pytest.raises(SchemaError) as info:
        Response.from_dict(wire)
    assert info.value.path == path
    assert info.value.expected == expected


def test_path_prefix_is_used_for_nested_errors() -> None:
    with pytest.raises(SchemaError) as info:
        output_item_from_dict({"type": "function_call", "arguments": {}}, "item")
    assert info.value.path == "item.arguments"
    with pytest.raises(SchemaError) as info:
        Response.from_dict([], "response")  # type: ignore[arg-type]
    assert info.value.path == "response"


def test_raw_json_fields_are_not_validated() -> None:
    wire = {
        "tool_choice": {"type": "function", "name": "f"},
        "tools": [{"type": "whatever", "x": 1}],
        "metadata": {"k": "v"},
        "instructions": [{"role": "developer", "content": "hi"}],
        "reasoning": {"effort": "high", "summary": None},
        "text": {"format": {"type": "json_schema"}},
        "output": [{"type": "web_search_call", "action": ["odd"]}],
    }
    response = Response.from_dict(wire)
    assert response.tool_choice == {"type": "function", "name": "f"}
    assert response.instructions == [{"role": "developer", "content": "hi"}]
    assert response.to_dict() == wire


def test_required_discriminator_on_direct_construction() -> None:
    with pytest.raises(SchemaError) as info:
        ResponseOutputText.from_dict({"text": "x"})
    assert info.value.path == "type"


def test_response_error_and_usage_models() -> None:
    err = ResponseError.from_dict({"code": "server_error", "message": "boom", "new": 1})
    assert (err.code, err.message, err.param, err.type) == ("server_error", "boom", None, None)
    assert err.extra == {"new": 1}
    usage = ResponseUsage.from_dict({"input_tokens": 1, "output_tokens": 2, "total_tokens": 3})
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (1, 2, 3)
    assert usage.output_tokens_details is None


def test_annotation_classes() -> None:
    fc = annotation_from_dict(
        {"type": "file_citation", "file_id": "f", "filename": "a", "index": 2}
    )
    assert isinstance(fc, FileCitation) and fc.index == 2
    cfc = annotation_from_dict(
        {"type": "container_file_citation", "container_id": "c", "start_index": 0, "end_index": 4}
    )
    assert isinstance(cfc, ContainerFileCitation) and cfc.end_index == 4 and cfc.file_id is None


def test_to_dict_is_a_fresh_copy() -> None:
    wire = {
        "id": "r",
        "output": [{"type": "message", "content": [{"type": "output_text", "text": "a"}]}],
    }
    response = Response.from_dict(wire)
    out = response.to_dict()
    out["output"][0]["content"][0]["text"] = "changed"
    out["id"] = "other"
    assert response.to_dict() == wire
    assert response.output_text == "a"


def test_non_dict_mapping_input_is_accepted() -> None:
    response = Response.from_dict(MappingProxyType({"id": "r", "status": "queued"}))
    assert response.status == "queued"
    assert response.to_dict() == {"id": "r", "status": "queued"}


def test_copy_json_is_deep_and_keeps_order() -> None:
    tree = {"b": [1, {"c": [2.5, None, True]}], "a": "x"}
    copied = copy_json(tree)
    assert copied == tree and list(copied) == ["b", "a"]
    assert copied["b"] is not tree["b"] and copied["b"][1] is not tree["b"][1]


def test_models_are_frozen_and_compare_by_fields() -> None:
    a = Response.from_dict({"id": "r", "status": "completed"})
    b = Response.from_dict({"id": "r", "status": "completed"})
    assert a == b
    assert a != Response.from_dict({"id": "r", "status": "failed"})
    with pytest.raises(AttributeError):
        a.id = "x"  # type: ignore[misc]


json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
ITEM_TYPES = sorted(OUTPUT_ITEM_TYPES)
FIELD_NAMES = ["type", "id", "status", "text", "content", "annotations", "summary", "arguments"]


@st.composite
def garbage_responses(draw: st.DrawFn) -> dict[str, Any]:
    """Response-shaped dicts whose fields (top level, items, parts) hold random JSON values."""
    items = []
    for _ in range(draw(st.integers(0, 3))):
        item: dict[str, Any] = {"type": draw(st.sampled_from(ITEM_TYPES))}
        if draw(st.booleans()):
            part = {"type": draw(st.sampled_from(["output_text", "refusal", "x"]))}
            part.update(draw(st.dictionaries(st.sampled_from(FIELD_NAMES), json_values)))
            item["content"] = [part]
        item.update(draw(st.dictionaries(st.sampled_from(FIELD_NAMES), json_values, max_size=3)))
        items.append(item)
    wire: dict[str, Any] = {"id": "r", "output": items}
    wire.update(
        draw(
            st.dictionaries(
                st.sampled_from(["status", "usage", "error", "created_at", "tools", "output"]),
                json_values,
                max_size=2,
            )
        )
    )
    return wire


@settings(max_examples=300, deadline=None)
@given(garbage_responses())
def test_garbage_gives_a_model_or_schema_error(wire: dict[str, Any]) -> None:
    original = copy_json(wire)
    try:
        response = Response.from_dict(wire)
    except SchemaError as exc:
        assert exc.path
        return
    assert response.to_dict() == original
    assert isinstance(response.output_text, str)
