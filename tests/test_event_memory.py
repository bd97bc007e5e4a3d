"""What a delta event of the inline path holds, and that holding less changes no output (issue 21).

A ``feed()`` of a large chunk returns every event it completed at once (about a thousand deltas
for 256 KiB), so what each holds is what a stream holds at its peak. The inline path gives a
delta a template read (standard library JSON) the template's reading instead of the dict
(``templates.Wire``: the dict is built when read), a delta of a text tracked as JSON one
``ReaderAt`` instead of two closures, and releases each event's data once read. These tests hold
the objects out of the events (through ``gc.get_referents``) and every output equal to the
wire's and to the general path's, on generated streams and on the real recordings.
"""

from __future__ import annotations

import copy
import gc
import json
import pickle
from pathlib import Path
from types import FunctionType
from typing import Any

import pytest

import sansio_responses as sr
from bench import generate as gen
from sansio_responses._base import EventStreamBase
from sansio_responses._json.partial import PartialJSON
from sansio_responses._json.structured import ReaderAt
from sansio_responses._responses.templates import Wire
from sansio_responses._sse import SSEDecoder

REAL = sorted((Path(__file__).parent / "data" / "real").glob("responses-*.sse"))


class _General(sr.ResponsesStream):
    # The base class's loop: every event through _on_message, the general path.
    feed = EventStreamBase.feed


def _exact(value: Any) -> Any:
    """*value* with every node's type and every object's key order made visible."""
    if isinstance(value, dict):
        return ("dict", [(k, _exact(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_exact(v) for v in value])
    return (type(value).__name__, repr(value))


def _payloads(data: bytes) -> list[Any]:
    """``json.loads`` of each event's data, in order (the bodies here: one ``data:`` line each)."""
    return [
        json.loads(line[6:])
        for line in data.decode().split("\n")
        if line.startswith("data: ") and line != "data: [DONE]"
    ]


def _feed(cls: type[sr.ResponsesStream], data: bytes, chunk: int) -> list[Any]:
    stream = cls(json_loads=json.loads)
    events = [e for i in range(0, len(data), chunk) for e in stream.feed(data[i : i + chunk])]
    try:
        stream.close()
    except sr.StreamError:
        pass
    return events


def _read(event: Any, name: str) -> Any:
    try:
        return _exact(getattr(event, name, None))
    except sr.OutputParseError as exc:  # (a final ``parsed`` of a text that is not JSON)
        return ("raised", repr(exc))


def _outputs(event: Any) -> tuple[Any, ...]:
    return (
        event,
        repr(event),
        _exact(event.to_dict()),
        event.extra,
        event.stream_id,
        _read(event, "snapshot"),
        _read(event, "parsed"),
    )


@pytest.mark.parametrize("scenario", ["text", "function_call", "reasoning"])
@pytest.mark.parametrize("chunk", [4096, 65536])
def test_template_deltas_hold_their_reading_not_a_dict(scenario: str, chunk: int) -> None:
    data = gen.generate(scenario, 300).data
    events = _feed(sr.ResponsesStream, data, chunk)
    wires = [e for e in events if type(e._data) is Wire]  # pyright: ignore[reportPrivateUsage]
    assert len(wires) >= 300 - 8  # (the first delta of each part takes the general path)
    for event in wires:
        assert not [r for r in gc.get_referents(event) if type(r) is dict]
    # Every output as the wire and the general path give it, key order and types included.
    assert len(events) == len(_payloads(data))
    for event, payload in zip(events, _payloads(data), strict=True):
        assert _exact(event.to_dict()) == _exact(payload)
    general = _feed(_General, data, chunk)
    assert [_outputs(e) for e in events] == [_outputs(e) for e in general]


def test_template_deltas_give_a_fresh_dict_each_time() -> None:
    data = gen.generate("text", 50).data
    event = [e for e in _feed(sr.ResponsesStream, data, 4096) if type(e._data) is Wire][-1]  # pyright: ignore[reportPrivateUsage]
    first = event.to_dict()
    first["delta"] = "changed"
    first["logprobs"].append("x")
    assert event.to_dict()["delta"] == event.delta != "changed"
    assert event.to_dict()["logprobs"] == [] == event.logprobs
    assert event.extra == {"obfuscation": event.to_dict()["obfuscation"]}


@pytest.mark.parametrize("scenario", ["text", "function_call"])
def test_copies_and_pickles_of_template_deltas(scenario: str) -> None:
    data = gen.generate(scenario, 100).data
    events = _feed(sr.ResponsesStream, data, 4096)
    deltas = [e for e in events if type(e._data) is Wire]  # pyright: ignore[reportPrivateUsage]
    assert deltas
    for back in (
        pickle.loads(pickle.dumps(deltas)),
        copy.deepcopy(deltas),
        [copy.copy(e) for e in deltas],
    ):
        assert [_outputs(e) for e in back] == [_outputs(e) for e in deltas]
        # The copy holds the dict itself: no template (nor the stream) goes along.
        assert all(type(e._data) is dict for e in back)  # pyright: ignore[reportPrivateUsage]


def test_json_tracked_inline_deltas_hold_no_closure() -> None:
    data = gen.generate("function_call", 300).data
    for chunk in (4096, 65536):
        events = _feed(sr.ResponsesStream, data, chunk)
        deltas = [e for e in events if e.type == "response.function_call_arguments.delta"]
        readers = [e for e in deltas if type(e._parsed_fn) is ReaderAt]  # pyright: ignore[reportPrivateUsage]
        assert len(readers) == len(deltas) - 1  # the first: the general path's closures
        for event in readers:
            assert not [r for r in gc.get_referents(event) if type(r) is FunctionType]
        # Read after the whole stream (each an older value: its prefix parsed afresh) ...
        for event in deltas:
            parser = PartialJSON()
            parser.feed(event.snapshot)
            assert _exact(event.parsed) == _exact(parser.value)
        general = _feed(_General, data, chunk)
        assert [_outputs(e) for e in events] == [_outputs(e) for e in general]
    # ... and as they come, one event per feed (the reader's incremental path).
    stream = sr.ResponsesStream(json_loads=json.loads)
    blocks = [b + b"\n\n" for b in data.split(b"\n\n") if b]
    for block in blocks:
        for event in stream.feed(block):
            if event.type == "response.function_call_arguments.delta":
                parser = PartialJSON()
                parser.feed(event.snapshot)
                assert _exact(event.parsed) == _exact(parser.value)
    back = pickle.loads(pickle.dumps(readers))
    assert [_exact(e.parsed) for e in back] == [_exact(e.parsed) for e in readers]
    assert [e.snapshot for e in back] == [e.snapshot for e in readers]


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_recordings_give_the_same_outputs(path: Path) -> None:
    data = path.read_bytes()
    for chunk in (7, 4096, 1 << 20):
        got = _feed(sr.ResponsesStream, data, chunk)
        want = _feed(_General, data, chunk)
        assert [_outputs(e) for e in got] == [_outputs(e) for e in want]


@pytest.mark.parametrize(
    ("cls", "scenario"), [(sr.ResponsesStream, "text"), (sr.ChatCompletionsStream, "chat_text")]
)
def test_the_data_of_each_event_is_released_once_read(
    cls: type[Any], scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The lists of framed events feed() reads: of a long one, each event's data is dropped
    # once read (popped), so that the decoded events replace it rather than add to it.
    lists: list[list[Any]] = []
    feed_raw = SSEDecoder.feed_raw

    def kept(self: SSEDecoder, data: Any) -> Any:
        lists.append(feed_raw(self, data))
        return lists[-1]

    monkeypatch.setattr(SSEDecoder, "feed_raw", kept)
    data = gen.generate(scenario, 300).data
    stream = cls(json_loads=json.loads)
    events = stream.feed(data[:65536])
    assert len(events) > 150 and len(lists) == 1
    assert lists[0] == []
    monkeypatch.undo()
    assert [repr(e) for e in events] == [
        repr(e) for e in cls(json_loads=json.loads).feed(data[:65536])
    ]


def test_a_held_block_start_ended_by_any_chunk() -> None:
    # The start of a block held across chunks (sansio_responses/_sse_held.py), ended by a chunk
    # whose blank line is in it, starts it (an LF after the held bytes' last LF), or is not in
    # it: the same events as the whole body at once, whatever the cut.
    data = gen.generate("text", 20).data
    whole = [_outputs(e) for e in _feed(sr.ResponsesStream, data, len(data))]
    blanks = [i for i in range(len(data) - 1) if data[i : i + 2] == b"\n\n"]
    for blank in blanks[3:8]:
        start = blank + 2  # a block starts here
        for cut in (blank + 1, blank + 2, start + 10, start + 40):
            for second in (1, 2, 30, 10_000):
                stream = sr.ResponsesStream(json_loads=json.loads)
                got = list(stream.feed(data[:cut]))
                pos = cut
                while pos < len(data):
                    got += stream.feed(data[pos : pos + second])
                    pos += second
                    second = 4096
                assert [_outputs(e) for e in got] == whole


def test_a_reader_keeps_its_generation() -> None:
    # The ``.done`` event replaces the arguments by another text (a new generation of the
    # reader): each delta's ``parsed`` stays the value of the text as of that delta.
    data = gen.generate("function_call", 40).data
    head, sep, rest = data.partition(b'"type":"response.function_call_arguments.done","arguments":')
    assert sep
    rest = json.dumps('{"other": [1, 2]}').encode() + rest[rest.index(b'","item_id"') + 1 :]
    stream = sr.ResponsesStream(json_loads=json.loads)
    events = stream.feed(head + sep + rest)
    deltas = [e for e in events if e.type == "response.function_call_arguments.delta"]
    assert sum(type(e._parsed_fn) is ReaderAt for e in deltas) == len(deltas) - 1  # pyright: ignore[reportPrivateUsage]
    done = next(e for e in events if e.type == "response.function_call_arguments.done")
    assert done.parsed == {"other": [1, 2]}
    for event in deltas:
        parser = PartialJSON()
        parser.feed(event.snapshot)
        assert _exact(event.parsed) == _exact(parser.value)
