"""The aiohttp adapter over real loopback sockets (shared cases: test_adapters_common)."""

from __future__ import annotations

import asyncio
import functools

import aiohttp
import pytest
import trustme
from test_adapters_common import (
    CASES,
    Case,
    case_id,
    collect_async,
    server,  # noqa: F401  (fixture)
    tls_proxy,
    tls_request,
)

from adapters.aiohttp import open_stream
from sansio_responses import ConnectError, TotalTimeout
from sansio_responses.testing import ResponsesServer, Script, StreamBuilder

acollect = functools.partial(collect_async, open_stream)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(server: ResponsesServer, case: Case) -> None:  # noqa: F811
    request, options = case.setup(server)
    case.check(asyncio.run(acollect(request, case.hook(server), **options)), server)


def test_leaving_early_closes_the_connection(server: ResponsesServer) -> None:  # noqa: F811
    # With a pool of one connection, a second stream can only start if leaving the first block
    # closed the first response, although its body stalls and never ends.
    body = StreamBuilder().text("a b c d", 4).completed().to_sse()
    server.enqueue(Script(body, stall_after_events=3, stall_seconds=60), Script(body))
    request = tls_request(server.base_url)[0]

    async def main() -> list[str]:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1)) as session:
            async with open_stream(request, session, idle_timeout=None) as events:
                assert (await events.__anext__()).type == "response.created"
            async with open_stream(request, session, connect_timeout=5) as events:
                types = [e.type async for e in events]
            assert not session.closed  # a session passed in stays open
            return types

    assert asyncio.run(main())[-1] == "response.completed"


def test_tls_failure_names_the_reason(server: ResponsesServer) -> None:  # noqa: F811
    # Certificates are verified by default: a local CA is not trusted, and the message says why.
    with tls_proxy(server, trustme.CA()) as base_url:
        request, body = tls_request(base_url)
        server.enqueue(Script(body))
        refused = asyncio.run(acollect(request, max_retries=0))
    assert isinstance(refused.error, ConnectError)
    assert "CERTIFICATE_VERIFY_FAILED" in str(refused.error).upper()


def test_the_total_deadline_is_one_timer_per_response(server: ResponsesServer) -> None:  # noqa: F811
    # The body reads get no timer of the adapter's each (issue 21): aiohttp's sock_read bounds
    # the idle wait, and one timer per response (the watchdog, which closes the response at the
    # deadline) the total one. A stalled body then ends with the TotalTimeout, after the events
    # before the stall, and leaving the block cancels the timer.
    body = StreamBuilder().text("a b c d", 4).completed().to_sse()
    server.enqueue(Script(body, stall_after_events=3, stall_seconds=60))
    request = tls_request(server.base_url)[0]
    seen: list[str] = []
    timers: list[object] = []

    async def main() -> None:
        async with open_stream(request, idle_timeout=None, total_timeout=1.5) as events:
            timers.append(events._timer)  # pyright: ignore[reportPrivateUsage]
            try:
                async for event in events:
                    seen.append(event.type)
            finally:
                timers.append(events._timer)  # pyright: ignore[reportPrivateUsage]

    with pytest.raises(TotalTimeout):
        asyncio.run(main())
    assert len(seen) == 3
    assert isinstance(timers[0], asyncio.TimerHandle) and timers[1] is None  # armed, then gone


def test_no_timer_without_a_total_deadline(server: ResponsesServer) -> None:  # noqa: F811
    server.enqueue(Script(StreamBuilder().text("a b", 2).completed().to_sse()))
    request = tls_request(server.base_url)[0]

    async def main() -> tuple[object, str]:
        async with open_stream(request) as events:
            timer = events._timer  # pyright: ignore[reportPrivateUsage]
            types = [event.type async for event in events]
        return timer, types[-1]

    assert asyncio.run(main()) == (None, "response.completed")
