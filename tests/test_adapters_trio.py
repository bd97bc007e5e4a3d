"""The trio adapter over real loopback sockets, under pytest-trio (shared cases:
test_adapters_common)."""

from __future__ import annotations

import functools
import gc
import ssl
import warnings

import pytest
import trio
import trustme
from test_adapters_common import (
    CASES,
    Case,
    case_id,
    collect_async,
    direct,
    key,
    server,  # noqa: F401  (fixture)
    tls_proxy,
    tls_request,
)

from adapters.trio import open_stream
from sansio_responses import ConnectError
from sansio_responses.testing import ResponsesServer, Script, StreamBuilder

collect = functools.partial(collect_async, open_stream)


@pytest.mark.trio
@pytest.mark.parametrize("case", CASES, ids=case_id)
async def test_case(server: ResponsesServer, case: Case) -> None:  # noqa: F811
    request, options = case.setup(server)
    case.check(await collect(request, case.hook(server), **options), server)


@pytest.mark.trio
async def test_tls_with_a_local_ca(server: ResponsesServer) -> None:  # noqa: F811
    ca = trustme.CA()
    with tls_proxy(server, ca) as base_url:
        request, body = tls_request(base_url)
        server.enqueue(Script(body, chunk_size=3))
        context = ssl.create_default_context()
        ca.configure_trust(context)
        result = await collect(request, ssl_context=context)
        assert result.error is None, repr(result.error)
        assert [key(e) for e in result.events] == [key(e) for e in direct(body)[0]]
        # Certificates are verified by default: our local CA is not trusted by the system.
        server.enqueue(Script(body))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ResourceWarning)
            refused = await collect(request)
            gc.collect()
        # The TCP connection under the failed handshake was closed, not left to the collector.
        assert not [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
        assert isinstance(refused.error, ConnectError)
        cause = refused.error.__cause__
        assert isinstance(cause, trio.BrokenResourceError)
        assert isinstance(cause.__cause__, ssl.SSLCertVerificationError)
        # The message names the reason, not just BrokenResourceError() (issue 11 item 9).
        assert "certificate verify failed" in str(refused.error)
        assert "SSLCertVerificationError" in str(refused.error)


@pytest.mark.trio
async def test_cancel_scope_cancels_the_read_and_closes(server: ResponsesServer) -> None:  # noqa: F811
    body = StreamBuilder().text("a b c d", 4).completed().to_sse()
    server.enqueue(Script(body, stall_after_events=3, stall_seconds=60))
    request = tls_request(server.base_url)[0]
    seen = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        with trio.move_on_after(0.3) as scope:
            async with open_stream(request, idle_timeout=None) as events:
                async for event in events:
                    seen.append(event.sequence_number)
        del events
        gc.collect()
    assert scope.cancelled_caught and seen == [0, 1, 2]
    assert not [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
