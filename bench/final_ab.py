"""A/B of the final event: two source trees in one process, alternating, against ``json.loads``.

Usage, from the repository root::

    .venv/bin/python bench/final_ab.py OTHER_TREE [--b TREE] [--shapes function_call,reasoning]
        [--rounds 40] [--chunk 65536]

As ``bench/ab.py`` does for whole streams, ``OTHER_TREE``'s ``sansio_responses`` (``sr_a``) and
this tree's (or ``--b``'s, ``sr_b``) are imported side by side. For each Responses shape of
``bench/shapes.py``, each round builds a stream of each tree (stdlib ``json.loads``), feeds it
everything before the final event (untimed, 4 KiB chunks), runs ``gc.collect()``, then times
feeding the final event's block and ``snapshot()`` (the final-event column of ``shapes.py``), A
and B in alternating order; then ``json.loads`` of the event's data (a ``str``). The block is fed
whole, or with ``--chunk N`` in N-byte chunks (httpx reads 64 KiB). CPU time of this process.
Prints each side's median (ms and x ``json.loads``) and the median of the per-round ratios B / A,
the figure to compare on a shared machine.

``--heap`` imports the official SDK (``openai``, ``pydantic``) first, as ``bench/run.py``'s
environment line does in ``shapes.py``'s table: a heap of about 100,000 objects, which the
``gc.collect()`` before each timed call walks, leaving the caches colder than in a bare process
(the final events of that table read 1.3-1.5x slower than here without it).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    from bench import generate as gen
    from bench.ab import _load  # pyright: ignore[reportPrivateUsage]
    from bench.shapes import SHAPES, _split_final  # pyright: ignore[reportPrivateUsage]
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench import generate as gen
    from bench.ab import _load  # pyright: ignore[reportPrivateUsage]
    from bench.shapes import SHAPES, _split_final  # pyright: ignore[reportPrivateUsage]

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Print one line per shape."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("other", type=Path)
    p.add_argument("--b", type=Path, default=None, help="the B tree (default: this one)")
    p.add_argument("--shapes", default="text,function_call,reasoning")
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument(
        "--chunk",
        type=int,
        default=0,
        help="feed the final block in chunks of this many bytes (httpx reads 64 KiB); 0: whole",
    )
    p.add_argument(
        "--heap", action="store_true", help="import openai and pydantic first (see above)"
    )
    args = p.parse_args(argv)
    if args.heap:
        import openai  # noqa: F401  # pyright: ignore[reportUnusedImport]
        import pydantic  # noqa: F401  # pyright: ignore[reportUnusedImport]
    here = args.b or Path(__file__).resolve().parent.parent
    clock = time.process_time
    sizes = dict(SHAPES)
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, tmp)
        trees: dict[str, Any] = {
            "A": _load(args.other, "sr_a", Path(tmp)),
            "B": _load(here, "sr_b", Path(tmp)),
        }
        chunking = f"final block in {args.chunk}-byte chunks" if args.chunk else "final block whole"
        heap = f", {len(gc.get_objects()):,} objects tracked" if args.heap else ""
        print(
            f"A: {args.other}, B: {here}; {args.rounds} rounds, {chunking}, CPU time, "
            f"medians{heap}"
        )
        for shape in args.shapes.split(","):
            prefix, block, payload = _split_final(gen.generate(shape, sizes[shape]).data)
            text = payload.decode()
            step = args.chunk or len(block)
            pieces = [block[i : i + step] for i in range(0, len(block), step)]
            times: dict[str, list[float]] = {"A": [], "B": [], "loads": []}
            ratios: list[float] = []
            for n in range(args.rounds):
                took: dict[str, float] = {}
                for side in "AB" if n % 2 == 0 else "BA":
                    stream = trees[side].ResponsesStream(json_loads=json.loads)
                    for i in range(0, len(prefix), 4096):
                        stream.feed(prefix[i : i + 4096])
                    gc.collect()
                    t0 = clock()
                    for piece in pieces:
                        stream.feed(piece)
                    stream.snapshot()
                    took[side] = clock() - t0
                    del stream
                gc.collect()
                t0 = clock()
                json.loads(text)
                times["loads"].append(clock() - t0)
                for side in "AB":
                    times[side].append(took[side])
                ratios.append(took["B"] / took["A"])
            a, b, loads = (statistics.median(times[k]) for k in ("A", "B", "loads"))
            print(
                f"{shape}: A {a * 1e3:.3f} ms ({a / loads:.2f}x json.loads), "
                f"B {b * 1e3:.3f} ms ({b / loads:.2f}x), json.loads {loads * 1e3:.3f} ms; "
                f"median B/A {statistics.median(ratios):.3f}"
            )
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
