"""The benchmark's generator produces well-formed, realistic streams, and the runner still runs.

The peers (openai, httpx-sse, orjson) are benchmark-only dependencies that CI does not install; the
runner skips whichever is missing, so this test passes with and without them.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # ``pytest`` run without ``python -m`` does not put the root there
    sys.path.insert(0, str(ROOT))

from bench import generate as gen  # noqa: E402
from bench import run as bench_run  # noqa: E402

REAL = ROOT / "tests" / "data" / "real"
RESPONSES = [name for name, spec in gen.SCENARIOS.items() if spec[0] == "responses"]
CHAT = [name for name, spec in gen.SCENARIOS.items() if spec[0] == "chat"]


def _size(scenario: str) -> int:
    return 3000 if scenario == "image" else 37


def _blocks(data: bytes) -> list[tuple[str | None, str]]:
    """Parse the generator's framing independently: (event name or None, data) per block."""
    text = data.decode("utf-8")
    assert text.endswith("\n\n")
    out = []
    for block in text[:-2].split("\n\n"):
        event = None
        datas = []
        for line in block.split("\n"):
            field, _, value = line.partition(": ")
            if field == "event":
                event = value
            else:
                assert field == "data", line
                datas.append(value)
        assert len(datas) == 1, block
        out.append((event, datas[0]))
    return out


def _responses_events(data: bytes) -> list[dict[str, Any]]:
    events = []
    for name, payload in _blocks(data):
        event = json.loads(payload)
        assert name == event["type"]
        events.append(event)
    return events


@pytest.mark.parametrize("scenario", RESPONSES)
def test_responses_stream_is_well_formed(scenario: str) -> None:
    stream = gen.generate(scenario, _size(scenario))
    events = _responses_events(stream.data)
    numbers = [e["sequence_number"] for e in events]
    positions = list(range(len(events)))
    if scenario == "text_gapped":
        assert numbers == [2 * k for k in positions]
    elif scenario == "text_reordered":
        assert numbers == [*positions[:2], *(k ^ 1 for k in positions[2:])]
        assert sorted(numbers[:-1]) == positions[:-1]  # a permutation (the last has no pair)
    else:
        assert numbers == positions
    if scenario in ("index_jumps", "text_items"):
        indices = [e["output_index"] for e in events if e["type"] == "response.output_item.added"]
        jump = gen.JUMP if scenario == "index_jumps" else 1
        assert indices == [k * jump for k in range(len(indices))]
        assert len(indices) == -(-_size(scenario) // gen.JUMP_DELTAS)
    assert stream.events == len(events)
    assert stream.largest_event == max(len(b) + 2 for b in stream.data.split(b"\n\n")[:-1])
    assert events[0]["type"] == "response.created"
    assert events[1]["type"] == "response.in_progress"
    assert [e["type"] for e in events].count("response.completed") == 1
    final = events[-1]
    assert final["type"] == "response.completed"
    assert final["response"]["status"] == "completed"

    # The terminal response carries what the deltas built, item by item.
    output = final["response"]["output"]
    text_deltas = [e["delta"] for e in events if e["type"] == "response.output_text.delta"]
    final_text = "".join(
        part["text"]
        for item in output
        if item["type"] == "message"
        for part in item["content"]
        if part["type"] == "output_text"
    )
    if text_deltas:
        assert final_text == "".join(text_deltas) == stream.texts["output_text"]
    arg_deltas = [
        e["delta"] for e in events if e["type"] == "response.function_call_arguments.delta"
    ]
    calls = [item for item in output if item["type"] == "function_call"]
    if arg_deltas:
        assert calls[0]["arguments"] == "".join(arg_deltas) == stream.texts["arguments"]
        json.loads(calls[0]["arguments"])
    summary_deltas = [
        e["delta"] for e in events if e["type"] == "response.reasoning_summary_text.delta"
    ]
    if summary_deltas:
        summaries = [
            p["text"] for item in output if item["type"] == "reasoning" for p in item["summary"]
        ]
        assert "".join(summaries) == "".join(summary_deltas) == stream.texts["summary"]

    # Every delta carries obfuscation padding, as the live API sends it, and is 1-8 characters.
    deltas = [e for e in events if e["type"].endswith(".delta")]
    assert deltas
    assert all(e["obfuscation"] and 1 <= len(e["delta"]) <= 8 for e in deltas)
    if scenario in ("text", "text_logprobs", "function_call", "text_items", *gen.HOSTILE):
        assert len(deltas) == _size(scenario)
    if scenario == "reasoning":
        assert len(summary_deltas) == _size(scenario)


def test_logprobs_carry_top_alternatives() -> None:
    events = _responses_events(gen.generate("text_logprobs", 10).data)
    deltas = [e for e in events if e["type"] == "response.output_text.delta"]
    for event in deltas:
        (logprob,) = event["logprobs"]
        assert logprob["token"] == event["delta"]
        assert bytes(logprob["bytes"]).decode() == event["delta"]
        assert len(logprob["top_logprobs"]) == gen.TOP_LOGPROBS
    part = events[-1]["response"]["output"][0]["content"][0]
    assert part["logprobs"] == [e["logprobs"][0] for e in deltas]


def test_image_stream_has_multi_kilobyte_events() -> None:
    stream = gen.generate("image", 50_000)
    events = _responses_events(stream.data)
    partial = [e for e in events if e["type"] == "response.image_generation_call.partial_image"]
    assert len(partial) == gen.PARTIAL_IMAGES
    assert all(len(e["partial_image_b64"]) == 50_000 for e in partial)
    assert stream.largest_event > 50_000
    assert events[-1]["response"]["output"][0]["result"] == partial[-1]["partial_image_b64"]


@pytest.mark.parametrize("scenario", CHAT)
def test_chat_stream_is_well_formed(scenario: str) -> None:
    stream = gen.generate(scenario, 37)
    blocks = _blocks(stream.data)
    assert all(name is None for name, _ in blocks)
    assert blocks[-1][1] == "[DONE]"
    chunks = [json.loads(payload) for _, payload in blocks[:-1]]
    assert stream.events == len(chunks)
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    assert len({c["id"] for c in chunks}) == 1
    usage_chunk = chunks[-1]
    assert usage_chunk["choices"] == []
    assert usage_chunk["usage"]["completion_tokens"] == 37
    assert all(c["usage"] is None for c in chunks[:-1])
    assert chunks[-2]["choices"][0]["finish_reason"] in ("stop", "tool_calls")
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    deltas = [c["choices"][0]["delta"] for c in chunks[:-1]]
    if scenario in ("chat_text", "chat_azure", "chat_logprobs"):
        content = "".join(d.get("content") or "" for d in deltas)
        assert content == stream.texts["content"]
        assert sum(1 for d in deltas if d.get("content")) == 37
        if scenario == "chat_azure":
            assert all("content_filter_results" in c["choices"][0] for c in chunks[:-1])
        if scenario == "chat_logprobs":
            for c in chunks[1:-2]:
                (entry,) = c["choices"][0]["logprobs"]["content"]
                assert entry["token"] == c["choices"][0]["delta"]["content"]
                assert bytes(entry["bytes"]) == entry["token"].encode()
                assert len(entry["top_logprobs"]) == gen.TOP_LOGPROBS
    else:
        by_index: dict[int, str] = {}
        for delta in deltas:
            for call in delta.get("tool_calls", ()):
                fragment = call["function"]["arguments"]
                by_index[call["index"]] = by_index.get(call["index"], "") + fragment
        assert list(by_index) == [0, 1]
        for index, arguments in by_index.items():
            assert arguments == stream.texts[f"arguments[{index}]"]
            json.loads(arguments)


def _shape(event: dict[str, Any]) -> tuple[str, frozenset[str], frozenset[str]]:
    response = event.get("response") or {}
    return event["type"], frozenset(event), frozenset(response)


def test_text_stream_matches_a_real_recording_shape() -> None:
    """Same event types in the same order, same keys, same response-object keys as a recording."""
    real = _responses_events(
        (REAL / "responses-simonw-llm-test_responses_basic_streaming.sse").read_bytes()
    )
    ours = _responses_events(gen.generate("text", 1).data)
    assert [_shape(e) for e in ours] == [_shape(e) for e in real]
    real_raw = (REAL / "responses-simonw-llm-test_responses_basic_streaming.sse").read_bytes()
    # Key order on the wire: ``type`` first, then alphabetical (the recording's order).
    first_delta = next(b for b in real_raw.split(b"\n\n") if b"output_text.delta" in b)
    ours_delta = next(b for b in gen.generate("text", 1).data.split(b"\n\n") if b"text.delta" in b)
    assert list(json.loads(ours_delta.split(b"data: ")[1])) == list(
        json.loads(first_delta.split(b"data: ")[1])
    )


def test_generation_is_deterministic_and_seeded() -> None:
    assert gen.generate("text", 50).data == gen.generate("text", 50).data
    assert gen.generate("text", 50, seed=1).data != gen.generate("text", 50).data
    with pytest.raises(ValueError):
        gen.generate("text", 0)


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def test_runner_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    """``bench/run.py --smoke`` runs every installed peer and skips the others cleanly."""
    status = bench_run.main(["--smoke"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "WRONG" not in out
    rows = [line for line in out.splitlines() if line.startswith("| text | 100 |")]
    # Column 6 is the peer, column 7 its µs/event ("-" when it did not run on that cell).
    peers_run = {row.split("|")[6].strip() for row in rows if row.split("|")[7].strip() != "-"}
    for peer, modules in (
        ("sdk", ("openai", "httpx2")),
        ("httpx-sse", ("httpx_sse", "httpx")),
        ("floor", ("orjson",)),
    ):
        if all(_installed(m) for m in modules):
            assert peer in peers_run, out
        else:
            assert f"skipped peer `{peer}`" in out
    import sansio_responses as sr

    if hasattr(sr, "ResponsesStream"):
        assert {"ours", "ours+snapshot"} <= peers_run, out
    assert "| target | measured | verdict |" in out
