"""Random and mutated bytes through ResponsesStream: only events or ProtocolError, state readable."""

from __future__ import annotations

import itertools
from typing import Any

from _corpus import load, mutated, names
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sansio_responses as sr

CORPUS = [load(n)[0] for n in names("responses")]


def drive(data: bytes, cuts: list[int], strict: bool = False) -> tuple[list[Any], Any]:
    """Feed *data* split at *cuts*; return events and the final error (a ProtocolError or None)."""
    stream = sr.ResponsesStream(strict=strict, max_event_size=1 << 16)
    events: list[Any] = []
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    error = None
    try:
        for a, b in itertools.pairwise(points):
            events += stream.feed(data[a:b])
        events += stream.close()
    except sr.ProtocolError as exc:
        error = exc
        events += getattr(exc, "events", [])  # decoded by the failing call before the error
    # Whatever happened, the state stays readable.
    snap = stream.snapshot()
    if snap is not None:
        snap.to_dict()
        _ = snap.output_text
    _ = (stream.outcome, stream.diagnostics, stream.last_sequence_number, stream.response_id)
    return events, error


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.binary(max_size=600),
    cuts=st.lists(st.integers(0, 600), max_size=6),
    strict=st.booleans(),
)
def test_random_bytes(data: bytes, cuts: list[int], strict: bool) -> None:
    drive(data, cuts, strict)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(CORPUS) - 1),
    edits=st.lists(
        st.tuples(st.integers(0, 1 << 20), st.binary(max_size=4), st.integers(0, 4)), max_size=4
    ),
    cuts=st.lists(st.integers(0, 1 << 20), max_size=5),
)
def test_mutated_recordings(
    which: int, edits: list[tuple[int, bytes, int]], cuts: list[int]
) -> None:
    data = mutated(CORPUS[which], edits)
    whole_events, whole_error = drive(data, [])
    split_events, split_error = drive(data, cuts)
    # Chunking never changes the outcome: the same events, the same error (type and location).
    assert [e.to_dict() for e in split_events] == [e.to_dict() for e in whole_events]
    assert type(split_error) is type(whole_error)
    if whole_error is not None:
        assert (split_error.offset, split_error.sequence_number) == (
            whole_error.offset,
            whole_error.sequence_number,
        )


json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
values = st.recursive(
    json_scalars,
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3),
    max_leaves=8,
)
TYPES = [*sorted(sr.EVENT_TYPES), "keepalive", "response.brand_new"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    events=st.lists(
        st.tuples(
            st.sampled_from(TYPES),
            st.dictionaries(
                st.sampled_from(
                    [
                        "sequence_number",
                        "item_id",
                        "output_index",
                        "content_index",
                        "summary_index",
                        "delta",
                        "text",
                        "arguments",
                        "item",
                        "part",
                        "response",
                        "annotation",
                        "annotation_index",
                        "command_index",
                        "command",
                        "output",
                        "code",
                        "message",
                        "error",
                        "logprobs",
                        "name",
                    ]
                ),
                values,
                max_size=6,
            ),
        ),
        max_size=12,
    )
)
def test_framed_events_with_arbitrary_fields(events: list[tuple[str, dict[str, Any]]]) -> None:
    import json

    body = b"".join(
        b"data: " + json.dumps({"type": t, **fields}).encode() + b"\n\n" for t, fields in events
    )
    drive(body, [])
