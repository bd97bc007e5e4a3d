"""Hand-written Chat streams: accumulation rules, compatible-server quirks, endings, strict mode."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sansio_responses._chat.models import (
    ChatCompletionChunk,
    ChatStreamError,
    ChatUnknownEvent,
)
from sansio_responses._chat.stream import ChatCompletionsStream
from sansio_responses._errors import (
    LocalProtocolError,
    RemoteProtocolError,
    TruncatedStream,
)

ID = "chatcmpl-1"


def chunk(*choices: dict[str, Any], **top: Any) -> dict[str, Any]:
    """A well-formed chunk object; keyword arguments override or add top-level fields."""
    obj: dict[str, Any] = {
        "id": ID,
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": "gpt-test",
        "choices": list(choices),
    }
    obj.update(top)
    return obj


def choice(index: int | None = 0, finish: str | None = None, **delta: Any) -> dict[str, Any]:
    c: dict[str, Any] = {"delta": delta, "logprobs": None, "finish_reason": finish}
    if index is not None:
        c["index"] = index
    return c


def body(*objs: dict[str, Any] | str, done: bool = True) -> bytes:
    parts = [f"data: {o if isinstance(o, str) else json.dumps(o)}\n\n" for o in objs]
    if done:
        parts.append("data: [DONE]\n\n")
    return "".join(parts).encode()


def run(data: bytes, **options: Any) -> tuple[ChatCompletionsStream, list[Any]]:
    stream = ChatCompletionsStream(**options)
    events = stream.feed(data)
    events += stream.close()
    return stream, events


def codes(stream: ChatCompletionsStream) -> list[str]:
    return [d.code for d in stream.diagnostics]


def message(stream: ChatCompletionsStream, index: int = 0) -> dict[str, Any]:
    snap = stream.snapshot()
    assert snap is not None
    c = snap.choice(index)
    assert c is not None
    return c.message.to_dict()


# -- accumulation ------------------------------------------------------------------------------


def test_choices_out_of_order_with_gaps() -> None:
    stream, _ = run(
        body(
            chunk(choice(2, role="assistant", content="C")),
            chunk(choice(0, role="assistant", content="A")),
            chunk(choice(2, content="c"), choice(0, content="a")),
            chunk(choice(0, finish="stop"), choice(2, finish="length")),
        )
    )
    snap = stream.snapshot()
    assert snap is not None
    assert [(c.index, c.message.content, c.finish_reason) for c in snap.choices] == [
        (0, "Aa", "stop"),
        (2, "Cc", "length"),
    ]
    assert snap.choice(1) is None
    assert stream.outcome == "completed"
    assert stream.diagnostics == []


def test_role_repeated_is_not_concatenated() -> None:
    stream, _ = run(
        body(
            chunk(choice(role="assistant", content="Hi")),
            chunk(choice(role="assistant", content="!")),
            chunk(choice(finish="stop")),
        )
    )
    assert message(stream) == {"role": "assistant", "content": "Hi!", "refusal": None}
    assert stream.diagnostics == []


def test_a_different_role_is_noted_and_the_first_kept() -> None:
    stream, _ = run(
        body(chunk(choice(role="assistant")), chunk(choice(role="tool", finish="stop")))
    )
    assert message(stream)["role"] == "assistant"
    assert codes(stream) == ["role-changed"]


def tool(
    index: int | None, id: str | None = None, name: str | None = None, args: str | None = None
) -> dict[str, Any]:
    tc: dict[str, Any] = {}
    if index is not None:
        tc["index"] = index
    if id is not None:
        tc["id"] = id
        tc["type"] = "function"
    fn: dict[str, Any] = {}
    if name is not None:
        fn["name"] = name
    if args is not None:
        fn["arguments"] = args
    if fn:
        tc["function"] = fn
    return tc


def tool_calls(stream: ChatCompletionsStream) -> list[tuple[int, str | None, str | None, str]]:
    snap = stream.snapshot()
    assert snap is not None
    return [
        (tc.index, tc.id, tc.function.name, tc.function.arguments)
        for tc in snap.choices[0].message.tool_calls
    ]


def test_tool_calls_by_index_with_repeated_id_and_name() -> None:
    stream, _ = run(
        body(
            chunk(choice(role="assistant", content=None, tool_calls=[tool(1, "call_b", "g", "")])),
            chunk(choice(tool_calls=[tool(0, "call_a", "f", '{"x"')])),
            chunk(choice(tool_calls=[tool(0, "call_a", "f", ": 1}")])),
            chunk(choice(tool_calls=[tool(1, None, "g", "{}")])),
            chunk(choice(finish="tool_calls")),
        )
    )
    assert tool_calls(stream) == [(0, "call_a", "f", '{"x": 1}'), (1, "call_b", "g", "{}")]
    assert stream.diagnostics == []
    msg = message(stream)
    assert msg["content"] is None
    assert msg["tool_calls"][0] == {
        "id": "call_a",
        "type": "function",
        "function": {"name": "f", "arguments": '{"x": 1}'},
    }


def test_tool_call_with_a_different_id_is_noted() -> None:
    stream, _ = run(
        body(
            chunk(choice(tool_calls=[tool(0, "call_a", "f", "{")])),
            chunk(choice(tool_calls=[tool(0, "call_z", "h", "}")], finish="tool_calls")),
        )
    )
    assert tool_calls(stream) == [(0, "call_a", "f", "{}")]
    assert codes(stream) == ["tool-call-id-changed", "tool-call-name-changed"]


def test_missing_tool_index_new_ids_start_new_calls() -> None:
    # Gemini's compatible endpoint: each call whole in one delta, with an id but no index
    stream, _ = run(
        body(
            chunk(choice(tool_calls=[tool(None, "call_1", "f", '{"a":1}')])),
            chunk(choice(tool_calls=[tool(None, "call_2", "f", '{"a":2}')], finish="stop")),
        )
    )
    assert tool_calls(stream) == [(0, "call_1", "f", '{"a":1}'), (1, "call_2", "f", '{"a":2}')]
    assert codes(stream) == ["missing-tool-call-index"] * 2


def test_missing_tool_index_continuations_follow_the_last_call() -> None:
    stream, _ = run(
        body(
            chunk(choice(tool_calls=[tool(None, "call_1", "f", "")])),
            chunk(choice(tool_calls=[tool(None, None, None, '{"a"')])),
            chunk(choice(tool_calls=[tool(None, "call_1", None, ":1}")])),
            chunk(choice(tool_calls=[tool(None, None, "g", "{}")])),
            chunk(choice(tool_calls=[tool(None, None, "g", "")]), finish_reason=None),
            chunk(choice(finish="tool_calls")),
        )
    )
    assert tool_calls(stream) == [(0, "call_1", "f", '{"a":1}'), (1, None, "g", "{}")]
    assert codes(stream) == ["missing-tool-call-index"] * 4 + ["tool-call-index-ambiguous"]


def test_legacy_function_call() -> None:
    stream, _ = run(
        body(
            chunk(choice(role="assistant", function_call={"name": "f", "arguments": ""})),
            chunk(choice(function_call={"arguments": '{"q":'})),
            chunk(choice(function_call={"name": "f", "arguments": "1}"})),
            chunk(choice(finish="function_call")),
        )
    )
    assert message(stream) == {
        "role": "assistant",
        "content": None,
        "refusal": None,
        "function_call": {"name": "f", "arguments": '{"q":1}'},
    }


def test_logprobs_null_unless_sent() -> None:
    stream, _ = run(body(chunk(choice(content="x", finish="stop"))))
    snap = stream.snapshot()
    assert snap is not None
    assert snap.to_dict()["choices"][0]["logprobs"] is None


def test_usage_from_the_final_chunk_is_not_wiped_by_null() -> None:
    usage = {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
    stream, _ = run(
        body(
            chunk(choice(content="x", finish="stop"), usage=None),
            chunk(usage=usage),
            chunk(usage=None, system_fingerprint="fp_1", service_tier="default"),
        )
    )
    snap = stream.snapshot()
    assert snap is not None
    assert snap.to_dict()["usage"] == usage
    assert (snap.system_fingerprint, snap.service_tier) == ("fp_1", "default")


def test_obfuscation_is_not_accumulated_but_kept_on_the_chunk() -> None:
    stream, events = run(body(chunk(choice(content="x", finish="stop"), obfuscation="pad")))
    assert events[0].obfuscation == "pad"
    assert events[0].to_dict()["obfuscation"] == "pad"
    snap = stream.snapshot()
    assert snap is not None
    assert "obfuscation" not in snap.to_dict()


def test_unknown_delta_fields_merge() -> None:
    stream, events = run(
        body(
            chunk(choice(audio={"id": "au_1", "data": "AAA", "transcript": "He"})),
            chunk(choice(audio={"id": "au_1", "data": "BBB", "transcript": "llo"})),
            chunk(choice(audio={"expires_at": 5}, annotations=[{"type": "url_citation"}])),
            chunk(choice(annotations=[{"type": "other"}], finish="stop")),
        )
    )
    msg = message(stream)
    assert msg["audio"] == {"id": "au_1", "data": "AAABBB", "transcript": "Hello", "expires_at": 5}
    assert msg["annotations"] == [{"type": "url_citation"}, {"type": "other"}]
    assert events[0].choices[0].delta is not None
    assert events[0].choices[0].delta.extra == {
        "audio": {"id": "au_1", "data": "AAA", "transcript": "He"}
    }


def test_unknown_tool_call_fields_are_kept() -> None:
    extra = {"google": {"thought_signature": "sig"}}
    tc = tool(0, "call_1", "f", "{}")
    tc["extra_content"] = extra
    stream, _ = run(body(chunk(choice(tool_calls=[tc], finish="tool_calls"))))
    assert message(stream)["tool_calls"][0]["extra_content"] == extra


def test_snapshot_is_cached_until_the_next_chunk() -> None:
    stream = ChatCompletionsStream()
    assert stream.snapshot() is None
    stream.feed(body(chunk(choice(0, content="a"), choice(1, content="b")), done=False))
    first = stream.snapshot()
    assert first is not None
    assert stream.snapshot() is first
    stream.feed(body(chunk(choice(1, content="c")), done=False))
    second = stream.snapshot()
    assert second is not first
    assert second is not None
    # choice 0 was not touched by the second chunk: its Choice object is reused
    assert second.choices[0] is first.choices[0]
    assert second.choices[1].message.content == "bc"
    assert first.choices[1].message.content == "b"


def test_content_snapshot_needs_a_stream() -> None:
    lone = ChatCompletionChunk.from_dict(chunk(choice(content="x")))
    with pytest.raises(LocalProtocolError):
        lone.content_snapshot()


# -- compatible-server tolerance ---------------------------------------------------------------

AZURE_FILTER = {
    "choices": [],
    "created": 0,
    "id": "",
    "model": "",
    "object": "",
    "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": {}}],
}
FILTER_ONLY_CHOICE = {
    "index": 0,
    "finish_reason": None,
    "content_filter_results": {"hate": {"filtered": False}},
    "content_filter_offsets": {"start_offset": 0, "end_offset": 5},
}


def test_azure_prompt_filter_and_filter_only_choices() -> None:
    stream, events = run(
        body(
            AZURE_FILTER,
            chunk(choice(role="assistant", content="Hello")),
            {"id": "", "object": "", "created": 0, "model": "", "choices": [FILTER_ONLY_CHOICE]},
            chunk(choice(finish="stop")),
        )
    )
    assert codes(stream) == [
        "empty-chunk-identity",
        "prompt-filter-results",
        "empty-chunk-identity",
        "choice-without-delta",
    ]
    # As in the SDK, the delta is never None: empty, while the choice's wire dict has none.
    assert events[2].choices[0].delta.to_dict() == {}
    assert events[2].choices[0].delta.content is None
    assert "delta" not in events[2].choices[0].to_dict()
    snap = stream.snapshot()
    assert snap is not None
    d = snap.to_dict()
    assert (d["id"], d["model"], d["created"]) == (ID, "gpt-test", 1700000000)
    assert d["prompt_filter_results"] == AZURE_FILTER["prompt_filter_results"]
    assert d["choices"][0]["message"]["content"] == "Hello"
    assert d["choices"][0]["content_filter_offsets"] == {"start_offset": 0, "end_offset": 5}


@pytest.mark.parametrize("name", ["reasoning_content", "reasoning"])
def test_reasoning_text_kept_under_the_providers_name(name: str) -> None:
    stream, _ = run(
        body(
            chunk({"index": 0, "delta": {"role": "assistant", name: "Let me"}}),
            chunk({"index": 0, "delta": {name: " think."}}),
            chunk(choice(content="42", finish="stop")),
        )
    )
    msg = message(stream)
    assert msg[name] == "Let me think."
    assert msg["content"] == "42"
    assert codes(stream) == ["reasoning-field"]


def test_reasoning_details_are_extended() -> None:
    d1 = {"type": "reasoning.text", "text": "a", "index": 0}
    d2 = {"type": "reasoning.text", "text": "b", "index": 0}
    stream, _ = run(
        body(
            chunk(choice(reasoning_details=[d1])),
            chunk(choice(reasoning_details=[d2], content="x", finish="stop")),
        )
    )
    assert message(stream)["reasoning_details"] == [d1, d2]
    assert codes(stream) == ["reasoning-field"]


def test_usage_chunk_without_choices_key() -> None:
    usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    usage_only = chunk(usage=usage)
    del usage_only["choices"]
    stream, events = run(body(chunk(choice(content="x", finish="stop")), usage_only))
    assert events[1].choices == []
    snap = stream.snapshot()
    assert snap is not None
    assert snap.to_dict()["usage"] == usage
    assert codes(stream) == ["missing-choices"]


def test_missing_choice_index_is_taken_as_zero() -> None:
    stream, _ = run(body(chunk(choice(None, content="x", finish="stop"))))
    assert message(stream)["content"] == "x"
    assert codes(stream) == ["missing-choice-index"]


def test_unknown_object_is_kept_as_unknown_event() -> None:
    stream, events = run(
        body(chunk(choice(content="x")), {"type": "ping"}, chunk(choice(finish="stop")))
    )
    assert events[1] == ChatUnknownEvent("message", {"type": "ping"})
    assert codes(stream) == ["unknown-event"]
    assert message(stream)["content"] == "x"


# -- endings ----------------------------------------------------------------------------------


def test_length_finish_is_an_ordinary_completion() -> None:
    stream, _ = run(body(chunk(choice(content="Once upon", finish="length"))))
    assert stream.outcome == "completed"
    snap = stream.snapshot()
    assert snap is not None
    assert snap.choices[0].finish_reason == "length"
    assert stream.diagnostics == []


def test_missing_done_with_finish_reasons_completes() -> None:
    stream, _ = run(body(chunk(choice(content="x", finish="stop")), done=False))
    assert stream.outcome == "completed"
    assert stream.done is False
    assert codes(stream) == ["missing-done-marker"]


def test_done_without_finish_reason_is_noted() -> None:
    stream, _ = run(body(chunk(choice(content="x"))))
    assert stream.outcome == "completed"
    assert codes(stream) == ["done-without-finish-reason"]
    assert stream.diagnostics[0].message == "[DONE] arrived but choice(s) [0] have no finish_reason"
    stream, _ = run(b"data: [DONE]\n\n")
    assert [d.message for d in stream.diagnostics] == [
        "[DONE] arrived but no choice has a finish_reason"
    ]


def test_data_after_done_is_noted_and_accumulated() -> None:
    usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    data = body(chunk(choice(content="x", finish="stop"))) + body(chunk(usage=usage))
    stream, events = run(data)
    assert len(events) == 2
    assert stream.outcome == "completed"
    assert codes(stream) == ["data-after-done", "data-after-done"]  # the chunk, then a 2nd [DONE]
    snap = stream.snapshot()
    assert snap is not None
    assert snap.to_dict()["usage"] == usage


def test_truncated_body_raises_and_keeps_the_partial_completion() -> None:
    stream = ChatCompletionsStream()
    events = stream.feed(body(chunk(choice(role="assistant", content="Hal")), done=False))
    events += stream.feed(b'data: {"id": "chatcmpl-1", "choi')
    assert len(events) == 1
    with pytest.raises(TruncatedStream) as info:
        stream.close()
    assert stream.outcome == "truncated"
    assert "[0]" in str(info.value)
    assert message(stream)["content"] == "Hal"
    assert codes(stream) == ["unterminated-event"]
    assert info.value.events == []  # type: ignore[attr-defined]


def test_empty_body_is_truncated() -> None:
    stream = ChatCompletionsStream()
    with pytest.raises(TruncatedStream):
        stream.close()
    assert stream.outcome == "truncated"
    assert stream.snapshot() is None


def test_done_without_its_blank_line_is_accepted() -> None:
    stream = ChatCompletionsStream()
    stream.feed(body(chunk(choice(content="x")), done=False) + b"data: [DONE]")
    assert stream.close() == []
    assert stream.outcome == "completed"
    assert codes(stream) == ["unterminated-event", "done-without-finish-reason"]


@pytest.mark.parametrize(
    ("error_obj", "expected"),
    [
        (
            {"error": {"message": "boom", "type": "server_error", "code": None, "param": None}},
            ("boom", "server_error", None, None),
        ),
        ({"error": "overloaded"}, ("overloaded", None, None, None)),
        (
            {"object": "error", "message": "bad", "type": "BadRequestError", "code": 400},
            ("bad", "BadRequestError", 400, None),
        ),
    ],
)
def test_error_object_gives_error_outcome(
    error_obj: dict[str, Any], expected: tuple[Any, ...]
) -> None:
    stream, events = run(body(chunk(choice(role="assistant", content="part")), error_obj))
    err = events[1]
    assert isinstance(err, ChatStreamError)
    assert (err.message, err.type, err.code, err.param) == expected
    assert err.raw == error_obj
    assert stream.outcome == "error"
    assert stream.error_event is err
    assert message(stream)["content"] == "part"
    assert stream.diagnostics == []


def test_error_event_type_with_flat_data() -> None:
    data = b'event: error\ndata: {"message": "rate limited", "code": "rate_limit"}\n\n'
    stream, events = run(data)
    assert events == [
        ChatStreamError(
            "rate limited",
            None,
            "rate_limit",
            None,
            {"message": "rate limited", "code": "rate_limit"},
        )
    ]
    assert stream.outcome == "error"


def test_chunk_with_choices_and_an_error_gives_both() -> None:
    # OpenRouter's mid-stream error: a chunk with finish_reason "error" and an error object
    err = {"code": "server_error", "message": "Provider disconnected"}
    failing = chunk(choice(content="", finish="error"), error=err)
    stream, events = run(body(chunk(choice(role="assistant", content="Hal")), failing))
    assert [type(e) for e in events] == [ChatCompletionChunk, ChatCompletionChunk, ChatStreamError]
    assert (events[2].message, events[2].code) == ("Provider disconnected", "server_error")
    assert events[2].raw == failing
    assert stream.outcome == "error"
    snap = stream.snapshot()
    assert snap is not None
    assert (snap.choices[0].message.content, snap.choices[0].finish_reason) == ("Hal", "error")


def test_chunks_after_an_error_are_noted() -> None:
    stream, _ = run(body({"error": {"message": "x"}}, chunk(choice(content="late"))))
    assert stream.outcome == "error"
    assert codes(stream) == ["data-after-error"]


# -- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "path"),
    [
        (chunk(choice(content=5)), "chunk.choices[0].delta.content"),
        (
            chunk(choice(tool_calls=[{"index": 0, "function": {"arguments": {}}}])),
            "chunk.choices[0].delta.tool_calls[0].function.arguments",
        ),
        (chunk(choice(tool_calls=[{"index": "0"}])), "chunk.choices[0].delta.tool_calls[0].index"),
        (chunk(choice(tool_calls={})), "chunk.choices[0].delta.tool_calls"),
        (chunk(created="yesterday"), "chunk.created"),
        (chunk(choices={}), "chunk.choices"),
        (chunk(choice(-1, content="x")), "chunk.choices[0].index"),
        (chunk(usage={"total_tokens": True}), "chunk.usage.total_tokens"),
        ({"error": {"message": 3}}, "error.message"),
        ({"error": 3}, "error"),
    ],
)
def test_wrong_types_raise_with_path_offset_and_excerpt(obj: dict[str, Any], path: str) -> None:
    first = body(chunk(choice(content="ok")), done=False)
    stream = ChatCompletionsStream()
    with pytest.raises(RemoteProtocolError) as info:
        stream.feed(first + body(obj, done=False))
    err = info.value
    assert repr(path) in str(err)
    assert err.offset == len(first)
    assert err.excerpt is not None
    assert len(err.events) == 1  # type: ignore[attr-defined]
    assert message(stream)["content"] == "ok"
    with pytest.raises(LocalProtocolError):
        stream.feed(b"data: [DONE]\n\n")


def test_invalid_json_raises_at_its_offset() -> None:
    stream = ChatCompletionsStream()
    with pytest.raises(RemoteProtocolError) as info:
        stream.feed(b"data: [DONE]\n\ndata: {nope\n\n")
    assert info.value.offset == len(b"data: [DONE]\n\n")


# -- strict mode: every tolerated anomaly raises -------------------------------------------------

_usage_only = chunk(usage={"total_tokens": 1})
del _usage_only["choices"]

ANOMALIES: list[tuple[str, bytes]] = [
    ("empty-chunk-identity", body(chunk(choice(content="x", finish="stop"), id=""))),
    ("unexpected-chunk-object", body(chunk(choice(finish="stop"), object="chat.completion"))),
    ("choice-without-delta", body(chunk({"index": 0, "finish_reason": "stop"}))),
    ("missing-choices", body(chunk(choice(finish="stop")), _usage_only)),
    ("missing-choice-index", body(chunk(choice(None, finish="stop")))),
    (
        "missing-tool-call-index",
        body(chunk(choice(tool_calls=[tool(None, "c", "f")], finish="stop"))),
    ),
    (
        "role-changed",
        body(chunk(choice(role="assistant")), chunk(choice(role="user", finish="stop"))),
    ),
    (
        "tool-call-index-ambiguous",
        body(
            chunk(choice(tool_calls=[tool(0, "c", "f")])),
            chunk(choice(tool_calls=[tool(None, None, "f")], finish="stop")),
        ),
    ),
    (
        "tool-call-id-changed",
        body(
            chunk(choice(tool_calls=[tool(0, "a")])),
            chunk(choice(tool_calls=[tool(0, "b")], finish="stop")),
        ),
    ),
    (
        "tool-call-name-changed",
        body(
            chunk(choice(tool_calls=[tool(0, None, "f")])),
            chunk(choice(tool_calls=[tool(0, None, "g")], finish="stop")),
        ),
    ),
    (
        "function-name-changed",
        body(
            chunk(choice(function_call={"name": "f"})),
            chunk(choice(function_call={"name": "g"}, finish="stop")),
        ),
    ),
    ("reasoning-field", body(chunk(choice(reasoning="r", finish="stop")))),
    ("missing-done-marker", body(chunk(choice(finish="stop")), done=False)),
    ("done-without-finish-reason", body(chunk(choice(content="x")))),
    ("data-after-done", body(chunk(choice(finish="stop"))) + body(chunk(choice()), done=False)),
    ("data-after-error", body({"error": {"message": "e"}}, chunk(choice()))),
    ("empty-data", b"data:\n\n" + body(chunk(choice(finish="stop")))),
    ("unknown-event", body({"type": "ping"}, chunk(choice(finish="stop")))),
    ("unexpected-event-type", b"event: delta\n" + body(chunk(choice(finish="stop")))),
    ("unterminated-event", body(chunk(choice(finish="stop")), done=False) + b"data: [DONE]"),
    ("keepalive-comment", b": ping\n\n" + body(chunk(choice(finish="stop")))),
    ("prompt-filter-results", body(chunk(prompt_filter_results=[]), chunk(choice(finish="stop")))),
]


@pytest.mark.parametrize(("code", "data"), ANOMALIES, ids=[a[0] for a in ANOMALIES])
def test_each_anomaly_is_tolerated_by_default_and_raised_in_strict_mode(
    code: str, data: bytes
) -> None:
    stream, _ = run(data)
    assert code in codes(stream)
    strict = ChatCompletionsStream(strict=True)
    with pytest.raises(RemoteProtocolError) as info:
        strict.feed(data)
        strict.close()
    assert f"[{code}; strict mode]" in str(info.value)
