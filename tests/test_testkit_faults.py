"""Faults anywhere in the builders: an ``error`` event at any place of a Responses stream (events
may follow it), an ``{"error": ...}`` chunk in a Chat stream, and bodies cut after N events or in
the middle of one. Each built body is read back with the library's decoders and with an
independent event-stream reader, so the fault is where the test put it."""

from __future__ import annotations

import json

import pytest

import sansio_responses as sr
from sansio_responses.testing import ChatStreamBuilder, StreamBuilder, encode_sse, split_events


def _types(builder: StreamBuilder) -> list[str]:
    return [event["type"] for event in builder.events()]


def _data(body: bytes) -> list[str]:
    """The data of each complete event block of *body* (the WHATWG rules for this framing)."""
    out = []
    for block in split_events(body):
        if not block.endswith((b"\n\n", b"\r\n\r\n")):
            continue  # unterminated: never dispatched
        lines = block.decode().splitlines()
        data = [line[6:] for line in lines if line.startswith("data: ")]
        if data:
            out.append("\n".join(data))
    return out


def test_error_where_it_is_called_with_events_after_it() -> None:
    builder = (
        StreamBuilder(response_id="resp_e")
        .text("Hello", chunks=2)
        .error("rate_limit_exceeded", "Slow down", type="rate_limit_error")
        .function_call("lookup", '{"q": 1}')
        .completed()
    )
    types = _types(builder)
    at = types.index("error")
    # Right after the message item, before the function call item.
    assert types[at - 1] == "response.output_item.done"
    assert types[at + 1] == "response.output_item.added"
    assert types[-1] == "response.completed"
    events = builder.events()
    assert events[at]["error"] == {
        "type": "rate_limit_error",
        "code": "rate_limit_exceeded",
        "message": "Slow down",
        "param": None,
    }
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    # The error is not an output item: the terminal output holds the two items, numbered 0 and 1.
    output = events[-1]["response"]["output"]
    assert [item["type"] for item in output] == ["message", "function_call"]
    assert events[at + 1]["output_index"] == 1

    stream = sr.ResponsesStream()
    decoded = stream.feed(builder.to_sse())
    stream.close()
    assert [e.type for e in decoded] == types
    error = decoded[at]
    assert isinstance(error, sr.ResponseErrorEvent) and error.message == "Slow down"


def test_error_called_last_ends_the_body_as_before() -> None:
    body = StreamBuilder(response_id="resp_l").text("Hi").error("server_error", "boom").to_sse()
    stream = sr.ResponsesStream()
    stream.feed(body)
    stream.close()
    assert stream.outcome == "error"
    failed = StreamBuilder(response_id="resp_f").text("Hi").error(then_failed=True)
    assert _types(failed)[-2:] == ["error", "response.failed"]
    with pytest.raises(ValueError, match="already ended with error"):
        failed.text("more")


def test_error_at_any_index_of_the_finished_stream() -> None:
    def build() -> StreamBuilder:
        return StreamBuilder(response_id="resp_a").text("abc", chunks=3).completed()

    plain = _types(build())
    for position in range(len(plain) + 1):
        builder = build().error("server_error", f"at {position}", at=position)
        events = builder.events()
        assert [e["type"] for e in events] == [*plain[:position], "error", *plain[position:]]
        assert events[position]["error"]["message"] == f"at {position}"
        assert [e["sequence_number"] for e in events] == list(range(len(events)))
    # Between two deltas of one item, and several at once (each at its own index).
    two = build().error("a", at=6).error("b", at=0)
    events = two.events()
    assert events[0]["error"]["code"] == "b" and events[6]["error"]["code"] == "a"
    assert events[5]["type"] == events[7]["type"] == "response.output_text.delta"
    with pytest.raises(ValueError, match=r"error\(at=99\): the stream has only"):
        build().error(at=99).events()
    with pytest.raises(ValueError, match="pick one"):
        build().error(at=1, then_failed=True)
    with pytest.raises(ValueError, match="at must be >= 0"):
        build().error(at=-1)


def test_chat_error_chunk_at_its_place() -> None:
    builder = (
        ChatStreamBuilder(completion_id="chatcmpl-x")
        .content("Hel", chunks=1)
        .error("The server had an error", code="server_error")
        .content("lo")
        .finish()
    )
    chunks = builder.chunks()
    assert chunks[2] == {
        "error": {
            "message": "The server had an error",
            "type": "server_error",
            "param": None,
            "code": "server_error",
        }
    }
    body = builder.to_sse()
    assert [json.loads(d) for d in _data(body)[:-1]] == chunks and _data(body)[-1] == "[DONE]"

    stream = sr.ChatCompletionsStream()
    events = stream.feed(body)
    stream.close()
    assert [type(e).__name__ for e in events] == [
        "ChatCompletionChunk",
        "ChatCompletionChunk",
        "ChatStreamError",
        "ChatCompletionChunk",
        "ChatCompletionChunk",
    ]
    assert stream.outcome == "error"


@pytest.mark.parametrize("kind", ["responses", "chat"])
def test_cut_after_n_events_and_mid_event(kind: str) -> None:
    if kind == "responses":
        builder: StreamBuilder | ChatStreamBuilder = (
            StreamBuilder(response_id="resp_c").text("Hello world", chunks=4).completed()
        )
    else:
        builder = ChatStreamBuilder(completion_id="chatcmpl-c").content("Hello", 3).finish()
    for options in [{}, {"crlf": True, "keepalive_every": 2, "comments": True}]:
        whole = builder.to_sse(**options)  # type: ignore[arg-type]
        count = len(_data(whole))
        for n in range(count + 1):
            cut = builder.to_sse(cut_after_events=n, **options)  # type: ignore[arg-type]
            assert whole.startswith(cut)
            assert _data(cut) == _data(whole)[:n]
            if n < count:
                # Mid-event: 1 byte into the next block, and all of it but its last byte.
                nxt = builder.to_sse(cut_after_events=n + 1, **options)  # type: ignore[arg-type]
                for into in (1, len(nxt) - len(cut) - 1):
                    part = builder.to_sse(cut_after_events=n, cut_into_next=into, **options)  # type: ignore[arg-type]
                    assert len(part) == len(cut) + into and whole.startswith(part)
                    assert _data(part) == _data(whole)[:n]  # the partial event never dispatches


def test_a_mid_event_cut_truncates_the_stream() -> None:
    builder = StreamBuilder(response_id="resp_t").text("Hello world", chunks=4).completed()
    body = builder.to_sse(cut_after_events=5, cut_into_next=25)
    stream = sr.ResponsesStream()
    events = stream.feed(body)
    assert len(events) == 5
    with pytest.raises(sr.TruncatedStream):
        stream.close()
    assert stream.outcome == "truncated"


def test_cut_options_are_checked() -> None:
    blocks: list[tuple[str | None, str]] = [(None, "1"), (None, "2")]
    with pytest.raises(ValueError, match="the body has 2 events"):
        encode_sse(blocks, cut_after_events=3)
    with pytest.raises(ValueError, match="no event follows event 2"):
        encode_sse(blocks, cut_after_events=2, cut_into_next=1)
    with pytest.raises(ValueError, match="the next event takes 9 bytes"):
        encode_sse(blocks, cut_after_events=1, cut_into_next=9)
    with pytest.raises(ValueError, match="needs cut_after_events"):
        encode_sse(blocks, cut_into_next=1)
    assert encode_sse(blocks, cut_after_events=1, cut_into_next=8) == b"data: 1\n\ndata: 2\n"
    assert encode_sse(blocks, cut_after_events=0) == b""
