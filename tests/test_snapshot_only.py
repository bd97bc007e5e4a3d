"""``ResponsesStream(events=False)``, the snapshot-only path, gives what the events path gives.

The two are one stream class with one accumulator; the snapshot-only path only skips building
the typed events of text deltas (``text_delta_fits`` decides which it may skip). Every check
below compares the two on the same bytes, split the same way: the snapshot (wire form and
typed equality), the outcome, the diagnostics and their counts, the last sequence number, the
terminal and error events, and any error (type, message, offset, sequence number).
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from _corpus import load, mutated, names
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sansio_responses as sr
from sansio_responses._errors import SchemaError
from sansio_responses._responses.events import (
    ResponseTextDeltaEvent,
    text_delta_fits,
)
from sansio_responses.testing import StreamBuilder

CORPUS = {n: load(n)[0] for n in names("responses")}


def _run(data: bytes, cuts: list[int], events: bool, **options: Any) -> dict[str, Any]:
    stream = sr.ResponsesStream(events=events, **options)
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    returned: list[Any] = []
    error: Any = None
    try:
        for a, b in itertools.pairwise(points):
            returned += stream.feed(data[a:b])
        returned += stream.close()
    except sr.ProtocolError as exc:
        error = (type(exc), str(exc), exc.offset, exc.sequence_number)
        returned += exc.events
    snapshot = stream.snapshot()
    return {
        "returned": returned,
        "snapshot": None if snapshot is None else snapshot.to_dict(),
        "typed": snapshot,
        "outcome": stream.outcome,
        "diagnostics": stream.diagnostics,
        "counts": stream.diagnostic_counts,
        "last": stream.last_sequence_number,
        "terminal": stream.terminal_event,
        "error_event": stream.error_event,
        "error": error,
        "parsed": stream.output_parsed if stream.outcome != "completed" else None,
    }


def assert_same(data: bytes, cuts: list[int] = (), **options: Any) -> dict[str, Any]:  # type: ignore[assignment]
    full = _run(data, list(cuts), True, **options)
    quiet = _run(data, list(cuts), False, **options)
    assert quiet.pop("returned") == []
    full.pop("returned")
    assert quiet == full
    return full


@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("strict", [False, True])
def test_every_recording_gives_the_same_state(name: str, strict: bool) -> None:
    state = assert_same(CORPUS[name], [], strict=strict)
    if not strict:
        assert state["outcome"] is not None or state["error"] is not None


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.sampled_from(sorted(CORPUS)),
    edits=st.lists(
        st.tuples(st.integers(0, 1 << 20), st.binary(max_size=4), st.integers(0, 4)), max_size=4
    ),
    cuts=st.lists(st.integers(0, 1 << 20), max_size=5),
    strict=st.booleans(),
)
def test_mutated_recordings_give_the_same_state(
    which: str, edits: list[tuple[int, bytes, int]], cuts: list[int], strict: bool
) -> None:
    data = mutated(CORPUS[which], edits)
    assert_same(data, cuts, strict=strict, max_event_size=1 << 16)


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
)
DELTA_FIELDS = ["sequence_number", "item_id", "output_index", "content_index", "delta", "logprobs"]


@st.composite
def text_deltas(draw: st.DrawFn) -> dict[str, Any]:
    """Text delta dicts, mostly valid, each field sometimes of a wrong type or missing."""
    good: dict[str, Any] = {
        "sequence_number": draw(st.integers(0, 40)),
        "item_id": draw(st.sampled_from(["msg_1", "msg_2"])),
        "output_index": draw(st.integers(0, 2)),
        "content_index": draw(st.integers(0, 1)),
        "delta": draw(st.text(max_size=4)),
        "logprobs": draw(st.sampled_from([[], [{"token": "a", "logprob": -1.0}], None])),
    }
    for key in DELTA_FIELDS:
        mode = draw(st.integers(0, 9))
        if mode == 0:
            del good[key]
        elif mode == 1:
            good[key] = draw(scalars | st.lists(scalars, max_size=2))
    return {"type": "response.output_text.delta", **good}


@settings(max_examples=500, deadline=None)
@given(delta=text_deltas())
def test_text_delta_fits_is_the_constructors_answer(delta: dict[str, Any]) -> None:
    try:
        ResponseTextDeltaEvent._from_wire(dict(delta))  # pyright: ignore[reportPrivateUsage]
        accepted = True
    except SchemaError:
        accepted = False
    assert text_delta_fits(delta) is accepted


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    deltas=st.lists(text_deltas(), max_size=12),
    head=st.booleans(),
    tail=st.sampled_from(["completed", "incomplete", "failed", "error", "none"]),
    cuts=st.lists(st.integers(0, 1 << 12), max_size=4),
    strict=st.booleans(),
    structured=st.booleans(),
)
def test_fuzzed_text_streams_give_the_same_state(
    deltas: list[dict[str, Any]],
    head: bool,
    tail: str,
    cuts: list[int],
    strict: bool,
    structured: bool,
) -> None:
    builder = StreamBuilder(response_id="resp_q")
    builder.text(["{", '"a"', ": 1}"], chunks=3)
    events = builder.events()
    start = events[:4] if head else []
    body = [*start, *deltas]
    if tail == "error":
        body.append({"type": "error", "code": "x", "message": "boom", "sequence_number": 99})
    elif tail != "none":
        ending = StreamBuilder(response_id="resp_q")
        ending.text("x")
        ended = getattr(ending, tail)().events()[-1]
        ended["sequence_number"] = 100
        body.append(ended)
    data = b"".join(f"data: {json.dumps(e)}\n\n".encode() for e in body)
    assert_same(data, cuts, strict=strict, text_format=dict if structured else None)


def test_large_generated_streams_give_the_same_state() -> None:
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    from bench import generate as gen

    for scenario in ("text", "text_logprobs", "function_call", "reasoning", "image", "text_gapped"):
        data = gen.generate(scenario, 300 if scenario != "image" else 80_000).data
        for json_loads in (None, json.loads):
            state = assert_same(
                data, [4096 * i for i in range(1, len(data) // 4096)], json_loads=json_loads
            )
            assert state["outcome"] == "completed"


def test_the_events_path_still_returns_every_event() -> None:
    data = StreamBuilder(response_id="resp_e").text("hello world", chunks=4).completed().to_sse()
    full = sr.ResponsesStream()
    quiet = sr.ResponsesStream(events=False)
    assert len(full.feed(data)) == len(
        StreamBuilder(response_id="resp_e").text("hello world", chunks=4).completed().events()
    )
    assert quiet.feed(data) == []
    assert quiet.snapshot() == full.snapshot()
    assert quiet.terminal_event == full.terminal_event
    assert quiet.events is False and full.events is True
