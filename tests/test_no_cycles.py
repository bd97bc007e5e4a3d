"""A stream, its events and its snapshot are freed by reference counting alone.

A reference cycle (a table of bound methods kept on the accumulator, a callback bound to the
stream, a text builder and the JSON reader that reads from it) keeps everything in it alive until
the garbage collector's next full collection: a dropped stream would hold its whole response, its
buffers and its builders long after the caller let go. Each recording is decoded with the
collector off, then everything is dropped: ``gc.collect()`` must find nothing left to free.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from _corpus import load, names

import sansio_responses as sr


def _chunks(body: bytes, size: int) -> Iterator[bytes]:
    return (body[i : i + size] for i in range(0, len(body), size))


def _read_lazy(events: list[Any]) -> None:
    """Read what the events build on first access (their snapshots and parsed values)."""
    for event in events:
        for name in ("snapshot", "parsed"):
            try:
                getattr(event, name, None)
            except (sr.ProtocolError, sr.OutputParseError):
                pass  # a value that does not parse: read, raised, nothing kept


def _decode(name: str, events: bool, chunk: int) -> weakref.ref[Any]:
    """Decode one recording, read everything, drop it; a weak reference to the stream."""
    body, _ = load(name)
    stream: sr.ResponsesStream | sr.ChatCompletionsStream
    if name.startswith("chat-"):
        stream = sr.ChatCompletionsStream(events=events)
    else:
        stream = sr.ResponsesStream(events=events)
    out: list[Any] = []
    try:
        for piece in _chunks(body, chunk):
            out.extend(stream.feed(piece))
        out.extend(stream.close())
        snapshot = stream.snapshot()
    except sr.ProtocolError:
        snapshot = None  # a recording of a failure: what was decoded is still dropped below
    _read_lazy(out)
    ref = weakref.ref(stream)
    del stream, out, snapshot
    return ref


@pytest.mark.parametrize("events", [True, False], ids=["events", "snapshot-only"])
@pytest.mark.parametrize("api", ["responses", "chat"])
def test_decoded_streams_leave_no_cycle(api: str, events: bool) -> None:
    streams = names(api)
    for name in streams:
        _decode(name, events, 4096)  # imports what the streams use lazily, outside the check
    gc.collect()
    gc.disable()
    try:
        for name in streams:
            ref = _decode(name, events, 61)
            assert ref() is None, f"{name}: the stream outlived its last reference"
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0, f"{found} objects were only freed by the garbage collector"


def test_the_check_sees_a_cycle() -> None:
    """The checks above can fail: a stream put into a cycle is found by both."""
    name = names("responses")[0]
    body, _ = load(name)
    _decode(name, True, 4096)
    gc.collect()
    gc.disable()
    try:
        stream = sr.ResponsesStream()
        stream.feed(body)
        holder: list[Any] = [stream]
        holder.append(holder)  # a cycle through a list the stream is in
        ref = weakref.ref(stream)
        del stream, holder
        assert ref() is not None
        assert gc.collect() > 0
        assert ref() is None
    finally:
        gc.enable()
