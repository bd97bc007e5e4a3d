"""CPU time per event of the httpx adapters when every event arrives in its own read.

Usage, from the repository root: ``.venv/bin/python bench/adapter_reads.py [N_DELTAS]`` (default
3000). A child process serves one Responses stream of N text deltas from the local test server
(``sansio_responses.testing``) in 300-byte writes, so that each body read carries about one
event; this process reads it five times through ``adapters.httpx_sync`` and five times through
``adapters.httpx_async`` (asyncio) and prints the median CPU time of this process per event.
CPU time (``process_time``) leaves out the waits for the server and for a core, so the figure
is the adapter's and the core's own work; the difference between the two lines is what the
async path adds per read (its deadlines among it: issue 21, target 3).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import statistics
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sansio_responses as sr
from adapters import httpx_async, httpx_sync
from sansio_responses.testing import Script, StreamBuilder, serve

RUNS = 5


def _serve(conn: Connection, n: int) -> None:
    body = StreamBuilder(response_id="resp_reads").text(["ab "] * n).completed().to_sse()
    with serve(default=Script(body, chunk_size=300)) as server:
        conn.send(server.base_url)
        conn.recv()  # until the parent is done


def _sync(request: sr.Request[sr.ResponsesStream]) -> tuple[int, float]:
    start = time.process_time()
    with httpx_sync.open_stream(request) as events:
        count = sum(1 for _ in events)
    return count, time.process_time() - start


async def _async(request: sr.Request[sr.ResponsesStream]) -> tuple[int, float]:
    start = time.process_time()
    count = 0
    async with httpx_async.open_stream(request) as events:
        async for _ in events:
            count += 1
    return count, time.process_time() - start


def main(argv: list[str]) -> int:
    """Command line entry point."""
    n = int(argv[0]) if argv else 3000
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.Process(target=_serve, args=(child, n))
    server.start()
    try:
        url = parent.recv()
        request = sr.responses_request({"model": "m", "input": "hi"}, api_key="k", base_url=url)
        sync: list[float] = []
        async_: list[float] = []
        count = 0
        for _ in range(RUNS):  # interleaved
            count, seconds = _sync(request)
            sync.append(seconds)
            count, seconds = asyncio.run(_async(request))
            async_.append(seconds)
    finally:
        parent.send(None)
        server.join()
    for name, times in (("httpx_sync", sync), ("httpx_async", async_)):
        per_event = statistics.median(times) / count * 1e6
        print(f"{name:12s} {count} events: {per_event:.1f} µs CPU per event (median of {RUNS})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
