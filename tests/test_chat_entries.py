"""Token entries kept as text (sansio_responses._chat.entries): nothing observable changes.

With ``logprobs=True`` the logprobs template keeps each chunk's ``logprobs.content`` entries as
the JSON text they came in, and a snapshot's ``Choice.logprobs`` decodes them when first read.
Whatever the bytes, and whenever snapshots are taken and read, everything must be what the
general path gives (``_HOT = False``: every entry decoded and kept as it arrives): the typed
snapshot (``==`` both ways, ``repr``, ``to_dict()``, pickling, copies, attrs' helpers), its
types, its immutability, and the events.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hot_paths import CHAT_BASE, _GenericChat  # pyright: ignore[reportPrivateUsage]
from test_shape import LOGPROBS_EDITS  # pyright: ignore[reportPrivateUsage]

import sansio_responses as sr
from sansio_responses._chat.entries import Entries

_SEP = (",", ":")

# JSON values as the entries may hold them: odd numbers and strings included.
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
_ENTRY = st.fixed_dictionaries(
    {
        "token": st.text(max_size=5),
        "logprob": st.floats(-30, 0),
        "bytes": st.lists(st.integers(0, 255), max_size=4),
    },
    optional={
        "top_logprobs": st.lists(
            st.dictionaries(st.text(max_size=4), _VALUES, max_size=3), max_size=3
        ),
        "x": _VALUES,
    },
)
# How the entries' text is written: the API's compact form, Python's spaced one, escapes or
# not, tabs (one event is one line of data: no line ends).
_DUMPS = st.sampled_from(
    [
        {"separators": _SEP},
        {"separators": (", ", ": ")},
        {"separators": (" ,\t ", " :\t"), "ensure_ascii": False},
    ]
)


def _chunk(i: int, entries: Any, how: dict[str, Any]) -> str:
    """A content chunk of a logprobs=True stream, its entries written as *how* says."""
    marker = "\u0000ENTRIES\u0000"
    choice = {
        "index": 0,
        "delta": {"content": f"w{i} "},
        "logprobs": {"content": marker, "refusal": None},
        "finish_reason": None,
    }
    text = json.dumps(dict(CHAT_BASE, choices=[choice], obfuscation=f"p{i}"), separators=_SEP)
    return text.replace(json.dumps(marker), json.dumps(entries, **how))


def _stream(chunks: list[str]) -> list[bytes]:
    first = {"index": 0, "delta": {"role": "assistant", "content": ""}}
    first["logprobs"] = {"content": [], "refusal": None}
    last = {"index": 0, "delta": {}, "logprobs": None, "finish_reason": "stop"}
    texts = [
        json.dumps(dict(CHAT_BASE, choices=[first]), separators=_SEP),
        *chunks,
        json.dumps(dict(CHAT_BASE, choices=[last]), separators=_SEP),
    ]
    return [b"data: " + t.encode("utf-8", "surrogatepass") + b"\n\n" for t in texts] + [
        b"data: [DONE]\n\n"
    ]


def _snapshots(stream: sr.ChatCompletionsStream, events: list[bytes], at: set[int]) -> list[Any]:
    """Feed *events* one by one, taking a snapshot after each index in *at* (read later)."""
    taken: list[Any] = []
    try:
        for i, event in enumerate(events):
            stream.feed(event)
            if i in at:
                taken.append(stream.snapshot())
        stream.close()
    except sr.ProtocolError as exc:  # (an edited chunk may be invalid: the same error either way)
        taken.append((type(exc), str(exc)))
    taken.append(stream.snapshot())
    return taken


def _same(kept: Any, general: Any) -> None:
    """*kept* (maybe with entries not decoded yet) is *general* in every observable way."""
    if kept is None or general is None or type(general) is tuple:
        assert kept == general
        return
    assert repr(kept) == repr(general)
    assert kept == general and general == kept
    assert kept.to_dict() == general.to_dict()
    assert json.dumps(kept.to_dict()) == json.dumps(general.to_dict())
    for a, b in zip(kept.choices, general.choices, strict=True):
        assert type(a) is type(b) is sr.Choice
        if b.logprobs is not None:
            assert type(a.logprobs) is dict and type(a.logprobs["content"]) is list
            assert a.logprobs == b.logprobs
    assert repr(pickle.loads(pickle.dumps(kept))) == repr(general)  # (repr: NaN != NaN)


def _kept(stream: sr.ChatCompletionsStream) -> int:
    """How many entry texts the stream keeps undecoded (0: the general path's state)."""
    entries = stream._choices[0].entries  # pyright: ignore[reportPrivateUsage]
    return 0 if entries is None else len(entries.raw)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    entries=st.lists(st.lists(_ENTRY, max_size=3), min_size=2, max_size=8),
    how=_DUMPS,
    at=st.sets(st.integers(0, 12), max_size=4),
    read_early=st.booleans(),
    events=st.booleans(),
)
def test_snapshots_read_at_any_time_equal_the_general_path(
    entries: list[list[dict[str, Any]]],
    how: dict[str, Any],
    at: set[int],
    read_early: bool,
    events: bool,
) -> None:
    body = _stream([_chunk(i, e, how) for i, e in enumerate(entries)])
    general = _snapshots(_GenericChat(json_loads=json.loads), body, at)
    stream = sr.ChatCompletionsStream(json_loads=json.loads, events=events)
    kept: list[Any] = []
    for i, event in enumerate(body):
        stream.feed(event)
        if i in at:
            kept.append(stream.snapshot())
            if read_early:  # read now, before later chunks add to the same entries
                _same(kept[-1], general[len(kept) - 1])
    stream.close()
    kept.append(stream.snapshot())
    for a, b in zip(kept, general, strict=True):
        _same(a, b)


def test_the_entries_stay_text_until_read() -> None:
    body = _stream(
        [
            _chunk(i, [{"token": f"t{i}", "logprob": -1.5, "bytes": [116]}], {"separators": _SEP})
            for i in range(50)
        ]
    )
    stream = sr.ChatCompletionsStream(json_loads=json.loads)
    for event in body:
        stream.feed(event)
    # The first content chunk teaches the template; the 49 others are kept as text.
    assert _kept(stream) == 49
    snapshot = stream.snapshot()
    assert snapshot is not None
    choice = snapshot.choices[0]
    assert "_pending" not in dir(choice) or _kept(stream) == 49  # (not decoded by snapshot())
    assert _kept(stream) == 49
    # Frozen before and after the first read, like any Choice.
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        choice.logprobs = None  # type: ignore[misc]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        choice.nothing  # type: ignore[attr-defined]  # noqa: B018
    logprobs = choice.logprobs
    assert logprobs is not None and _kept(stream) == 0  # decoded once, into the stream's list
    assert choice.logprobs is logprobs  # the same object to every reader
    assert [e["token"] for e in logprobs["content"]] == [f"t{i}" for i in range(50)]
    general = _snapshots(_GenericChat(json_loads=json.loads), body, set())[-1]
    _same(snapshot, general)


@pytest.mark.parametrize(
    "use",
    [
        lambda c: pickle.loads(pickle.dumps(c)),
        copy.copy,
        copy.deepcopy,
        lambda c: attrs.evolve(c, index=c.index),
        lambda c: sr.Choice(**attrs.asdict(c, recurse=False)),
        lambda c: c,
    ],
)
def test_every_way_of_reading_a_choice_sees_the_entries(use: Any) -> None:
    body = _stream(
        [
            _chunk(i, [{"token": str(i), "logprob": -0.5, "bytes": []}], {"separators": _SEP})
            for i in range(5)
        ]
    )
    general = _snapshots(_GenericChat(json_loads=json.loads), body, set())[-1].choices[0]
    stream = sr.ChatCompletionsStream(json_loads=json.loads)
    for event in body:
        stream.feed(event)
    choice = stream.snapshot().choices[0]  # type: ignore[union-attr]
    assert _kept(stream) == 4  # nothing decoded yet
    assert use(choice) == general
    with pytest.raises(TypeError):  # unhashable (a dict inside), as the general path's
        hash(choice)


@pytest.mark.parametrize("edit", range(len(LOGPROBS_EDITS)))
def test_a_chunk_off_the_template_keeps_the_order(edit: int) -> None:
    # Chunks read by the template, one that is not (tests/test_shape.py's edits: some still
    # carry entries, decoded on the general path, which must come after the kept texts), then
    # the template again; snapshots in between.
    chunks = [
        _chunk(i, [{"token": f"t{i}", "logprob": -1.0, "bytes": [1]}], {"separators": _SEP})
        for i in range(8)
    ]
    chunks[4] = LOGPROBS_EDITS[edit](chunks[4])
    body = _stream(chunks)
    at = {3, 5, 6}
    general = _snapshots(_GenericChat(json_loads=json.loads), body, at)
    kept = _snapshots(sr.ChatCompletionsStream(json_loads=json.loads), body, at)
    for a, b in zip(kept, general, strict=True):
        _same(a, b)


def test_a_mistake_in_the_decoding_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # The comparison above must notice a wrong decode: here one that loses the last text.
    def lossy(self: Entries) -> list[Any]:
        self.raw = self.raw[:-1]
        return original(self)

    original = Entries.flush
    monkeypatch.setattr(Entries, "flush", lossy)
    body = _stream(
        [
            _chunk(i, [{"token": f"t{i}", "logprob": -1.0, "bytes": []}], {"separators": _SEP})
            for i in range(6)
        ]
    )
    general = _snapshots(_GenericChat(json_loads=json.loads), body, set())
    kept = _snapshots(sr.ChatCompletionsStream(json_loads=json.loads), body, set())
    with pytest.raises(AssertionError):
        _same(kept[-1], general[-1])
