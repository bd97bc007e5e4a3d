"""The JSON decoders behind the streams: orjson (default when importable) and the standard library.

Both paths must decode every stream to the same events and snapshots, accept the same documents
(orjson refuses some that ``json.loads`` takes: integers past 64 bits, ``NaN``, lone surrogates)
and report invalid data with the same located error.
"""

from __future__ import annotations

import json
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import sansio_responses as sr
import sansio_responses._base as base_module
import sansio_responses._responses.inline as inline_module
from sansio_responses._base import (
    BIG_EVENT_DATA,
    DEFAULT_JSON_LOADS,
    SHARE_OVER,
    orjson_loads,
    stdlib_loads,
)

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # ``pytest`` run without ``python -m`` does not put the root there
    sys.path.insert(0, str(ROOT))

from bench import generate as gen  # noqa: E402

orjson = pytest.importorskip("orjson")

REAL = sorted((Path(__file__).parent / "data" / "real").glob("*.sse"))
DECODERS: dict[str, Callable[[str], Any] | None] = {
    "default": None,
    "json.loads": json.loads,
    "orjson.loads": orjson.loads,
    "custom": lambda text: json.loads(text),  # an arbitrary callable is used as given
}


def _stream(path: Path, loads: Callable[[str], Any] | None) -> Any:
    if path.name.startswith("chat-"):
        return sr.ChatCompletionsStream(json_loads=loads)
    return sr.ResponsesStream(json_loads=loads)


def _decode(path: Path, loads: Callable[[str], Any] | None, size: int) -> tuple[Any, ...]:
    stream = _stream(path, loads)
    body = path.read_bytes()
    events: list[Any] = []
    error: Any = None
    try:
        for i in range(0, len(body), size):
            events += stream.feed(body[i : i + size])
        events += stream.close()
    except sr.ProtocolError as exc:
        error = (type(exc).__name__, str(exc))
    snapshot = stream.snapshot()
    return (
        [event.to_dict() if hasattr(event, "to_dict") else repr(event) for event in events],
        None if snapshot is None else snapshot.to_dict(),
        stream.outcome,
        [(d.code, d.offset) for d in stream.diagnostics],
        error,
    )


def test_the_default_is_orjson_when_importable() -> None:
    assert DEFAULT_JSON_LOADS is orjson_loads


@pytest.mark.parametrize("path", REAL, ids=[p.stem for p in REAL])
def test_every_decoder_gives_the_same_stream(path: Path) -> None:
    results = {name: _decode(path, loads, 4096) for name, loads in DECODERS.items()}
    expected = results.pop("json.loads")
    for name, got in results.items():
        assert got == expected, name
    assert _decode(path, None, 7) == expected


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        '  {"a": [1, 2.5, "x"]}  \n',
        '{"big": 12345678901234567890}',
        '{"x": NaN, "y": -Infinity}',
        '{"s": "\\ud800 lone surrogate"}',
        '{"e": "\\u00e9\\n"}',
        "[1, 2]",
        '"just a string"',
        "3",
    ],
)
def test_same_values_as_json_loads(text: str) -> None:
    expected = json.loads(text)
    for loads in (stdlib_loads, orjson_loads):
        got = loads(text)
        assert repr(got) == repr(expected)  # repr: NaN != NaN


def test_orjson_reads_integers_past_64_bits_as_floats() -> None:
    # The one documented difference of the default decoder when orjson is installed.
    assert stdlib_loads('{"n": 123456789012345678901234567890}') == {
        "n": 123456789012345678901234567890
    }
    assert type(orjson_loads('{"n": 123456789012345678901234567890}')["n"]) is float


@pytest.mark.parametrize(
    "text", ["", "   ", "{", '{"a": 1} x', '{"a": 1}{"b": 2}', "{'a': 1}", '{"a": tru}', "[1,]"]
)
def test_same_errors_as_json_loads(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    for loads in (stdlib_loads, orjson_loads):
        with pytest.raises(json.JSONDecodeError) as got:
            loads(text)
        assert str(got.value) == str(expected.value)


@pytest.mark.parametrize(
    "loads", [None, json.loads, orjson.loads], ids=["default", "json", "orjson"]
)
def test_what_orjson_refuses_is_still_accepted_by_default(loads: Any) -> None:
    # A provider extension field with a NaN and an unsigned 64-bit integer: the standard library
    # takes them, so the default decoder must too (explicit orjson.loads is the caller's choice).
    body = (
        b'data: {"type": "response.created", "sequence_number": 0, "x_big": 18446744073709551615,'
        b' "x_nan": NaN, "response": {"id": "r", "status": "in_progress", "output": []}}\n\n'
    )
    stream = sr.ResponsesStream(json_loads=loads)
    if loads is orjson.loads:
        with pytest.raises(sr.RemoteProtocolError, match="not valid JSON"):
            stream.feed(body)
        return
    (event,) = stream.feed(body)
    assert event.extra["x_big"] == 18446744073709551615


@pytest.mark.parametrize("loads", [None, json.loads], ids=["default", "json"])
@pytest.mark.parametrize("chat", [False, True], ids=["responses", "chat"])
def test_invalid_json_is_located_on_both_paths(loads: Any, chat: bool) -> None:
    stream: Any = (
        sr.ChatCompletionsStream(json_loads=loads) if chat else sr.ResponsesStream(json_loads=loads)
    )
    good = (
        b'data: {"id": "c", "object": "chat.completion.chunk", "choices": []}\n\n'
        if chat
        else b'data: {"type": "response.created", "sequence_number": 0, "response": {"id": "r"}}\n\n'
    )
    with pytest.raises(sr.RemoteProtocolError, match="not valid JSON") as info:
        stream.feed(good + b'data: {"type": "x", oops}\n\n')
    assert info.value.offset == len(good)
    assert len(info.value.events) == 1  # type: ignore[attr-defined]


def test_invalid_utf8_is_replaced_before_decoding() -> None:
    # The event-stream rules decode UTF-8 with replacement; orjson would refuse the raw bytes.
    body = (
        b'data: {"type": "response.created", "sequence_number": 0, "x": "\xff",'
        b' "response": {"id": "r"}}\n\n'
    )
    for loads in (None, json.loads):
        (event,) = sr.ResponsesStream(json_loads=loads).feed(body)
        assert event.extra["x"] == "\ufffd"


@pytest.mark.parametrize("loads", [None, json.loads], ids=["default", "json"])
def test_data_over_many_lines_and_chunks_decodes_the_same(loads: Any) -> None:
    # Several data: lines (the line machine joins them), an event over 64 KiB (joined in a
    # bytearray while buffered), CRLF line ends, a [DONE] marker and a final event without its
    # blank line: every form the data of a Responses event can arrive in.
    big = "x" * 70_000
    body = (
        b'data: {"type": "response.created",\ndata: "sequence_number": 0,\n'
        b'data: "response": {"id": "r", "output": []}}\n\n'
        b'event: response.in_progress\r\ndata: {"type": "response.in_progress", "sequence_number": 1,'
        b' "response": {"id": "r", "x": "' + big.encode() + b'"}}\r\n\r\n'
        b"data: [DONE]\n\n"
        b'data: {"type": "response.completed", "sequence_number": 2, "response": {"id": "r",'
        b' "status": "completed", "output": []}}\n'
    )
    for size in (len(body), 4096, 333):
        stream = sr.ResponsesStream(json_loads=loads)
        events = []
        for i in range(0, len(body), size):
            events += stream.feed(body[i : i + size])
        events += stream.close()
        assert [e.type for e in events] == [
            "response.created",
            "response.in_progress",
            "response.completed",
        ]
        assert events[1].response.to_dict()["x"] == big
        assert stream.outcome == "completed"
        assert [d.code for d in stream.diagnostics] == ["done-marker", "unterminated-final-event"]


# orjson's transient memory is ~13x a long string: data over BIG_EVENT_DATA goes to the standard
# library (~2x) with the same result; plainly between BIG_EVENT_DATA and SHARE_OVER (a reasoning
# summary's .done event of 23 KB peaked at 14 times its size with orjson, issue 21), with sharing
# above.
@pytest.mark.parametrize(
    "text",
    ["\u00e9" * (2 * BIG_EVENT_DATA), "\u2019" * (BIG_EVENT_DATA // 2)],
    ids=["large", "medium"],
)
def test_long_event_data_is_decoded_with_bounded_memory(text: str) -> None:
    if len(text) < BIG_EVENT_DATA:
        assert BIG_EVENT_DATA < len(text.encode()) < SHARE_OVER
    body = (
        'data: {"type": "response.created", "sequence_number": 0, "response": {"id": "r"}}\n\n'
        'data: {"type": "response.output_text.done", "sequence_number": 1, "item_id": "m",'
        f' "output_index": 0, "content_index": 0, "text": "{text}"}}\n\n'
    ).encode()
    peaks = {}
    for name, loads in (("default", None), ("json", json.loads)):
        stream = sr.ResponsesStream(json_loads=loads)
        tracemalloc.start()
        events: list[Any] = stream.feed(body)
        peaks[name] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert events[1].text == text
    assert peaks["default"] < 1.5 * peaks["json"]


@pytest.mark.parametrize(
    "loads", [None, json.loads, lambda text: text], ids=["default", "json", "lenient"]
)
def test_done_marker_is_recognised_whatever_the_decoder(loads: Any) -> None:
    # A decoder that does not raise on "[DONE]" (here: returns the text) must not hide the marker.
    stream = sr.ResponsesStream(json_loads=loads)
    assert stream.feed(b"data: [DONE]\n\n") == []
    assert [d.code for d in stream.diagnostics] == ["done-marker"]


@pytest.mark.parametrize("loads", [None, json.loads], ids=["default", "json"])
def test_medium_events_decode_as_before(loads: Any) -> None:
    # Events from BIG_EVENT_DATA to SHARE_OVER bytes (a reasoning stream has eight), one of them
    # with invalid UTF-8, give what the decoder of the small ones gives.
    data = gen.generate("reasoning", 20_000).data
    blocks = data.split(b"\n\n")
    medium = [i for i, b in enumerate(blocks) if BIG_EVENT_DATA < len(b) < SHARE_OVER]
    assert len(medium) == 8
    blocks[medium[0]] = blocks[medium[0]].replace(b'"text":"', b'"text":"\xff\xc3', 1)
    assert b"\xff\xc3" in blocks[medium[0]]
    data = b"\n\n".join(blocks)

    def run(big: int) -> Any:
        with pytest.MonkeyPatch.context() as patched:
            for module in (base_module, inline_module):
                patched.setattr(module, "BIG_EVENT_DATA", big)
            stream = sr.ResponsesStream(json_loads=loads)
            events: list[Any] = []
            for i in range(0, len(data), 4096):
                events += stream.feed(data[i : i + 4096])
            events += stream.close()
            snapshot = stream.snapshot()
            assert snapshot is not None
            return [e.to_dict() for e in events], snapshot.to_dict(), stream.diagnostics

    assert run(BIG_EVENT_DATA) == run(SHARE_OVER)
