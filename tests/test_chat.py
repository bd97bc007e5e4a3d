"""Every recorded Chat Completions stream through ChatCompletionsStream.

Each stream must agree with the facts in its sidecar (derived from the bytes by the corpus builder,
not by this library) and give the same chunks and snapshot whatever the chunking.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _corpus import byte_chunks, load, names, random_chunks

from sansio_responses._chat.models import ChatCompletion, ChatCompletionChunk
from sansio_responses._chat.stream import ChatCompletionsStream
from sansio_responses._errors import RemoteProtocolError

CHAT = names("chat")


def run(chunks: Any) -> tuple[ChatCompletionsStream, list[Any]]:
    stream = ChatCompletionsStream()
    events: list[Any] = []
    for piece in chunks:
        events.extend(stream.feed(piece))
    events.extend(stream.close())
    return stream, events


def wire_objects(body: bytes) -> list[dict[str, Any]]:
    """The JSON data of each event, read independently of the library (corpus files are LF-framed
    ``data:`` lines, one per event, as the corpus README states)."""
    out = []
    for line in body.decode("utf-8").split("\n"):
        if line.startswith("data:"):
            data = line[5:].removeprefix(" ")
            if data != "[DONE]":
                out.append(json.loads(data))
    return out


def test_corpus_has_chat_streams() -> None:
    assert len(CHAT) >= 18


@pytest.mark.parametrize("name", CHAT)
def test_agrees_with_sidecar(name: str) -> None:
    body, facts = load(name)
    stream, events = run([body])
    snap = stream.snapshot()
    assert isinstance(snap, ChatCompletion)
    assert len(events) == facts["event_count"]
    assert all(isinstance(e, ChatCompletionChunk) for e in events)
    first = snap.choice(0)
    assert first is not None
    assert first.message.content == facts["final_output_text"]
    calls = [
        {"name": tc.function.name, "arguments": tc.function.arguments}
        for tc in first.message.tool_calls
    ]
    assert calls == facts["final_function_calls"]
    usage = None if snap.usage is None else snap.usage.to_dict()
    assert usage == facts["usage"]
    terminal = facts["terminal"]
    assert [c.finish_reason for c in snap.choices] == terminal["finish_reasons"]
    assert stream.done is terminal["done_marker"]
    assert snap.model == facts["model"]
    assert stream.outcome == "completed"
    assert stream.error_event is None


@pytest.mark.parametrize("name", CHAT)
def test_chunks_round_trip_the_wire(name: str) -> None:
    body, _ = load(name)
    _, events = run([body])
    assert [e.to_dict() for e in events] == wire_objects(body)


@pytest.mark.parametrize("name", CHAT)
def test_to_dict_is_the_non_streaming_shape(name: str) -> None:
    body, _ = load(name)
    stream, _ = run([body])
    snap = stream.snapshot()
    assert snap is not None
    d = snap.to_dict()
    json.dumps(d)  # plain JSON values only
    assert d["object"] == "chat.completion"
    assert list(d)[:8] == [
        "id",
        "object",
        "created",
        "model",
        "choices",
        "usage",
        "system_fingerprint",
        "service_tier",
    ]
    for choice in d["choices"]:
        assert {"index", "message", "logprobs", "finish_reason"} <= set(choice)
        message = choice["message"]
        assert message["role"] == "assistant"
        assert {"content", "refusal"} <= set(message)
        assert "obfuscation" not in message
        for tc in message.get("tool_calls", []):
            assert set(tc) == {"id", "type", "function"}
            assert tc["type"] == "function"
            assert tc["id"].startswith("call_")
    assert "obfuscation" not in d


@pytest.mark.parametrize("name", CHAT)
def test_byte_by_byte_and_random_splits_agree(name: str) -> None:
    body, _ = load(name)
    whole, whole_events = run([body])
    expected = whole.snapshot()
    for chunks in [byte_chunks(body), *(random_chunks(body, seed) for seed in range(5))]:
        stream, events = run(chunks)
        assert events == whole_events
        assert stream.snapshot() == expected
        assert stream.outcome == whole.outcome
        assert stream.diagnostics == whole.diagnostics


@pytest.mark.parametrize("name", CHAT)
def test_content_snapshot_matches_deltas_so_far(name: str) -> None:
    body, _ = load(name)
    _, events = run([body])
    so_far: dict[int, str] = {}
    for chunk in events:
        for choice in chunk.choices:
            if choice.delta is not None and choice.delta.content is not None:
                so_far[choice.index] = so_far.get(choice.index, "") + choice.delta.content
        # read after the whole stream was fed: the snapshot is the one at this chunk, not the end
        for index in (0, 1, 2):
            assert chunk.content_snapshot(index) == so_far.get(index)


def test_otel_stream_gives_the_non_streaming_completion() -> None:
    """Written by hand from the recorded chunks, in the shape of a non-streaming response."""
    body, _ = load("chat-otel-python-contrib-test_chat_completion_streaming_not_complete")
    stream, _ = run([body])
    snap = stream.snapshot()
    assert snap is not None
    assert snap.to_dict() == {
        "id": "chatcmpl-ASYMZbRqo8Bkz53FVzaTj7W7feOn4",
        "object": "chat.completion",
        "created": 1731368639,
        "model": "gpt-4-0613",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "This is a test.", "refusal": None},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": None,
        "system_fingerprint": None,
        "service_tier": None,
    }


def test_refusal_stream_keeps_refusal_and_its_logprobs() -> None:
    body, _ = load("chat-openai-node-emits-refusal-logprobs-events")
    stream, events = run([body])
    snap = stream.snapshot()
    assert snap is not None
    choice = snap.choices[0]
    assert choice.message.content is None
    refusal_deltas = "".join(
        e.choices[0].delta.refusal or "" for e in events if e.choices and e.choices[0].delta
    )
    assert choice.message.refusal == refusal_deltas
    assert refusal_deltas.startswith("I'm very sorry")
    assert choice.logprobs is not None
    assert choice.logprobs["content"] is None
    tokens = [entry["token"] for entry in choice.logprobs["refusal"]]
    assert "".join(tokens) == refusal_deltas


def test_content_logprobs_are_extended_across_chunks() -> None:
    body, _ = load("chat-openai-node-emits-content-logprobs-events")
    stream, events = run([body])
    snap = stream.snapshot()
    assert snap is not None
    logprobs = snap.choices[0].logprobs
    assert logprobs is not None
    sent = [
        entry
        for e in events
        for c in e.choices
        if c.logprobs is not None and c.logprobs.content
        for entry in c.logprobs.content
    ]
    assert len(sent) > 1
    assert logprobs["content"] == sent
    assert "".join(x["token"] for x in logprobs["content"]) == snap.choices[0].message.content


def test_multiple_choices_are_kept_apart() -> None:
    body, facts = load("chat-openai-python-test_parse_pydantic_model_multiple_choices")
    stream, events = run([body])
    snap = stream.snapshot()
    assert snap is not None
    assert [c.index for c in snap.choices] == [0, 1, 2]
    for c in snap.choices:
        expected = "".join(
            ch.delta.content or ""
            for e in events
            for ch in e.choices
            if ch.index == c.index and ch.delta is not None
        )
        assert c.message.content == expected
        assert json.loads(expected)["city"] == "San Francisco"
    assert [c.finish_reason for c in snap.choices] == facts["terminal"]["finish_reasons"]


def test_parallel_tool_calls_accumulate_by_index() -> None:
    body, facts = load("chat-openllmetry-test_open_ai_function_calls_tools_streaming_parallel-2")
    stream, _ = run([body])
    snap = stream.snapshot()
    assert snap is not None
    calls = snap.choices[0].message.tool_calls
    assert [tc.index for tc in calls] == [0, 1]
    assert len({tc.id for tc in calls}) == 2
    for tc, fact in zip(calls, facts["final_function_calls"], strict=True):
        assert tc.function.name == fact["name"]
        json.loads(tc.function.arguments)
    assert snap.choices[0].message.content is None
    assert snap.service_tier == "default"


def test_azure_stream_is_tolerated_and_noted() -> None:
    body, _ = load("chat-vercel-ai-azure-model-router.1")
    stream, events = run([body])
    assert {d.code for d in stream.diagnostics} == {"empty-chunk-identity", "prompt-filter-results"}
    snap = stream.snapshot()
    assert snap is not None
    assert snap.id == "chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt"
    assert snap.created == 1762317021
    filters = snap.to_dict()["prompt_filter_results"]
    assert filters == events[0].extra["prompt_filter_results"]
    # the last non-null choice-level content_filter_results is kept, as in a non-streaming response
    assert snap.choices[0].to_dict()["content_filter_results"] == {}
    assert events[1].obfuscation == "D3WbtIxo1Q2j1Q"
    assert "obfuscation" in events[1].extra


def test_strict_mode_rejects_the_azure_stream_at_its_first_chunk() -> None:
    body, _ = load("chat-vercel-ai-azure-model-router.1")
    stream = ChatCompletionsStream(strict=True)
    with pytest.raises(RemoteProtocolError) as info:
        stream.feed(body)
    assert "empty-chunk-identity" in str(info.value)
    assert info.value.offset == 0
