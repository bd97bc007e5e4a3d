"""``sansio-responses record``: a live request written to a cassette that ``load_cassette`` reads
back byte for byte, with the chunks as they arrived, which the testing server replays with the same
chunking; the API key never reaches the file. Run against the testing server over loopback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_testing_server import _raw_exchange

import sansio_responses as sr
from sansio_responses._cli.main import main
from sansio_responses.testing import (
    ResponsesServer,
    Script,
    load_cassette,
    recording,
    recording_facts,
    serve,
)

BASIC = "responses-simonw-llm-test_responses_basic_streaming"
CHAT = "chat-openai-python-test_parse_nothing"
KEY = "sk-test-0123456789-never-written"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def test_record_writes_what_arrived_and_replays_its_chunking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = recording(BASIC)
    path = tmp_path / "basic.json"
    with serve(Script(body, chunk_size=300, delay=0.01)) as server:
        code = main(["record", "--base-url", server.base_url, "--input", "ping", "-o", str(path)])
        received = server.requests[0]
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.strip() == recording_facts(BASIC)["final_output_text"]  # decoded live, as stream
    assert f"cassette: {path}" in err
    # The key went to the server, not to the file; the body was asked for uncompressed.
    assert received.header("authorization") == f"Bearer {KEY}"
    assert received.header("accept-encoding") == "identity"
    assert KEY not in path.read_text()

    (exchange,) = load_cassette(path)
    assert exchange.method == "POST" and exchange.url == server.base_url + "/responses"
    assert exchange.status == 200 and exchange.body == body
    assert json.loads(exchange.request_body) == json.loads(received.body)
    assert exchange.chunks and b"".join(exchange.chunks) == body
    assert len(exchange.arrival) == len(exchange.chunks)
    assert list(exchange.arrival) == sorted(exchange.arrival)

    # The testing server replays the recorded chunks as the recorded pieces.
    with serve() as replay:
        replay.enqueue(exchange.script())
        head, wire = _raw_exchange(replay, "/v1/responses")
    assert head.status_code == 200
    assert tuple(wire) == exchange.chunks


def test_record_a_chat_body_given_as_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "chat.json"
    request_body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "n": 1}
    with serve(Script(recording(CHAT))) as server:
        code = main(
            [
                "record",
                "--chat",
                "--base-url",
                server.base_url,
                "--body",
                json.dumps(request_body),
                "-o",
                str(path),
            ]
        )
        sent = server.requests[0]
    assert code == 0, capsys.readouterr().err
    assert sent.path == "/v1/chat/completions"
    assert sent.json() == {**request_body, "stream": True}
    (exchange,) = load_cassette(path)
    assert exchange.is_chat and exchange.body == recording(CHAT)
    stream = sr.ChatCompletionsStream()
    exchange.feed(stream)
    completion = stream.snapshot()
    assert completion is not None
    assert completion.choices[0].message.content == recording_facts(CHAT)["final_output_text"]


def test_record_keeps_an_error_answer_and_a_cut_body(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    error_path, cut_path = tmp_path / "429.json", tmp_path / "cut.json"
    cut = Script(recording(BASIC), disconnect_after_events=3)
    with serve(Script.error(429, "Rate limit reached", retry_after=1), cut) as server:
        args = ["record", "--base-url", server.base_url, "--input", "x"]
        assert main([*args, "-o", str(error_path)]) == 3  # an HTTP error status
        assert main([*args, "-o", str(cut_path)]) == 3  # a dropped connection
    capsys.readouterr()
    (error,) = load_cassette(error_path)
    assert error.status == 429 and error.header("retry-after") == "1"
    assert json.loads(error.body)["error"]["message"] == "Rate limit reached"
    (partial,) = load_cassette(cut_path)
    stream = sr.ResponsesStream()
    events = partial.feed(stream, close=False)
    assert [e.type for e in events] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
    ]
    with pytest.raises(sr.TruncatedStream):
        stream.close()


def test_record_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], responses_server: ResponsesServer
) -> None:
    base = ["record", "--base-url", responses_server.base_url]
    assert main([*base, "--input", "x"]) == 2  # -o is required
    assert "-o/--output" in capsys.readouterr().err
    assert main([*base, "--body", "[1, 2]", "-o", str(tmp_path / "x.json")]) == 2
    assert "--body must be a JSON object" in capsys.readouterr().err
    assert main([*base, "--body", "{nope", "-o", str(tmp_path / "x.json")]) == 2
    assert "--body is not JSON" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()
    assert responses_server.requests == []
