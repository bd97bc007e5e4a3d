"""The httpx adapter over real loopback sockets (shared cases: test_adapters_common)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
import trustme
from test_adapters_common import (
    CASES,
    Case,
    Result,
    case_id,
    collect_sync,
    server,  # noqa: F401  (fixture)
    tls_proxy,
    tls_request,
)

from adapters.httpx_sync import open_stream
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


def test_leaving_early_returns_the_connection(server: ResponsesServer) -> None:  # noqa: F811
    # With a pool of one connection, a second stream can only start if leaving the first block
    # closed the first response, although its body stalls and never ends.
    body = StreamBuilder().text("a b c d", 4).completed().to_sse()
    server.enqueue(Script(body, stall_after_events=3, stall_seconds=60), Script(body))
    request = tls_request(server.base_url)[0]
    limits = httpx.Limits(max_connections=1)
    with httpx.Client(limits=limits) as client:
        with open_stream(request, client, idle_timeout=None) as events:
            assert next(events).type == "response.created"
        with open_stream(request, client, connect_timeout=5) as events:
            assert [e.type for e in events][-1] == "response.completed"
        assert not client.is_closed  # a client passed in stays open


def test_tls_failure_names_the_reason(server: ResponsesServer) -> None:  # noqa: F811
    # Certificates are verified by default: a local CA is not trusted, and the message says why.
    with tls_proxy(server, trustme.CA()) as base_url:
        request, body = tls_request(base_url)
        server.enqueue(Script(body))
        refused = collect(request, max_retries=0)
    assert isinstance(refused.error, ConnectError)
    assert "CERTIFICATE_VERIFY_FAILED" in str(refused.error).upper()
