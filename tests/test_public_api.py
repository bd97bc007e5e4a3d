"""The public namespace: contract names exist, and the core imports only the stdlib and attrs."""

from __future__ import annotations

import subprocess
import sys

import pytest

import sansio_responses as sr

CONTRACT = [
    "ResponsesStream",
    "Response",
    "UnknownEvent",
    "ProtocolError",
    "RemoteProtocolError",
    "LocalProtocolError",
    "EventTooLarge",
    "TruncatedStream",
    "SSEDecoder",
    "ServerSentEvent",
    "ChatCompletionsStream",
    "ChatCompletion",
    "Request",
    "responses_request",
    "resume_request",
    "chat_request",
    "APIStatusError",
]


def test_contract_names_are_public() -> None:
    for name in CONTRACT:
        assert name in sr.__all__, name
        assert getattr(sr, name) is not None
    stream = sr.ResponsesStream()
    for attr in ("feed", "close", "snapshot", "outcome", "diagnostics"):
        assert hasattr(stream, attr)
    assert issubclass(sr.RemoteProtocolError, sr.ProtocolError)
    assert issubclass(sr.LocalProtocolError, sr.ProtocolError)
    assert issubclass(sr.EventTooLarge, sr.RemoteProtocolError)
    assert issubclass(sr.TruncatedStream, sr.RemoteProtocolError)
    assert hasattr(sr.Response, "output_text") and hasattr(sr.Response, "to_dict")


def test_every_public_name_is_documented() -> None:
    for name in sr.__all__:
        obj = getattr(sr, name)
        if callable(obj) and not isinstance(obj, (int, str, float, frozenset, dict, tuple)):
            assert (obj.__doc__ or "").strip(), f"{name} has no docstring"


def test_core_imports_only_stdlib_and_attrs() -> None:
    code = (
        "import sys, sansio_responses\n"
        "third = {m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names)\n"
        "print(sorted(third))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # Private names are the interpreter's and installer's own hooks (__main__, editable finders).
    third = {m for m in eval(out.stdout) if not m.startswith("_")}
    assert third <= {"sansio_responses", "attr", "attrs"}, third


def test_print_state_table_prints_and_format_state_table_returns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = sr.format_state_table()
    assert capsys.readouterr().out == ""  # formatting prints nothing
    assert text.splitlines()[0].split() == ["state", "input", "next", "outcome"]
    assert len(text.splitlines()) == len(sr.STATE_TABLE) + 1
    # The name tells the truth: it prints. It also still returns the text, as it used to.
    assert sr.print_state_table() == text
    assert capsys.readouterr().out == text + "\n"
