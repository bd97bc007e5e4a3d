"""The cost of each large event of a Responses stream, one by one, against ``json.loads`` of it.

Usage, from the repository root::

    .venv/bin/python bench/done_events.py                       # every Responses shape
    .venv/bin/python bench/done_events.py --shapes text_logprobs --runs 9 --min-kb 8

For each shape of ``bench/shapes.py``, a stream is fed everything up to a large event (untimed),
then that event's block is timed through ``feed()`` (and, for the last event, ``snapshot()``);
every event of at least ``--min-kb`` KB is timed that way, each against ``json.loads`` of its
data (a ``str``: the UTF-8 decode is not counted for the peer). CPU time of this process
(``time.process_time``: steady on a shared machine), the collector enabled, ``gc.collect()``
before each timed call; median of ``--runs``. With ``--events-off`` the stream is built with
``events=False`` (the snapshot only).

Where the previous helper's tables give only the final event, this shows which of the ``.done``
events (``output_text.done``, ``content_part.done``, ``output_item.done``, ``response.completed``)
costs what.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

try:
    from bench import generate as gen
    from bench.shapes import SHAPES
except ImportError:  # run as a script: ``python bench/done_events.py``
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench import generate as gen
    from bench.shapes import SHAPES

__all__ = ["blocks", "main"]


def blocks(data: bytes) -> list[tuple[int, int, bytes]]:
    """``(start, stop, payload)`` of each SSE block of a generated stream (one data line each)."""
    out: list[tuple[int, int, bytes]] = []
    start = 0
    while start < len(data):
        stop = data.find(b"\n\n", start)
        stop = len(data) if stop < 0 else stop + 2
        block = data[start:stop]
        at = block.find(b"data: ")
        if at >= 0:
            end = block.find(b"\n", at)
            out.append((start, stop, block[at + 6 : end if end >= 0 else len(block)]))
        start = stop
    return out


def main(argv: list[str] | None = None) -> int:
    import sansio_responses as sr

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--runs", type=int, default=7, help="timed runs per event (default 7)")
    p.add_argument("--shapes", default=None, help="comma-separated subset of scenarios")
    p.add_argument("--min-kb", type=float, default=8.0, help="time events at least this large")
    p.add_argument("--events-off", action="store_true", help="ResponsesStream(events=False)")
    p.add_argument("--orjson", action="store_true", help="the default decoder, not json.loads")
    args = p.parse_args(argv)
    clock = time.process_time
    kwargs: dict[str, Any] = {} if args.orjson else {"json_loads": json.loads}
    if args.events_off:
        kwargs["events"] = False
    shapes = [s for s in SHAPES if s[0] in args.shapes.split(",")] if args.shapes else SHAPES
    print(f"{sr.__name__} from {Path(sr.__file__).parent}; {args.runs} runs, CPU time, median")
    print()
    print("| shape | event | KB | ours ms | json.loads ms | x json.loads |")
    print("|---|---|---:|---:|---:|---:|")
    for scenario, n in shapes:
        stream = gen.generate(scenario, n)
        if stream.api != "responses":
            continue
        data = stream.data
        all_blocks = blocks(data)
        total_ours = total_peer = 0.0
        for number, (start, stop, payload) in enumerate(all_blocks):
            if len(payload) < args.min_kb * 1000:
                continue
            last = number == len(all_blocks) - 1
            text = payload.decode()
            etype = json.loads(text)["type"]
            ours: list[float] = []
            peer: list[float] = []
            for _ in range(args.runs):
                s = sr.ResponsesStream(**kwargs)
                for i in range(0, start, 4096):
                    s.feed(data[i : min(i + 4096, start)])
                block = data[start:stop]
                gc.collect()
                t0 = clock()
                s.feed(block)
                if last:
                    s.snapshot()
                ours.append(clock() - t0)
                del s
                gc.collect()
                t0 = clock()
                json.loads(text)
                peer.append(clock() - t0)
            o, q = statistics.median(ours), statistics.median(peer)
            total_ours += o
            total_peer += q
            print(
                f"| {scenario} | {etype} | {len(payload) / 1e3:,.1f} | {o * 1e3:.3f} "
                f"| {q * 1e3:.3f} | {o / q:.2f} |"
            )
        if total_peer:
            print(
                f"| {scenario} | **all large events** | | {total_ours * 1e3:.3f} "
                f"| {total_peer * 1e3:.3f} | {total_ours / total_peer:.2f} |"
            )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
