"""Template decoding of deltas (``_responses/templates.py``) gives exactly ``json.loads``.

A template learnt from one decoded delta reads the next ones of its part with a few
``startswith`` and the standard library's ``scanstring``; anything else is decoded by the
scanner. Here: on the real recordings' deltas, generated ones and every one-character edit of a
few real ones, a template either refuses a payload or gives ``json.loads(payload)`` exactly
(the same keys in the same order, the same values of the same types); and whole streams (the
recordings, ``bench/generate.py``'s shapes, mutated streams as in ``tests/test_fast_deltas.py``)
give the same events, snapshots, diagnostics and errors with templates on and off, at the
chunkings used there. A test also checks that the templates are used at all.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_deltas import BASE, ODD, _mutate, _run, mutation

import sansio_responses as sr
from bench import generate as gen
from sansio_responses._responses import templates
from sansio_responses._responses.inline import _FAST_EXTENDERS  # pyright: ignore[reportPrivateUsage]
from sansio_responses._responses.templates import Template, learn, wire_dict

REAL = sorted((Path(__file__).parent / "data" / "real").glob("responses-*.sse"))
KINDS = {"response.output_text.delta", *_FAST_EXTENDERS}


class _Off(sr.ResponsesStream):
    _TEMPLATES = False


def _exact(value: Any) -> Any:
    """*value* with the type of every node and the order of every object's keys made visible
    (``1 == 1.0 == True``, and dicts compare regardless of order)."""
    if isinstance(value, dict):
        return ("dict", [(_exact(k), _exact(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_exact(v) for v in value])
    return (type(value).__name__, repr(value))


def _loads_or_none(payload: str) -> Any:
    try:
        return json.loads(payload)
    except ValueError:
        return None


def check(template: Template, payload: str, seq: Any) -> Any:
    """The template's result on *payload*, checked to be refused or ``json.loads`` exactly."""
    got = template.match(payload, seq)
    if got is not None:
        wire, delta, logprobs = got
        assert wire.template is template
        data = wire_dict(wire)
        assert wire_dict(wire) is not data  # a fresh dict each time (the caller may change it)
        want = _loads_or_none(payload)
        assert want is not None, payload
        assert _exact(data) == _exact(want), payload
        assert data["sequence_number"] == seq
        assert delta is data["delta"]
        assert logprobs is data.get("logprobs")
        assert logprobs is None or logprobs is not template.base["logprobs"]  # a list of its own
    return got


def _deltas(data: bytes) -> list[str]:
    """The data of the delta events of a recorded body, of the kinds templates serve."""
    out = []
    for line in data.decode().split("\n"):
        if line.startswith("data: {"):
            payload = line[6:]
            obj = _loads_or_none(payload)
            if type(obj) is dict and obj.get("type") in KINDS:
                out.append(payload)
    return out


REAL_DELTAS = [p for path in REAL for p in _deltas(path.read_bytes())]


def test_real_deltas_are_read_exactly() -> None:
    assert len(REAL_DELTAS) > 1000
    learnt = matched = 0
    for payload in REAL_DELTAS:
        obj = json.loads(payload)
        template = learn(obj)
        if template is None:
            continue
        learnt += 1
        seq = obj["sequence_number"]
        assert check(template, payload, seq) is not None, payload  # its own payload matches
        for other in (seq + 1, seq - 1, seq * 10, -seq - 1):
            assert check(template, payload, other) is None
        matched += 1
    # The layouts real servers send are read (not only the generator's).
    assert learnt > 0.9 * len(REAL_DELTAS)
    assert matched == learnt


def test_each_real_delta_against_the_templates_of_the_others() -> None:
    # Every recording's deltas read by the template of each first delta of every recording:
    # another part, layout or kind is refused, never misread.
    heads = {}
    for path in REAL:
        for payload in _deltas(path.read_bytes()):
            obj = json.loads(payload)
            heads.setdefault((path.name, obj["type"]), (learn(obj), obj))
    pairs = 0
    for template, _ in heads.values():
        if template is None:
            continue
        for payload in REAL_DELTAS[::7]:
            seq = json.loads(payload).get("sequence_number")
            if type(seq) is int:
                pairs += check(template, payload, seq) is not None
    assert pairs > 0


# Characters that break or change JSON in every way near a template's text.
EDITS = '"\\ \t\n{}[],:0123456789-+.eEtfnul_xA\x00\x1f\x7f\u00e9\ud800\U0001f600'
SAMPLES = [
    next(p for p in REAL_DELTAS if json.loads(p)["type"] == kind and learn(json.loads(p)))
    for kind in (
        "response.output_text.delta",
        "response.function_call_arguments.delta",
        "response.reasoning_summary_text.delta",
    )
] + [gen.payloads(gen.generate("text", 3).data)[5].decode()]


@pytest.mark.parametrize("payload", SAMPLES, ids=lambda p: json.loads(p)["type"])
def test_every_one_character_edit(payload: str) -> None:
    obj = json.loads(payload)
    template = learn(obj)
    assert template is not None
    seq = obj["sequence_number"]
    seen = 0
    for i in range(len(payload) + 1):
        edits = [payload[:i] + c + payload[i:] for c in EDITS]  # insert
        if i < len(payload):
            edits.append(payload[:i] + payload[i + 1 :])  # delete
            edits += [payload[:i] + c + payload[i + 1 :] for c in EDITS]  # substitute
        for edited in edits:
            seen += check(template, edited, seq) is not None
    # Some edits (inside the strings) are still read by the template; most are refused.
    assert 0 < seen < len(payload) * len(EDITS)


# -- generated deltas with odd values in every field -------------------------------------------

ODD_VALUES = [
    *ODD,
    -5,
    10**40,
    -0.0,
    1e300,
    "",
    "\ud800",
    "\udfff\ud800",
    "a\x00b",
    '"\\/',
    "\U0001f600",
    "\u2028",
    "msg_\u00e9",
]
FIELD_NAMES = [
    "type",
    "sequence_number",
    "item_id",
    "output_index",
    "content_index",
    "summary_index",
    "delta",
    "logprobs",
    "obfuscation",
    "extra",
]


def _render(obj: dict[str, Any], style: int) -> str:
    if style == 0:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    if style == 1:
        return json.dumps(obj, separators=(",", ":"))
    if style == 2:
        return json.dumps(obj)
    # Duplicate keys: the first one's place, the last one's value.
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    return text[:-1] + ',"delta":"dup"}' if len(obj) else text


@st.composite
def delta_obj(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(sorted(KINDS)))
    obj: dict[str, Any] = {
        "type": kind,
        "sequence_number": draw(st.integers(0, 10**6)),
        "item_id": draw(st.sampled_from(["msg_1", "fc_\u00e9", "rs_\\x"])),
        "output_index": draw(st.integers(0, 3)),
        "content_index": 0,
        "summary_index": 1,
        "delta": draw(st.text(max_size=8)),
        "logprobs": [],
        "obfuscation": draw(st.text(max_size=8)),
    }
    for name in draw(st.lists(st.sampled_from(FIELD_NAMES), max_size=3)):
        if draw(st.booleans()):
            obj.pop(name, None)
        else:
            obj[name] = draw(st.sampled_from(ODD_VALUES))
    keys = draw(st.permutations(list(obj)))
    return {k: obj[k] for k in keys}


@settings(max_examples=120, deadline=None)
@given(first=delta_obj(), second=delta_obj(), style=st.integers(0, 3), shift=st.integers(-1, 1))
def test_generated_deltas(
    first: dict[str, Any], second: dict[str, Any], style: int, shift: int
) -> None:
    # A template learnt from one delta (of any layout, whatever its values) reads its own
    # payload and refuses or reads exactly another delta, rendered any way.
    template = learn(first)
    if template is None:
        return
    own = json.dumps(first, separators=(",", ":"), ensure_ascii=False)
    seq = first["sequence_number"]
    assert check(template, own, seq) is not None
    other = second.get("sequence_number")
    if type(other) is int:
        check(template, _render(second, style), other + shift)
    mixed = dict(first)  # the same layout with the other's strings and number
    for name in ("delta", "obfuscation", "sequence_number"):
        if name in first and name in second:
            mixed[name] = second[name]
    if type(mixed["sequence_number"]) is int:
        check(template, _render(mixed, style), mixed["sequence_number"])


# -- whole streams, templates on and off ---------------------------------------------------


def same_with_and_without(data: bytes, cuts: list[int], **options: Any) -> dict[str, Any]:
    options.setdefault("json_loads", json.loads)
    on = _run(sr.ResponsesStream, data, cuts, **options)
    off = _run(_Off, data, cuts, **options)
    assert on == off
    # Types and key orders too (== takes 1 for True and ignores the order of keys).
    assert [_exact(s[3]) for s in on["seen"]] == [_exact(s[3]) for s in off["seen"]]
    assert repr(on) == repr(off)
    return on


def _cuts(data: bytes, size: int | None) -> list[int]:
    return [] if size is None else list(range(size, len(data), size))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem[10:50])
def test_recordings(path: Path) -> None:
    data = path.read_bytes()
    for size, events in ((None, True), (64, False)):
        same_with_and_without(data, _cuts(data, size), events=events)


@pytest.mark.parametrize("scenario", ["text", "text_logprobs", "function_call", "reasoning"])
def test_generated_streams(scenario: str) -> None:
    data = gen.generate(scenario, 60).data
    for size in (1, 64, 4096) if scenario == "text" else (64, 4096):
        state = same_with_and_without(data, _cuts(data, size))
        assert state["outcome"] == "completed"


def _compact(events: list[dict[str, Any]], names: dict[int, str]) -> bytes:
    # As the API writes them (test_fast_deltas writes JSON with spaces, which no template
    # reads); a lone surrogate escaped.
    out = []
    for i, event in enumerate(events):
        head = f"event: {names[i]}\n" if i in names else ""
        try:
            data = json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode()
        except UnicodeEncodeError:
            data = json.dumps(event, separators=(",", ":")).encode()
        out.append(head.encode() + b"data: " + data + b"\n\n")
    return b"".join(out)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mutations=st.lists(mutation(), max_size=4),
    cuts=st.lists(st.integers(0, 1 << 14), max_size=6),
    strict=st.booleans(),
    events=st.booleans(),
    depth=st.sampled_from([None, 1, 2, 64]),
)
def test_mutated_streams(
    mutations: list[tuple[str, tuple[int, int], bool, Any]],
    cuts: list[int],
    strict: bool,
    events: bool,
    depth: int | None,
) -> None:
    mutated, names = _mutate(BASE, mutations)
    options = {"strict": strict, "events": events, "max_nesting_depth": depth}
    same_with_and_without(_compact(mutated, names), cuts, **options)


# The deltas of BASE that continue a run (those the inline path and a template may read).
INLINE = [
    i
    for i in range(1, len(BASE))
    if BASE[i]["type"].endswith(".delta") and BASE[i]["type"] == BASE[i - 1]["type"]
]


def test_every_odd_field_of_every_delta() -> None:
    assert len(INLINE) >= 10
    odd = [*ODD_VALUES[::3], "drop"]  # (a third: each costs two streams)
    for n, (field, value) in enumerate(itertools.product(FIELD_NAMES, odd)):
        i = INLINE[n % len(INLINE)]  # (each pair at one of them: all of them cost seconds)
        events = [dict(e) for e in BASE]
        if value == "drop":
            events[i].pop(field, None)
        else:
            events[i][field] = value
        same_with_and_without(_compact(events, {}), [], events=bool(n % 2))


def test_templates_are_used(monkeypatch: pytest.MonkeyPatch) -> None:
    # Nearly every delta of a generated stream is read by a template, with the standard
    # library's json only; orjson and a caller's decoder never use one.
    hits: list[str] = []
    match = Template.match

    def counted(self: Template, payload: str, seq: int) -> Any:
        got = match(self, payload, seq)
        if got is not None:
            hits.append(wire_dict(got[0])["type"])
        return got

    monkeypatch.setattr(templates.Template, "match", counted)
    for scenario, n in (("text", 100), ("function_call", 100), ("reasoning", 100)):
        data = gen.generate(scenario, n).data
        for options in ({"json_loads": json.loads}, {}, {"json_loads": lambda s: json.loads(s)}):
            hits.clear()
            sr.ResponsesStream(**options).feed(data)
            if "json_loads" in options and options["json_loads"] is json.loads:
                assert len(hits) >= n - 8, scenario
            else:
                assert hits == []


def test_a_whole_run_with_an_odd_field() -> None:
    # Every delta of a run from one on with the odd value (or without the field): templates
    # learnt from such deltas, read the next ones or refuse them as the scanner's path does.
    odd = [
        None,
        True,
        1.0,
        -5,
        10**40,
        "",
        "\ud800",
        "a\x00b",
        '"\\/',
        "msg_\u00e9",
        [],
        {},
        "drop",
    ]
    for n, (field, value) in enumerate(itertools.product(FIELD_NAMES, odd)):
        start = INLINE[n % len(INLINE)]
        events = [dict(e) for e in BASE]
        for event in events[start - 1 :]:
            if event["type"] != BASE[start]["type"]:
                break
            if value == "drop":
                event.pop(field, None)
            else:
                event[field] = value
        same_with_and_without(_compact(events, {}), [], events=bool(n % 2))


@pytest.mark.parametrize("name", ["other", "response.output_text.delta", "message", ""])
def test_event_names_on_deltas_a_template_reads(name: str) -> None:
    # An event name that is not the data's type sends the delta to the general path (which
    # notes it), whether or not a template read its data.
    for i in INLINE[::2]:
        names = {i: name or BASE[i]["type"].replace("delta", "done")}
        same_with_and_without(_compact(BASE, names), [])


@pytest.mark.parametrize("back", [1, 2, 3])
def test_a_delta_of_an_earlier_part(back: int) -> None:
    # A delta of the first text part moved into the last one's run, in sequence: the first
    # part's template (its layout, its locator) must not read it into the part cached now.
    runs = [i for i in INLINE if BASE[i]["type"] == "response.output_text.delta"]
    first = [i for i in runs if BASE[i]["item_id"] == BASE[runs[0]]["item_id"]]
    last = [i for i in runs if BASE[i]["item_id"] == BASE[runs[-1]]["item_id"]]
    assert first and last and first[-1] < last[0]
    events = [dict(e) for e in BASE]
    moved = events.pop(first[-1])
    events.insert(last[0] - 1 + back, moved)
    for n, event in enumerate(events):
        event["sequence_number"] = n
    state = same_with_and_without(_compact(events, {}), [])
    assert state["outcome"] == "completed"


@pytest.mark.parametrize(
    "inserted",
    [
        {"type": "error", "code": "server_error", "message": "boom", "param": None},
        dict(BASE[-1]),  # the terminal event
        {"type": "response.in_progress", "response": BASE[1]["response"]},
    ],
    ids=lambda e: e["type"],
)
def test_deltas_after_an_event_that_ends_or_interrupts(inserted: dict[str, Any]) -> None:
    # The run's deltas go on, in sequence, after an error, the terminal event or another
    # event: once the outcome is set, or the cache reset, no template reads them inline.
    for i in INLINE[::3]:
        events = [dict(e) for e in BASE]
        events.insert(i + 1, dict(inserted))
        for n, event in enumerate(events):
            event["sequence_number"] = n
        for strict in (False, True):
            same_with_and_without(_compact(events, {}), [], strict=strict)


def test_a_sequence_number_at_the_int_to_str_limit() -> None:
    # Python writes and reads ints of at most 4300 digits (sys.get_int_max_str_digits): after a
    # delta numbered 10**4300 - 1 the next number has 4301, which the template must not write
    # (str() raises ValueError) but refuse, leaving the payload to the scanner, as without
    # templates. (The events after it are numbered lower: json.dumps cannot write 4301 digits.)
    big = 10**4300 - 1
    i = INLINE[len(INLINE) // 2]
    events = [dict(e) for e in BASE]
    for j, event in enumerate(events):
        event["sequence_number"] = big - (i - j) if j <= i else big - 1000 + j
    for events_on in (True, False):
        same_with_and_without(_compact(events, {}), [], events=events_on)
