"""CPU time per event of every HTTP adapter when each event arrives in its own read, beside the
same HTTP clients read bare (no adapter) with the core stream fed directly.

Usage, from the repository root: ``.venv/bin/python bench/adapter_reads.py [N_DELTAS] [RUNS]
[WAY,WAY,...] [--paced=SECONDS]`` (defaults 3000, 5, every way, 0). A child process serves one
Responses stream of N text deltas from the local test server (``sansio_responses.testing``) in
300-byte writes (about one event each), *SECONDS* apart with ``--paced``: then every client reads
each write on its own, as from a model that streams slower than the client reads (without it,
aiohttp, which reads the socket in its protocol whatever the consumer does, gets many events per
read). This process reads it RUNS times through each way below, the ways interleaved in every
round, and prints the median CPU time of this process per event.

* ``bare-httpx`` / ``bare-httpx-async`` / ``bare-aiohttp``: the HTTP client's own read loop
  (``iter_raw`` / ``aiter_raw`` / ``content.iter_any``), every chunk fed to a
  ``ResponsesStream``: the client's and the core's cost, no adapter. ``-trio`` runs on trio.
* ``socket``, ``httpx``, ``trio``, ``aiohttp``, ``httpx_async`` (asyncio, and ``-trio``): the
  adapters, through ``open_stream``.

CPU time (``process_time``) leaves out the waits for the server and for a core, so the figures are
the client's, the adapter's and the core's own work; an adapter's line minus its client's bare
line is what the adapter adds (deadlines, the exchange, the events object). ``reads/event`` is
the chunks the bare loop got per event. Issue 21, target 3: the async adapters' deadlines cost no
more per read than the sync ones'.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
import anyio
import httpx
import trio

import sansio_responses as sr
from adapters import aiohttp as aiohttp_adapter
from adapters import httpx_async, httpx_sync
from adapters import socket as socket_adapter
from adapters import trio as trio_adapter
from sansio_responses.testing import Script, StreamBuilder, serve

TOTAL = 300.0
"""The ``+total`` ways' total_timeout: nearer than the default idle timeout (600 s)."""

Request = sr.Request[sr.ResponsesStream]
Outcome = tuple[int, int, float]  # events, reads (0: not counted), CPU seconds


def _serve(conn: Connection, n: int, paced: float) -> None:
    body = StreamBuilder(response_id="resp_reads").text(["ab "] * n).completed().to_sse()
    with serve(default=Script(body, chunk_size=300, delay=paced)) as server:
        conn.send(server.base_url)
        conn.recv()  # until the parent is done


def _headers(request: Request) -> list[tuple[str, str]]:
    return sr.send_headers(request)


# --- bare clients: the client's read loop and the core stream, no adapter -------------------------


def bare_httpx(request: Request) -> Outcome:
    start = time.process_time()
    stream, events, reads = sr.ResponsesStream(), 0, 0
    with (
        httpx.Client() as client,
        client.stream("POST", request.url, headers=_headers(request), content=request.body) as r,
    ):
        for raw in r.iter_raw():
            reads += 1
            events += len(stream.feed(raw))
    events += len(stream.close())
    return events, reads, time.process_time() - start


async def bare_httpx_async(request: Request) -> Outcome:
    start = time.process_time()
    stream, events, reads = sr.ResponsesStream(), 0, 0
    async with (
        httpx.AsyncClient() as client,
        client.stream("POST", request.url, headers=_headers(request), content=request.body) as r,
    ):
        async for raw in r.aiter_raw():
            reads += 1
            events += len(stream.feed(raw))
    events += len(stream.close())
    return events, reads, time.process_time() - start


async def bare_aiohttp(request: Request) -> Outcome:
    start = time.process_time()
    stream, events, reads = sr.ResponsesStream(), 0, 0
    async with (
        aiohttp.ClientSession() as session,
        session.post(request.url, headers=_headers(request), data=request.body) as r,
    ):
        async for raw in r.content.iter_any():
            reads += 1
            events += len(stream.feed(raw))
    events += len(stream.close())
    return events, reads, time.process_time() - start


# --- the adapters ------------------------------------------------------------------------------


def _blocking(open_stream: Callable[..., Any], **options: Any) -> Callable[[Request], Outcome]:
    def run(request: Request) -> Outcome:
        start = time.process_time()
        with open_stream(request, **options) as events:
            count = sum(1 for _ in events)
        return count, 0, time.process_time() - start

    return run


def _async(
    open_stream: Callable[..., Any], **options: Any
) -> Callable[[Request], Awaitable[Outcome]]:
    async def run(request: Request) -> Outcome:
        start = time.process_time()
        count = 0
        async with open_stream(request, **options) as events:
            async for _ in events:
                count += 1
        return count, 0, time.process_time() - start

    return run


def ways() -> dict[str, Callable[[Request], Outcome]]:
    """Every way to read the stream, each a blocking call."""

    def on_asyncio(f: Callable[[Request], Awaitable[Outcome]]) -> Callable[[Request], Outcome]:
        return lambda request: asyncio.run(f(request))  # type: ignore[arg-type]

    def on_trio(f: Callable[[Request], Awaitable[Outcome]]) -> Callable[[Request], Outcome]:
        return lambda request: anyio.run(f, request, backend="trio")

    return {
        "bare-httpx": bare_httpx,
        "httpx": _blocking(httpx_sync.open_stream),
        "socket": _blocking(socket_adapter.open_stream),
        "bare-httpx-async": on_asyncio(bare_httpx_async),
        "httpx_async": on_asyncio(_async(httpx_async.open_stream)),
        "bare-httpx-async-trio": on_trio(bare_httpx_async),
        "httpx_async-trio": on_trio(_async(httpx_async.open_stream)),
        "trio": lambda request: trio.run(_async(trio_adapter.open_stream), request),
        "bare-aiohttp": on_asyncio(bare_aiohttp),
        "aiohttp": on_asyncio(_async(aiohttp_adapter.open_stream)),
        # With a total deadline nearer than the idle timeout, every wait is bounded by it.
        "httpx+total": _blocking(httpx_sync.open_stream, total_timeout=TOTAL),
        "socket+total": _blocking(socket_adapter.open_stream, total_timeout=TOTAL),
        "httpx_async+total": on_asyncio(_async(httpx_async.open_stream, total_timeout=TOTAL)),
        "httpx_async-trio+total": on_trio(_async(httpx_async.open_stream, total_timeout=TOTAL)),
        "trio+total": lambda request: trio.run(
            _async(trio_adapter.open_stream, total_timeout=TOTAL), request
        ),
        "aiohttp+total": on_asyncio(_async(aiohttp_adapter.open_stream, total_timeout=TOTAL)),
    }


def main(argv: list[str]) -> int:
    """Command line entry point."""
    paced = 0.0
    for arg in [a for a in argv if a.startswith("--paced=")]:
        paced = float(arg.partition("=")[2])
        argv.remove(arg)
    n = int(argv[0]) if argv else 3000
    runs = int(argv[1]) if len(argv) > 1 else 5
    only = set(argv[2].split(",")) if len(argv) > 2 else None
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.Process(target=_serve, args=(child, n, paced))
    server.start()
    table = {k: v for k, v in ways().items() if only is None or k in only}
    times: dict[str, list[float]] = {name: [] for name in table}
    reads: dict[str, list[int]] = {name: [] for name in table}
    counts: dict[str, int] = {}
    try:
        url = parent.recv()
        request = sr.responses_request({"model": "m", "input": "hi"}, api_key="k", base_url=url)
        for _ in range(runs):  # interleaved: every way once per round
            for name, run in table.items():
                count, read, seconds = run(request)
                counts[name] = count
                times[name].append(seconds)
                reads[name].append(read)
    finally:
        parent.send(None)
        server.join()
    for name in table:
        per_event = statistics.median(times[name]) / counts[name] * 1e6
        ratio = statistics.median(reads[name]) / counts[name]
        extra = f", {ratio:.2f} reads/event" if ratio else ""
        print(
            f"{name:22s} {counts[name]} events: {per_event:5.1f} µs CPU per event "
            f"(median of {runs}{extra})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
