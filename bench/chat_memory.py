"""Memory held by a Chat Completions stream, beyond the completion it accumulates (issue 21).

Usage, from the repository root::

    .venv/bin/python bench/chat_memory.py                 # every Chat shape of bench/shapes.py
    .venv/bin/python bench/chat_memory.py --shapes chat_logprobs

``bench/shapes.py``'s memory pass divides the whole tracemalloc peak by the largest event. On a
Responses stream the largest event (``response.completed``) repeats the whole response, so that
ratio bounds what the stream holds beyond its result. No Chat chunk repeats the completion: the
largest is 0.5-1 KB, while the accumulated completion is what the stream is for, and it grows with
the stream (on ``chat_text`` at N=20k it is over 300 times the largest chunk). This script
therefore also measures the completion itself and prints what is held beyond it.

For each shape, decoder (``json.loads`` / the default, orjson) and path (events, and
``events=False``), after one untimed warm-up run, it traces (tracemalloc) one run that feeds
the body in 4 KiB chunks and drops every event, then calls ``close()`` and ``snapshot()``:

- *held after feed*: memory still allocated once every chunk is fed and the events dropped
  (the stream object alive: what a stream retains);
- *peak*: the largest allocation at any moment, the ``snapshot()`` call included;
- *completion*: what ``json.loads`` of the snapshot's ``to_dict()`` (serialised) allocates: the
  same completion as plain decoded JSON, the least any accumulator must hold;
- *ours*: what the snapshot itself holds once every field has been read (its logprobs decoded,
  see ``sansio_responses/_chat/entries.py``) and the stream is gone, against *completion*.

Issue 21 asks for the memory held for a stream to be at most 3x its largest event. A Chat
stream's largest event is under 1 KB while the completion it accumulates is what the stream is
for (184 KB of text to 11.7 MB of logprobs here), so this script checks the Chat reading of it:
**the memory held beyond the completion is at most 3x the largest event or 0.5x the completion,
whichever is larger** (*bound* below). "Held" is what the stream retains once the chunks are
fed (*held after feed*); the *peak* (which includes ``snapshot()`` joining each text once, while
its pieces are still alive) is printed against the same bound.
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
    from bench import shapes
except ImportError:  # run as a script: ``python bench/chat_memory.py``
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench import generate as gen
    from bench import shapes

__all__ = ["SHAPES", "main", "measure"]

#: The Chat shapes of ``bench/shapes.py``, at its sizes.
SHAPES: tuple[tuple[str, int], ...] = tuple(s for s in shapes.SHAPES if s[0].startswith("chat_"))


def _feed(chunks: list[bytes], **options: Any) -> Any:
    import sansio_responses as sr

    stream = sr.ChatCompletionsStream(**options)
    for chunk in chunks:
        for _event in stream.feed(chunk):
            pass
    stream.close()
    return stream


def measure(data: bytes, **options: Any) -> tuple[int, int, int, int]:
    """(held after feed, peak, completion, ours) in bytes, for one stream made with *options*."""
    chunks = [data[i : i + 4096] for i in range(0, len(data), 4096)]
    _feed(chunks, **options).snapshot()  # warm-up: first-use caches are not the stream's
    gc.collect()
    tracemalloc.start()
    try:
        stream = _feed(chunks, **options)
        held = tracemalloc.get_traced_memory()[0]
        snapshot = stream.snapshot()
        peak = tracemalloc.get_traced_memory()[1]
        for choice in snapshot.choices:
            choice.logprobs  # noqa: B018  (read: decoded if it was kept as text)
        del stream
        gc.collect()
        ours = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    text = json.dumps(snapshot.to_dict())
    del snapshot
    gc.collect()
    tracemalloc.start()
    try:
        completion = json.loads(text)
        size = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del completion
    return held, peak, size, ours


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--shapes", default=None, help="comma-separated subset of scenarios")
    args = p.parse_args(argv)
    shapes = SHAPES
    if args.shapes:
        wanted = args.shapes.split(",")
        shapes = tuple(s for s in shapes if s[0] in wanted)
    print(
        "| shape | N | decoder | path | largest event B | completion KB (json.loads) "
        "| ours KB (snapshot, read) | ours / json.loads | held after feed KB | peak KB "
        "| bound KB | held - completion KB | met? | peak - completion KB | met? "
        "| (held - completion) / largest event |"
    )
    print("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---:|")
    for scenario, n in shapes:
        stream = gen.generate(scenario, n)
        largest = stream.largest_event
        for name, loads in (("json.loads", json.loads), ("default", None)):
            for events in (True, False):
                options: dict[str, Any] = {"json_loads": loads}
                if not events:
                    options["events"] = False
                try:
                    held, peak, size, ours = measure(stream.data, **options)
                except TypeError:  # a version without events=False
                    continue
                bound = max(3 * largest, size / 2)
                print(
                    f"| {scenario} | {n:,} | {name} | {'events' if events else 'events=False'} "
                    f"| {largest:,} | {size / 1e3:,.0f} | {ours / 1e3:,.0f} | {ours / size:.2f} "
                    f"| {held / 1e3:,.0f} | {peak / 1e3:,.0f} | {bound / 1e3:,.0f} "
                    f"| {(held - size) / 1e3:,.0f} | {'yes' if held - size <= bound else 'no'} "
                    f"| {(peak - size) / 1e3:,.0f} | {'yes' if peak - size <= bound else 'no'} "
                    f"| {(held - size) / largest:,.1f} |"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
