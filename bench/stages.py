"""Where the time of a Responses stream goes, stage by stage (issue 21's breakdown).

Usage, from the repository root::

    .venv/bin/python bench/stages.py                          # text, N=20k, 4 KiB chunks
    .venv/bin/python bench/stages.py --scenario function_call --chunk 64 --runs 9

Each stage adds one layer to the one before, on the same bytes, chunked the same way, timed
interleaved (A B C ... A B C ...) with this process's CPU time (``time.process_time``: on a
shared machine it leaves out the waits for a core), median of ``--runs``; µs per wire event and
the ratio to the orjson floor (``bench/run.py``'s ``floor``: cut on blank lines, ``orjson.loads``
each payload):

``frame``       the SSE decoder alone (``SSEDecoder.feed_raw``, data kept as bytes, as the stream
                keeps them for orjson);
``+json``       and ``orjson.loads`` of each payload;
``+typed``      and the typed event of each (``parse_event``);
``final``       ``ResponsesStream(events=False)`` then ``snapshot()`` (framing, JSON,
                validation, accumulation; no typed deltas where it can skip them);
``events``      ``ResponsesStream()`` (events and ``snapshot()``): the whole typed path.

``--no-gc`` turns the garbage collector off during each timed run (its share of a stream that
keeps what it decodes, such as logprobs).

``--json stdlib`` uses the standard library's JSON instead (``json.loads`` in the stages,
``json_loads=json.loads`` for the stream), and adds ``httpx-sse`` (``bench/run.py``'s peer:
httpx-sse's ``EventSource`` plus ``json.loads`` of each payload), the untyped peer of issue 21.

``--deltas-only`` drops the events after the deltas that repeat what they built (the ``.done``,
``content_part.done``, ``output_item.done`` and terminal events) and renumbers the others: the
delta half of a stream. The stream stages then stop after the last chunk (no ``close()``, which
would find the stream truncated, and no ``snapshot()``, which would be built from the deltas
instead of taken from the terminal event).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

try:
    from bench import generate as gen
    from bench import run as bench_run
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench import generate as gen
    from bench import run as bench_run

import orjson

from sansio_responses import ResponsesStream, SSEDecoder
from sansio_responses._responses.events import parse_event

__all__ = ["main", "stages"]

Chunks = Callable[[], Iterator[bytes]]


def _frame(
    keep_bytes: bool, loads: Callable[[Any], Any] | None, typed: bool
) -> Callable[[Chunks], None]:
    def run(chunks: Chunks) -> None:
        decoder = SSEDecoder()
        decoder._keep_bytes = keep_bytes  # pyright: ignore[reportPrivateUsage]
        for chunk in chunks():
            for _etype, data, _offset in decoder.feed_raw(chunk):
                if loads is not None:
                    obj = loads(data)
                    if typed:
                        parse_event(obj)

    return run


def deltas_only(data: bytes) -> bytes:
    """*data* without the events that end what deltas built (``.done`` and terminal events),
    the others renumbered (``sequence_number`` without gaps, as a real stream has)."""
    kept = []
    number = 0
    for block in data.split(b"\n\n"):
        head, _, payload = block.partition(b"data: ")
        if not payload.startswith(b"{"):
            kept.append(block)
            continue
        event = json.loads(payload)
        kind = event.get("type", "")
        if kind.endswith(".done") or kind in ("response.completed", "response.incomplete"):
            continue
        if "sequence_number" in event:
            event["sequence_number"] = number
            number += 1
        body = json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode()
        kept.append(head + b"data: " + body)
    return b"\n\n".join(kept)


def _stream(events: bool, json_loads: Any, snapshot: bool) -> Callable[[Chunks], None]:
    options: dict[str, Any] = {"events": events}
    if json_loads is not None:
        options["json_loads"] = json_loads

    def run(chunks: Chunks) -> None:
        s = ResponsesStream(**options)
        for chunk in chunks():
            for _event in s.feed(chunk):
                pass
        if snapshot:
            s.close()
            s.snapshot()

    return run


def stages(
    stream: gen.GeneratedStream, json_kind: str, snapshot: bool = True
) -> dict[str, Callable[[Chunks], object]]:
    """The stages by name, for the decoder *json_kind* (``orjson`` or ``stdlib``); without
    *snapshot*, the streams are neither closed nor asked for their snapshot. The floor and the
    httpx-sse peer are ``bench/run.py``'s own, made for *stream*."""
    if json_kind == "orjson":
        keep, loads, stream_loads = True, orjson.loads, None
    else:
        keep, loads, stream_loads = False, json.loads, json.loads
    peer = {} if json_kind == "orjson" else {"httpx-sse": bench_run.load_httpx_sse()(stream)}
    return {
        **peer,
        "floor": bench_run.load_floor()(stream),
        "frame": _frame(keep, None, False),
        "+json": _frame(keep, loads, False),
        "+typed": _frame(keep, loads, True),
        "final": _stream(False, stream_loads, snapshot),
        "events": _stream(True, stream_loads, snapshot),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the stage table for one generated stream."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--scenario", default="text")
    p.add_argument("--n", type=int, default=20_000)
    p.add_argument("--chunk", type=int, default=4096)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--json", choices=("orjson", "stdlib"), default="orjson")
    p.add_argument("--stages", default=None, help="comma-separated subset")
    p.add_argument("--deltas-only", action="store_true", help="drop the .done/terminal events")
    p.add_argument(
        "--no-gc",
        action="store_true",
        help="the garbage collector off during each timed run (to see its share)",
    )
    args = p.parse_args(argv)
    stream = gen.generate(args.scenario, args.n)
    data = deltas_only(stream.data) if args.deltas_only else stream.data
    events = data.count(b"\ndata: {") + data.startswith(b"data: {")
    size = args.chunk

    def chunks() -> Iterator[bytes]:
        return (data[i : i + size] for i in range(0, len(data), size))

    table = stages(stream, args.json, snapshot=not args.deltas_only)
    if args.stages:
        keep = {*args.stages.split(","), "floor", "httpx-sse"}
        table = {k: v for k, v in table.items() if k in keep}
    for fn in table.values():  # warm-up
        fn(chunks)
    gc.collect()
    gc.freeze()
    times: dict[str, list[float]] = {name: [] for name in table}
    for _ in range(args.runs):
        for name, fn in table.items():
            gc.collect()
            if args.no_gc:
                gc.disable()
            start = time.process_time()
            fn(chunks)
            times[name].append(time.process_time() - start)
            gc.enable()
    floor = statistics.median(times["floor"])
    half = " deltas-only" if args.deltas_only else ""
    print(
        f"{args.scenario}{half} N={args.n} chunk={size} json={args.json} runs={args.runs} "
        f"({events} wire events; CPU time, medians)"
    )
    peer = statistics.median(times["httpx-sse"]) if "httpx-sse" in times else None
    print(f"{'stage':<9} {'us/event':>9} {'x floor':>8}" + ("  x httpx-sse" if peer else ""))
    for name, values in times.items():
        median = statistics.median(values)
        line = f"{name:<9} {median / events * 1e6:9.2f} {median / floor:8.2f}"
        print(line + (f" {median / peer:12.2f}" if peer else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
