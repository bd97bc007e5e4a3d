"""Issue 11's faults against the raw server, one line per adapter and fault (not a test: a
before/after table for the issue notes).

    python tests/_fault_table.py ROOT

ROOT is a checkout whose ``sansio_responses/`` and ``adapters/`` are used (e.g. an older commit
extracted with ``git archive COMMIT | tar -x -C /tmp/base``). Hangs are stopped by a 4 s guard.
"""

from __future__ import annotations

import asyncio
import gzip
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parents[1])
sys.path[:0] = [ROOT, str(Path(__file__).resolve().parent)]

import trio  # noqa: E402
from _rawserver import Reply, chunk, drip, head, raw_server  # noqa: E402

import sansio_responses as sr  # noqa: E402
from adapters import aiohttp as aiohttp_a  # noqa: E402
from adapters import httpx_sync  # noqa: E402
from adapters import socket as socket_a  # noqa: E402
from adapters import trio as trio_a  # noqa: E402
from sansio_responses.testing import Script, StreamBuilder  # noqa: E402

NEW = hasattr(sr, "RetryPolicy")
BODY = StreamBuilder().text([f"w{i} " for i in range(12)]).completed().to_sse()
B = Script(BODY).blocks()
Outcome = tuple[list[Any], Any]


async def acollect(open_stream: Callable[..., Any], request: Any, **o: Any) -> Outcome:
    events: list[Any] = []
    try:
        async with open_stream(request, **o) as handle:
            async for event in handle:
                events.append(event)
    except Exception as exc:
        return events, exc
    return events, None


def scollect(open_stream: Callable[..., Any], request: Any, **o: Any) -> Outcome:
    events: list[Any] = []
    try:
        with open_stream(request, **o) as handle:
            for event in handle:
                events.append(event)
    except Exception as exc:
        return events, exc
    return events, None


def drive(adapter: str, request: Any, **o: Any) -> Outcome:
    if adapter in ("socket", "httpx"):
        return scollect((socket_a if adapter == "socket" else httpx_sync).open_stream, request, **o)
    if adapter == "trio":

        async def main() -> Outcome:
            with trio.move_on_after(4):
                return await acollect(trio_a.open_stream, request, **o)
            return [], "HANG (stopped by a 4 s guard)"

        return trio.run(main)

    async def amain() -> Outcome:
        try:
            return await asyncio.wait_for(acollect(aiohttp_a.open_stream, request, **o), 4)
        except asyncio.TimeoutError:
            return [], "HANG (stopped by a 4 s guard)"

    return asyncio.run(amain())


def faults() -> dict[str, tuple[list[Reply], dict[str, Any]]]:
    error = b'{"error": {"message": "slow down"}}'
    rate_limited = head(429, chunked=False, length=len(error), content_type="application/json")
    first13 = b"".join(B[:13])
    return {
        "1 bad chunk header, later segment": (
            [Reply([head(), chunk(b"".join(B[:4])), 0.05, b"zz\r\nxx\r\n"], then="hang")],
            {"idle_timeout": 1.0},
        ),
        "2 framing error, same read": (
            [Reply([head(), 0.02, chunk(b"".join(B[:4])) + b"zz\r\nxx\r\n"], then="hang")],
            {"idle_timeout": 1.0},
        ),
        "2 Content-Length shorter (13 ev)": (
            [Reply([head(chunked=False, length=len(first13)), 0.02, BODY], then="hang")],
            {"idle_timeout": 1.0},
        ),
        "3 gzip body": (
            [
                Reply(
                    [
                        head(200, ("content-encoding", "gzip")),
                        chunk(gzip.compress(BODY)),
                        chunk(b""),
                    ]
                )
            ],
            {},
        ),
        "4 body drips 1 B/20 ms for ~3 s": (
            [Reply([head(), chunk(b"".join(B[:2])), *drip(chunk(B[2][:150]), 0.02)])],
            {"idle_timeout": 0.3, **({"total_timeout": 0.5} if NEW else {})},
        ),
        "5 429 then a stream": (
            [Reply([rate_limited + error]), Reply([head(), chunk(BODY), chunk(b"")])],
            {"retry_policy": sr.RetryPolicy(initial_delay=0.01)} if NEW else {},
        ),
    }


def main() -> None:
    print(f"adapters of {ROOT}")
    for adapter in ["socket", "httpx", "trio", "aiohttp"]:
        for name, (replies, options) in faults().items():
            with raw_server() as raw:
                raw.enqueue(*replies)
                request = sr.responses_request(
                    {"model": "m", "input": "hi"}, base_url=raw.base_url, api_key="sk-test"
                )
                started = time.monotonic()
                events, error = drive(adapter, request, **options)
                elapsed = time.monotonic() - started
            shown = error if isinstance(error, str) else type(error).__name__ if error else "-"
            print(
                f"{adapter:8} | {name:34} | {len(events):2} events | {shown:30} | {elapsed:5.2f} s"
            )


if __name__ == "__main__":
    main()
