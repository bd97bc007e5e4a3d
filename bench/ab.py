"""A/B of two source trees in one process: their ``ResponsesStream`` (or, with ``--chat``, their
``ChatCompletionsStream``) on the same chunks, alternately.

Usage, from the repository root::

    .venv/bin/python bench/ab.py OTHER_TREE [--scenario text] [--n 20000] [--chunk 4096]
        [--rounds 15] [--events/--no-events] [--json orjson|stdlib] [--chat]

``OTHER_TREE`` is the root of another checkout (``git worktree add /tmp/base b9576f3``, say): its
``sansio_responses`` package and this tree's (or ``--b``'s) are copied under two names (``sr_a``:
the other tree, ``sr_b``: this one) and imported side by side, so both run in the same process on the same
bytes, in alternating order (A B, B A, ...), timed with this process's CPU time. Prints the
median µs per wire event of each and the median of the per-round ratios B / A, the figure to
compare (on a shared machine the ratio of a pair varies far less than either time).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    from bench import generate as gen
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench import generate as gen

__all__ = ["main"]


def _load(tree: Path, name: str, into: Path) -> Any:
    shutil.copytree(
        tree / "sansio_responses",
        into / name,
        symlinks=True,
        ignore=shutil.ignore_patterns("__pycache__", "adapters"),
    )
    return importlib.import_module(name)


def main(argv: list[str] | None = None) -> int:
    """Print the A/B table."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("other", type=Path)
    p.add_argument("--b", type=Path, default=None, help="the B tree (default: this one)")
    p.add_argument("--scenario", default="text")
    p.add_argument("--n", type=int, default=20_000)
    p.add_argument("--chunk", type=int, default=4096)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--events", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--json", choices=("orjson", "stdlib"), default="orjson")
    p.add_argument(
        "--chat",
        action="store_true",
        help="time ChatCompletionsStream (for the chat_* scenarios) instead of ResponsesStream",
    )
    p.add_argument(
        "--deltas-only",
        action="store_true",
        help="the delta half (bench/stages.py's --deltas-only): no close() or snapshot()",
    )
    args = p.parse_args(argv)
    here = args.b or Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, tmp)
        trees = {"A": _load(args.other, "sr_a", Path(tmp)), "B": _load(here, "sr_b", Path(tmp))}
        data = gen.generate(args.scenario, args.n).data
        if args.deltas_only:
            from bench.stages import deltas_only

            data = deltas_only(data)
        chunks = [data[i : i + args.chunk] for i in range(0, len(data), args.chunk)]
        events = data.count(b"\ndata: {") + data.startswith(b"data: {")
        options: dict[str, Any] = {} if args.events else {"events": False}
        if args.json == "stdlib":
            options["json_loads"] = json.loads

        def run(module: Any) -> float:
            gc.collect()
            start = time.process_time()
            stream = (module.ChatCompletionsStream if args.chat else module.ResponsesStream)(
                **options
            )
            for chunk in chunks:
                for _event in stream.feed(chunk):
                    pass
            if not args.deltas_only:
                stream.close()
                stream.snapshot()
            return (time.process_time() - start) / events * 1e6

        for module in trees.values():
            run(module)
        gc.freeze()
        times: dict[str, list[float]] = {"A": [], "B": []}
        for r in range(args.rounds):
            order = ("A", "B") if r % 2 == 0 else ("B", "A")
            for name in order:
                times[name].append(run(trees[name]))
        ratios = [b / a for a, b in zip(times["A"], times["B"], strict=True)]
        half = " deltas-only" if args.deltas_only else ""
        print(
            f"{args.scenario}{half} N={args.n} chunk={args.chunk} json={args.json} "
            f"events={args.events} rounds={args.rounds} (CPU time, µs per wire event)"
        )
        print(f"A {args.other}: median {statistics.median(times['A']):.3f}")
        print(f"B {here}: median {statistics.median(times['B']):.3f}")
        print(f"B / A: median of the rounds' ratios {statistics.median(ratios):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
