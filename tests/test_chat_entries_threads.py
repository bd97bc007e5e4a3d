"""Logprobs entries kept as text (``_chat/entries.py``): the cases the review of issue 21 found.

- A large chunk (decoded by the standard library even when orjson is the decoder) may hold
  ``NaN`` or an infinity, which orjson would write back as ``null``: such entries stay decoded.
- A snapshot's ``logprobs`` is decoded on first read, from state the stream shares with later
  snapshots: readers in several threads, or a reader while another thread feeds the stream,
  must neither lose nor repeat entries, nor see the field missing. These two tests switch
  threads every microsecond to make the interleavings likely; before the locks they failed in
  most trials (17 of 20 readers' trials, 1 in 3 feeder/reader runs).
"""

from __future__ import annotations

import json
import math
import queue
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from test_hot_paths import _GenericChat  # pyright: ignore[reportPrivateUsage]

import sansio_responses as sr

FIRST = {
    "id": "c",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "m",
    "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}],
}


def _chunk(i: int, logprob: float = -1.0, pad: str = "") -> dict[str, Any]:
    entry = {"token": f"t{i}", "logprob": logprob, "bytes": [97], "top_logprobs": []}
    if pad:
        entry["pad"] = pad
    choice = {
        "index": 0,
        "delta": {"content": f"w{i} "},
        "logprobs": {"content": [entry], "refusal": None},
        "finish_reason": None,
    }
    return {**FIRST, "choices": [choice]}


def _sse(*chunks: dict[str, Any]) -> bytes:
    return b"".join(
        b"data: " + json.dumps(c, separators=(",", ":")).encode() + b"\n\n" for c in chunks
    )


def _logprobs(stream: Any) -> list[Any]:
    snapshot = stream.snapshot()
    assert snapshot is not None
    return [e["logprob"] for e in snapshot.to_dict()["choices"][0]["logprobs"]["content"]]


@pytest.mark.parametrize("json_loads", [None, json.loads])
def test_non_finite_logprobs_of_a_large_chunk_are_kept(json_loads: Any) -> None:
    big = "x" * 17_000  # over the size decoded by the standard library with orjson too
    body = _sse(
        FIRST,
        _chunk(0),
        _chunk(1, float("nan"), big),
        _chunk(2, float("-inf"), big),
        _chunk(3, float("inf")),  # (a small chunk: orjson refuses it, so the general path)
        _chunk(4, -2.0, big),
    )
    results = []
    for cls in (sr.ChatCompletionsStream, _GenericChat):
        stream = cls(json_loads=json_loads)
        try:
            stream.feed(body)
            stream.close()
        except sr.ProtocolError as exc:  # orjson refuses Infinity: the same error both ways
            results.append((type(exc).__name__, str(exc), exc.offset, _logprobs(stream)))
            continue
        results.append(("ok", "", None, _logprobs(stream)))
    fast, general = results
    assert repr(fast) == repr(general)  # (repr: NaN is not equal to itself)
    assert any(isinstance(v, float) and math.isnan(v) for v in fast[3])


@pytest.fixture
def switch_often() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


@pytest.mark.usefixtures("switch_often")
@pytest.mark.parametrize("json_loads", [None, json.loads])
def test_readers_in_several_threads_decode_a_snapshot_once(json_loads: Any) -> None:
    failures: list[str] = []
    for _ in range(5):
        stream = sr.ChatCompletionsStream(json_loads=json_loads)
        stream.feed(_sse(FIRST, *(_chunk(i) for i in range(1000))))
        snapshot = stream.snapshot()
        assert snapshot is not None
        barrier = threading.Barrier(4)

        def read(snapshot: Any = snapshot, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            try:
                assert len(snapshot.choices[0].logprobs["content"]) == 1000
            except (AttributeError, AssertionError) as exc:
                failures.append(repr(exc))

        threads = [threading.Thread(target=read) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        stream.feed(_sse(_chunk(1000)) + b"data: [DONE]\n\n")
        stream.close()
        assert _logprobs(stream) == [-1.0] * 1001
    assert failures == []


@pytest.mark.usefixtures("switch_often")
@pytest.mark.parametrize("json_loads", [None, json.loads])
def test_a_reader_thread_while_the_stream_is_fed_loses_nothing(json_loads: Any) -> None:
    blocks = [_sse(FIRST), *(_sse(_chunk(i)) for i in range(1500)), b"data: [DONE]\n\n"]
    for _ in range(2):
        stream = sr.ChatCompletionsStream(json_loads=json_loads)
        handed: queue.Queue[Any] = queue.Queue()
        seen: list[int] = []

        def consume(handed: queue.Queue[Any] = handed, seen: list[int] = seen) -> None:
            while (snapshot := handed.get()) is not None:
                seen.append(len(snapshot.choices[0].logprobs["content"]))

        reader = threading.Thread(target=consume)
        reader.start()
        for i, block in enumerate(blocks):
            stream.feed(block)
            if i % 10 == 1:
                handed.put(stream.snapshot())
        stream.close()
        handed.put(None)
        reader.join()
        assert _logprobs(stream) == [-1.0] * 1500
        assert seen == sorted(seen) and seen[0] == 1 and len(seen) == 151
