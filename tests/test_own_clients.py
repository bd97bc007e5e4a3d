"""A client of one's own on the public exchange (issue 18): tests/_urllib3_client.py, on urllib3,
against the test kit's server with faults, over real loopback sockets. The http.client client of
docs/guide/own-client.md is run by tests/test_docs_examples.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import urllib3
from _urllib3_client import events

import sansio_responses as sr
from sansio_responses.testing import Script, StreamBuilder, recording, serve

BACKGROUND = recording("responses-pydantic-ai-test_background_mode_streaming_starting_after_vcr-1")
BODY = StreamBuilder().text("Hello there, friend", 5).completed().to_sse()


@pytest.fixture
def pool() -> Iterator[urllib3.PoolManager]:
    with urllib3.PoolManager() as pool:
        yield pool


def _request(base_url: str, background: bool = False) -> sr.Request[sr.ResponsesStream]:
    body = {"model": "gpt-4o", "input": "What is 2 + 2?", "background": background}
    return sr.responses_request(body, base_url=base_url, api_key="sk-test")


def _text(all_events: list[sr.ResponseStreamEvent]) -> str:
    return "".join(e.delta for e in all_events if e.type == "response.output_text.delta")


def test_retries_and_resumes(pool: urllib3.PoolManager) -> None:
    busy = Script.error(503, "busy", retry_after=0.05)
    with serve(
        Script.error(429, "Rate limit reached", retry_after=0.05),
        Script(BACKGROUND, disconnect_after_events=6, resumes=[busy]),
    ) as server:
        x = sr.Exchange(_request(server.base_url, background=True), total_timeout=60)
        got = list(events(x, pool, idle=5))
    assert _text(got) == "2 + 2 equals 4." and x.stream.outcome == "completed"
    assert (x.retries, x.resumes) == (2, 1)
    assert [e.to_dict() for e in got] == [
        e.to_dict() for e in sr.ResponsesStream().feed(BACKGROUND)
    ]


def test_idle_timeout(pool: urllib3.PoolManager) -> None:
    with serve(Script(BODY, stall_after_events=3, stall_seconds=1)) as server:
        x = sr.Exchange(_request(server.base_url))
        got: list[sr.ResponseStreamEvent] = []
        with pytest.raises(sr.IdleTimeout) as caught:
            got.extend(events(x, pool, idle=0.2))
    assert len(got) == 3 and caught.value.stream is x.stream
    assert x.stream.outcome == "truncated"


def test_total_timeout(pool: urllib3.PoolManager) -> None:
    with serve(Script(BODY, delay=0.1)) as server:
        x = sr.Exchange(_request(server.base_url), total_timeout=0.3)
        with pytest.raises(sr.TotalTimeout) as caught:
            list(events(x, pool, idle=5))
    assert caught.value.stream is x.stream and x.stream.outcome == "truncated"


def test_a_drop_of_a_stream_that_cannot_resume(pool: urllib3.PoolManager) -> None:
    with serve(Script(BODY, disconnect_after_events=3)) as server:
        x = sr.Exchange(_request(server.base_url))
        got: list[sr.ResponseStreamEvent] = []
        with pytest.raises(sr.ConnectionDropped) as caught:
            got.extend(events(x, pool, idle=5))
    assert len(got) == 3 and caught.value.stream is x.stream


def test_connection_refused_is_retried_then_raised(pool: urllib3.PoolManager) -> None:
    with serve() as server:
        base_url = server.base_url  # a port nobody listens on once the server stopped
    x = sr.Exchange(_request(base_url), retry_policy=sr.RetryPolicy(1, initial_delay=0.01))
    with pytest.raises(sr.ConnectError) as caught:
        list(events(x, pool))
    assert caught.value.retries == 1 and "sk-test" not in str(caught.value)


def test_an_http_error_carries_the_stream(pool: urllib3.PoolManager) -> None:
    with serve(Script.error(401, "Incorrect API key provided")) as server:
        x = sr.Exchange(_request(server.base_url))
        with pytest.raises(sr.AuthenticationError) as caught:
            list(events(x, pool))
    assert caught.value.stream is x.stream and x.retries == 0


def test_leaving_early_is_cancelled(pool: urllib3.PoolManager) -> None:
    with serve(Script(BODY)) as server:
        x = sr.Exchange(_request(server.base_url))
        for n, _ in enumerate(events(x, pool), 1):
            if n == 2:
                break
    assert x.stream.outcome == "cancelled" and x.state == "finished"
