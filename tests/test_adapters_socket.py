"""The plain-socket adapter over real loopback sockets (shared cases: test_adapters_common)."""

from __future__ import annotations

import gc
import ssl
import warnings
from collections.abc import Callable
from typing import Any

import pytest
import trustme
from test_adapters_common import (
    CASES,
    Case,
    Result,
    case_id,
    collect_sync,
    direct,
    key,
    server,  # noqa: F401  (fixture)
    tls_proxy,
    tls_request,
)

from adapters.socket import open_stream
from sansio_responses import ConnectError
from sansio_responses._http.requests import Request
from sansio_responses.testing import ResponsesServer, Script, StreamBuilder


def collect(
    request: Request, on_event: Callable[[int], None] = lambda n: None, **options: Any
) -> Result:
    return collect_sync(open_stream, request, on_event, **options)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_case(server: ResponsesServer, case: Case) -> None:  # noqa: F811
    request, options = case.setup(server)
    case.check(collect(request, case.hook(server), **options), server)


def test_tls_with_a_local_ca(server: ResponsesServer) -> None:  # noqa: F811
    ca = trustme.CA()
    with tls_proxy(server, ca) as base_url:
        request, body = tls_request(base_url)
        server.enqueue(Script(body, chunk_size=3))
        context = ssl.create_default_context()
        ca.configure_trust(context)
        result = collect(request, ssl_context=context)
        assert result.error is None, repr(result.error)
        assert [key(e) for e in result.events] == [key(e) for e in direct(body)[0]]
        # Certificates are verified by default: our local CA is not trusted by the system.
        server.enqueue(Script(body))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ResourceWarning)
            refused = collect(request)
            gc.collect()
        # The TCP connection under the failed handshake was closed, not left to the collector.
        assert not [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
        assert isinstance(refused.error, ConnectError)
        assert isinstance(refused.error.__cause__, ssl.SSLCertVerificationError)
        assert "certificate verify failed" in str(refused.error)


def test_leaving_early_closes_the_socket(server: ResponsesServer) -> None:  # noqa: F811
    body = StreamBuilder().text("a b c d", 4).completed().to_sse()
    server.enqueue(Script(body, stall_after_events=3, stall_seconds=60))
    request = tls_request(server.base_url)[0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        with open_stream(request, idle_timeout=None) as events:
            first = next(events)
        del events
        gc.collect()
    assert first.type == "response.created"
    assert not [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
