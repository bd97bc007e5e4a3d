"""The command line, run in-process (``main(argv)``) and once as ``python -m sansio_responses``.

Expected texts, tool calls and usage come from the recordings' sidecar facts (tests/data/real/*.json),
which were derived independently of this library. Network commands talk only to the test kit's
server on 127.0.0.1.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from _blocking import blocking
from _corpus import REAL, load, names
from _deep import json_overflow_depth

import sansio_responses as sr
from sansio_responses._cli.main import main
from sansio_responses.testing import Script, recording, serve

DEMO_TEXT = "2 + 2 equals 4."
BACKGROUND = "responses-pydantic-ai-test_background_mode_streaming_starting_after_vcr-1"

# Streams whose printed text differs from the sidecar's final text on purpose: refusals are printed
# (marked "[refusal]") but are not output_text; the anonymized Azure capture streams "X" deltas
# while its final text is a placeholder sentence.
NOT_PLAIN_TEXT = {
    "responses-mirascope-test_refusal__openai_gpt_4o_responses",
    "responses-vercel-ai-azure-gpt5-reasoning-multi-summary-with-encryption",
    "chat-openai-node-emits-refusal-logprobs-events",
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def expected_stdout(text: str | None) -> str:
    text = text or ""
    return text + "\n" if text and not text.endswith("\n") else text


def sse_data_objects(body: bytes) -> list[Any]:
    """The JSON data of each event in *body*, parsed here without the library (LF or CRLF)."""
    objects = []
    for block in body.replace(b"\r\n", b"\n").split(b"\n\n"):
        lines = [line[5:].lstrip(b" ") for line in block.split(b"\n") if line.startswith(b"data:")]
        if lines and b"\n".join(lines) != b"[DONE]":
            objects.append(json.loads(b"\n".join(lines)))
    return objects


# --- decode: real recordings -----------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in names("responses") if n not in NOT_PLAIN_TEXT])
def test_decode_responses_recording_prints_text_outcome_usage(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    _, facts = load(name)
    code, out, err = run(capsys, "decode", str(REAL / f"{name}.sse"))
    assert out == expected_stdout(facts["final_output_text"])
    outcome = facts["terminal"].removeprefix("response.")
    assert f"outcome: {outcome}" in err
    assert code == (1 if outcome == "failed" else 0)
    for call in facts["final_function_calls"] or ():
        assert f"{call['name']}({call['arguments']})" in err
    usage = facts.get("usage")
    if usage and usage.get("total_tokens") is not None:
        assert f"total {usage['total_tokens']} tokens" in err


@pytest.mark.parametrize("name", [n for n in names("chat") if n not in NOT_PLAIN_TEXT])
def test_decode_chat_recording_prints_text_and_tool_calls(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    _, facts = load(name)
    code, out, err = run(capsys, "decode", str(REAL / f"{name}.sse"))
    assert code == 0
    assert out == expected_stdout(facts["final_output_text"])
    assert "outcome: completed" in err
    finish = facts["terminal"]["finish_reasons"]
    assert f"0: {finish[0]}" in err
    for call in facts["final_function_calls"] or ():
        assert f"{call['name']}({call['arguments']})" in err


def test_decode_marks_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "decode",
        str(REAL / "responses-mirascope-test_refusal__openai_gpt_4o_responses.sse"),
    )
    assert code == 0
    assert out.startswith("[refusal] ")
    assert len(out) > len("[refusal] \n")


def test_decode_chat_with_several_choices_reports_the_others(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys,
        "decode",
        str(REAL / "chat-openai-python-test_parse_pydantic_model_multiple_choices.sse"),
    )
    assert code == 0
    assert "choice 1: " in err and "choice 2: " in err
    assert "choice 0" not in err  # choice 0 is the live text on stdout
    assert out.startswith('{"city":"San Francisco"')


@pytest.mark.parametrize(
    "name",
    [
        "responses-simonw-llm-test_responses_tool_use_streaming-2",
        "responses-vercel-ai-openai-image-generation-tool.1",
        "chat-openai-node-works",
        "chat-dd-trace-py-chat_completion_tool_call_streamed",
    ],
)
def test_decode_events_prints_one_json_line_per_event(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    body, _ = load(name)
    code, out, err = run(capsys, "decode", "--events", str(REAL / f"{name}.sse"))
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["data"] for line in lines] == sse_data_objects(body)
    if name.startswith("chat-"):
        assert {line["class"] for line in lines} == {"ChatCompletionChunk"}
    else:
        for line in lines:
            assert line["class"].endswith("Event") and line["data"]["type"]
        assert lines[-1]["class"] == "ResponseCompletedEvent"
    assert f"events: {len(lines)}" in err


def test_decode_reads_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    body, facts = load("chat-openai-node-works")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(body)))
    code, out, _ = run(capsys, "decode", "-")
    assert code == 0
    assert out == expected_stdout(facts["final_output_text"])


# --- decode: --check --------------------------------------------------------------------------


def test_check_passes_on_a_clean_file(capsys: pytest.CaptureFixture[str]) -> None:
    path = REAL / "responses-mirascope-test_call__openai_gpt_4o_responses.sse"
    code, _, err = run(capsys, "decode", "--check", str(path))
    assert code == 0
    assert "diagnostics: none" in err and "check: ok" in err


def test_check_fails_on_a_truncated_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body, facts = load("responses-mirascope-test_call__openai_gpt_4o_responses")
    cut = body[: body.index(b"response.output_text.done")]
    path = tmp_path / "cut.sse"
    path.write_bytes(cut)
    code, out, err = run(capsys, "decode", "--check", str(path))
    assert code == 1
    assert "outcome: truncated" in err and "TruncatedStream" in err and "check: failed" in err
    # The text decoded before the cut is still printed.
    assert out.strip() and facts["final_output_text"].startswith(out.strip())
    # Without --check a truncated stream still ends badly.
    code, _, _ = run(capsys, "decode", str(path))
    assert code == 1


def test_check_fails_on_diagnostics_unless_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    # dd-trace's capture has no sequence_number on any event: tolerated, but each one is noted.
    path = str(REAL / "responses-dd-trace-py-response_function_call_streamed.sse")
    code, _, err = run(capsys, "decode", path)
    assert code == 0
    assert "missing-sequence-number x18" in err
    code, _, err = run(capsys, "decode", "--check", path)
    assert code == 1 and "check: failed" in err
    code, _, err = run(capsys, "decode", "--check", "--allow", "missing-sequence-number", path)
    assert code == 0 and "check: ok" in err


def test_strict_turns_an_anomaly_into_a_protocol_error(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(REAL / "responses-dd-trace-py-response_function_call_streamed.sse")
    code, _, err = run(capsys, "decode", "--strict", path)
    assert code == 1
    assert "RemoteProtocolError" in err and "missing-sequence-number" in err


def test_protocol_error_reports_where_and_keeps_the_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body, _ = load("responses-mirascope-test_call__openai_gpt_4o_responses")
    head = body[: body.index(b"event: response.output_text.done")]
    path = tmp_path / "broken.sse"
    path.write_bytes(head + b'data: {"type": "response.output_text.done", \n\n')
    code, out, err = run(capsys, "decode", "--check", str(path))
    assert code == 1
    assert "RemoteProtocolError" in err and f"byte offset {len(head)}" in err
    assert out.startswith("4200 + 42")


# --- decode: bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the input is empty"),
        (b'{"id": "resp_1", "object": "response"}\n', "looks like JSON"),
        (b"<!doctype html><html><body>Bad gateway</body></html>\n", "looks like HTML"),
        (b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n", "HTTP status line"),
        (gzip.compress(b"data: {}\n\n"), "gzip-compressed"),
        (b"hello world\nthis is text\n", "no 'data:' line found"),
        (b"data: hello\n\n", "not JSON"),
        (b"data: {}\n\n" * 20, "--format"),
    ],
)
def test_input_that_is_not_a_stream_gets_a_clear_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "input.sse"
    path.write_bytes(content)
    code, out, err = run(capsys, "decode", str(path))
    assert code == 2
    assert out == ""
    assert err.startswith("sansio-responses decode: error: ") and message in err
    assert "Traceback" not in err


def test_format_option_overrides_detection(capsys: pytest.CaptureFixture[str]) -> None:
    # Read as Responses, a chat stream's chunks have no "type": a typed, located protocol error.
    code, _, err = run(
        capsys, "decode", "--format", "responses", str(REAL / "chat-openai-node-works.sse")
    )
    assert code == 1 and "RemoteProtocolError" in err and "byte offset 0" in err


def test_unreadable_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "decode", str(tmp_path / "missing.sse"))
    assert code == 2 and "cannot read" in err and "No such file" in err
    code, _, err = run(capsys, "decode", str(tmp_path))
    assert code == 2 and "directory" in err


def test_event_larger_than_the_limit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # The first event (response.created, about 1.5 KB) is over the limit: the stream's own error.
    path = str(REAL / "responses-mirascope-test_call__openai_gpt_4o_responses.sse")
    code, _, err = run(capsys, "decode", "--max-event-size", "500", path)
    assert code == 1
    assert "EventTooLarge" in err and "max_event_size (500 bytes)" in err
    # A long line that names no protocol is not an event stream at all.
    junk = tmp_path / "junk.txt"
    junk.write_bytes(b"x" * 2000)
    code, _, err = run(capsys, "decode", "--max-event-size", "500", str(junk))
    assert code == 2 and "not an event stream" in err


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == 2 and "exit codes:" in err
    code, _, err = run(capsys, "demo", "--adapter", "curl")
    assert code == 2 and "invalid choice" in err
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("sansio-responses ")
    code, out, _ = run(capsys, "decode", "--help")
    assert code == 0 and "3  network or HTTP error" in out


# --- states, recordings ------------------------------------------------------------------------


def test_states_prints_the_lifecycle(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "states")
    assert code == 0
    rows = [line.split() for line in out.splitlines()]
    assert rows[0] == ["state", "input", "next", "outcome"]
    assert ["open", "response.completed", "done", "completed"] in rows
    assert any(row[:3] == ["open", "end", "of"] and "truncated" in row for row in rows)


def test_recordings_lists_the_bundled_streams(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "recordings")
    assert code == 0
    listed = out.split()
    assert BACKGROUND + ".sse" in listed
    for name in listed:
        assert recording(name)


# --- demo over loopback with each adapter ------------------------------------------------------


@pytest.mark.parametrize("adapter", ["httpx", "httpx_async", "aiohttp", "trio", "socket"])
def test_demo_with_each_adapter(capsys: pytest.CaptureFixture[str], adapter: str) -> None:
    code, out, err = run(capsys, "demo", "--adapter", adapter, "--delay", "0")
    assert code == 0
    assert out == DEMO_TEXT + "\n"
    assert "http://127.0.0.1:" in err
    assert f"adapter: {adapter}" in err
    assert "events: 17" in err and "outcome: completed" in err
    assert "usage: input 15, output 9 (0 reasoning), total 24 tokens" in err


@pytest.mark.parametrize("adapter", ["httpx", "httpx_async", "trio"])
def test_demo_resumes_a_dropped_background_stream(
    capsys: pytest.CaptureFixture[str], adapter: str
) -> None:
    code, out, err = run(
        capsys,
        "demo",
        "--adapter",
        adapter,
        "--delay",
        "0",
        "--drop-after",
        "7",
        "--chunk-size",
        "9",
    )
    assert code == 0
    assert out == DEMO_TEXT + "\n"
    assert "resumes: 1" in err and "events: 17" in err
    # Events 0..6 arrived before the drop: the resume asks for what follows event 6.
    assert "request: POST /v1/responses\n" in err
    assert "?stream=true&starting_after=6\n" in err


def test_demo_with_a_chat_recording(capsys: pytest.CaptureFixture[str]) -> None:
    name = "chat-openai-python-test_parse_nothing"
    _, facts = load(name)
    code, out, err = run(capsys, "demo", "--recording", name, "--delay", "0", "--adapter", "socket")
    assert code == 0
    assert out == expected_stdout(facts["final_output_text"])
    assert "outcome: completed (finish_reason 0: stop)" in err


def test_demo_with_an_unknown_recording(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "demo", "--recording", "nope")
    assert code == 2 and "no recording named 'nope.sse'" in err


def test_demo_drop_without_resume_ends_badly(capsys: pytest.CaptureFixture[str]) -> None:
    # Not a background stream: nothing can resume it, so the dropped connection is the end.
    name = "responses-simonw-llm-test_responses_basic_streaming"
    code, _, err = run(capsys, "demo", "--recording", name, "--delay", "0", "--drop-after", "3")
    assert code == 3
    assert "ConnectionDropped" in err and "outcome: truncated" in err


# --- stream against the local server ------------------------------------------------------------


def test_stream_sends_the_request_and_prints_the_answer(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-key")
    name = "responses-simonw-llm-test_responses_basic_streaming"
    with serve(Script(recording(name))) as server:
        code, out, err = run(
            capsys,
            "stream",
            "--base-url",
            server.base_url,
            "--model",
            "gpt-test",
            "--input",
            "ping",
            "--instructions",
            "be brief",
            "--adapter",
            "aiohttp",
        )
        (request,) = server.requests
    assert code == 0
    assert out == "pong\n"
    assert "outcome: completed" in err
    assert request.path == "/v1/responses"
    assert request.json() == {
        "model": "gpt-test",
        "input": "ping",
        "instructions": "be brief",
        "stream": True,
    }
    assert request.header("authorization") == "Bearer sk-test-key"
    assert "sk-test-key" not in err


def test_stream_chat(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    name = "chat-openai-python-test_parse_nothing"
    _, facts = load(name)
    with serve(Script(recording(name))) as server:
        code, out, _ = run(
            capsys, "stream", "--chat", "--base-url", server.base_url, "--input", "weather?"
        )
        (request,) = server.requests
    assert code == 0
    assert out == expected_stdout(facts["final_output_text"])
    assert request.path == "/v1/chat/completions"
    assert request.json()["messages"] == [{"role": "user", "content": "weather?"}]
    assert request.header("authorization") is None


def test_stream_chat_with_the_async_httpx_adapter(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-key")
    name = "chat-openai-python-test_parse_nothing"
    _, facts = load(name)
    with serve(Script(recording(name))) as server:
        code, out, err = run(
            capsys,
            "stream",
            "--chat",
            "--adapter",
            "httpx_async",
            "--base-url",
            server.base_url,
            "--input",
            "weather?",
        )
        (request,) = server.requests
    assert code == 0
    assert out == expected_stdout(facts["final_output_text"])
    assert "outcome: completed (finish_reason 0: stop)" in err
    assert request.path == "/v1/chat/completions"
    assert request.header("authorization") == "Bearer sk-test-key"


def test_stream_resume_after(capsys: pytest.CaptureFixture[str]) -> None:
    script = Script(recording(BACKGROUND))
    with serve() as server:
        response_id = server.remember(script)
        code, out, err = run(
            capsys,
            "stream",
            "--base-url",
            server.base_url,
            "--resume",
            response_id,
            "--after",
            "8",
            "--adapter",
            "socket",
        )
        (request,) = server.requests
    assert request.method == "GET"
    assert request.param("starting_after") == "8"
    assert code == 0
    # Events 0-8 carry the first output_text deltas; the rest of the text follows them.
    deltas = [
        obj["delta"]
        for obj in sse_data_objects(recording(BACKGROUND))
        if obj["type"] == "response.output_text.delta" and obj["sequence_number"] > 8
    ]
    assert out == "".join(deltas) + "\n"
    assert DEMO_TEXT.endswith(out.strip()) and out.strip() != DEMO_TEXT
    assert "outcome: completed" in err


def test_stream_http_error_exits_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    with serve(Script.error(401, "Incorrect API key provided", code="invalid_api_key")) as server:
        code, out, err = run(capsys, "stream", "--base-url", server.base_url, "--input", "hi")
    assert code == 3
    assert out == ""
    assert "AuthenticationError" in err and "Incorrect API key provided" in err


def test_stream_connection_refused_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    with serve() as server:
        base_url = server.base_url
    code, _, err = run(capsys, "stream", "--base-url", base_url, "--input", "hi")
    assert code == 3 and "ConnectError" in err


def test_stream_needs_a_key_for_the_openai_api(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    code, _, err = run(capsys, "stream", "--input", "hi")
    assert code == 2 and "OPENAI_API_KEY" in err
    code, _, err = run(capsys, "stream", "--base-url", "http://127.0.0.1:9/v1", "--after", "3")
    assert code == 2 and "--after needs --resume" in err


# --- as a separate process -----------------------------------------------------------------------


def _env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_python_m_decode_in_a_subprocess() -> None:
    name = "responses-mirascope-test_call__openai_gpt_4o_responses"
    _, facts = load(name)
    result = subprocess.run(
        [sys.executable, "-m", "sansio_responses", "decode", "--check", str(REAL / f"{name}.sse")],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == facts["final_output_text"] + "\n"
    assert "outcome: completed" in result.stderr


def _default_sigint() -> None:
    # A job started in the background by a non-interactive shell inherits SIGINT ignored, and an
    # ignored signal stays ignored across exec: the server would never see the Ctrl-C this test
    # sends. A terminal's Ctrl-C reaches a server started with the default disposition.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _first_line(process: subprocess.Popen[str], timeout: float) -> str:
    """The first line of *process*'s stdout, or "" if none came within *timeout* seconds."""
    stdout = process.stdout
    assert stdout is not None
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return lines[0] if lines else ""


def test_serve_until_ctrl_c(capsys: pytest.CaptureFixture[str]) -> None:
    # Every wait is bounded (issue 22, item 11): a server that does not stop is killed, and the
    # test fails, rather than Popen.__exit__ waiting for it forever.
    name = "chat-openai-python-test_parse_nothing"
    _, facts = load(name)
    argv = ["-m", "sansio_responses", "serve", "--port", "0", "--recording", name]
    process = subprocess.Popen(
        [sys.executable, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        preexec_fn=_default_sigint,
    )
    try:
        first = _first_line(process, 30)
        assert first.startswith("serving on http://127.0.0.1:"), first
        base_url = first.split()[2]
        code, out, _ = run(capsys, "stream", "--chat", "--base-url", base_url, "--input", "x")
        assert code == 0
        assert out == expected_stdout(facts["final_output_text"])
    finally:
        process.send_signal(signal.SIGINT)
        try:
            rest, errors = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate(timeout=30)
            pytest.fail("serve did not stop within 30 s of SIGINT; killed")
    assert process.returncode == 0, errors
    assert "stopped after 1 request(s)" in rest


# --- usage mistakes: exit 2, one line, nothing secret ----------------------------------------

SECRET = "sk-test-SECRET-0123456789abcdef"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["serve", "--port", "99999"], "0-65535"),
        (["serve", "--port", "-1"], "--port"),
        (["serve", "--keepalive-every", "0"], ">= 1"),
        (["demo", "--chunk-size", "0"], ">= 1"),
        (["demo", "--delay", "nan"], "finite"),
        (["stream", "--idle-timeout", "inf", "--input", "x"], "finite"),
        (["demo", "--adapter", "curl"], "invalid choice"),
        (["nosuch"], "invalid choice"),
        (["decode"], "FILE"),
        (["stream", "--base-url", "127.0.0.1:8000", "--input", "hi"], "absolute"),
        (["stream", "--base-url", "http://[::1/v1", "--input", "hi"], "not a URL"),
        (["stream", "--base-url", "http://127.0.0.1:8000/v1 ", "--input", "hi"], "U+0020"),
        (["stream", "--base-url", "http://127.0.0.1:99999/v1", "--input", "hi"], "port"),
        (["stream", "--base-url", f"http://u:{SECRET}@127.0.0.1/v1", "--input", "hi"], "user info"),
        (["stream", "--base-url", "http://127.0.0.1:9/v1", "--input", "bad \udcff"], "surrogate"),
        (["stream", "--base-url", "http://127.0.0.1:9/v1", "--resume", "r\ud800"], "surrogate"),
        (["stream", "--base-url", "http://127.0.0.1:9/v1", "--after", "3"], "--resume"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else v,
)
def test_every_usage_mistake_is_one_line_and_exit_2(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    code, out, err = run(capsys, *argv)
    assert code == 2, err
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "error: " in err and says in err
    assert "Traceback" not in err and SECRET not in err


@pytest.mark.parametrize("stray", ["\t", "\x0b", "\x7f", "\u2026", "\xa0", " "])
def test_a_pasted_key_with_a_stray_character_is_refused_without_showing_it(
    stray: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET + stray)
    with serve(Script(recording(BACKGROUND))) as server:
        for base in ([], ["--base-url", server.base_url]):
            code, out, err = run(capsys, "stream", *base, "--input", "hi")
            assert code == 2 and out == ""
            assert err.count("\n") == 1 and "OPENAI_API_KEY" in err
            assert f"U+{ord(stray):04X}" in err
            assert SECRET not in err and SECRET[:12] not in err
        assert server.requests == []  # refused before anything was sent


@pytest.mark.parametrize("adapter", ["httpx", "httpx_async", "aiohttp", "trio", "socket"])
def test_a_404_names_the_request_and_hints_at_v1(
    adapter: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve(Script(recording(BACKGROUND))) as server:
        root = server.base_url.removesuffix("/v1")
        code, out, err = run(
            capsys, "stream", "--adapter", adapter, "--base-url", root, "--input", "hi"
        )
    assert code == 3 and out == ""
    assert f"NotFoundError: Error code: 404 - 404: Not Found (POST {root}/responses;" in err
    assert f"base_url='{root}/v1'" in err


_RUN_CLI = """
from sansio_responses._cli.main import main
sys.exit(main(sys.argv[1:]))
"""
_BLOCK_AIOHTTP = blocking("aiohttp") + _RUN_CLI


@pytest.mark.parametrize(
    "argv",
    [
        ["demo"],
        ["serve", "--port", "0"],
        ["stream", "--adapter", "aiohttp", "--base-url", "http://127.0.0.1:9/v1", "--input", "x"],
    ],
    ids=lambda v: v[0],
)
def test_a_missing_package_names_an_install_command_that_works(argv: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _BLOCK_AIOHTTP, *argv],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert "'aiohttp'" in result.stderr or "needs aiohttp" in result.stderr
    # sansio-responses is not on the package index: the hint installs what is.
    assert "pip install 'aiohttp>=" in result.stderr
    assert "sansio-responses[" not in result.stderr


_BLOCK_HTTPX = blocking("httpx") + _RUN_CLI


def test_the_async_httpx_adapter_without_httpx_names_the_httpx_extra() -> None:
    argv = ["stream", "--adapter", "httpx_async", "--base-url", "http://127.0.0.1:9/v1"]
    result = subprocess.run(
        [sys.executable, "-c", _BLOCK_HTTPX, *argv, "--input", "x"],
        capture_output=True,
        text=True,
        env={**_env(), "OPENAI_API_KEY": "sk-test"},
        timeout=60,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert "sansio_responses.adapters.httpx_async needs the package 'httpx'" in result.stderr
    assert "pip install 'httpx>=" in result.stderr and "(the 'httpx' extra)" in result.stderr


def test_rules_prints_the_accumulation_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["event", "item", "kind", "action"]
    assert len(lines) == 1 + len(sr.ACCUMULATION_RULES)
    # Each row shows its event, the item kind and the action, in the table's order.
    for line, (etype, kind, action) in zip(lines[1:], sr.ACCUMULATION_RULES, strict=True):
        assert line.split(None, 2)[:2] == [etype, kind]
        assert line.endswith(action)
    assert out == sr.format_accumulation_rules() + "\n"


def test_decode_of_a_first_event_nested_too_deep_to_sniff_is_a_located_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    depth = json_overflow_depth()
    deep = "[" * depth + "]" * depth  # deeper than json.loads itself can decode here
    path = tmp_path / "deep.sse"
    first = f'data: {{"type":"response.created","sequence_number":0,"v":{deep}}}\n\n'
    path.write_text(first + 'data: {"type":"response.in_progress","sequence_number":1}\n\n')
    # Undecided by the first event, the protocol is told by the next one.
    code, out, err = run(capsys, "decode", str(path))
    assert code == 1 and out == ""
    assert "RemoteProtocolError" in err and "byte offset 0" in err
    assert "Traceback" not in err and "RecursionError" not in err
    path.write_text(first)
    code, _, err = run(capsys, "decode", "--format", "responses", str(path))
    assert code == 1 and "RemoteProtocolError" in err and "byte offset 0" in err


def test_stream_over_the_websocket(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-key")
    name = "responses-simonw-llm-test_responses_basic_streaming"
    with serve(Script(recording(name))) as server:
        code, out, err = run(
            capsys,
            "stream",
            "--websocket",
            "--stream-id",
            "lane-1",
            "--base-url",
            server.base_url,
            "--input",
            "ping",
            "--events",
        )
        (upgrade,) = server.requests
    assert code == 0
    lines = [json.loads(line)["data"] for line in out.splitlines()]
    assert {line.get("stream_id") for line in lines} == {"lane-1"}
    assert lines[-1]["type"] == "response.completed"
    assert "outcome: completed" in err and "sk-test-key" not in err
    assert (upgrade.method, upgrade.path) == ("GET", "/v1/responses")
    assert upgrade.header("authorization") == "Bearer sk-test-key"


@pytest.mark.parametrize("flag", [["--chat"], ["--background"], ["--resume", "resp_1"]])
def test_stream_websocket_refuses_http_only_options(
    capsys: pytest.CaptureFixture[str], flag: list[str]
) -> None:
    code, _, err = run(
        capsys,
        "stream",
        "--websocket",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--input",
        "x",
        *flag,
    )
    assert code == 2 and "cannot be used with --websocket" in err
    code, _, err = run(capsys, "stream", "--stream-id", "a", "--base-url", "http://127.0.0.1:9/v1")
    assert code == 2 and "--stream-id needs --websocket" in err


def test_rules_websocket_prints_the_connection_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--websocket")
    assert code == 0 and out == sr.format_connection_rules() + "\n"
