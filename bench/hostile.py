"""Cost and memory of the core on hostile (or merely unusual) bodies (indicative; not a test).

Usage, from the repository root: ``.venv/bin/python bench/hostile.py [--quick] [--only NAME ...]``.

Prints, one line per case:

* ``gapped-seq N``: sequence numbers 0, 2, 4, ... (every one a gap) on N text deltas: µs per event
  (process CPU time). Duplicate detection must stay O(1) per event, so the figure must not grow
  with N (10k and 100k events).
* ``index-jump``: each ``output_item.added`` moves ``output_index`` far ahead, and each text delta
  jumps ``content_index``: bytes fed against the memory the stream holds afterwards (tracemalloc,
  events dropped), and their ratio.
* ``chat-2char N``: a Chat Completions body of N chunks of two characters each: memory the stream
  holds afterwards (chunks dropped), against the text's own size; the same deltas through a
  ``ResponsesStream`` for comparison.
* ``event-too-large``: one event growing past ``max_event_size`` (the 32 MiB default): memory
  held after the :class:`EventTooLarge`, with the stream (and its ``error``) kept alive.

``--quick`` divides the sizes by ten (a few seconds in all). The exit status is always 0.
"""

from __future__ import annotations

import argparse
import gc
import json
import time
import tracemalloc
from collections.abc import Callable, Iterator

from sansio_responses import ChatCompletionsStream, ResponsesStream
from sansio_responses._errors import ProtocolError


def _frame(obj: dict[str, object]) -> bytes:
    return b"data: " + json.dumps(obj, separators=(",", ":")).encode() + b"\n\n"


def _created() -> bytes:
    return _frame(
        {
            "type": "response.created",
            "sequence_number": 0,
            "response": {"id": "resp_1", "object": "response", "status": "in_progress"},
        }
    )


def _delta(seq: int, output_index: int = 0, content_index: int = 0, delta: str = "ab") -> bytes:
    return _frame(
        {
            "type": "response.output_text.delta",
            "sequence_number": seq,
            "item_id": "msg_1",
            "output_index": output_index,
            "content_index": content_index,
            "delta": delta,
        }
    )


def _batches(frames: Iterator[bytes], size: int = 65536) -> Iterator[bytes]:
    pending: list[bytes] = []
    held = 0
    for frame in frames:
        pending.append(frame)
        held += len(frame)
        if held >= size:
            yield b"".join(pending)
            pending, held = [], 0
    if pending:
        yield b"".join(pending)


def _held(build: Callable[[], object]) -> int:
    """Bytes still allocated (tracemalloc) while the object *build* returns is alive."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    kept = build()
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del kept
    return held


def gapped(n: int) -> str:
    body = list(_batches(_delta(2 * i) for i in range(1, n + 1)))
    stream = ResponsesStream(max_diagnostics=10)
    stream.feed(_created())
    t0 = time.process_time()
    for piece in body:
        stream.feed(piece)
    elapsed = time.process_time() - t0
    return f"gapped-seq {n:>7} events: {elapsed / n * 1e6:8.2f} µs/event ({elapsed:.2f} s)"


def index_jump(n: int, jump: int = 1024) -> str:
    def frames() -> Iterator[bytes]:
        seq = 1
        for i in range(n):
            yield _frame(
                {
                    "type": "response.output_item.added",
                    "sequence_number": seq,
                    "output_index": i * jump,
                    "item": {"type": "message", "id": f"m{i}", "role": "assistant", "content": []},
                }
            )
            yield _delta(seq + 1, output_index=i * jump, content_index=jump - 1, delta="x")
            seq += 2

    body = list(_batches(frames()))
    fed = len(_created()) + sum(len(b) for b in body)

    def run() -> object:
        stream = ResponsesStream(max_diagnostics=10)
        stream.feed(_created())
        for piece in body:
            stream.feed(piece)
        return stream

    held = _held(run)
    return (
        f"index-jump {n:>7} items: fed {fed / 1e6:7.2f} MB, held {held / 1e6:7.2f} MB "
        f"(x{held / fed:.2f})"
    )


def chat_2char(n: int) -> str:
    head = _frame(
        {
            "id": "c1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}],
        }
    )
    chunk = _frame(
        {
            "id": "c1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "delta": {"content": "ab"}}],
        }
    )
    body = list(_batches(iter([head] + [chunk] * n)))

    def run_chat() -> object:
        stream = ChatCompletionsStream()
        for piece in body:
            stream.feed(piece)
        return stream

    rbody = list(_batches(_delta(i) for i in range(1, n + 1)))

    def run_responses() -> object:
        stream = ResponsesStream()
        stream.feed(_created())
        for piece in rbody:
            stream.feed(piece)
        return stream

    chat = _held(run_chat)
    responses = _held(run_responses)
    return (
        f"chat-2char {n:>7} chunks: text {2 * n / 1e6:.2f} MB; Chat holds {chat / 1e6:7.2f} MB, "
        f"Responses holds {responses / 1e6:7.2f} MB for the same deltas"
    )


def event_too_large(limit: int | None = None) -> str:
    stream = ResponsesStream() if limit is None else ResponsesStream(max_event_size=limit)
    size = stream.max_event_size or 0
    piece = b"x" * 65536

    def run() -> object:
        stream = ResponsesStream(max_event_size=size)
        stream.feed(b'data: {"type":"response.output_text.delta","delta":"')
        try:
            for _ in range(size // len(piece) + 2):
                stream.feed(piece)
        except ProtocolError:
            pass
        return stream

    held = _held(run)
    return (
        f"event-too-large limit {size / 2**20:.0f} MiB: held after the error {held / 1e6:7.2f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="sizes divided by ten")
    parser.add_argument(
        "--only",
        nargs="*",
        default=(),
        choices=("gapped", "index-jump", "chat", "too-large"),
        help="run only these cases",
    )
    parser.add_argument("--gapped-sizes", type=int, nargs="*", default=(10_000, 100_000))
    args = parser.parse_args()
    div = 10 if args.quick else 1
    only = set(args.only) or {"gapped", "index-jump", "chat", "too-large"}
    if "gapped" in only:
        for n in args.gapped_sizes:
            print(gapped(n // div), flush=True)
    if "index-jump" in only:
        print(index_jump(10_000 // div), flush=True)
        print(index_jump(10_000 // div, jump=1), "<- the same events, no jumps", flush=True)
    if "chat" in only:
        print(chat_2char(1_000_000 // div), flush=True)
    if "too-large" in only:
        print(event_too_large(), flush=True)


if __name__ == "__main__":
    main()
