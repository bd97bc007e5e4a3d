"""``ResponsesStream.feed``'s inline delta path gives exactly what the general path gives.

``feed`` applies a text delta, or a delta of the other extending types (tool arguments,
reasoning, refusal, code, custom input), inline when it continues the target of the previous
delta, in sequence, with nothing to note or refuse; everything else takes the general path
(``_on_message`` -> ``_on_object``). A stream whose ``feed`` is the base class's loop takes
the general path for every event. Here both read the same bytes, split the same way, with every
kind of near miss mixed in (wrong types, missing fields, gaps, duplicates, reordering, other
parts and items, event names that differ, terminal events in the middle, long and nested data),
with and without events, with orjson and the standard library, lenient and strict, and must
give the same events (class, fields, wire dict, lazy ``snapshot`` and ``parsed`` read as they
come), snapshot, outcome, diagnostics, sequence numbers and errors.

Also: ``LazyJSON`` reading its text builder (no push per delta) gives the values that pushing
every delta gives, read at any point.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import sansio_responses as sr
from sansio_responses._base import EventStreamBase
from sansio_responses._json.structured import LazyJSON
from sansio_responses._responses.accumulate import Text
from sansio_responses.testing import StreamBuilder


class _General(sr.ResponsesStream):
    # The base class's loop: every event through _on_message, the general path.
    feed = EventStreamBase.feed  # type: ignore[assignment]


def _lazy(event: Any, name: str) -> Any:
    try:
        return ("value", getattr(event, name, None))
    except Exception as exc:  # the same error either way is what is compared
        return ("error", type(exc), str(exc))


def _seen(event: Any) -> tuple[Any, ...]:
    return (
        type(event),
        event,
        repr(event),
        event.to_dict(),
        _lazy(event, "snapshot"),
        _lazy(event, "parsed"),
    )


def _run(cls: type[sr.ResponsesStream], data: bytes, cuts: list[int], **options: Any) -> Any:
    stream = cls(**options)
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    seen: list[Any] = []
    error: Any = None
    try:
        for a, b in itertools.pairwise(points):
            # Read as they come: a lazy value read later may differ (the text grew since).
            seen += [_seen(e) for e in stream.feed(data[a:b])]
        seen += [_seen(e) for e in stream.close()]
    except sr.ProtocolError as exc:
        error = (type(exc), str(exc), exc.offset, exc.sequence_number)
        seen += [_seen(e) for e in exc.events]
    snapshot = stream.snapshot()
    return {
        "seen": seen,
        "snapshot": None if snapshot is None else snapshot.to_dict(),
        "typed": snapshot,
        "outcome": stream.outcome,
        "diagnostics": stream.diagnostics,
        "counts": stream.diagnostic_counts,
        "last": stream.last_sequence_number,
        "terminal": stream.terminal_event,
        "error_event": stream.error_event,
        "error": error,
        "parsed": _lazy(stream, "output_parsed"),
    }


def assert_same(data: bytes, cuts: list[int], **options: Any) -> dict[str, Any]:
    fast = _run(sr.ResponsesStream, data, cuts, **options)
    general = _run(_General, data, cuts, **options)
    assert fast == general
    return fast


def _base_events() -> list[dict[str, Any]]:
    builder = StreamBuilder(response_id="resp_f")
    builder.text(["{", '"a"', ": [1, ", '"x"', "]}"])
    builder.refusal(["no", " way"])
    builder.function_call("f", ['{"k"', ": ", "1", "}"], call_id="call_1")
    builder.reasoning_summary(["thinking hard", "and more"], chunks=3)
    builder.text(["plain", " text", " here"])
    return builder.completed().events()


BASE = _base_events()
DELTA_KEYS = ("sequence_number", "item_id", "output_index", "content_index", "summary_index")
FIELDS = (*DELTA_KEYS, "logprobs", "delta", "type")
ODD = [None, True, False, 1.0, 0.0, -1, "0", [], {}, 2, 0, 1, "msg_zz", 10**30, [{"t": 1}]]
odd = st.sampled_from(ODD)


@st.composite
def mutation(draw: st.DrawFn) -> tuple[str, tuple[int, int], bool, Any]:
    """(what, (which event, which field or how), whether it aims at a delta after the first of
    its run, where the inline path would apply, a value to put there)."""
    kind = draw(
        st.sampled_from(
            [
                "field",
                "field",
                "field",
                "field",
                "drop",
                "seq",
                "dup",
                "swap",
                "long",
                "logprobs",
                "name",
                "terminal",
                "deep",
                "delta",
                "cut",
            ]
        )
    )
    where = draw(st.integers(0, 60))
    which = draw(st.integers(0, len(FIELDS) - 1))
    return kind, (where, which), draw(st.booleans()), draw(odd)


def _mutate(
    events: list[dict[str, Any]], mutations: list[tuple[str, tuple[int, int], bool, Any]]
) -> tuple[list[dict[str, Any]], dict[int, str]]:
    events = [dict(e) for e in events]
    names: dict[int, str] = {}
    for kind, (where, n), at_delta, value in mutations:
        inline = [
            i
            for i in range(1, len(events))
            if str(events[i].get("type")).endswith(".delta")
            and events[i].get("type") == events[i - 1].get("type")
        ]
        i = inline[where % len(inline)] if at_delta and inline else where % len(events)
        event = events[i]
        if kind == "field":
            event[FIELDS[n % len(FIELDS)]] = value
        elif kind == "drop":
            event.pop(
                ["item_id", "output_index", "logprobs", "delta", "content_index"][n % 5], None
            )
        elif kind == "seq":
            number = event.get("sequence_number")
            event["sequence_number"] = (number if type(number) is int else 0) + (n % 5) - 2
        elif kind == "dup":
            events.insert(i, dict(event))
        elif kind == "swap" and i + 1 < len(events):
            events[i], events[i + 1] = events[i + 1], events[i]
        elif kind == "long":
            event["delta"] = "w" * 600 + str(event.get("delta"))
        elif kind == "logprobs":
            event["logprobs"] = [{"token": "t", "logprob": -0.5, "top_logprobs": [{"t": [1]}]}]
        elif kind == "name":
            names[i] = ["message", "response.output_text.delta", "other", str(event.get("type"))][
                n % 4
            ]
        elif kind == "terminal":
            events.insert(i, dict(BASE[-1], sequence_number=event.get("sequence_number")))
        elif kind == "deep":
            event["extra"] = json.loads("[" * 300 + "]" * 300)
        elif kind == "delta":
            event["delta"] = value
        elif kind == "cut":  # a truncated stream: the snapshot is the accumulated one
            del events[i:]
            if not events:
                events.append(dict(BASE[0]))
    return events, names


def _sse(events: list[dict[str, Any]], names: dict[int, str]) -> bytes:
    out = []
    for i, event in enumerate(events):
        head = f"event: {names[i]}\n" if i in names else ""
        out.append(f"{head}data: {json.dumps(event)}\n\n")
    return "".join(out).encode()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mutations=st.lists(mutation(), max_size=4),
    cuts=st.lists(st.integers(0, 1 << 14), max_size=6),
    strict=st.booleans(),
    events=st.booleans(),
    stdlib=st.booleans(),
    structured=st.booleans(),
    names_all=st.booleans(),
)
@example(
    mutations=[],
    cuts=[],
    strict=False,
    events=True,
    stdlib=False,
    structured=True,
    names_all=True,
)
def test_inline_deltas_equal_the_general_path(
    mutations: list[tuple[str, tuple[int, int], bool, Any]],
    cuts: list[int],
    strict: bool,
    events: bool,
    stdlib: bool,
    structured: bool,
    names_all: bool,
) -> None:
    mutated, names = _mutate(BASE, mutations)
    if names_all:
        names = {i: str(e.get("type")) for i, e in enumerate(mutated)} | names
    options: dict[str, Any] = {"strict": strict, "events": events}
    if stdlib:
        options["json_loads"] = json.loads
    if structured:
        options["text_format"] = dict
    options["tools"] = [{"type": "function", "name": "f", "strict": True, "parameters": {}}]
    assert_same(_sse(mutated, names), cuts, **options)


@pytest.mark.parametrize("field", FIELDS)
def test_every_near_miss_of_every_inline_delta(field: str) -> None:
    # Each delta the inline path would take, with one field set to each odd value (or left
    # out), in the whole stream and in the stream cut after it (the accumulated snapshot).
    inline = [
        i
        for i in range(1, len(BASE))
        if BASE[i]["type"].endswith(".delta") and BASE[i]["type"] == BASE[i - 1]["type"]
    ]
    assert len(inline) >= 10
    options: list[dict[str, Any]] = [{}, {"events": False}, {"json_loads": json.loads}]
    for n, (i, value) in enumerate(itertools.product(inline, [*ODD, "drop"])):
        events = [dict(e) for e in BASE]
        if value == "drop":
            events[i].pop(field, None)
        else:
            events[i][field] = value
        for body in (events, events[: i + 1]):
            assert_same(_sse(body, {}), [], **options[n % len(options)])


def test_the_inline_path_is_taken() -> None:
    # Most events of an ordinary stream are deltas applied inline: the general path's
    # _on_object sees only the others.
    data = _sse(BASE, {})
    calls: list[str] = []

    class Counting(sr.ResponsesStream):
        def _on_object(self, obj: dict[str, Any], *args: Any) -> None:
            calls.append(obj["type"])
            super()._on_object(obj, *args)

    stream = Counting()
    returned = stream.feed(data)
    assert len(returned) == len(BASE)

    def target(event: dict[str, Any]) -> tuple[Any, ...]:
        return (event["type"], *(event.get(k) for k in DELTA_KEYS[1:]))

    # A delta that continues the target of the event before it is applied inline; the first
    # of each run is located by the general path, as is every other event.
    inline = [
        b
        for a, b in itertools.pairwise(BASE)
        if b["type"].endswith(".delta") and target(a) == target(b)
    ]
    assert len(inline) >= 8
    assert len(calls) == len(BASE) - len(inline)
    general = _General()
    general.feed(data)
    assert stream.snapshot() == general.snapshot()
    assert stream.outcome == general.outcome == "completed"


@pytest.mark.parametrize("scenario", ["text", "text_logprobs", "function_call", "reasoning"])
def test_generated_streams_are_the_same(scenario: str) -> None:
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    from bench import generate as gen

    data = gen.generate(scenario, 200).data
    for cut in (1, 64, 4096):
        state = assert_same(data, list(range(cut, len(data), cut)))
        assert state["outcome"] == "completed"


# -- LazyJSON reading its text -----------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(st.text(alphabet='{}[]",:0123 ab\\', max_size=5), max_size=150),
    reads=st.lists(st.integers(0, 200), max_size=8),
    reset_at=st.none() | st.integers(0, 150),
)
def test_lazy_json_over_its_text_equals_the_pushed_one(
    pieces: list[str], reads: list[int], reset_at: int | None
) -> None:
    pulled = Text()
    pulled.json = LazyJSON(pulled)
    pushed = Text()
    pushed.json = LazyJSON()
    readers: list[tuple[Any, Any]] = []
    for i, piece in enumerate(pieces):
        if i == reset_at:
            pulled.set("[1, ")
            pushed.set("[1, ")
        pulled.append(piece)
        pushed.append(piece)
        assert pulled.since(0) == pushed.value()
        assert pulled.since(pulled.length // 2) == pushed.value()[pushed.length // 2 :]
        a, b = pulled.json, pushed.json
        assert a is not None and b is not None
        held_a, held_b = pulled.value(), pushed.value()
        readers.append((a.reader(lambda t=held_a: t), b.reader(lambda t=held_b: t)))
        if i in reads:
            assert a.value() == b.value()
    for n in reads:
        if n < len(readers):
            fa, fb = readers[n]
            assert fa() == fb()
    for fa, fb in readers:
        assert fa() == fb()
