"""Issue 22's HTTP-side cases (items 3, 4, 5, 6, 7, 10) on every adapter, one line per adapter and
case (not a test: a before/after table for the issue notes).

    python tests/_issue22_table.py ROOT

ROOT is a checkout whose ``sansio_responses/`` and ``adapters/`` are used (e.g. an older commit
extracted with ``git archive COMMIT | tar -x -C /tmp/base``). Hangs are stopped by a 4 s guard.
"""

from __future__ import annotations

import asyncio
import gc
import gzip
import json
import math
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parents[1])
sys.path[:0] = [ROOT, str(Path(__file__).resolve().parent)]

import anyio  # noqa: E402
import trio  # noqa: E402
from _rawserver import Reply, chunk, drip, head, raw_server  # noqa: E402

import sansio_responses as sr  # noqa: E402
from adapters import aiohttp as aiohttp_a  # noqa: E402
from adapters import httpx_async, httpx_sync  # noqa: E402
from adapters import socket as socket_a  # noqa: E402
from adapters import trio as trio_a  # noqa: E402
from sansio_responses.testing import Script, StreamBuilder  # noqa: E402

ADAPTERS = ["socket", "httpx", "trio", "aiohttp", "httpx_async-asyncio", "httpx_async-trio"]
PLACEHOLDER = "resp_PLACEHOLDER"
Outcome = tuple[list[Any], Any, Any]


def body_with_id(response_id: str) -> bytes:
    body = StreamBuilder(response_id=PLACEHOLDER, background=True).text(["a ", "b"]).to_sse()
    return body.replace(b'"' + PLACEHOLDER.encode() + b'"', json.dumps(response_id).encode())


async def acollect(open_stream: Callable[..., Any], request: Any, **o: Any) -> Outcome:
    events: list[Any] = []
    handle = None
    try:
        async with open_stream(request, **o) as handle:
            async for event in handle:
                events.append(event)
    except Exception as exc:
        return events, handle, exc
    return events, handle, None


def scollect(open_stream: Callable[..., Any], request: Any, **o: Any) -> Outcome:
    events: list[Any] = []
    handle = None
    try:
        with open_stream(request, **o) as handle:
            for event in handle:
                events.append(event)
    except Exception as exc:
        return events, handle, exc
    return events, handle, None


def drive(adapter: str, request: Any, **o: Any) -> Outcome:
    if adapter in ("socket", "httpx"):
        return scollect((socket_a if adapter == "socket" else httpx_sync).open_stream, request, **o)
    if adapter == "trio":

        async def main() -> Outcome:
            with trio.move_on_after(4):
                return await acollect(trio_a.open_stream, request, **o)
            return [], None, "HANG"

        return trio.run(main)
    if adapter == "aiohttp":

        async def amain() -> Outcome:
            try:
                return await asyncio.wait_for(acollect(aiohttp_a.open_stream, request, **o), 4)
            except asyncio.TimeoutError:
                return [], None, "HANG"

        return asyncio.run(amain())

    async def xmain() -> Outcome:
        with anyio.move_on_after(4):
            return await acollect(httpx_async.open_stream, request, **o)
        return [], None, "HANG"

    return anyio.run(xmain, backend=adapter.split("-")[1])


def cases() -> dict[str, tuple[list[Reply], dict[str, Any]]]:
    ok = StreamBuilder().text(["x"]).completed().to_sse()
    blocks = Script(ok).blocks()
    ids = {"..": "..", "a/b?c#d%": "a/b?c#d%", "lone surrogate": "ab\ud800"}
    table: dict[str, tuple[list[Reply], dict[str, Any]]] = {}
    for name, rid in ids.items():
        table[f"3 id {name} (truncated)"] = (
            [Reply([head(), chunk(body_with_id(rid)), chunk(b"")]), Reply([head(), chunk(b"")])],
            {"max_retries": 0},
        )
    corrupt = gzip.compress(ok)
    corrupt = corrupt[:40] + bytes(b ^ 0x55 for b in corrupt[40:60]) + corrupt[60:]
    table["4 corrupt gzip"] = (
        [Reply([head(200, ("content-encoding", "gzip")), chunk(corrupt), chunk(b"")])],
        {"max_retries": 0},
    )
    table["5 close-delimited drip past total"] = (
        [Reply([head(chunked=False), b"".join(blocks[:2]), *drip(blocks[2], 0.02)])],
        {"idle_timeout": 1.0, "total_timeout": 0.5, "max_retries": 0},
    )
    for value in (0, -1.0, math.nan, math.inf, 1e300):
        for which in ("idle_timeout", "connect_timeout", "total_timeout"):
            table[f"6 {which}={value}"] = (
                [Reply([head(), chunk(ok), chunk(b"")])],
                {which: value, "max_retries": 0},
            )
    table["10 101 switching"] = (
        [
            Reply(
                [b"HTTP/1.1 101 Switching Protocols\r\nupgrade: h2c\r\nconnection: upgrade\r\n\r\n"]
            )
        ],
        {"max_retries": 1, "retry_policy": sr.RetryPolicy(1, initial_delay=0.001)},
    )
    table["10 chunked + content-length"] = (
        [Reply([head(200, ("content-length", "5")), chunk(ok), chunk(b"")])] * 2,
        {"retry_policy": sr.RetryPolicy(1, initial_delay=0.001)},
    )
    many = [(f"x-h{i}", "v") for i in range(200)]
    table["10 200 headers"] = (
        [Reply([head(200, *many), chunk(ok), chunk(b"")])] * 2,
        {"retry_policy": sr.RetryPolicy(1, initial_delay=0.001)},
    )
    table["10 oversized chunk size"] = (
        [Reply([head(), b"f" * 40 + b"\r\n" + ok])] * 2,
        {"retry_policy": sr.RetryPolicy(1, initial_delay=0.001)},
    )
    table["10 gzip, gzip"] = (
        [
            Reply(
                [
                    head(200, ("content-encoding", "gzip, gzip")),
                    chunk(gzip.compress(gzip.compress(ok))),
                    chunk(b""),
                ]
            )
        ],
        {"max_retries": 0},
    )
    table["10 204 event-stream"] = ([Reply([head(204, chunked=False)])], {"max_retries": 0})
    return table


def resource_warnings(adapter: str, base_url: str, streams: int, how: str) -> int:
    """ResourceWarnings seen while leaving *streams* streams early by *how*."""

    async def one() -> None:
        request = sr.responses_request(
            {"model": "m", "input": "hi"}, base_url=base_url, api_key="k"
        )
        try:
            async with httpx_async.open_stream(request) as events:
                async for _ in events:
                    if how == "break":
                        break
                    raise KeyError
        except KeyError:
            pass

    async def main() -> None:
        for _ in range(streams):
            await one()
            gc.collect()

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        anyio.run(main, backend=adapter.split("-")[1])
        gc.collect()
    return sum(issubclass(w.category, ResourceWarning) for w in seen)


def main() -> None:
    print(f"adapters of {ROOT}")
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    for name, (replies, options) in cases().items():
        if only not in name:
            continue
        for adapter in ADAPTERS:
            with raw_server() as raw:
                raw.enqueue(*replies)
                request = sr.responses_request(
                    {"model": "m", "input": "hi", "background": True},
                    base_url=raw.base_url,
                    api_key="sk-test",
                )
                started = time.monotonic()
                with warnings.catch_warnings(record=True) as seen:
                    warnings.simplefilter("always")
                    events, handle, error = drive(adapter, request, **options)
                elapsed = time.monotonic() - started
                sent = [r.split(b"\r\n", 1)[0].decode("latin-1") for r in raw.requests[1:]]
                sent_count = len(raw.requests)
            shown = error if isinstance(error, str) else repr(error)[:90] if error else "-"
            outcome = handle.stream.outcome if handle is not None else "(on entry)"
            extra = f" resume: {sent}" if name.startswith("3") else ""
            extra += f" warnings: {len(seen)}" if seen else ""
            print(
                f"{name:30} | {adapter:19} | {len(events):2} ev | {outcome!s:10} | {shown} "
                f"| {sent_count} req | {elapsed:4.2f} s{extra}"
            )
    if "7" in only or not only:
        from sansio_responses.testing import serve

        script = Script(StreamBuilder().text(["a"] * 5).completed().to_sse())
        with serve(default=script) as server:
            for how in ("break", "raise"):
                for adapter in ("httpx_async-trio", "httpx_async-asyncio"):
                    count = resource_warnings(adapter, server.base_url, 50, how)
                    print(f"7 {how} x50 | {adapter:19} | {count} ResourceWarnings")


if __name__ == "__main__":
    main()
