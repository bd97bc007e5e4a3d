"""Issue 22 item 8: the command line against hostile streams. A lone surrogate in a delta does not
crash ``decode``, ``decode --events`` or ``stream`` (run as real processes, whose stdout encodes
strictly), server-controlled text reaches the terminal with its control characters escaped, and
``decode`` holds a bounded amount of input while it detects the protocol.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from sansio_responses._cli.decode import decode_chunks
from sansio_responses._cli.main import main
from sansio_responses._cli.output import Printer, neutral
from sansio_responses.testing import ChatStreamBuilder, Script, StreamBuilder, serve

LONE = "x\ud800y"
FORGED = "\x1b]0;pwned\x07\x1b[2J\rsansio-responses: check: ok\n\x9b31m\u202eevil"


def _with(body: bytes, placeholder: str, value: str) -> bytes:
    # JSON-escaped (ensure_ascii): the wire carries \ud800 and \u001b escapes, as a server may.
    return body.replace(json.dumps(placeholder).encode(), json.dumps(value).encode())


def _lone_body() -> bytes:
    return _with(StreamBuilder().text(["a ", "LONE"]).completed().to_sse(), "LONE", LONE)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONIOENCODING"] = "utf-8"  # strict, as a UTF-8 terminal or pipe is
    env["OPENAI_API_KEY"] = "sk-test-key"
    return env


def _cli(*argv: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "sansio_responses", *argv],
        input=stdin,
        capture_output=True,
        env=_env(),
        timeout=60,
        check=False,
    )


# --- lone surrogates in model output --------------------------------------------------------------


@pytest.mark.parametrize("events", [False, True], ids=["text", "events"])
def test_decode_writes_a_lone_surrogate_as_a_backslash_escape(tmp_path: Path, events: bool) -> None:
    path = tmp_path / "lone.sse"
    path.write_bytes(_lone_body())
    result = _cli("decode", *(["--events"] if events else []), str(path))
    assert b"Traceback" not in result.stderr and result.returncode == 0, result.stderr
    if events:
        lines = [json.loads(line) for line in result.stdout.splitlines()]
        deltas = [
            e["data"]["delta"] for e in lines if e["data"]["type"] == "response.output_text.delta"
        ]
        assert deltas == ["a ", LONE]  # valid JSON, the lone surrogate as its \ud800 escape
    else:
        assert result.stdout == b"a x\\ud800y\n"


def test_stream_writes_a_lone_surrogate_as_a_backslash_escape() -> None:
    with serve(Script(_lone_body())) as server:
        result = _cli("stream", "--base-url", server.base_url, "--input", "hi")
    assert b"Traceback" not in result.stderr and result.returncode == 0, result.stderr
    assert result.stdout == b"a x\\ud800y\n"


# --- server-controlled text is neutralised --------------------------------------------------------


def test_neutral_escapes_what_a_terminal_acts_on() -> None:
    assert neutral(FORGED) == (
        "\\x1b]0;pwned\\x07\\x1b[2J\\x0dsansio-responses: check: ok\\x0a\\x9b31m\\u202eevil"
    )
    assert neutral("tab\tand text: café, 日本") == "tab\tand text: café, 日本"
    assert neutral(LONE) == "x\\ud800y"


def test_a_failed_responses_message_cannot_forge_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = StreamBuilder().text(["partial"]).failed(message="MSG").to_sse()
    path = tmp_path / "failed.sse"
    path.write_bytes(_with(body, "MSG", FORGED))
    code = main(["decode", "--check", str(path)])
    err = capsys.readouterr().err
    assert code == 1
    assert "\x1b" not in err and "\r" not in err and "\x9b" not in err and "\u202e" not in err
    # The only "check:" line is the real one; the forged one stays inside the outcome line.
    assert [line for line in err.splitlines() if "check:" in line] == [
        line for line in err.splitlines() if line.startswith("outcome: failed")
    ] + ["check: failed"]
    assert "\\x1b]0;pwned\\x07" in err


def test_a_chat_error_message_is_neutralised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = ChatStreamBuilder().content("hi").error(message="MSG").to_sse()
    path = tmp_path / "chat.sse"
    path.write_bytes(_with(body, "MSG", FORGED))
    main(["decode", str(path)])
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\r" not in err and "\\x1b[2J" in err


def test_an_error_event_in_events_mode_is_valid_json_without_raw_controls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = StreamBuilder().text(["x"]).error(message="MSG").to_sse()
    path = tmp_path / "error.sse"
    path.write_bytes(_with(body, "MSG", FORGED))
    main(["decode", "--events", str(path)])
    out = capsys.readouterr().out
    assert not any(ch in out for ch in "\x1b\r\x07\x9b\u202e")
    errors = [json.loads(line)["data"] for line in out.splitlines() if '"error"' in line]
    wire = errors[-1]
    assert (wire.get("message") or wire["error"]["message"]) == FORGED  # the text, as JSON


def test_a_usage_error_quoting_input_is_neutralised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "not.sse"
    path.write_bytes(b"data: " + FORGED.encode() + b"\n\n")
    assert main(["decode", str(path)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\r" not in err and err.count("\n") == 1


# --- decode holds a bounded look-ahead ------------------------------------------------------------


def _comments_then(body: bytes, megabytes: int) -> Iterator[bytes]:
    line = b": keep-alive" + b" " * 51 + b"\n"  # 64 bytes
    for _ in range(megabytes * 16):
        yield line * 1024  # 64 KiB, a new object each time (as a read returns)
    yield b"\n" + body


@pytest.mark.parametrize("kind", ["responses", "chat"])
def test_decode_does_not_hold_leading_comments(kind: str) -> None:
    if kind == "responses":
        body = StreamBuilder().text(["hello"]).completed().to_sse()
    else:
        body = ChatStreamBuilder().content("hello").finish().to_sse()
    out, err = io.StringIO(), io.StringIO()
    tracemalloc.start()
    try:
        stream, error = decode_chunks(_comments_then(body, 4), Printer(out, err))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert error is None and out.getvalue() == "hello"
    assert type(stream).__name__ == (
        "ResponsesStream" if kind == "responses" else "ChatCompletionsStream"
    )
    assert stream.bytes_fed == 4 * 2**20 + 1 + len(body)  # every byte still reaches the stream
    assert peak < 2**20  # 4 MiB of comments went through; a few 64 KiB chunks are held at most
