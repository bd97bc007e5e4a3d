"""Per-turn latency of a 10-turn tool loop: one WebSocket against 10 HTTP requests (indicative).

Usage, from the repository root: ``PYTHONPATH=. .venv/bin/python bench/ws_latency.py [LOOPS]``
(default 30). A child process runs the local test server (``sansio_responses.testing``), which
answers every turn with the same recorded-shape response: a ``function_call`` item, its arguments
in 8 deltas, then ``response.completed`` (15 events). Each loop makes 10 turns; each turn after the
first sends the previous call's ``function_call_output`` with ``previous_response_id``, as an
agent loop does. A turn is timed from the send to its terminal event, on asyncio:

* WebSocket: ``adapters.websocket``, one socket for the whole loop (each turn a
  ``response.create`` message);
* HTTP: ``adapters.httpx_async`` with one ``httpx.AsyncClient`` (keep-alive) and
  ``adapters.aiohttp`` with one session: each turn a ``POST /v1/responses``;
* HTTP, new connection per turn: ``adapters.aiohttp`` with a new session each turn.

The server runs on loopback, so this measures the client-side and transport cost per turn (request
set-up, headers, framing), not the model's time: the API's own gain (the server keeps the
connection's state) is not in it. Median and 90th percentile over all turns, and the client
process's CPU time per turn; the first loop of each transport is a warm-up and not counted.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from typing import Any

import aiohttp
import httpx

from adapters import aiohttp as aiohttp_adapter
from adapters import httpx_async
from adapters.websocket import open_connection
from sansio_responses._http.requests import responses_request
from sansio_responses.testing import Script, StreamBuilder, serve

TURNS = 10
CALL_ID = "call_bench"


def turn_script() -> Script:
    builder = StreamBuilder(response_id="resp_turn")
    builder.function_call("lookup", ['{"q": ', '"wea', "ther", " in ", "Par", "is", '"', "}"],
                          call_id=CALL_ID)  # fmt: skip
    return Script(builder.completed())


def run_server(conn: Connection) -> None:
    with serve(default=turn_script()) as server:
        conn.send(server.base_url)
        conn.recv()  # block until the parent is done


def body(turn: int) -> dict[str, Any]:
    tools = [{"type": "function", "name": "lookup", "parameters": {"type": "object"}}]
    if turn == 0:
        return {"model": "gpt-4o-mini", "input": "What is the weather?", "tools": tools}
    output = {"type": "function_call_output", "call_id": CALL_ID, "output": "sunny"}
    return {"model": "gpt-4o-mini", "previous_response_id": "resp_turn", "input": [output],
            "tools": tools}  # fmt: skip


async def ws_loop(base_url: str) -> list[float]:
    times: list[float] = []
    async with open_connection(base_url=base_url, api_key="sk-bench") as conn:
        for turn in range(TURNS):
            t0 = time.perf_counter()
            stream = await conn.send_create(body(turn))
            async for _ in conn:
                pass
            times.append(time.perf_counter() - t0)
            assert stream.outcome == "completed"
    return times


async def http_loop(base_url: str, kind: str) -> list[float]:
    times: list[float] = []
    client = httpx.AsyncClient() if kind == "httpx" else None
    session = aiohttp.ClientSession() if kind == "aiohttp" else None
    try:
        for turn in range(TURNS):
            t0 = time.perf_counter()
            request = responses_request(body(turn), base_url=base_url, api_key="sk-bench")
            opened: Any
            if kind == "httpx":
                opened = httpx_async.open_stream(request, client)
            elif kind == "aiohttp":
                opened = aiohttp_adapter.open_stream(request, session)
            else:  # a new connection (and session) per turn
                opened = aiohttp_adapter.open_stream(request)
            async with opened as events:
                async for _ in events:
                    pass
                assert events.stream.outcome == "completed"
            times.append(time.perf_counter() - t0)
    finally:
        if client is not None:
            await client.aclose()
        if session is not None:
            await session.close()
    return times


def measure(loops: int, loop: Callable[[], Awaitable[list[float]]]) -> tuple[list[float], float]:
    """The turns' wall-clock times, and this process's CPU seconds per turn (the client's own
    work, which the machine's load does not inflate as it does wall-clock time)."""

    async def main() -> tuple[list[float], float]:
        await loop()  # warm-up
        times: list[float] = []
        cpu = time.process_time()
        for _ in range(loops):
            times += await loop()
        return times, (time.process_time() - cpu) / len(times)

    return asyncio.run(main())


def main() -> None:
    loops = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.Process(target=run_server, args=(child,), daemon=True)
    server.start()
    try:
        base_url = parent.recv()
        cases: dict[str, Callable[[], Awaitable[list[float]]]] = {
            "WebSocket (one socket)": lambda: ws_loop(base_url),
            "HTTP httpx_async (keep-alive)": lambda: http_loop(base_url, "httpx"),
            "HTTP aiohttp (keep-alive)": lambda: http_loop(base_url, "aiohttp"),
            "HTTP aiohttp (new connection)": lambda: http_loop(base_url, "aiohttp-new"),
        }
        print(f"{loops} loops x {TURNS} turns (15 events per turn), asyncio, loopback")
        print(
            f"{'transport':<32} {'median ms/turn':>15} {'p90 ms/turn':>12} {'ms per loop':>12} "
            f"{'client CPU ms/turn':>19}"
        )
        for label, loop in cases.items():
            times, cpu = measure(loops, loop)
            median = statistics.median(times) * 1000
            p90 = statistics.quantiles(times, n=10)[-1] * 1000
            per_loop = sum(times) / loops * 1000
            print(f"{label:<32} {median:>15.2f} {p90:>12.2f} {per_loop:>12.1f} {cpu * 1000:>19.2f}")
    finally:
        parent.send("stop")
        server.join(10)


if __name__ == "__main__":
    main()
