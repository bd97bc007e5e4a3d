"""Cassettes: the recordings users already keep, read back byte for byte, then served and fed.

The vcrpy cassettes are recorded here with the real vcrpy, over loopback, against the testing
server (httpx and requests, plain and compressed bodies, YAML and JSON serializers), and the HAR
files with requests-har, a HAR writer for requests. The shapes public projects committed (the
sources of the corpus: see the recordings README) are written out as those projects' recorders
write them, and vcrpy's own reader is used as a cross-check wherever it reads the shape: what it
replays to an httpx client must be what ``load_cassette`` returns.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import itertools
import json
import zlib
from pathlib import Path
from typing import Any

import aiohttp
import brotli  # type: ignore[import-untyped]
import httpx
import pytest
import requests
import requests_har
import vcr  # type: ignore[import-untyped]
import yaml
from _blocking import blocking

import sansio_responses as sr
from sansio_responses.adapters.httpx_sync import open_stream
from sansio_responses.testing import (
    CassetteError,
    Faults,
    RecordedExchange,
    ResponsesServer,
    Script,
    load_cassette,
    recording,
    recording_facts,
    save_cassette,
    serve,
)

BASIC = "responses-simonw-llm-test_responses_basic_streaming"
CHAT = "chat-openai-python-test_parse_nothing"


def _vcr(path: Path, *, serializer: str = "yaml", record: str = "all") -> Any:
    return vcr.VCR(serializer=serializer, record_mode=record).use_cassette(str(path))


def _post(client: str, url: str, payload: dict[str, Any]) -> bytes:
    """POST *payload* with *client* and read the whole (decoded) body."""
    if client == "httpx":
        with httpx.Client() as http:
            return http.post(url, json=payload).content
    if client == "aiohttp":

        async def post() -> bytes:
            async with aiohttp.ClientSession() as session, session.post(url, json=payload) as r:
                return await r.read()

        return asyncio.run(post())
    return requests.post(url, json=payload, timeout=30).content


def _replay_with_vcrpy(path: Path, url: str, *, serializer: str = "yaml") -> bytes:
    """The body vcrpy itself replays from *path* to an httpx client (no network: record "none")."""
    with _vcr(path, serializer=serializer, record="none"), httpx.Client() as http:
        return http.post(url, json={"model": "m", "input": "ping"}).content


# --- vcrpy, recorded here ----------------------------------------------------------------------


@pytest.mark.parametrize("client", ["httpx", "requests", "aiohttp"])
def test_vcrpy_cassettes_read_back_byte_for_byte(client: str, tmp_path: Path) -> None:
    body = recording(BASIC)
    path = tmp_path / "basic.yaml"
    with serve(Script(body, chunk_size=37)) as server:
        url = server.base_url + "/responses"
        with _vcr(path):
            assert _post(client, url, {"model": "m", "input": "ping"}) == body
    # vcrpy wrote the body as text: body.string.
    raw = yaml.safe_load(path.read_text())
    assert isinstance(raw["interactions"][0]["response"]["body"]["string"], str)

    (exchange,) = load_cassette(path)
    assert (exchange.method, exchange.url, exchange.status) == ("POST", url, 200)
    assert exchange.body == body
    assert exchange.header("Content-Type") == "text/event-stream; charset=utf-8"
    assert json.loads(exchange.request_body) == {"model": "m", "input": "ping"}
    assert _replay_with_vcrpy(path, url) == exchange.body


@pytest.mark.parametrize(
    ("client", "coding"),
    [
        (client, coding)
        for client in ("httpx", "requests", "aiohttp")
        for coding in ("gzip", "deflate", "br", "deflate, gzip")
        if not (client == "aiohttp" and "," in coding)  # aiohttp decodes one coding only
    ],
)
def test_vcrpy_keeps_compressed_bodies_compressed_and_they_are_decoded(
    client: str, coding: str, tmp_path: Path
) -> None:
    body = recording(BASIC)
    encoders = {"gzip": gzip.compress, "deflate": zlib.compress, "br": brotli.compress}
    wire = body
    for name in coding.split(", "):
        wire = encoders[name](wire)
    path = tmp_path / "compressed.yaml"
    with serve(Script(wire, headers={"Content-Encoding": coding}, chunk_size=64)) as server:
        url = server.base_url + "/responses"
        with _vcr(path):
            assert _post(client, url, {"model": "m"}) == body  # the clients decode it
    stored = yaml.safe_load(path.read_text())["interactions"][0]["response"]["body"]["string"]
    if client == "httpx":
        # vcrpy's httpx stub keeps the wire bytes: YAML !!binary, compressed.
        assert isinstance(stored, bytes) and stored == wire
        assert "!!binary" in path.read_text()
    else:
        # Through urllib3 2 and aiohttp, vcrpy keeps what the client decoded, beside the original
        # header.
        assert stored == body.decode()

    (exchange,) = load_cassette(path)
    assert exchange.body == body
    assert exchange.header("content-encoding") == coding  # the headers stay as recorded


def test_vcrpy_json_serializer(tmp_path: Path) -> None:
    body = recording(CHAT)
    path = tmp_path / "chat.json"
    with serve(Script(body)) as server:
        url = server.base_url + "/chat/completions"
        with _vcr(path, serializer="json"):
            assert _post("httpx", url, {"model": "m", "messages": []}) == body
    (exchange,) = load_cassette(path)
    assert exchange.body == body and exchange.is_chat
    assert _replay_with_vcrpy(path, url, serializer="json") == body


def test_several_interactions_come_back_in_order(tmp_path: Path) -> None:
    bodies = [recording(BASIC), recording(CHAT)]
    path = tmp_path / "two.yaml"
    error = Script.error(429, "Rate limit reached", retry_after=2)
    with serve(error, Script(bodies[0]), Script(bodies[1])) as server:
        with _vcr(path), httpx.Client() as http:
            statuses = [http.post(server.base_url + "/responses", json={}).status_code]
            statuses.append(http.post(server.base_url + "/responses", json={}).status_code)
            statuses.append(http.post(server.base_url + "/chat/completions", json={}).status_code)
    exchanges = load_cassette(path)
    assert [e.status for e in exchanges] == statuses == [429, 200, 200]
    assert exchanges[0].header("retry-after") == "2"
    assert json.loads(exchanges[0].body)["error"]["message"] == "Rate limit reached"
    assert [e.body for e in exchanges[1:]] == bodies
    assert [e.is_chat for e in exchanges] == [False, False, True]


# --- the shapes public projects committed -------------------------------------------------------


def _dump(document: dict[str, Any], path: Path, *, literal: bool = False) -> None:
    class Dumper(yaml.SafeDumper):
        pass

    if literal:
        # pydantic-ai's cassette serializer writes multi-line strings as literal blocks.
        def text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
            style = "|" if "\n" in value else None
            return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

        Dumper.add_representer(str, text)
    path.write_text(yaml.dump(document, Dumper=Dumper, allow_unicode=True), encoding="utf-8")


URL = "https://api.openai.com/v1/responses"


def test_the_old_httpx_content_form(tmp_path: Path) -> None:
    # vcrpy's httpx stub before the body.string form stored status_code and the decoded text
    # under content (dd-trace-py's chat_completion_tool_call_streamed.yaml is one).
    name = "chat-dd-trace-py-chat_completion_tool_call_streamed"
    assert "response.content" in recording_facts(name)["source_locator"]
    body = recording(name)
    path = tmp_path / "dd.yaml"
    document = {
        "interactions": [
            {
                "request": {
                    "body": '{"model":"gpt-4o","stream":true}',
                    "headers": {"content-type": ["application/json"]},
                    "method": "POST",
                    "uri": "https://api.openai.com/v1/chat/completions",
                },
                "response": {
                    # The text was decoded by httpx: the header still says gzip, the text is plain.
                    "content": body.decode(),
                    "headers": {
                        "content-encoding": ["gzip"],
                        "content-type": ["text/event-stream"],
                    },
                    "http_version": "HTTP/1.1",
                    "status_code": 200,
                },
            }
        ],
        "version": 1,
    }
    _dump(document, path)
    (exchange,) = load_cassette(path)
    assert exchange.body == body and exchange.status == 200 and exchange.is_chat
    # vcrpy still reads this form; it replays the same bytes.
    with _vcr(path, record="none"), httpx.Client() as http:
        response = http.post(
            "https://api.openai.com/v1/chat/completions",
            content=b'{"model":"gpt-4o","stream":true}',
            headers={"content-type": "application/json"},
        )
        assert response.read() == body


def test_the_pydantic_ai_shape(tmp_path: Path) -> None:
    # Literal blocks for the event stream, parsed_body for JSON bodies (requests and JSON answers).
    stream_body = recording("responses-pydantic-ai-test_openai_responses_stream-1")
    path = tmp_path / "pydantic.yaml"
    document = {
        "interactions": [
            {
                "request": {
                    "headers": {"content-type": ["application/json"]},
                    "method": "POST",
                    "parsed_body": {"model": "gpt-4o", "stream": True, "input": "hi"},
                    "uri": URL,
                },
                "response": {
                    "body": {"string": stream_body.decode()},
                    "headers": {"content-type": ["text/event-stream; charset=utf-8"]},
                    "status": {"code": 200, "message": "OK"},
                },
            },
            {
                "request": {"headers": {}, "method": "GET", "uri": URL + "/resp_1", "body": None},
                "response": {
                    "headers": {"content-type": ["application/json"]},
                    "parsed_body": {"id": "resp_1", "object": "response", "status": "completed"},
                    "status": {"code": 200, "message": "OK"},
                },
            },
        ],
        "version": 1,
    }
    _dump(document, path, literal=True)
    assert "string: |" in path.read_text()
    first, second = load_cassette(path)
    assert first.body == stream_body
    assert json.loads(first.request_body) == {"model": "gpt-4o", "stream": True, "input": "hi"}
    assert second.method == "GET" and json.loads(second.body)["id"] == "resp_1"


def test_ruby_vcr_cassettes(tmp_path: Path) -> None:
    body = recording(BASIC)
    path = tmp_path / "ruby.yml"
    document = {
        "http_interactions": [
            {
                "request": {
                    "method": "post",
                    "uri": URL,
                    "body": {"encoding": "UTF-8", "string": '{"model":"m"}'},
                    "headers": {"Content-Type": ["application/json"]},
                },
                "response": {
                    "status": {"code": 200, "message": "OK"},
                    "headers": {
                        "Content-Type": ["text/event-stream"],
                        "Content-Encoding": ["gzip"],
                    },
                    "body": {
                        "encoding": "ASCII-8BIT",
                        "base64_string": base64.encodebytes(gzip.compress(body)).decode(),
                    },
                },
                "recorded_at": "Tue, 01 Dec 2026 12:00:00 GMT",
            }
        ],
        "recorded_with": "VCR 6.3.1",
    }
    _dump(document, path)
    (exchange,) = load_cassette(path)
    assert (exchange.method, exchange.status, exchange.body) == ("POST", 200, body)
    assert exchange.request_body == b'{"model":"m"}'


# --- HAR ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("compressed", [False, True])
def test_har_written_by_requests_har(compressed: bool, tmp_path: Path) -> None:
    body = recording(BASIC)
    script = (
        Script(gzip.compress(body), headers={"Content-Encoding": "gzip"})
        if compressed
        else Script(body, chunk_size=50)
    )
    with serve(script, Script(recording(CHAT))) as server:
        session = requests_har.Session()  # type: ignore[no-untyped-call]
        first = session.post(server.base_url + "/responses", json={"model": "m"}, timeout=30)
        second = session.post(server.base_url + "/chat/completions", json={}, timeout=30)
        assert first.content == body and second.content == recording(CHAT)
        path = session.har_dict.save(tmp_path / "session.har")
    har = json.loads(path.read_text())
    assert har["log"]["version"] == "1.2" and har["log"]["creator"]["name"] == "requests-har"

    one, two = load_cassette(path)
    # HAR 1.2 keeps the decoded body (content.text): a gzip header does not mean gzip bytes here.
    assert one.body == body
    assert one.header("content-encoding") == ("gzip" if compressed else None)
    assert (one.method, one.status, one.url) == ("POST", 200, server.base_url + "/responses")
    assert json.loads(one.request_body) == {"model": "m"}
    assert two.body == recording(CHAT) and two.is_chat


def test_har_base64_content(tmp_path: Path) -> None:
    # Browsers and mitmproxy write content.text as base64 (encoding: "base64") for bodies they do
    # not take for text; the same requests-har file, its bodies in that form, reads the same.
    body = 'data: {"delta": "caf\u00e9 \u2603"}\n\n'.encode() + recording(BASIC)
    with serve(Script(body)) as server:
        session = requests_har.Session()  # type: ignore[no-untyped-call]
        assert session.post(server.base_url + "/responses", json={}, timeout=30).content == body
        path = session.har_dict.save(tmp_path / "text.har")
    har = json.loads(path.read_text())
    content = har["log"]["entries"][0]["response"]["content"]
    content["text"] = base64.b64encode(content["text"].encode()).decode()
    content["encoding"] = "base64"
    as_base64 = tmp_path / "base64.har"
    as_base64.write_text(json.dumps(har))
    (plain,) = load_cassette(path)
    (encoded,) = load_cassette(as_base64)
    assert plain.body == encoded.body == body


def test_har_holding_the_compressed_wire_bytes(tmp_path: Path) -> None:
    # HAR 1.2 says content.text is decoded, but a writer may store the gzip bytes (base64) beside
    # Content-Encoding: gzip; the gzip signature cannot start an event stream, so it is decoded.
    body = recording(BASIC)
    har = {
        "log": {
            "version": "1.2",
            "entries": [
                {
                    "request": {"method": "POST", "url": URL, "headers": []},
                    "response": {
                        "status": 200,
                        "headers": [{"name": "Content-Encoding", "value": "gzip"}],
                        "content": {
                            "mimeType": "text/event-stream",
                            "text": base64.b64encode(gzip.compress(body)).decode(),
                            "encoding": "base64",
                        },
                    },
                }
            ],
        }
    }
    path = tmp_path / "wire.har"
    path.write_text(json.dumps(har))
    (exchange,) = load_cassette(path)
    assert exchange.body == body


# --- serving and feeding what was loaded ---------------------------------------------------------


def _recorded(tmp_path: Path, body: bytes, path_: str = "/responses") -> RecordedExchange:
    path = tmp_path / f"recorded-{path_.strip('/').replace('/', '-')}.yaml"
    with serve(Script(body)) as server, _vcr(path):
        _post("httpx", server.base_url + path_, {"model": "m"})
    (exchange,) = load_cassette(path)
    return exchange


def test_a_loaded_exchange_feeds_a_stream_in_one_call(tmp_path: Path) -> None:
    exchange = _recorded(tmp_path, recording(BASIC))
    stream = sr.ResponsesStream()
    events = exchange.feed(stream)
    assert events[-1].type == "response.completed" and stream.outcome == "completed"
    snapshot = stream.snapshot()
    assert (
        snapshot is not None and snapshot.output_text == recording_facts(BASIC)["final_output_text"]
    )

    chat = _recorded(tmp_path, recording(CHAT), "/chat/completions")
    chat_stream = sr.ChatCompletionsStream()
    chat.feed(chat_stream)
    completion = chat_stream.snapshot()
    assert completion is not None
    assert completion.choices[0].message.content == recording_facts(CHAT)["final_output_text"]


def test_a_loaded_exchange_is_served_with_faults(tmp_path: Path) -> None:
    exchange = _recorded(tmp_path, recording(BASIC))
    # As recorded: the client sees the same body and headers.
    with exchange.serve() as server:
        with httpx.Client() as http:
            response = http.post(server.base_url + "/responses", json={})
        assert response.content == exchange.body
        assert response.headers["content-type"] == exchange.header("content-type")
    # The old cassette becomes a fault-injectable replay: cut after 3 events.
    with serve(exchange.script(Faults(disconnect_after_events=3))) as server:
        request = sr.responses_request({"model": "m", "input": "x"}, base_url=server.base_url)
        seen: list[str] = []
        with pytest.raises(sr.TransportError), open_stream(request, max_retries=0) as events:
            seen.extend(event.type for event in events)
        assert seen == ["response.created", "response.in_progress", "response.output_item.added"]
        assert events.stream.outcome == "truncated"
        assert len(server.requests) == 1


def test_a_compressed_recording_is_served_decoded(tmp_path: Path) -> None:
    body = recording(CHAT)
    path = tmp_path / "gz.yaml"
    with serve(Script(gzip.compress(body), headers={"Content-Encoding": "gzip"})) as server:
        with _vcr(path):
            _post("requests", server.base_url + "/chat/completions", {})
    (exchange,) = load_cassette(path)
    with exchange.serve() as server, httpx.Client() as http:
        response = http.post(server.base_url + "/chat/completions", json={})
    assert "content-encoding" not in response.headers
    assert response.content == body


# --- save_cassette and the chunks ---------------------------------------------------------------


def test_save_cassette_round_trips_chunks_and_never_writes_credentials(tmp_path: Path) -> None:
    body = recording(BASIC) + b"\xff\xfe not utf-8"
    cut = [0, 5, 90, 91, len(body) // 2, len(body)]
    chunks = tuple(body[a:b] for a, b in itertools.pairwise(cut))
    exchange = RecordedExchange(
        method="POST",
        url="https://api.openai.com/v1/responses",
        status=200,
        headers=(
            ("content-type", "text/event-stream"),
            ("set-cookie", "a=1"),
            ("set-cookie", "b=2"),
        ),
        body=body,
        request_headers=(
            ("Authorization", "Bearer sk-secret"),
            ("api-key", "azure-secret"),
            ("content-type", "application/json"),
        ),
        request_body=b'{"model":"m"}',
        chunks=chunks,
        arrival=(0.1, 0.25, 0.25, 0.5, 1.0),
    )
    path = tmp_path / "saved.json"
    save_cassette(path, [exchange])
    text = path.read_text()
    assert "secret" not in text
    (loaded,) = load_cassette(path)
    assert loaded.body == body and loaded.chunks == chunks
    assert loaded.arrival == exchange.arrival
    assert loaded.headers == exchange.headers
    assert loaded.request_headers == (("content-type", "application/json"),)
    assert loaded.request_body == exchange.request_body


def test_a_saved_cassette_is_a_vcrpy_json_cassette(tmp_path: Path) -> None:
    body = recording(BASIC)
    exchange = RecordedExchange(
        method="POST",
        url="http://127.0.0.1:9/v1/responses",
        status=200,
        headers=(("content-type", "text/event-stream"),),
        body=body,
        request_body=json.dumps({"model": "m", "input": "ping"}).encode(),
        chunks=(body[:100], body[100:]),
        arrival=(0.0, 0.5),
    )
    path = tmp_path / "saved.json"
    save_cassette(path, [exchange])
    assert _replay_with_vcrpy(path, exchange.url, serializer="json") == body


# --- bad input ----------------------------------------------------------------------------------


def _write(tmp_path: Path, text: str, name: str = "bad.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_bad_cassettes_say_what_and_where(tmp_path: Path) -> None:
    cases = {
        "not: [a cassette": "invalid YAML",
        "just: a mapping\n": "not a cassette",
        '{"log": {"entries": {}}}': "log.entries: expected a list",
        "interactions:\n- request: {}\n  response: {status: {code: x}}\n": (
            r"interactions\[0\]\.response\.status\.code: expected an HTTP status code"
        ),
        "- request: {}\n  response: {}\n": "before VCR.py 1.0",
        "interactions:\n- request: {}\n  response: {status: {code: 200}, body: {string: 5}}\n": (
            r"interactions\[0\]\.response\.body\.string: expected a string or binary body"
        ),
        "interactions:\n- request: {}\n  response: !!python/object:os.system {}\n": "invalid YAML",
    }
    for text, message in cases.items():
        path = _write(tmp_path, text)
        with pytest.raises(CassetteError, match=message) as info:
            load_cassette(path)
        assert str(path) in str(info.value)


def _vcr_json(response: dict[str, Any], request_body: Any = "{}") -> str:
    request = {"method": "POST", "uri": "http://x/v1/responses", "body": request_body}
    return json.dumps({"interactions": [{"request": request, "response": response}], "version": 1})


def test_malformed_json_cassettes_are_cassette_errors_too(tmp_path: Path) -> None:
    # Each of these escaped load_cassette as another error (a lone surrogate: UnicodeEncodeError,
    # a deep nesting: RecursionError) or was accepted (a status that is no HTTP status, a chunk
    # arriving at NaN or infinite seconds, which the replay's pacing then waits).
    ok: dict[str, Any] = {"status": {"code": 200}, "body": {"string": "data: [DONE]\n\n"}}
    har_entry = {
        "request": {"method": "GET", "url": "u"},
        "response": {"status": 200, "headers": [], "content": {"text": "\ud800"}},
    }
    cases = {
        _vcr_json({**ok, "body": {"string": "data: \ud800\n\n"}}): (
            r"interactions\[0\]\.response\.body\.string: .*lone surrogate"
        ),
        _vcr_json(ok, request_body="\ud83d"): r"interactions\[0\]\.request\.body: .*lone surrogate",
        json.dumps({"log": {"entries": [har_entry]}}): (
            r"log\.entries\[0\]\.response\.content\.text: .*lone surrogate"
        ),
        "[" * 100_000 + "]" * 100_000: "invalid JSON: nested too deeply",
        _vcr_json({**ok, "status": {"code": -5}}): r"status\.code: expected an HTTP status code",
        _vcr_json(
            {**ok, "status": {"code": 10**30}}
        ): r"status\.code: expected an HTTP status code",
        _vcr_json(
            {**ok, "status": {"code": "1000"}}
        ): r"status\.code: expected an HTTP status code",
        _vcr_json({**ok, "chunks": [{"size": 14, "at": float("nan")}]}): r"chunks\[0\]\.at",
        _vcr_json({**ok, "chunks": [{"size": 14, "at": float("inf")}]}): r"chunks\[0\]\.at",
        _vcr_json({**ok, "chunks": [{"size": 14, "at": 10**400}]}): r"chunks\[0\]\.at",
    }
    for bad in ("@@@", "aGVs*bG8=", "aGVsbG8", "aGVsbG8=\u00e9"):
        # Not base64 (a character outside its alphabet, no padding, non-ASCII): an error, where
        # a non-validating decoder skipped what it could not read ("@@@" was an empty body).
        body = {"encoding": "ASCII-8BIT", "base64_string": bad}
        cases[_vcr_json({**ok, "body": body})] = (
            r"interactions\[0\]\.response\.body\.base64_string: invalid base64"
        )
    for text, message in cases.items():
        path = _write(tmp_path, text, "bad.json")
        with pytest.raises(CassetteError, match=message) as info:
            load_cassette(path)
        assert str(path) in str(info.value)
    # Base64 wrapped in lines (Ruby's encode64, Python's encodebytes) is read whole.
    for wrapped in ("aGVs\nbG8=\n", "aGVs\r\nbG8=", " aGVsbG8= "):
        body = {"encoding": "ASCII-8BIT", "base64_string": wrapped}
        path = _write(tmp_path, _vcr_json({**ok, "body": body}), "ok.json")
        assert load_cassette(path)[0].body == b"hello"
    # The lone surrogates a recorder keeps for undecodable bytes (U+DC80-U+DCFF) are those bytes.
    path = _write(tmp_path, _vcr_json({**ok, "body": {"string": "data: \udcff\n\n"}}), "ok.json")
    assert load_cassette(path)[0].body == b"data: \xff\n\n"
    for status in (100, 599, 999):
        path = _write(tmp_path, _vcr_json({**ok, "status": {"code": status}}), "ok.json")
        assert load_cassette(path)[0].status == status


def test_corrupt_or_oversized_compressed_bodies(tmp_path: Path) -> None:
    def cassette(wire: bytes, coding: str) -> Path:
        return _write(
            tmp_path,
            yaml.safe_dump(
                {
                    "interactions": [
                        {
                            "request": {"method": "POST", "uri": URL},
                            "response": {
                                "status": {"code": 200},
                                "headers": {"Content-Encoding": [coding]},
                                "body": {"string": wire},
                            },
                        }
                    ]
                }
            ),
        )

    body = recording(BASIC)
    with pytest.raises(CassetteError, match="gzip data is truncated"):
        load_cassette(cassette(gzip.compress(body)[:-20], "gzip"))
    with pytest.raises(CassetteError, match="not valid br data"):
        load_cassette(cassette(b"\xff" * 40, "br"))
    with pytest.raises(CassetteError, match="unsupported Content-Encoding 'compress'"):
        load_cassette(cassette(b"\x1f\x9d....", "compress"))
    bomb = cassette(gzip.compress(b"data: x\n\n" * 100_000), "gzip")
    with pytest.raises(CassetteError, match=r"larger than the limit \(1000 bytes\)"):
        load_cassette(bomb, max_body_size=1000)
    (ok,) = load_cassette(bomb)
    assert len(ok.body) == 900_000


def test_br_without_a_brotli_module_is_a_clear_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "br.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "interactions": [
                    {
                        "request": {"method": "POST", "uri": URL},
                        "response": {
                            "status": {"code": 200},
                            "headers": {"Content-Encoding": ["br"]},
                            "body": {"string": brotli.compress(recording(BASIC))},
                        },
                    }
                ]
            }
        )
    )
    script = (
        blocking("brotli")
        + blocking("brotlicffi")
        + f"""
from sansio_responses.testing import CassetteError, load_cassette
try:
    load_cassette({str(path)!r})
except CassetteError as exc:
    print(exc)
"""
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert "no Brotli module is installed: pip install brotli (or brotlicffi)" in out.stdout


def test_yaml_without_pyyaml_says_what_to_install(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = _write(tmp_path, "interactions: []\n")
    json_path = _write(tmp_path, '{"interactions": []}', "c.json")
    script = blocking("yaml") + (
        "from sansio_responses.testing import load_cassette\n"
        f"assert load_cassette({str(json_path)!r}) == []\n"  # JSON needs no PyYAML
        "try:\n"
        f"    load_cassette({str(path)!r})\n"
        "except ModuleNotFoundError as exc:\n"
        "    print(exc.name, exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.startswith("yaml reading the YAML cassette")
    assert "PyYAML" in out.stdout


# --- replaying the recorded chunking and pace -----------------------------------------------------


def test_scheduled_pieces_follow_the_recording() -> None:
    from sansio_responses.testing._pacing import scheduled_pieces

    schedule = [(10, 1.5), (5, 1.75), (0, 1.75), (20, 3.0)]
    # Times are relative to the first piece; an empty read gives no write.
    assert scheduled_pieces(35, schedule, None) == [(0, 10, 0.0), (10, 15, 0.25), (15, 35, 1.5)]
    # A disconnect cuts the schedule short; a stall splits the piece it falls in.
    assert scheduled_pieces(12, schedule, None) == [(0, 10, 0.0), (10, 12, 0.25)]
    assert scheduled_pieces(35, schedule, 20) == [
        (0, 10, 0.0),
        (10, 15, 0.25),
        (15, 20, 1.5),
        (20, 35, 1.5),
    ]
    # Bytes past the schedule (a fault added a keep-alive, say) follow with the last piece.
    assert scheduled_pieces(40, schedule, None)[-1] == (35, 40, 1.5)
    # A time earlier than the piece before never reorders the writes.
    assert scheduled_pieces(4, [(2, 1.0), (2, 0.5)], None) == [(0, 2, 0.0), (2, 4, 0.0)]


def test_a_recorded_chunking_is_replayed_on_the_wire(responses_server: ResponsesServer) -> None:
    from test_testing_server import _raw_exchange

    body = recording(BASIC)
    cuts = [0, 1, 17, 400, 401, len(body) - 3, len(body)]
    chunks = tuple(body[a:b] for a, b in itertools.pairwise(cuts))
    exchange = RecordedExchange(
        method="POST",
        url="https://api.openai.com/v1/responses",
        status=200,
        headers=(("content-type", "text/event-stream"),),
        body=body,
        chunks=chunks,
        arrival=(0.2, 0.2, 0.21, 0.22, 0.22, 0.23),
    )
    responses_server.enqueue(exchange.script())
    head, wire = _raw_exchange(responses_server, "/v1/responses")
    assert head.status_code == 200
    assert tuple(wire) == chunks
    # Faults that set their own chunking win over the recorded one.
    responses_server.enqueue(exchange.script(Faults(chunk_size=100)))
    _, wire = _raw_exchange(responses_server, "/v1/responses")
    assert [len(c) for c in wire[:-1]] == [100] * (len(wire) - 1)
    # pacing=False: one write per event block, as for any body.
    responses_server.enqueue(exchange.script(pacing=False))
    _, wire = _raw_exchange(responses_server, "/v1/responses")
    assert [c.endswith(b"\n\n") for c in wire] == [True] * len(wire)
