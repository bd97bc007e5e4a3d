"""Memory a Responses stream holds, per shape, against its largest event (issue 21, target 3x).

Usage, from the repository root::

    .venv/bin/python bench/stream_memory.py                  # every Responses shape of shapes.py
    .venv/bin/python bench/stream_memory.py --shapes text_logprobs --chunk 4096

Each shape of ``bench/shapes.py`` is fed to ``ResponsesStream(json_loads=json.loads)`` in
``--chunk``-byte pieces (the events of each ``feed()`` iterated and dropped, as ``bench/run.py``
does), then ``close()`` and ``snapshot()``, under ``tracemalloc`` (the input bytes exist before
tracing starts and are not counted). Three figures, each over the largest event's size in bytes:

- **peak**: tracemalloc's peak during the whole stream (what ``bench/shapes.py`` reports);
- **result**: the size of the final response as ``json.loads`` builds it (the data of the
  ``response.completed`` event, measured alone): what any consumer holding the result holds;
- **peak - result**: the peak beyond the result (``bench/run.py``'s issue 13 target subtracts the
  accumulated text in the same way);
- **retained**: what is still allocated after ``close()`` and ``snapshot()`` with the stream and
  its snapshot alive and every event dropped.

``--events-off`` uses ``events=False``; ``--orjson`` the default decoder. ``--timeline`` prints,
for each event over 64 KiB instead, the memory allocated before it, the peak while it is fed and
what is allocated after it (the previous event of each ``feed()`` kept alive, as a caller's loop
variable does), over the largest event.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tracemalloc
from pathlib import Path
from typing import Any

try:
    from bench import generate as gen
    from bench.shapes import SHAPES
except ImportError:  # run as a script: ``python bench/stream_memory.py``
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench import generate as gen
    from bench.shapes import SHAPES

__all__ = ["main", "measure"]


def _tree_size(payload: bytes) -> int:
    text = payload.decode()
    gc.collect()
    tracemalloc.start()
    try:
        obj = json.loads(text)
        size = tracemalloc.get_traced_memory()[0]
        del obj
    finally:
        tracemalloc.stop()
    return size


def measure(stream: gen.GeneratedStream, chunk: int, **options: Any) -> tuple[int, int, int]:
    """(peak bytes, retained bytes, result bytes) of one run of *stream*."""
    import sansio_responses as sr

    data = stream.data
    pieces = [data[i : i + chunk] for i in range(0, len(data), chunk)]
    final = data.rstrip(b"\n").rsplit(b"\n\n", 1)[1]
    result = _tree_size(json.dumps(json.loads(final.split(b"data: ", 1)[1])["response"]).encode())
    s = sr.ResponsesStream(**options)  # warm: lazy imports and caches are not the stream's
    for piece in pieces:
        s.feed(piece)
    del s
    gc.collect()
    tracemalloc.start()
    try:
        s = sr.ResponsesStream(**options)
        _event = None  # (events=False: no event ever binds it)
        for piece in pieces:
            for _event in s.feed(piece):
                pass
        for _event in s.close():
            pass
        snapshot = s.snapshot()
        del _event
        gc.collect()
        retained, peak = tracemalloc.get_traced_memory()
        del snapshot, s
    finally:
        tracemalloc.stop()
    return peak, retained, result


def timeline(stream: gen.GeneratedStream, chunk: int, **options: Any) -> list[str]:
    """One row per event over 64 KiB: its type, memory before it, the peak while it is fed and
    memory after it, each over the largest event."""
    import sansio_responses as sr

    data = stream.data
    big = stream.largest_event
    rows: list[str] = []
    last: Any = None
    tracemalloc.start()
    try:
        s = sr.ResponsesStream(**options)
        pos = 0
        start = 0
        while start < len(data):
            stop = data.find(b"\n\n", start)
            stop = len(data) if stop < 0 else stop + 2
            if stop - start > 64 * 1024:
                for i in range(pos, start, chunk):
                    for last in s.feed(data[i : min(i + chunk, start)]):  # noqa: B007
                        pass
                gc.collect()
                before = tracemalloc.get_traced_memory()[0]
                tracemalloc.reset_peak()
                for i in range(start, stop, chunk):
                    for last in s.feed(data[i : min(i + chunk, stop)]):  # noqa: B007
                        pass
                now, peak = tracemalloc.get_traced_memory()
                kind = last.type if last is not None else "?"
                rows.append(f"| {kind} | {before / big:.2f} | {peak / big:.2f} | {now / big:.2f} |")
                pos = stop
            start = stop
    finally:
        tracemalloc.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    import sansio_responses as sr

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--shapes", default=None, help="comma-separated subset of scenarios")
    p.add_argument("--chunk", type=int, default=4096, help="bytes per feed() (default 4096)")
    p.add_argument("--events-off", action="store_true", help="ResponsesStream(events=False)")
    p.add_argument("--orjson", action="store_true", help="the default decoder, not json.loads")
    p.add_argument("--timeline", action="store_true", help="memory around each large event")
    args = p.parse_args(argv)
    options: dict[str, Any] = {} if args.orjson else {"json_loads": json.loads}
    if args.events_off:
        options["events"] = False
    shapes = [s for s in SHAPES if s[0] in args.shapes.split(",")] if args.shapes else SHAPES
    print(f"{sr.__name__} from {Path(sr.__file__).parent}; options {options}, chunk {args.chunk}")
    print()
    if args.timeline:
        for scenario, n in shapes:
            stream = gen.generate(scenario, n)
            if stream.api == "responses":
                print(f"{scenario} N={n:,}\n")
                print("| event | before | peak while fed | after |")
                print("|---|---:|---:|---:|")
                print("\n".join(timeline(stream, args.chunk, **options)), end="\n\n", flush=True)
        return 0
    print("| shape | N | largest event KB | peak | result | peak - result | retained |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for scenario, n in shapes:
        stream = gen.generate(scenario, n)
        if stream.api != "responses":
            continue
        peak, retained, result = measure(stream, args.chunk, **options)
        big = stream.largest_event
        print(
            f"| {scenario} | {n:,} | {big / 1e3:,.0f} | {peak / big:.2f} | {result / big:.2f} "
            f"| {(peak - result) / big:.2f} | {retained / big:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
