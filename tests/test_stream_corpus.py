"""Every recorded Responses stream through ResponsesStream: agreement with the server and chunk invariance."""

from __future__ import annotations

from typing import Any

import pytest
from _corpus import byte_chunks, load, names, random_chunks

import sansio_responses as sr

RESPONSES = names("responses")
TERMINAL_WITHOUT_ITEMS = {"terminal-output-empty", "terminal-output-missing-items"}
TERMINALS = {"response.completed", "response.incomplete", "response.failed", "error"}


def function_calls(response: sr.Response | None) -> list[dict[str, Any]]:
    assert response is not None
    return [
        {"name": item.name, "arguments": item.arguments}
        for item in response.output
        if item.type == "function_call"
    ]


def run(chunks: Any) -> tuple[sr.ResponsesStream, list[Any], sr.Response | None]:
    """Feed chunks; return the stream, its events and the snapshot taken just before the terminal."""
    stream = sr.ResponsesStream()
    events: list[Any] = []
    before_terminal = None
    for chunk in chunks:
        before = stream.snapshot()
        new = stream.feed(chunk)
        if before_terminal is None and any(e.type in TERMINALS for e in new):
            before_terminal = before
        events.extend(new)
    events.extend(stream.close())
    return stream, events, before_terminal


def test_corpus_is_present() -> None:
    assert len(RESPONSES) >= 40


@pytest.mark.parametrize("name", RESPONSES)
def test_terminal_and_final_facts(name: str) -> None:
    body, facts = load(name)
    stream, events, before_terminal = run(byte_chunks(body))
    terminal = facts["terminal"]
    assert stream.outcome == terminal.removeprefix("response.")
    assert stream.terminal_event is not None and stream.terminal_event.type == terminal
    assert len(events) == facts["event_count"] - stream.diagnostic_counts.get(
        "duplicate-sequence-number", 0
    )
    final = stream.snapshot()
    assert final is not None
    if TERMINAL_WITHOUT_ITEMS & set(facts["features"]):
        # The sidecar's facts come from a terminal response that leaves items or parts out; the
        # snapshot keeps what the stream carried, so it agrees with the streamed items.
        assert before_terminal is not None
        assert final.output_text == before_terminal.output_text
        assert function_calls(final) == function_calls(before_terminal)
        return
    if facts["final_output_text"] is not None:
        assert final.output_text == facts["final_output_text"]
    assert function_calls(final) == facts["final_function_calls"]
    # Before the terminal event the snapshot is built from deltas alone; it must agree.
    if "deltas-disagree-with-done" not in facts["features"]:
        assert before_terminal is not None
        if facts["final_output_text"] is not None:
            assert before_terminal.output_text == facts["final_output_text"]
        assert function_calls(before_terminal) == facts["final_function_calls"]
    if facts["usage"] is not None:
        assert final.usage is not None
        assert final.usage.to_dict() == facts["usage"]


@pytest.mark.parametrize("name", RESPONSES)
def test_snapshot_is_the_servers_response_after_terminal(name: str) -> None:
    body, facts = load(name)
    stream = sr.ResponsesStream()
    stream.feed(body)
    stream.close()
    terminal = stream.terminal_event
    assert terminal is not None
    server = terminal.response.to_dict()
    snapshot = stream.snapshot()
    assert snapshot is not None
    if server.get("output") or not TERMINAL_WITHOUT_ITEMS & set(facts["features"]):
        assert snapshot.to_dict() == server
    else:
        # The server left its items out: they are filled in from the stream, the rest is the server's.
        patched = snapshot.to_dict()
        assert {k: v for k, v in patched.items() if k != "output"} == {
            k: v for k, v in server.items() if k != "output"
        }
        assert patched["output"]


@pytest.mark.parametrize("name", RESPONSES)
def test_chunking_does_not_matter(name: str) -> None:
    body, _ = load(name)

    def digest(chunks: Any) -> tuple[list[Any], Any, str | None, list[Any]]:
        stream, events, _ = run(chunks)
        snap = stream.snapshot()
        return (
            [(type(e).__name__, e.to_dict()) for e in events],
            None if snap is None else snap.to_dict(),
            stream.outcome,
            stream.diagnostics,
        )

    whole = digest([body])
    assert digest(byte_chunks(body)) == whole
    for seed in range(3):
        assert digest(random_chunks(body, seed)) == whole
