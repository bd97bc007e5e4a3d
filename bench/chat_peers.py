"""Chat shapes against the untyped peer, and against an untyped peer that accumulates (issue 21).

Usage, from the repository root::

    .venv/bin/python bench/chat_peers.py                  # every Chat shape, 7 runs, CPU time
    .venv/bin/python bench/chat_peers.py --shapes chat_logprobs --runs 9

``bench/shapes.py`` compares this library (events and the snapshot, or ``events=False``) with
httpx-sse + ``json.loads``, which decodes every event and keeps nothing. On most shapes keeping
the completion costs next to nothing; with ``logprobs`` on every chunk it does not: each chunk's
token entries (about 13 containers) must stay alive until the end, and the garbage collector
walks them again and again. This script adds the peer that keeps what the completion needs and
nothing else, as plain JSON: httpx-sse + ``json.loads`` + each choice's content and tool-call
argument pieces and its ``logprobs.content`` entries, joined at the end.

Peers, interleaved (A B C D A B C D ...), each fed the same 4 KiB chunks, timed with this
process's CPU time, ``gc.collect()`` before each run (the collector stays on, as in real use);
the median of ``--runs``:

- ``ours``: ``ChatCompletionsStream(json_loads=json.loads)``, every event iterated, ``close()``,
  ``snapshot()``;
- ``ours events=False``: the same with ``events=False``;
- ``httpx-sse``: ``httpx_sse.EventSource`` over an in-memory ``httpx.Response``, ``json.loads`` of
  each payload (``bench/run.py``'s peer);
- ``httpx-sse+keep``: the same, keeping the pieces and entries above.
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
    from bench import shapes
except ImportError:  # run as a script: ``python bench/chat_peers.py``
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench import generate as gen
    from bench import shapes

__all__ = ["SHAPES", "main"]

#: The Chat shapes of ``bench/shapes.py``, at its sizes.
SHAPES: tuple[tuple[str, int], ...] = tuple(s for s in shapes.SHAPES if s[0].startswith("chat_"))


def _ours(chunks: list[bytes], **options: Any) -> None:
    import sansio_responses as sr

    stream = sr.ChatCompletionsStream(json_loads=json.loads, **options)
    for chunk in chunks:
        for _event in stream.feed(chunk):
            pass
    stream.close()
    stream.snapshot()


def _events(chunks: list[bytes]) -> Iterator[Any]:
    import httpx
    import httpx_sse

    response = httpx.Response(
        200, headers={"content-type": "text/event-stream"}, content=iter(chunks)
    )
    return httpx_sse.EventSource(response).iter_sse()  # type: ignore[no-any-return]


def _peer(chunks: list[bytes]) -> None:
    for sse in _events(chunks):
        if sse.data != "[DONE]":
            json.loads(sse.data)


def _peer_keep(chunks: list[bytes]) -> dict[int, Any]:
    kept: dict[int, Any] = {}
    for sse in _events(chunks):
        if sse.data == "[DONE]":
            continue
        chunk = json.loads(sse.data)
        for choice in chunk.get("choices") or ():
            acc = kept.setdefault(choice.get("index", 0), ([], {}, []))
            delta = choice.get("delta") or {}
            if delta.get("content"):
                acc[0].append(delta["content"])
            for call in delta.get("tool_calls") or ():
                arguments = (call.get("function") or {}).get("arguments")
                if arguments:
                    acc[1].setdefault(call.get("index", 0), []).append(arguments)
            logprobs = choice.get("logprobs")
            if logprobs and logprobs.get("content"):
                acc[2].extend(logprobs["content"])
    return {
        i: ("".join(text), {t: "".join(a) for t, a in calls.items()}, entries)
        for i, (text, calls, entries) in kept.items()
    }


def _measure(scenario: str, n: int, runs: int, quiet: bool) -> dict[str, float]:
    """Median CPU µs per event of each peer on one generated stream."""
    data = gen.generate(scenario, n).data
    chunks = [data[i : i + 4096] for i in range(0, len(data), 4096)]
    peers: dict[str, Callable[[], object]] = {
        "ours": lambda: _ours(chunks),
        "httpx-sse": lambda: _peer(chunks),
        "httpx-sse+keep": lambda: _peer_keep(chunks),
    }
    if quiet:
        peers["ours events=False"] = lambda: _ours(chunks, events=False)
    times: dict[str, list[float]] = {name: [] for name in peers}
    for _ in range(runs):
        for name, fn in peers.items():
            gc.collect()
            start = time.process_time()
            fn()
            times[name].append(time.process_time() - start)
    return {name: statistics.median(t) / n * 1e6 for name, t in times.items()}


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--runs", type=int, default=7, help="timed runs per cell (default 7)")
    p.add_argument("--shapes", default=None, help="comma-separated subset of scenarios")
    args = p.parse_args(argv)
    shapes = SHAPES
    if args.shapes:
        wanted = args.shapes.split(",")
        shapes = tuple(s for s in shapes if s[0] in wanted)
    import sansio_responses as sr

    try:
        sr.ChatCompletionsStream(events=False)  # type: ignore[call-arg]
        quiet = True
    except TypeError:  # a version without it
        quiet = False
    print(f"sansio_responses from {sr.__file__}; CPU time, median of {args.runs}, 4 KiB chunks\n")
    print(
        "| shape | N | ours µs/event | ours events=False | httpx-sse | httpx-sse+keep "
        "| ours x httpx-sse | ours events=False x httpx-sse | ours x httpx-sse+keep "
        "| ours events=False x httpx-sse+keep |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    gc.freeze()  # the modules loaded so far are not the peers' garbage
    for scenario, n in shapes:
        us = _measure(scenario, n, args.runs, quiet)

        def cell(name: str, us: dict[str, float] = us) -> str:
            return f"{us[name]:.2f}" if name in us else "-"

        def ratio(a: str, b: str, us: dict[str, float] = us) -> str:
            return f"{us[a] / us[b]:.2f}" if a in us and b in us else "-"

        print(
            f"| {scenario} | {n:,} | {cell('ours')} | {cell('ours events=False')} "
            f"| {cell('httpx-sse')} | {cell('httpx-sse+keep')} | {ratio('ours', 'httpx-sse')} "
            f"| {ratio('ours events=False', 'httpx-sse')} | {ratio('ours', 'httpx-sse+keep')} "
            f"| {ratio('ours events=False', 'httpx-sse+keep')} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
