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
        taken.append((type(exc), str(exc), exc.offset))
    taken.append((stream.outcome, stream.diagnostics, stream.diagnostic_counts))
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
    loads=st.sampled_from([json.loads, None]),
)
def test_snapshots_read_at_any_time_equal_the_general_path(
    entries: list[list[dict[str, Any]]],
    how: dict[str, Any],
    at: set[int],
    read_early: bool,
    events: bool,
    loads: Any,
) -> None:
    # loads None: the default decoder (orjson, when installed: its entries are kept as orjson's
    # text of them, see entries.pack_entries).
    body = _stream([_chunk(i, e, how) for i, e in enumerate(entries)])
    general = _snapshots(_GenericChat(json_loads=loads), body, at)
    stream = sr.ChatCompletionsStream(json_loads=loads, events=events)
    kept: list[Any] = []
    for i, event in enumerate(body):
        stream.feed(event)
        if i in at:
            kept.append(stream.snapshot())
            if read_early:  # read now, before later chunks add to the same entries
                _same(kept[-1], general[len(kept) - 1])
    stream.close()
    kept.append((stream.outcome, stream.diagnostics, stream.diagnostic_counts))
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

    original = Entries.value
    monkeypatch.setattr(Entries, "value", lossy)
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


# -- the API's one entry, matched and not decoded (ONE_ENTRY) -----------------------------------

_TOKEN = st.text(
    st.characters(codec="utf-8") | st.sampled_from('"\\/\b\f\n\r\t\x00\x1f\u2028é'), max_size=6
)
_LOGPROB = st.one_of(
    st.floats(-1e30, 0, allow_nan=False),
    st.integers(-(10**18), 0),
    st.sampled_from([-0.0, -1e-300, -9.5e-05, 0]),
)
_BYTES_OF = st.one_of(st.none(), st.lists(st.integers(0, 255), max_size=5))


def _api_entry(token: str, logprob: float, raw: Any, tops: list[Any]) -> dict[str, Any]:
    top = [{"token": t, "logprob": p, "bytes": b} for t, p, b in tops]
    return {"token": token, "logprob": logprob, "bytes": raw, "top_logprobs": top}


_API_ENTRY = st.builds(
    _api_entry,
    _TOKEN,
    _LOGPROB,
    _BYTES_OF,
    st.lists(st.tuples(_TOKEN, _LOGPROB, _BYTES_OF), max_size=4),
)
# Near misses of the API's form, each a small edit of its text (some still valid JSON).
_NEAR_MISSES = [
    ("[1", "[01"),
    (",1", ",-1"),
    ('"logprob":-', '"logprob":--'),
    ('"logprob":-', '"logprob":-.'),
    ('"logprob":-', '"logprob":NaN,"x":-'),
    ('"logprob":-', '"logprob":-Infinity,"x":-'),
    ('"logprob":', '"logprob":1234567890123456789012345,"x":'),
    ('"logprob":', '"logprob": '),
    ('"token":"', '"token":"\\x'),
    ('"token":"', '"token":"\\u12'),
    ('"token":"', '"token":"\\ud800'),
    ('"token":"', '"token":"\x01'),
    ('"token":"', '"token":"\\"'),
    ('"bytes":[', '"bytes":[1,'),
    ('"bytes":[', '"bytes":[,'),
    ('"bytes":[', '"bytes":[1000,'),
    ('"bytes":[', '"bytes":[[1],'),
    ('"bytes":null', '"bytes":nul'),
    ('"top_logprobs":[', '"top_logprobs":[{},'),
    ('"top_logprobs":[', '"top_logprobs":[[],'),
    ('"top_logprobs":[]', '"top_logprobs":[],'),
    ('"top_logprobs":[]', '"top_logprobs":[]}],[{"token":"x"'),
    ('"token":', '"token":"a","token":'),
    ('"token":', '"logprob":0,"token":'),
    ('[{"token"', '[{"token":"x"},{"token"'),
    ("}]", "},]"),
    ("}]", "} ]"),
]


def _entry_text(entry: dict[str, Any], edit: int | None) -> str:
    text = json.dumps([entry], separators=_SEP, ensure_ascii=False)
    if edit is not None:
        old, new = _NEAR_MISSES[edit % len(_NEAR_MISSES)]
        text = text.replace(old, new, 1)
    return text


@settings(max_examples=150, deadline=None)
@given(entry=_API_ENTRY, edit=st.none() | st.integers(0, len(_NEAR_MISSES) - 1))
def test_one_entry_matches_only_what_the_scanner_reads_whole(
    entry: dict[str, Any], edit: int | None
) -> None:
    # A text ONE_ENTRY matches is one JSON value the scanner reads without error, to its end: an
    # array of one object, ENTRY_DEPTH deep.
    from sansio_responses._chat.entries import ENTRY_DEPTH, ONE_ENTRY

    text = _entry_text(entry, edit)
    m = ONE_ENTRY.match(text + ',"refusal":null}')
    if edit is None:
        assert m is not None  # the API's form is never scanned
    if m is None:
        return
    value, end = json.JSONDecoder().scan_once(text + ',"refusal":null}', 0)
    assert end == m.end()  # (a valid value may end before the edited text does)
    assert type(value) is list and len(value) == 1 and type(value[0]) is dict

    def depth(v: Any) -> int:
        inner = v.values() if type(v) is dict else v if type(v) is list else ()
        return 1 + max(map(depth, inner), default=0) if type(v) in (dict, list) else 0

    assert depth(value) <= ENTRY_DEPTH


def _api_chunk(i: int, entry_text: str) -> str:
    return _chunk(i, [], {"separators": _SEP}).replace(
        '"logprobs":{"content":[]', '"logprobs":{"content":' + entry_text, 1
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    entries=st.lists(
        st.tuples(_API_ENTRY, st.none() | st.integers(0, len(_NEAR_MISSES) - 1)),
        min_size=2,
        max_size=6,
    ),
    at=st.sets(st.integers(0, 8), max_size=3),
    strict=st.booleans(),
    depth=st.sampled_from([None, 6, 8, 9, 10, 256]),
    loads=st.sampled_from([json.loads, None]),
)
def test_entries_in_the_apis_form_and_near_misses_equal_the_general_path(
    entries: list[tuple[dict[str, Any], int | None]],
    at: set[int],
    strict: bool,
    depth: int | None,
    loads: Any,
) -> None:
    body = _stream([_api_chunk(i, _entry_text(e, edit)) for i, (e, edit) in enumerate(entries)])
    _compare(body, at, json_loads=loads, strict=strict, max_nesting_depth=depth)


def _compare(body: list[bytes], at: set[int], **options: Any) -> None:
    """Snapshots (taken after the events in *at*, read at the end) and events, both paths."""
    general = _snapshots(_GenericChat(**options), body, at)
    for events in (True, False):
        kept = _snapshots(sr.ChatCompletionsStream(events=events, **options), body, at)
        for a, b in zip(kept, general, strict=True):
            _same(a, b)
    # The events too (built on first read for the chunks whose entry was only matched).
    stream, generic = sr.ChatCompletionsStream(**options), _GenericChat(**options)
    for event in body:
        try:
            mine = stream.feed(event)
        except sr.ProtocolError as exc:
            with pytest.raises(type(exc)) as theirs:
                generic.feed(event)
            assert (str(exc), exc.offset) == (str(theirs.value), theirs.value.offset)
            break
        reference = generic.feed(event)
        assert [repr(e) for e in mine] == [repr(e) for e in reference]
        assert [e.to_dict() for e in mine] == [e.to_dict() for e in reference]


@pytest.mark.parametrize("depth", [7, 8, 9, 10])
def test_an_entry_nesting_past_the_limit_goes_the_general_way(depth: int) -> None:
    # The first entry (which teaches the template) nests 7 levels in the chunk, the later ones
    # 9 (a top_logprobs entry with its bytes): under a limit of 8 those are a located error.
    shallow = _api_entry("a", -1.0, None, [])
    deep = _api_entry("b", -1.0, [98], [("c", -2.0, [99])])
    texts = [_entry_text(e, None) for e in (shallow, deep, shallow, deep)]
    _compare(
        _stream([_api_chunk(i, t) for i, t in enumerate(texts)]),
        {2},
        json_loads=json.loads,
        max_nesting_depth=depth,
    )


def test_the_apis_entries_are_matched_not_decoded() -> None:
    entry = _api_entry("tok", -0.25, [116], [("a", -1.0, [97]), ("b", -2.5e-05, None)])
    body = _stream([_api_chunk(i, _entry_text(entry, None)) for i in range(20)])
    stream = sr.ChatCompletionsStream(json_loads=json.loads)
    events = [e for chunk in body for e in stream.feed(chunk)]
    assert _kept(stream) == 19  # the first content chunk teaches the template
    # Not decoded: every templated chunk still holds its entry's text.
    assert all('\'[{"token":"tok"' in repr(getattr(e, "_pending", "")) for e in events[2:-1])
    assert events[5].choices[0].logprobs.content == [entry]  # type: ignore[union-attr]


def test_a_looser_pattern_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # The comparison must notice a pattern that lets through what is not JSON: here integers
    # with leading zeros.
    import re

    from sansio_responses._chat import fast

    monkeypatch.setattr(
        fast,
        "ONE_ENTRY",
        re.compile(fast.ONE_ENTRY.pattern.replace(r"(?:[1-9][0-9]{0,2}|0)", "[0-9]{1,3}")),
    )
    entry = _api_entry("tok", -0.25, [116], [])
    chunks = [_api_chunk(i, _entry_text(entry, None)) for i in range(4)]
    _compare(_stream(chunks), set(), json_loads=json.loads)  # right without the edit
    chunks[3] = chunks[3].replace("[116]", "[016]")
    with pytest.raises(AssertionError):
        _compare(_stream(chunks), set(), json_loads=json.loads)


def test_with_orjson_the_entries_are_kept_as_its_text() -> None:
    from sansio_responses._chat.entries import PACK

    if PACK is None:
        pytest.skip("orjson is not installed")
    entry = _api_entry("tok", -0.25, [116], [("a", -1.0, [97])])
    body = _stream([_api_chunk(i, _entry_text(entry, None)) for i in range(20)])
    stream = sr.ChatCompletionsStream()  # the default decoder: orjson
    for event in body:
        stream.feed(event)
    kept = stream._choices[0].entries  # pyright: ignore[reportPrivateUsage]
    assert kept is not None and len(kept.raw) == 20 and all(type(t) is bytes for t in kept.raw)
    _compare(body, {3, 10}, json_loads=None)


@pytest.mark.parametrize("loads", [json.loads, None])
def test_entries_nesting_past_orjsons_writer_are_kept_decoded(loads: Any) -> None:
    # orjson writes at most 254 levels: deeper entries stay decoded, in order with the others.
    deep: Any = 1
    for _ in range(300):
        deep = [deep]
    entries = [[{"token": "a", "x": 1}], [{"token": "b", "x": deep}], [{"token": "c"}]]
    body = _stream([_chunk(i, e, {"separators": _SEP}) for i, e in enumerate(entries * 3)])
    _compare(body, {2, 5}, json_loads=loads, max_nesting_depth=None)
