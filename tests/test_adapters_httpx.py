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
from sansio_responses import ConnectError, TotalTimeout
from sansio_responses._http.requests import Request
from sansio_responses.testing import ResponsesServer, Script, StreamBuilder, split_events


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


def test_the_total_deadline_on_a_new_and_on_a_pooled_connection(server: ResponsesServer) -> None:  # noqa: F811
    # The body reads are bounded by the watchdog, which shuts the socket down at the deadline, on
    # a new connection and on one reused from the pool alike (the socket comes from the
    # response's network_stream). Here three events come at once, one byte of a comment at
    # 2.5 s, the rest of the body at 5 s. With total_timeout=3 the read in progress at the
    # deadline started at 2.5 s with httpx's read timeout (the 3 s left when the request was
    # sent): only the watchdog ends it before the rest arrives, which would otherwise complete
    # the stream after its deadline. Both end with the TotalTimeout, after the three events.
    body = StreamBuilder().text("a b c d", 4).completed().to_sse()
    head = sum(len(block) for block in split_events(body)[:3])
    rest = b": keep-alive\n\n" + body[head:]
    late = Script(body[:head] + rest, schedule=((head, 0.0), (1, 2.5), (len(rest) - 1, 5.0)))
    server.enqueue(late, Script(body), late)
    request = tls_request(server.base_url)[0]

    def stalls(client: httpx.Client) -> tuple[int, BaseException | None]:
        seen = 0
        try:
            with open_stream(request, client, idle_timeout=None, total_timeout=3) as events:
                for _ in events:
                    seen += 1
        except TotalTimeout as exc:
            return seen, exc
        return seen, None

    with httpx.Client(limits=httpx.Limits(max_connections=1)) as client:
        new = stalls(client)  # its connection is shut down at the deadline
        with open_stream(request, client) as events:  # a fresh one, then pooled
            assert [e.type for e in events][-1] == "response.completed"
        pooled = stalls(client)
    for seen, error in (new, pooled):
        assert isinstance(error, TotalTimeout) and seen == 3
