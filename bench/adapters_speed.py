"""Events per second through each adapter over loopback (indicative; not a test).

Usage, from the repository root: ``PYTHONPATH=. .venv/bin/python bench/adapters_speed.py [N_DELTAS]``
(default 50 000). A child process runs the local test server (``sansio_responses.testing``) with
one Responses stream of N text deltas, written in 64 KiB pieces; this process reads it through
each adapter and through the core fed the same bytes directly (the floor: decoding and
accumulation with no I/O). Wall-clock time, best of three runs; the server being in another
process keeps its work off this process's GIL.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection

import httpx
import trio

from adapters import aiohttp as aiohttp_adapter
from adapters import httpx_sync
from adapters import socket as socket_adapter
from adapters import trio as trio_adapter
from sansio_responses._http.requests import Request, responses_request
from sansio_responses._responses.stream import ResponsesStream
from sansio_responses.testing import Script, StreamBuilder, serve


def body_of(n: int) -> bytes:
    return StreamBuilder(response_id="resp_bench").text(["ab "] * n).completed().to_sse()


def run_server(conn: Connection, n: int) -> None:
    with serve(default=Script(body_of(n), chunk_size=65536)) as server:
        conn.send(server.base_url)
        conn.recv()  # block until the parent is done


def direct(body: bytes) -> int:
    stream = ResponsesStream()
    count = 0
    for i in range(0, len(body), 65536):
        count += len(stream.feed(body[i : i + 65536]))
    return count + len(stream.close())


def via_sync(open_stream: Callable[..., object], request: Request) -> int:
    with open_stream(request) as events:  # type: ignore[attr-defined]
        return sum(1 for _ in events)


async def via_async(open_stream: Callable[..., object], request: Request) -> int:
    count = 0
    async with open_stream(request) as events:  # type: ignore[attr-defined]
        async for _ in events:
            count += 1
    return count


def raw_bytes(request: Request, body: bytes, events: int) -> int:
    """The transport floor: the same response read with httpx and nothing decoded; returns the
    body's event count so the rate compares with the others."""
    with httpx.Client() as client:
        with client.stream("POST", request.url, content=request.body) as response:
            size = sum(len(chunk) for chunk in response.iter_raw())
    assert size == len(body), (size, len(body))
    return events


def best_of(runs: int, fn: Callable[[], int]) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(runs):
        t0 = time.perf_counter()
        count = fn()
        best = min(best, time.perf_counter() - t0)
    return best, count


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    body = body_of(n)
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.Process(target=run_server, args=(child, n), daemon=True)
    server.start()
    try:
        total = direct(body)
        request = responses_request({"model": "m", "input": "x"}, base_url=parent.recv())
        cases: dict[str, Callable[[], int]] = {
            "core fed directly (no I/O)": lambda: direct(body),
            "httpx, bytes only (no core)": lambda: raw_bytes(request, body, total),
            "httpx_sync": lambda: via_sync(httpx_sync.open_stream, request),
            "socket": lambda: via_sync(socket_adapter.open_stream, request),
            "aiohttp": lambda: asyncio.run(via_async(aiohttp_adapter.open_stream, request)),
            "trio": lambda: trio.run(via_async, trio_adapter.open_stream, request),
        }
        print(f"{n} text deltas, {len(body) / 2**20:.1f} MiB body")
        for label, fn in cases.items():
            seconds, count = best_of(3, fn)
            print(
                f"{label:<28} {count / seconds:>10,.0f} events/s  "
                f"{len(body) / seconds / 2**20:6.1f} MiB/s  ({count} events, {seconds:.3f} s)"
            )
    finally:
        parent.send("stop")
        server.join(10)


if __name__ == "__main__":
    main()
