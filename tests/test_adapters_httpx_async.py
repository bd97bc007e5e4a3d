"""The httpx.AsyncClient adapter (anyio) over real loopback sockets, on both anyio backends:
asyncio and trio (shared cases: test_adapters_common)."""

from __future__ import annotations

import functools
import gc
import ssl
import warnings
from collections.abc import Callable
from typing import Any

import anyio
import httpx
import pytest
import trustme
from test_adapters_common import (
    CASES,
    Case,
    Result,
    case_id,
    collect_async,
    direct,
    key,
    server,  # noqa: F401  (fixture)
    tls_proxy,
    tls_request,
)

from adapters.httpx_async import open_stream
from sansio_responses import ConnectError, TotalTimeout
from sansio_responses._http.requests import Request
from sansio_responses.testing import ResponsesServer, Script, StreamBuilder

BACKENDS = ["asyncio", "trio"]


acollect = functools.partial(collect_async, open_stream)


def run(backend: str, request: Request, on_event: Callable[[int], None] = lambda n: None,
        **options: Any) -> Result:  # fmt: skip
    """Collect on *backend* (``anyio.run``: a fresh event loop each time)."""

    async def main() -> Result:
        return await acollect(request, on_event, **options)

    return anyio.run(main, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(server: ResponsesServer, case: Case, backend: str) -> None:  # noqa: F811
    request, options = case.setup(server)
    case.check(run(backend, request, case.hook(server), **options), server)


@pytest.mark.parametrize("backend", BACKENDS)
def test_leaving_early_returns_the_connection(server: ResponsesServer, backend: str) -> None:  # noqa: F811
    # With a pool of one connection, a second stream can only start if leaving the first block
    # closed the first response, although its body stalls and never ends.
    body = StreamBuilder().text("a b c d", 4).completed().to_sse()
    server.enqueue(Script(body, stall_after_events=3, stall_seconds=60), Script(body))
    request = tls_request(server.base_url)[0]

    async def main() -> list[str]:
        limits = httpx.Limits(max_connections=1)
        async with httpx.AsyncClient(limits=limits) as client:
            async with open_stream(request, client, idle_timeout=None) as events:
                assert (await events.__anext__()).type == "response.created"
            async with open_stream(request, client, connect_timeout=5) as events:
                types = [e.type async for e in events]
            assert not client.is_closed  # a client passed in stays open
            return types

    assert anyio.run(main, backend=backend)[-1] == "response.completed"


@pytest.mark.parametrize("backend", BACKENDS)
def test_cancel_scope_cancels_the_read_and_closes(server: ResponsesServer, backend: str) -> None:  # noqa: F811
    body = StreamBuilder().text("a b c d", 4).completed().to_sse()
    server.enqueue(Script(body, stall_after_events=3, stall_seconds=60))
    request = tls_request(server.base_url)[0]
    seen: list[int | None] = []

    async def main() -> bool:
        with anyio.move_on_after(0.3) as scope:
            async with open_stream(request, idle_timeout=None) as events:
                async for event in events:
                    seen.append(event.sequence_number)
        return scope.cancelled_caught

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        cancelled = anyio.run(main, backend=backend)
        gc.collect()
    assert cancelled and seen == [0, 1, 2]
    # Nothing left for the collector: no unclosed socket, no unfinished async generator.
    assert not [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_tls_with_a_local_ca(server: ResponsesServer, backend: str) -> None:  # noqa: F811
    ca = trustme.CA()
    with tls_proxy(server, ca) as base_url:
        request, body = tls_request(base_url)
        context = ssl.create_default_context()
        ca.configure_trust(context)

        async def trusted() -> Result:
            async with httpx.AsyncClient(verify=context) as client:
                return await acollect(request, client=client)

        server.enqueue(Script(body, chunk_size=3))
        result = anyio.run(trusted, backend=backend)
        assert result.error is None, repr(result.error)
        assert [key(e) for e in result.events] == [key(e) for e in direct(body)[0]]
        # Certificates are verified by default: our local CA is not trusted by the system.
        server.enqueue(Script(body))
        refused = run(backend, request, max_retries=0)
        assert isinstance(refused.error, ConnectError)
        assert "CERTIFICATE_VERIFY_FAILED" in str(refused.error).upper()


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_total_deadline_on_a_new_and_on_a_pooled_connection(
    server: ResponsesServer,  # noqa: F811
    backend: str,
) -> None:
    # The body reads are bounded by the watchdog (one timer per request, which shuts the socket
    # down at the deadline; issue 21: no deadline per read), on a new connection and on one
    # reused from the pool alike (the socket comes from the response's network_stream). Both end
    # the stalled body with the TotalTimeout, after the events before the stall.
    body = StreamBuilder().text("a b c d", 4).completed().to_sse()
    stalled = Script(body, stall_after_events=3, stall_seconds=60)
    server.enqueue(stalled, Script(body), stalled)
    request = tls_request(server.base_url)[0]

    async def stalls(client: httpx.AsyncClient) -> tuple[bool, int, BaseException | None]:
        seen, armed = 0, False
        try:
            async with open_stream(request, client, idle_timeout=None, total_timeout=1.5) as events:
                armed = events._watchdog.armed  # pyright: ignore[reportPrivateUsage]
                async for _ in events:
                    seen += 1
        except TotalTimeout as exc:
            return armed, seen, exc
        return armed, seen, None

    async def main() -> list[tuple[bool, int, BaseException | None]]:
        async with httpx.AsyncClient(limits=httpx.Limits(max_connections=1)) as client:
            new = await stalls(client)  # its connection is shut down at the deadline
            async with open_stream(request, client) as events:  # a fresh one, then pooled
                assert [e.type async for e in events][-1] == "response.completed"
            pooled = await stalls(client)
        return [new, pooled]

    (new, pooled) = anyio.run(main, backend=backend)
    assert new[0] is True and pooled[0] is True  # armed on both
    for _, seen, error in (new, pooled):
        assert isinstance(error, TotalTimeout) and seen == 3
