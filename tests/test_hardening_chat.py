"""ChatCompletionsStream keeps its promises on hostile input (issue 10): only events or a located
ProtocolError, nothing half-applied, memory near the text's own size, bounded choices and tool calls,
and the Chat-specific fixes (custom tool calls, refusals, roles, ChatUnknownEvent.to_dict)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from _strict import check_strict_stops_where_lenient_notes
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hardening_responses import held_after

import sansio_responses as sr


def frame(obj: Any) -> bytes:
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


def chunk(*choices: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": list(choices),
        **extra,
    }


def choice(index: int = 0, finish: str | None = None, **delta: Any) -> dict[str, Any]:
    return {"index": index, "delta": delta, "finish_reason": finish}


def deep_text(depth: int) -> str:
    return "[" * depth + "]" * depth


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


HELLO = frame(chunk(choice(role="assistant", content="hello")))

# Where the deep value goes, as raw data text of one chunk whose content is "x".
PLACES: dict[str, Callable[[str], str]] = {
    "chunk field": lambda deep: (
        '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":'
        '{"content":"x"}}],"vendor":' + deep + "}"
    ),
    "delta field": lambda deep: (
        '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":'
        '{"content":"x","audio":{"data":' + deep + "}}}]}"
    ),
    "tool call field": lambda deep: (
        '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":'
        '{"content":"x","tool_calls":[{"index":0,"id":"t","function":{"name":"f","arguments":""},'
        '"vendor":' + deep + "}]}}]}"
    ),
    "choice field": lambda deep: (
        '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":'
        '{"content":"x"},"content_filter_results":' + deep + "}]}"
    ),
    "second choice": lambda deep: (
        '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":'
        '{"content":"x"}},{"index":1,"delta":{"content":"y","audio":' + deep + "}}]}"
    ),
}


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("depth", [300, 600, 990, 1500, 20000])
def test_deep_nesting_is_a_located_error_and_nothing_is_half_applied(
    place: str, depth: int
) -> None:
    stream = sr.ChatCompletionsStream()
    hostile = b"data: " + PLACES[place](deep_text(depth)).encode() + b"\n\n"
    with pytest.raises(sr.RemoteProtocolError) as info:
        stream.feed(HELLO + hostile)
    assert info.value.offset == len(HELLO)
    assert len(info.value.events) == 1  # type: ignore[attr-defined]
    assert stream.error is info.value
    snapshot = stream.snapshot()
    assert snapshot is not None
    assert snapshot.choices[0].message.content == "hello"  # not "hellox"
    assert len(snapshot.choices) == 1
    snapshot.to_dict()


@pytest.mark.parametrize("place", sorted(PLACES))
def test_no_nesting_limit_still_never_overflows(place: str) -> None:
    depth = 800
    stream = sr.ChatCompletionsStream(max_nesting_depth=None)
    events = stream.feed(HELLO + b"data: " + PLACES[place](deep_text(depth)).encode() + b"\n\n")
    assert len(events) == 2
    events[1].to_dict()
    wire = stream.snapshot().to_dict()  # type: ignore[union-attr]
    assert wire["choices"][0]["message"]["content"] == "hellox"


@settings(max_examples=60, deadline=None)
@given(
    depth=st.integers(min_value=1, max_value=1200),
    place=st.sampled_from(sorted(PLACES)),
    split=st.integers(min_value=1, max_value=4096),
)
def test_any_depth_anywhere_gives_events_or_protocol_error(
    depth: int, place: str, split: int
) -> None:
    body = HELLO + b"data: " + PLACES[place](deep_text(depth)).encode() + b"\n\n"
    body += frame(chunk(choice(finish="stop"))) + b"data: [DONE]\n\n"
    stream = sr.ChatCompletionsStream()
    events: list[Any] = []
    try:
        for i in range(0, len(body), split):
            events += stream.feed(body[i : i + split])
        events += stream.close()
    except sr.ProtocolError as exc:
        events += exc.events  # type: ignore[attr-defined]
        assert stream.snapshot().choices[0].message.content == "hello"  # type: ignore[union-attr]
    else:
        assert stream.snapshot().choices[0].message.content == "hellox"  # type: ignore[union-attr]
    for event in events:
        event.to_dict()
        if isinstance(event, sr.ChatCompletionChunk):
            event.content_snapshot()
    stream.snapshot().to_dict()  # type: ignore[union-attr]


def test_a_negative_index_later_in_a_chunk_applies_nothing_of_it() -> None:
    stream = sr.ChatCompletionsStream()
    bad = chunk(choice(content="x"), choice(index=-1, content="y"))
    with pytest.raises(sr.RemoteProtocolError, match="index"):
        stream.feed(HELLO + frame(bad))
    assert stream.snapshot().choices[0].message.content == "hello"  # type: ignore[union-attr]
    tools = chunk(choice(content="x", tool_calls=[{"index": 0, "id": "a"}, {"index": -2}]))
    stream = sr.ChatCompletionsStream()
    with pytest.raises(sr.RemoteProtocolError, match="tool_calls"):
        stream.feed(HELLO + frame(tools))
    message = stream.snapshot().choices[0].message  # type: ignore[union-attr]
    assert message.content == "hello" and message.tool_calls == []


# -- 7. limits on choices and tool calls ----------------------------------------------------------


def test_choices_are_bounded() -> None:
    stream = sr.ChatCompletionsStream(max_choices=2)
    stream.feed(frame(chunk(choice(0, content="a"), choice(1, content="b"))))
    stream.feed(frame(chunk(choice(1, content="c"))))  # an existing choice: fine
    with pytest.raises(sr.RemoteProtocolError, match="max_choices") as info:
        stream.feed(frame(chunk(choice(0, content="z"), choice(2, content="d"))))
    assert info.value.offset is not None
    snapshot = stream.snapshot()
    assert [c.message.content for c in snapshot.choices] == ["a", "bc"]  # type: ignore[union-attr]


def test_tool_calls_are_bounded() -> None:
    stream = sr.ChatCompletionsStream(max_tool_calls=2)
    calls = [
        {"index": i, "id": f"t{i}", "function": {"name": "f", "arguments": ""}} for i in range(2)
    ]
    stream.feed(frame(chunk(choice(tool_calls=calls))))
    stream.feed(frame(chunk(choice(tool_calls=[{"index": 1, "function": {"arguments": "{}"}}]))))
    with pytest.raises(sr.RemoteProtocolError, match="max_tool_calls"):
        stream.feed(frame(chunk(choice(tool_calls=[{"id": "t9", "function": {"name": "g"}}]))))
    assert len(stream.snapshot().choices[0].message.tool_calls) == 2  # type: ignore[union-attr]


# -- 7. memory: bookkeeping does not grow per chunk ------------------------------------------------


@pytest.mark.parametrize("structured", [False, True])
def test_tiny_chunks_hold_memory_near_the_text_size(structured: bool) -> None:
    n = 30_000
    body = (
        frame(chunk(choice(role="assistant", content=""))) + frame(chunk(choice(content="ab"))) * n
    )

    def run() -> object:
        stream = sr.ChatCompletionsStream(response_format=dict if structured else None)
        for i in range(0, len(body), 65536):
            stream.feed(body[i : i + 65536])
        return stream

    # The text is 60 kB; before the fix the stream kept ~140 bytes per chunk (4.2 MB here).
    assert held_after(run) < 4 * 2 * n + 100_000


def test_chunks_still_answer_for_their_own_time() -> None:
    stream = sr.ChatCompletionsStream(response_format={"type": "json_object"})
    pieces = ['{"a"', ": [1", ", 2]", "}"]
    tools = [{"index": 0, "id": "t", "function": {"name": "f", "arguments": ""}}]
    chunks = stream.feed(frame(chunk(choice(role="assistant", tool_calls=tools))))
    for piece in pieces:
        delta = {"content": piece, "tool_calls": [{"index": 0, "function": {"arguments": piece}}]}
        chunks += stream.feed(frame(chunk(choice(**delta))))
    chunks += stream.feed(frame(chunk(choice(finish="stop"))))
    # Read newest first: older chunks still give the value of their time.
    assert chunks[-1].content_parsed() == {"a": [1, 2]}
    assert chunks[0].content_snapshot() is None and chunks[0].content_parsed() is None
    assert chunks[0].tool_arguments_parsed() is None
    assert chunks[2].content_snapshot() == '{"a": [1'
    assert chunks[2].content_parsed() == {"a": []}  # "1" may still grow: not yet a value
    assert chunks[2].tool_arguments_parsed() == {"a": []}
    assert chunks[3].content_parsed() == {"a": [1, 2]}
    assert chunks[1].content_parsed() == {}
    assert chunks[-1].tool_arguments_parsed() == {"a": [1, 2]}
    assert stream.parsed() == {"a": [1, 2]}


# -- 11. custom tool calls ---------------------------------------------------------------------------


def test_custom_tool_call_beside_a_function_call() -> None:
    stream = sr.ChatCompletionsStream()
    custom = {"index": 0, "id": "c", "type": "custom", "custom": {"name": "grep", "input": "a"}}
    function = {
        "index": 1,
        "id": "f",
        "type": "function",
        "function": {"name": "f", "arguments": ""},
    }
    stream.feed(frame(chunk(choice(role="assistant", tool_calls=[custom, function]))))
    stream.feed(frame(chunk(choice(tool_calls=[{"index": 0, "custom": {"input": "bc"}}]))))
    stream.feed(
        frame(chunk(choice(tool_calls=[{"index": 1, "function": {"arguments": '{"x":1}'}}])))
    )
    stream.feed(frame(chunk(choice(finish="tool_calls"))) + b"data: [DONE]\n\n")
    calls = stream.snapshot().to_dict()["choices"][0]["message"]["tool_calls"]  # type: ignore[union-attr]
    assert calls[0] == {"id": "c", "type": "custom", "custom": {"name": "grep", "input": "abc"}}
    assert calls[1]["function"] == {"name": "f", "arguments": '{"x":1}'}
    assert stream.parsed_tool_arguments(0) == ["abc", {"x": 1}]


# -- 12. a refusal has no parsed value ---------------------------------------------------------------


def test_parsed_is_none_for_a_refusal() -> None:
    stream = sr.ChatCompletionsStream(response_format=dict)
    stream.feed(frame(chunk(choice(role="assistant", content='{"a": 1}', refusal="no"))))
    stream.feed(frame(chunk(choice(finish="stop"))) + b"data: [DONE]\n\n")
    assert stream.parsed() is None
    plain = sr.ChatCompletionsStream(response_format=dict)
    plain.feed(frame(chunk(choice(role="assistant", content='{"a": 1}', finish="stop"))))
    assert plain.parsed() == {"a": 1}


# -- 13. roles ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["user", "system", "tool", "developer"])
def test_a_role_other_than_assistant_is_noted(role: str) -> None:
    stream = sr.ChatCompletionsStream()
    stream.feed(frame(chunk(choice(role=role, content="x"))))
    assert stream.diagnostic_counts.get("unexpected-role") == 1
    assert stream.snapshot().choices[0].message.role == role  # type: ignore[union-attr]
    ok = sr.ChatCompletionsStream()
    ok.feed(frame(chunk(choice(role="assistant", content="x"))))
    assert "unexpected-role" not in ok.diagnostic_counts
    with pytest.raises(sr.RemoteProtocolError, match="unexpected-role"):
        sr.ChatCompletionsStream(strict=True).feed(frame(chunk(choice(role=role))))


# -- 14. ChatUnknownEvent.to_dict -----------------------------------------------------------------


def test_unknown_event_has_to_dict() -> None:
    stream = sr.ChatCompletionsStream()
    (event,) = stream.feed(frame({"type": "ping", "n": [1, {"k": "v"}]}))
    assert isinstance(event, sr.ChatUnknownEvent)
    wire = event.to_dict()
    assert wire == {"type": "ping", "n": [1, {"k": "v"}]}
    wire["n"].append(2)
    assert event.data["n"] == [1, {"k": "v"}]  # a copy


def test_non_object_tool_call_type_in_data_is_a_located_error() -> None:
    stream = sr.ChatCompletionsStream()
    with pytest.raises(sr.RemoteProtocolError) as info:
        stream.feed(HELLO + frame(chunk(choice(tool_calls=[{"index": {}}]))))
    assert len(info.value.events) == 1  # type: ignore[attr-defined]


@settings(max_examples=15, deadline=None)
@given(
    indices=st.lists(
        st.tuples(st.integers(0, 10**12), st.integers(0, 10**12)), min_size=20, max_size=100
    )
)
def test_hostile_indices_hold_memory_within_a_constant_of_the_bytes(indices: list[Any]) -> None:
    frames = []
    for c, t in indices:
        call = {"index": t, "id": f"t{t}", "function": {"name": "f", "arguments": "{}"}}
        frames.append(frame(chunk(choice(c, content="x", tool_calls=[call]))))
    body = b"".join(frames)

    def run() -> object:
        stream = sr.ChatCompletionsStream(max_choices=None, max_tool_calls=None)
        stream.feed(body)
        stream.snapshot()
        return stream

    assert held_after(run) < 6 * len(body) + 200_000


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.integers(-1, 3), st.text(max_size=3)),
        min_size=1,
        max_size=120,
    ),
    st.randoms(use_true_random=False),
)
def test_every_chunk_answers_for_its_own_time_in_any_reading_order(
    steps: list[Any], rng: Any
) -> None:
    """The per-chunk marks (folded every few dozen chunks) against a model kept per chunk."""
    stream = sr.ChatCompletionsStream(response_format={"type": "json_object"})
    content: dict[int, str] = {}
    args: dict[tuple[int, int], str] = {}
    seen: list[tuple[Any, dict[int, str], dict[tuple[int, int], str]]] = []
    for c, t, piece in steps:
        if t < 0:
            delta: dict[str, Any] = {"content": piece}
            content[c] = content.get(c, "") + piece
        else:
            call = {"index": t, "id": f"t{t}", "function": {"name": "f", "arguments": piece}}
            delta = {"tool_calls": [call]}
            args[(c, t)] = args.get((c, t), "") + piece
        (event,) = stream.feed(frame(chunk(choice(c, **delta))))
        seen.append((event, dict(content), dict(args)))
    rng.shuffle(seen)
    for event, content_then, args_then in seen:
        for c in range(3):
            assert event.content_snapshot(c) == content_then.get(c)
            for t in range(4):
                text = args_then.get((c, t), "")
                expected = sr.PartialJSON()
                try:
                    expected.feed(text)
                    value = expected.value if text else None
                except ValueError:
                    continue  # invalid JSON: what the lazy value is then is not compared here
                assert event.tool_arguments_parsed(c, t) == value


# -- strict mode: a diagnostic raised partway through a chunk applies nothing of it (issue 10) --

STRICT_CASES = {
    "role-changed": chunk(choice(content="x"), choice(role="user")),
    "missing-tool-call-index": chunk(
        choice(content="x", tool_calls=[{"id": "a", "function": {"name": "f", "arguments": "{"}}])
    ),
    "reasoning-field": chunk(choice(content="x", reasoning_content="r")),
    "tool-call-name-changed": chunk(
        choice(content="x", tool_calls=[{"index": 0, "function": {"arguments": "1"}}]),
        choice(tool_calls=[{"index": 0, "function": {"name": "g"}}]),
    ),
    "choice-without-delta": chunk(
        choice(content="x"), {"index": 1, "content_filter_results": {}}, choice(index=2)
    ),
    "missing-choice-index": chunk(choice(index=3, content="y"), {"delta": {"content": "x"}}),
}


@pytest.mark.parametrize("code", sorted(STRICT_CASES))
def test_a_strict_mode_error_applies_nothing_of_its_chunk(code: str) -> None:
    opening = frame(
        chunk(choice(role="assistant", content="hello", tool_calls=[{"index": 0, "id": "t"}]))
    )
    opening += frame(chunk(choice(tool_calls=[{"index": 0, "function": {"name": "f"}}])))
    lenient = sr.ChatCompletionsStream()
    lenient.feed(opening)
    before = lenient.snapshot().to_dict()  # type: ignore[union-attr]
    lenient.feed(frame(STRICT_CASES[code]))
    assert code in lenient.diagnostic_counts  # the case is what it says

    stream = sr.ChatCompletionsStream(strict=True)
    with pytest.raises(sr.RemoteProtocolError, match=f"{code}; strict mode") as info:
        stream.feed(opening + frame(STRICT_CASES[code]))
    assert info.value.offset == len(opening)
    assert len(info.value.events) == 2  # type: ignore[attr-defined]
    assert stream.snapshot().to_dict() == before  # type: ignore[union-attr]
    assert stream.parsed_tool_arguments(0) == [None]


strict_delta = st.fixed_dictionaries(
    {},
    optional={
        "role": st.sampled_from(["assistant", "user"]),
        "content": st.sampled_from(["a", ""]),
        "reasoning": st.just("r"),
        "tool_calls": st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "index": st.integers(0, 2),
                    "id": st.sampled_from(["a", "b"]),
                    "function": st.fixed_dictionaries(
                        {},
                        optional={
                            "name": st.sampled_from(["f", "g"]),
                            "arguments": st.just("1"),
                        },
                    ),
                },
            ),
            max_size=3,
        ),
        "function_call": st.fixed_dictionaries(
            {}, optional={"name": st.sampled_from(["f", "g"]), "arguments": st.just("x")}
        ),
    },
)
strict_choice = st.fixed_dictionaries(
    {},
    optional={
        "index": st.integers(0, 2),
        "delta": strict_delta,
        "finish_reason": st.sampled_from(["stop", None]),
    },
)
strict_chunk = st.builds(
    lambda choices, ident, extra: {**ident, "choices": choices, **extra},
    st.lists(strict_choice, max_size=3),
    st.sampled_from([{"id": "c", "object": "chat.completion.chunk", "model": "m"}, {"id": ""}]),
    st.sampled_from([{}, {"prompt_filter_results": []}, {"vendor": 1}]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(strict_chunk, min_size=1, max_size=6), st.booleans())
def test_strict_mode_stops_where_lenient_mode_notes_with_the_state_before(
    chunks: list[dict[str, Any]], done: bool
) -> None:
    frames = [frame(c) for c in chunks] + ([b"data: [DONE]\n\n"] if done else [])
    check_strict_stops_where_lenient_notes(sr.ChatCompletionsStream, frames, _snapshot_dict)


def _snapshot_dict(stream: sr.ChatCompletionsStream) -> Any:
    snapshot = stream.snapshot()
    return None if snapshot is None else snapshot.to_dict()
