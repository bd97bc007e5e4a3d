"""The public test kit: stream builders, shipped recordings and the scripted loopback server.

The server is exercised over real loopback sockets with httpx (and h11 on a raw socket where the
HTTP framing itself is the subject).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import h11
import httpx
import pytest
from _blocking import blocking

from sansio_responses._http.requests import (
    NotFoundError,
    RateLimitError,
    UnexpectedContentType,
    chat_request,
    check_content_type,
    response_error,
    responses_request,
    resume_request,
)
from sansio_responses.testing import (
    ChatStreamBuilder,
    Faults,
    ResponsesServer,
    Script,
    StreamBuilder,
    recording,
    recording_facts,
    recordings,
    serve,
    split_events,
)
from sansio_responses.testing._script import plan

REAL = Path(__file__).parent / "data" / "real"


# --- an independent event-stream reader (WHATWG "Interpreting an event stream") --------------


def parse_sse(body: bytes) -> list[tuple[str, str]]:
    """(event type, data) of every dispatched event; comments ignored, any line ending."""
    out: list[tuple[str, str]] = []
    event, data = "", list[str]()
    for line in re.split(r"\r\n|\r|\n", body.decode("utf-8")):
        if line == "":
            if data:
                out.append((event or "message", "\n".join(data)))
            event, data = "", list[str]()
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            event = value
        elif name == "data":
            data.append(value)
    return out


def json_events(body: bytes) -> list[dict[str, Any]]:
    return [json.loads(data) for _, data in parse_sse(body) if data != "[DONE]"]


def real_events(name: str) -> list[dict[str, Any]]:
    return json_events((REAL / name).read_bytes())


# --- StreamBuilder ---------------------------------------------------------------------------


def full_builder(**kwargs: Any) -> StreamBuilder:
    return (
        StreamBuilder(response_id="resp_test123", **kwargs)
        .reasoning_summary(["First I think.", "Then I answer."], chunks=3)
        .text("Hello world, how are you?", chunks=4)
        .function_call("get_weather", '{"city": "Paris", "unit": "c"}', deltas=5)
        .refusal("I can't help with that.", chunks=2)
    )


def test_sequence_numbers_count_up_from_zero() -> None:
    events = full_builder().completed().events()
    assert [event["sequence_number"] for event in events] == list(range(len(events)))
    assert events[0]["type"] == "response.created"
    assert events[1]["type"] == "response.in_progress"
    assert events[-1]["type"] == "response.completed"


def test_final_response_equals_what_the_deltas_build() -> None:
    events = full_builder().completed().events()
    # Rebuild the output from the item-level and delta events only.
    items: dict[int, dict[str, Any]] = {}
    for event in events:
        kind = event["type"]
        if kind == "response.output_item.added":
            items[event["output_index"]] = json.loads(json.dumps(event["item"]))
        elif kind == "response.content_part.added":
            items[event["output_index"]]["content"].append(dict(event["part"]))
        elif kind == "response.output_text.delta":
            items[event["output_index"]]["content"][event["content_index"]]["text"] += event[
                "delta"
            ]
        elif kind == "response.refusal.delta":
            part = items[event["output_index"]]["content"][event["content_index"]]
            part["refusal"] += event["delta"]
        elif kind == "response.function_call_arguments.delta":
            items[event["output_index"]]["arguments"] += event["delta"]
        elif kind == "response.reasoning_summary_part.added":
            items[event["output_index"]]["summary"].append(dict(event["part"]))
        elif kind == "response.reasoning_summary_text.delta":
            summary = items[event["output_index"]]["summary"]
            summary[event["summary_index"]]["text"] += event["delta"]
        elif kind == "response.output_item.done":
            items[event["output_index"]]["status"] = event["item"].get("status")
            if "status" not in event["item"]:
                del items[event["output_index"]]["status"]
    final = events[-1]["response"]
    assert final["status"] == "completed"
    assert final["id"] == "resp_test123"
    assert final["output"] == [items[i] for i in sorted(items)]
    assert final["output"][1]["content"][0]["text"] == "Hello world, how are you?"
    assert final["output"][2]["arguments"] == '{"city": "Paris", "unit": "c"}'
    assert final["output"][3]["content"][0]["refusal"] == "I can't help with that."
    assert [p["text"] for p in final["output"][0]["summary"]] == [
        "First I think.",
        "Then I answer.",
    ]
    # Every .done event repeats the accumulated value of its deltas.
    done = {e["type"]: e for e in events if e["type"].endswith(".done")}
    assert done["response.output_text.done"]["text"] == "Hello world, how are you?"
    assert done["response.refusal.done"]["refusal"] == "I can't help with that."
    deltas = [e for e in events if e["type"].endswith(".delta")]
    assert len(deltas) == 6 + 4 + 5 + 2
    usage = final["usage"]
    assert usage["output_tokens"] == len(deltas)
    assert usage["output_tokens_details"]["reasoning_tokens"] == 6
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]


def test_explicit_deltas_and_chunking() -> None:
    events = StreamBuilder().text(["He", "llo", " wo", "rld"]).completed().events()
    assert [e["delta"] for e in events if e["type"] == "response.output_text.delta"] == [
        "He",
        "llo",
        " wo",
        "rld",
    ]
    events = StreamBuilder().text("abcdefg", chunks=3).completed().events()
    pieces = [e["delta"] for e in events if e["type"] == "response.output_text.delta"]
    assert "".join(pieces) == "abcdefg" and len(pieces) == 3
    assert max(map(len, pieces)) - min(map(len, pieces)) <= 1


def _key_shapes(events: list[dict[str, Any]]) -> dict[str, set[frozenset[str]]]:
    shapes: dict[str, set[frozenset[str]]] = {}
    for event in events:
        keys = frozenset(k for k in event if k != "obfuscation")
        shapes.setdefault(event["type"], set()).add(keys)
    return shapes


def test_builder_event_shapes_match_real_streams() -> None:
    real: dict[str, set[frozenset[str]]] = {}
    for path in sorted(REAL.glob("responses-*.sse")):
        for kind, shapes in _key_shapes(json_events(path.read_bytes())).items():
            real.setdefault(kind, set()).update(shapes)
    built = full_builder().completed().events()
    built += StreamBuilder(background=True).text("x").incomplete().events()
    built += StreamBuilder().text("x").error(then_failed=True).events()
    for kind, shapes in _key_shapes(built).items():
        for shape in shapes:
            assert shape in real[kind], (kind, sorted(shape), [sorted(s) for s in real[kind]])
    # Item and part shapes too.
    real_items = {
        frozenset(e["item"]) - {"phase", "encrypted_content"}
        for path in REAL.glob("responses-*.sse")
        for e in json_events(path.read_bytes())
        if e.get("type") == "response.output_item.done"
    }
    for event in built:
        if event["type"] == "response.output_item.done":
            assert frozenset(event["item"]) in real_items, sorted(event["item"])


def test_background_incomplete_failed_and_error_endings() -> None:
    events = StreamBuilder(background=True).text("Hi there", chunks=2).completed().events()
    assert [e["type"] for e in events[:3]] == [
        "response.created",
        "response.queued",
        "response.in_progress",
    ]
    assert events[0]["response"]["status"] == "queued"
    assert all(e["response"]["background"] is True for e in events if "response" in e)

    events = StreamBuilder().text("The story began", chunks=3).incomplete().events()
    last = events[-1]
    assert last["type"] == "response.incomplete"
    assert last["response"]["status"] == "incomplete"
    assert last["response"]["incomplete_details"] == {"reason": "max_output_tokens"}
    assert last["response"]["output"][0]["status"] == "incomplete"
    assert events[-2]["item"]["status"] == "incomplete"

    events = StreamBuilder().failed("server_error", "boom").events()
    assert events[-1]["type"] == "response.failed"
    assert events[-1]["response"]["error"] == {"code": "server_error", "message": "boom"}

    events = (
        StreamBuilder().error("insufficient_quota", "quota", type="insufficient_quota").events()
    )
    assert events[-1] == {
        "type": "error",
        "error": {
            "type": "insufficient_quota",
            "code": "insufficient_quota",
            "message": "quota",
            "param": None,
        },
        "sequence_number": 2,
    }
    truncated = StreamBuilder().text("abc").events()
    assert truncated[-1]["type"] == "response.output_item.done"
    with pytest.raises(ValueError, match="already ended"):
        StreamBuilder().completed().text("more")


def test_to_sse_framing_options() -> None:
    builder = StreamBuilder(response_id="resp_f").text("Hello", chunks=5).completed()
    events = builder.events()
    plain = builder.to_sse()
    assert plain.startswith(b"event: response.created\ndata: {")
    assert plain.endswith(b"\n\n") and b"\r" not in plain
    assert [(t, json.loads(d)) for t, d in parse_sse(plain)] == [(e["type"], e) for e in events]
    crlf = builder.to_sse(crlf=True)
    assert b"\r\n" in crlf and re.search(rb"(?<!\r)\n", crlf) is None
    assert json_events(crlf) == events
    keep = builder.to_sse(keepalive_every=3)
    assert keep.count(b": keep-alive\n\n") == len(events) // 3
    assert json_events(keep) == events
    commented = builder.to_sse(comments=True)
    assert commented.count(b"\n: event ") + commented.startswith(b": event ") == len(events)
    assert json_events(commented) == events


# --- ChatStreamBuilder -----------------------------------------------------------------------


def test_chat_builder_chunks_and_done_marker() -> None:
    builder = (
        ChatStreamBuilder(completion_id="chatcmpl-1")
        .content("Let me check.", chunks=3)
        .tool_call("get_weather", '{"city":"Paris"}', deltas=4)
        .tool_call("get_time", '{"tz":"CET"}', deltas=2)
        .finish("tool_calls")
        .usage(prompt_tokens=7)
    )
    body = builder.to_sse()
    assert body.endswith(b"data: [DONE]\n\n")
    assert b"event:" not in body
    chunks = json_events(body)
    assert chunks == builder.chunks()
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": "", "refusal": None}
    content = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    assert content == "Let me check."
    calls: dict[int, dict[str, str]] = {}
    for chunk in chunks:
        for choice in chunk["choices"]:
            for call in choice["delta"].get("tool_calls", []):
                entry = calls.setdefault(call["index"], {"name": "", "arguments": ""})
                function = call.get("function", {})
                entry["name"] += function.get("name", "")
                entry["arguments"] += function.get("arguments", "")
    assert calls == {
        0: {"name": "get_weather", "arguments": '{"city":"Paris"}'},
        1: {"name": "get_time", "arguments": '{"tz":"CET"}'},
    }
    finishes = [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]]
    assert finishes[-1] == "tool_calls" and set(finishes[:-1]) == {None}
    assert chunks[-1]["choices"] == []
    assert chunks[-1]["usage"] == {"prompt_tokens": 7, "completion_tokens": 9, "total_tokens": 16}
    assert not ChatStreamBuilder().content("x").to_sse(done=False).endswith(b"[DONE]\n\n")


def test_chat_builder_shapes_match_real_streams() -> None:
    real_chunk_keys: set[frozenset[str]] = set()
    real_choice_keys: set[frozenset[str]] = set()
    for path in REAL.glob("chat-*.sse"):
        for chunk in json_events(path.read_bytes()):
            real_chunk_keys.add(frozenset(chunk))
            real_choice_keys.update(frozenset(c) for c in chunk.get("choices", []))
    built = (
        ChatStreamBuilder().content("hi", 2).tool_call("f", "{}", 1).finish("stop").usage().chunks()
    )
    for chunk in built:
        assert frozenset(chunk) in real_chunk_keys, sorted(chunk)
        for choice in chunk["choices"]:
            assert frozenset(choice) in real_choice_keys


# --- recordings ------------------------------------------------------------------------------


def test_recordings_are_every_stream_of_the_corpus() -> None:
    names = recordings()
    # The corpus README counts them: 69 streams, 51 Responses and 18 Chat Completions.
    assert len(names) == 69
    assert sum(name.startswith("chat-") for name in names) == 18
    assert names == sorted(path.name for path in REAL.glob("*.sse"))
    for name in names:
        facts = recording_facts(name)
        assert facts["file"] == name
        assert facts["sha256"] == hashlib.sha256(recording(name)).hexdigest()
    assert recording(names[0].removesuffix(".sse")) == recording(names[0])
    assert recording_facts(names[0].removesuffix(".sse")) == recording_facts(names[0])
    with pytest.raises(KeyError, match="no recording"):
        recording("nope")
    with pytest.raises(KeyError, match="no recording"):
        recording_facts("README")


# --- the server ------------------------------------------------------------------------------


BASIC = "responses-simonw-llm-test_responses_basic_streaming.sse"


def fetch(
    server: ResponsesServer,
    method: str = "POST",
    path: str = "/responses",
    *,
    read_timeout: float = 10.0,
    **kwargs: Any,
) -> tuple[httpx.Response, bytes, Exception | None]:
    """Stream one request; return the response, the body bytes received and the transport error."""
    received = bytearray()
    timeout = httpx.Timeout(10.0, read=read_timeout)
    with httpx.Client(timeout=timeout) as client:
        with client.stream(method, server.base_url + path, **kwargs) as response:
            try:
                for chunk in response.iter_raw():
                    received += chunk
            except httpx.TransportError as exc:
                return response, bytes(received), exc
    return response, bytes(received), None


def test_serves_a_recording_unchanged(responses_server: ResponsesServer) -> None:
    body = recording(BASIC)
    responses_server.enqueue(Script(body))
    response, received, error = fetch(responses_server, json={"model": "m"})
    assert error is None
    assert response.status_code == 200
    assert received == body
    assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
    assert response.headers["transfer-encoding"] == "chunked"
    assert response.headers["x-request-id"].startswith("req_")
    check_content_type(response.status_code, response.headers.multi_items())


def _raw_exchange(server: ResponsesServer, target: str) -> tuple[h11.Response, list[bytes]]:
    """Send a POST over a raw socket and return the response head and the body chunks as framed
    on the wire (chunk boundaries of the chunked encoding)."""
    conn = h11.Connection(h11.CLIENT)
    with socket.create_connection((server.host, server.port), timeout=10) as sock:
        request = h11.Request(
            method="POST",
            target=target,
            headers=[("host", "x"), ("content-length", "2"), ("connection", "close")],
        )
        sock.sendall(
            conn.send(request) + conn.send(h11.Data(data=b"{}")) + conn.send(h11.EndOfMessage())
        )
        head: h11.Response | None = None
        chunks: list[bytes] = []
        current = bytearray()
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                conn.receive_data(sock.recv(65536))
                continue
            if isinstance(event, h11.Response):
                head = event
            elif isinstance(event, h11.Data):
                current += event.data
                if event.chunk_end:
                    chunks.append(bytes(current))
                    current.clear()
            elif isinstance(event, h11.EndOfMessage):
                break
    assert head is not None
    return head, chunks


def test_chunk_size_sets_the_wire_chunks(responses_server: ResponsesServer) -> None:
    body = recording(BASIC)
    responses_server.enqueue(Script(body, chunk_size=100))
    head, chunks = _raw_exchange(responses_server, "/v1/responses")
    assert head.status_code == 200
    assert b"".join(chunks) == body
    assert [len(c) for c in chunks[:-1]] == [100] * (len(chunks) - 1)
    assert 0 < len(chunks[-1]) <= 100
    # Without chunk_size, one write (one chunk) per event block.
    builder = StreamBuilder().text("abc", chunks=3).completed()
    responses_server.enqueue(Script(builder.to_sse()))
    _, chunks = _raw_exchange(responses_server, "/v1/responses")
    assert [json.loads(parse_sse(c)[0][1]) for c in chunks] == builder.events()


def test_content_length_framing(responses_server: ResponsesServer) -> None:
    body = recording(BASIC)
    responses_server.enqueue(Script(body, chunked=False, chunk_size=512, delay=0.001))
    response, received, error = fetch(responses_server)
    assert error is None and received == body
    assert response.headers["content-length"] == str(len(body))
    assert "transfer-encoding" not in response.headers


@pytest.mark.parametrize("chunked", [True, False])
def test_disconnect_after_bytes(responses_server: ResponsesServer, chunked: bool) -> None:
    body = recording(BASIC)
    responses_server.enqueue(
        Script(body, disconnect_after_bytes=777, chunked=chunked, chunk_size=50)
    )
    response, received, error = fetch(responses_server)
    assert response.status_code == 200
    assert isinstance(error, httpx.RemoteProtocolError)
    assert received == body[:777]


def test_disconnect_after_events(responses_server: ResponsesServer) -> None:
    builder = StreamBuilder().text("Hello world", chunks=4).completed()
    responses_server.enqueue(Script(builder.to_sse(), disconnect_after_events=5))
    _, received, error = fetch(responses_server)
    assert isinstance(error, httpx.RemoteProtocolError)
    assert json_events(received) == builder.events()[:5]
    assert received.endswith(b"\n\n")


def test_error_status_with_retry_after(responses_server: ResponsesServer) -> None:
    responses_server.enqueue(
        Script.error(
            429,
            "Rate limit reached for gpt-4o.",
            type="requests",
            code="rate_limit_exceeded",
            retry_after=2,
        )
    )
    response, received, error = fetch(responses_server)
    assert error is None
    assert response.status_code == 429
    assert response.headers["retry-after"] == "2"
    assert response.headers["content-type"] == "application/json"
    assert json.loads(received)["error"]["code"] == "rate_limit_exceeded"
    exc = response_error(response.status_code, response.headers.multi_items(), received)
    assert isinstance(exc, RateLimitError)
    assert exc.retry_after == 2.0 and exc.should_retry
    assert exc.request_id == response.headers["x-request-id"]
    assert str(exc) == "Error code: 429 - Rate limit reached for gpt-4o."


def test_stall_trips_a_read_timeout(responses_server: ResponsesServer) -> None:
    builder = StreamBuilder().text("Hello world", chunks=4).completed()
    responses_server.enqueue(Script(builder.to_sse(), stall_after_events=3, stall_seconds=60))
    _, received, error = fetch(responses_server, read_timeout=0.2)
    assert isinstance(error, httpx.ReadTimeout)
    assert json_events(received) == builder.events()[:3]


def test_short_stall_then_the_rest(responses_server: ResponsesServer) -> None:
    builder = StreamBuilder().text("Hello world", chunks=4).completed()
    body = builder.to_sse()
    responses_server.enqueue(Script(body, stall_after_events=3, stall_seconds=0.05))
    _, received, error = fetch(responses_server)
    assert error is None and received == body


def test_keepalive_and_crlf(responses_server: ResponsesServer) -> None:
    builder = StreamBuilder().text("Hello world", chunks=4).completed()
    responses_server.enqueue(Script(builder.to_sse(), keepalive_every=2, crlf=True))
    _, received, error = fetch(responses_server)
    assert error is None
    assert re.search(rb"(?<!\r)\n", received) is None
    assert received.count(b": keep-alive\r\n\r\n") == len(builder.events()) // 2
    assert json_events(received) == builder.events()


def test_content_type_override(responses_server: ResponsesServer) -> None:
    body = json.dumps({"id": "resp_1", "object": "response", "status": "completed"}).encode()
    responses_server.enqueue(Script(body, content_type="application/json"))
    response, received, _ = fetch(responses_server)
    assert received == body
    with pytest.raises(UnexpectedContentType, match="resp_1"):
        check_content_type(response.status_code, response.headers.multi_items(), received)


def test_requests_are_recorded(responses_server: ResponsesServer) -> None:
    responses_server.set_default(Script(recording(BASIC)))
    request = responses_request(
        {"model": "gpt-4o", "input": "ping"},
        base_url=responses_server.base_url,
        api_key="sk-recorded",
        project="proj_1",
    )
    with httpx.Client() as client:
        response = client.request(
            request.method, request.url, headers=list(request.headers), content=request.body
        )
        assert response.status_code == 200
        chat = chat_request({"model": "gpt-4o", "messages": []}, base_url=responses_server.base_url)
        client.request(chat.method, chat.url, headers=list(chat.headers), content=chat.body)
    first, second = responses_server.requests
    assert first.method == "POST" and first.path == "/v1/responses"
    assert first.json() == {"model": "gpt-4o", "input": "ping", "stream": True}
    assert first.header("Authorization") == "Bearer sk-recorded"
    assert first.header("openai-project") == "proj_1"
    assert first.header("accept") == "text/event-stream"
    assert "sk-recorded" not in repr(first)
    assert second.path == "/v1/chat/completions"
    assert second.json()["stream"] is True


def test_chat_completions_route(responses_server: ResponsesServer) -> None:
    body = ChatStreamBuilder().content("Hi!", chunks=2).finish().usage().to_sse()
    responses_server.enqueue(Script(body))
    _, received, error = fetch(responses_server, path="/chat/completions", json={})
    assert error is None and received == body


def test_unscripted_request_is_a_clear_500(responses_server: ResponsesServer) -> None:
    response, received, _ = fetch(responses_server)
    assert response.status_code == 500
    assert "no script enqueued" in json.loads(received)["error"]["message"]


def test_background_resume_serves_the_suffix(responses_server: ResponsesServer) -> None:
    builder = StreamBuilder(background=True).text("Hello there, world", chunks=6).completed()
    events = builder.events()
    responses_server.enqueue(
        Script(
            builder.to_sse(),
            disconnect_after_events=5,
            resumes=[Faults(disconnect_after_events=3), Faults(chunk_size=9)],
        )
    )
    _, first, error = fetch(responses_server, json={"background": True})
    assert isinstance(error, httpx.RemoteProtocolError)
    got = json_events(first)
    assert got == events[:5]
    # First resume: disconnects after 3 events.
    resume = resume_request(
        builder.response_id, starting_after=got[-1]["sequence_number"], base_url="http://x/v1"
    )
    _, second, error = fetch(responses_server, "GET", resume.target.removeprefix("/v1"))
    assert isinstance(error, httpx.RemoteProtocolError)
    got += json_events(second)
    assert got == events[:8]
    # Second resume: completes.
    resume = resume_request(builder.response_id, starting_after=7, base_url="http://x/v1")
    response, third, error = fetch(responses_server, "GET", resume.target.removeprefix("/v1"))
    assert error is None and response.status_code == 200
    got += json_events(third)
    assert got == events
    paths = [(r.method, r.path, r.param("starting_after")) for r in responses_server.requests]
    assert paths == [
        ("POST", "/v1/responses", None),
        ("GET", f"/v1/responses/{builder.response_id}", "4"),
        ("GET", f"/v1/responses/{builder.response_id}", "7"),
    ]


def test_resume_of_a_real_background_recording(responses_server: ResponsesServer) -> None:
    name = "responses-pydantic-ai-test_background_mode_streaming_starting_after_vcr-1.sse"
    script = Script(recording(name))
    response_id = responses_server.remember(script)
    _, received, error = fetch(
        responses_server, "GET", f"/responses/{response_id}?stream=true&starting_after=0"
    )
    assert error is None
    # What the live API answered to the same resume GET, recorded by the same project.
    live = real_events(name.replace("-1.sse", "-2.sse"))
    got = json_events(received)
    assert [(e["type"], e["sequence_number"]) for e in got] == [
        (e["type"], e["sequence_number"]) for e in live
    ]
    # Without starting_after, the whole stream; without stream=true, the final response as JSON.
    _, whole, _ = fetch(responses_server, "GET", f"/responses/{response_id}?stream=true")
    assert whole == recording(name)
    response, final, _ = fetch(responses_server, "GET", f"/responses/{response_id}")
    assert response.headers["content-type"] == "application/json"
    assert json.loads(final) == json_events(recording(name))[-1]["response"]


def test_resume_of_unknown_id_is_404(responses_server: ResponsesServer) -> None:
    response, received, _ = fetch(responses_server, "GET", "/responses/resp_nope?stream=true")
    exc = response_error(response.status_code, response.headers.multi_items(), received)
    assert isinstance(exc, NotFoundError)
    assert "resp_nope" in str(exc)


def test_non_background_stream_is_not_remembered(responses_server: ResponsesServer) -> None:
    builder = StreamBuilder().text("x").completed()
    responses_server.enqueue(Script(builder.to_sse()))
    fetch(responses_server)
    response, _, _ = fetch(responses_server, "GET", f"/responses/{builder.response_id}?stream=true")
    assert response.status_code == 404


def test_serve_shuts_down_cleanly_with_a_stalled_client() -> None:
    builder = StreamBuilder().text("Hello", chunks=2).completed()
    with serve(Script(builder.to_sse(), stall_after_events=2, stall_seconds=3600)) as server:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/v1", server.base_url)
        sock = socket.create_connection((server.host, server.port))
        sock.sendall(b"POST /v1/responses HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(65536)
        assert head.startswith(b"HTTP/1.1 200")
    # The stalled answer was cancelled, the thread joined; the client sees the connection close.
    assert not [t for t in threading.enumerate() if t.name == "ResponsesServer"]
    sock.settimeout(10)
    while sock.recv(65536):
        pass
    sock.close()


def test_script_takes_a_builder_and_validates_faults() -> None:
    builder = StreamBuilder().text("hi").completed()
    assert Script(builder).body == builder.to_sse()
    chat = ChatStreamBuilder().content("hi").finish()
    assert Script(chat).body == chat.to_sse()
    with pytest.raises(TypeError, match="bytes"):
        Script("text")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not both"):
        Script(b"", faults=Faults(), chunk_size=3)
    for bad in ({"chunk_size": 0}, {"disconnect_after_bytes": -1}, {"delay": -1.0}):
        with pytest.raises(ValueError):
            Faults(**bad)


def test_only_streamed_resumes_use_resume_faults(responses_server: ResponsesServer) -> None:
    builder = StreamBuilder(background=True).text("abcdef", chunks=3).completed()
    response_id = responses_server.remember(
        Script(builder, resumes=[Faults(disconnect_after_events=1)])
    )
    response, final, _ = fetch(responses_server, "GET", f"/responses/{response_id}")
    assert response.status_code == 200
    assert json.loads(final)["status"] == "completed"
    _, received, error = fetch(
        responses_server, "GET", f"/responses/{response_id}?stream=true&starting_after=2"
    )
    assert isinstance(error, httpx.RemoteProtocolError)
    assert json_events(received) == builder.events()[3:4]
    _, received, error = fetch(
        responses_server, "GET", f"/responses/{response_id}?stream=true&starting_after=2"
    )
    assert error is None and json_events(received) == builder.events()[3:]


def test_split_events_handles_every_line_ending() -> None:
    body = b"data: a\r\n\r\ndata: b\r\rdata: c\n\n\n\nevent: x\r\ndata: d\r\n\r\n: c\n\ndata: e"
    blocks = split_events(body)
    assert b"".join(blocks) == body
    assert blocks == [
        b"data: a\r\n\r\n",
        b"data: b\r\r",
        b"data: c\n\n",
        b"\n\n",
        b"event: x\r\ndata: d\r\n\r\n",
        b": c\n\n",
        b"data: e",
    ]
    # Five of these carry a data field; disconnecting after 4 events cuts right after "d".
    _, _, cut, _ = plan(body, Faults(disconnect_after_events=4))
    assert cut == len(body) - len(b": c\n\ndata: e")


def test_a_resume_attempt_can_answer_an_http_error(responses_server: ResponsesServer) -> None:
    builder = StreamBuilder(background=True).text("abcdef", chunks=3).completed()
    overloaded = Script.error(503, "The server is overloaded.", type="server_error", retry_after=0)
    response_id = responses_server.remember(Script(builder, resumes=[overloaded]))
    target = f"/responses/{response_id}?stream=true&starting_after=4"
    response, received, _ = fetch(responses_server, "GET", target)
    exc = response_error(response.status_code, response.headers.multi_items(), received)
    assert exc is not None and exc.status_code == 503 and exc.should_retry
    assert exc.retry_after == 0.0
    response, received, error = fetch(responses_server, "GET", target)
    assert error is None and response.status_code == 200
    assert json_events(received) == builder.events()[5:]


# --- a client that stops reading ---------------------------------------------------------------


def _wait_until_idle(server: ResponsesServer) -> None:
    # The handler must end by itself (not be cancelled by stop()), or the test proves nothing.
    deadline = time.monotonic() + 5.0
    while server._handlers and time.monotonic() < deadline:
        time.sleep(0.005)
    assert not server._handlers, "the answer did not end after the client left"


@pytest.mark.parametrize("how", ["reset", "close", "mid-request", "mid-request-reset"])
def test_a_client_that_stops_reading_mid_stream_leaves_no_traceback(
    how: str, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    body = StreamBuilder().text("word " * 400, chunks=200).completed().to_sse()
    caplog.set_level(logging.DEBUG)
    with serve(Script(body, delay=0.002), default=Script(body)) as server:
        if how == "reset":
            # Read the head and a first event, then vanish with a TCP reset.
            sock = socket.create_connection((server.host, server.port), timeout=5)
            sock.sendall(
                b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 2\r\n\r\n{}"
            )
            assert sock.recv(200).startswith(b"HTTP/1.1 200")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        elif how.startswith("mid-request"):
            # Announce a body, send part of it, leave (the server is reading the request).
            sock = socket.create_connection((server.host, server.port), timeout=5)
            sock.sendall(b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{}")
            deadline = time.monotonic() + 5.0
            while not server._handlers and time.monotonic() < deadline:
                time.sleep(0.005)  # until the handler waits for the rest of the body
            if how.endswith("reset"):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        else:
            # What an application does: stop iterating after a few events, close the response.
            with httpx.Client() as client:
                request = responses_request({"model": "m"}, base_url=server.base_url)
                with client.stream(
                    request.method, request.url, headers=request.headers, content=request.body
                ) as response:
                    assert next(response.iter_raw(), b"")
        _wait_until_idle(server)
        # The server is still fine for the next client.
        assert json_events(fetch(server, json={})[1])[-1]["type"] == ("response.completed")
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err and "Error handling request" not in captured.err
    noisy = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert not noisy, [r.getMessage() for r in noisy]


# --- the pure helpers without aiohttp ----------------------------------------------------------

_NO_AIOHTTP = (
    blocking("aiohttp")
    + """

import sansio_responses as sr
from sansio_responses.testing import ChatStreamBuilder, Script, StreamBuilder, recording, serve

stream = sr.ResponsesStream()
stream.feed(recording("responses-simonw-llm-test_responses_basic_streaming"))
stream.close()
assert stream.snapshot().output_text == "pong"
body = StreamBuilder().text("hi", chunks=2).completed().to_sse()
assert Script(body, chunk_size=3).response_id() is not None
chat = sr.ChatCompletionsStream()
chat.feed(ChatStreamBuilder().content("yo").finish().to_sse())
chat.close()
assert chat.snapshot().choices[0].message.content == "yo"
assert "aiohttp" not in sys.modules
try:
    with serve(Script(body)):
        pass
except ModuleNotFoundError as exc:
    assert exc.name == "aiohttp"
    print(exc)
else:
    raise AssertionError("serve() started without aiohttp")
"""
)


def test_the_pure_helpers_import_without_aiohttp() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _NO_AIOHTTP],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    message = result.stdout.strip()
    assert "needs aiohttp" in message and "'testing' extra" in message
    assert "pip install 'aiohttp>=" in message  # a command that works: aiohttp is on the index
    assert "sansio-responses[" not in message  # not on the index: no such command
