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
from sansio_responses import ConnectError
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
