"""The sans-IO retry decision (RetryPolicy) and the Exchange's retry and total-deadline logic,
with fixed jitter and a fake clock: nothing here sleeps."""

from __future__ import annotations

import email.utils
from typing import Any

import pytest

import sansio_responses as sr
from sansio_responses import Exchange
from sansio_responses.testing import StreamBuilder

NOW = 1_750_000_000.0
MID = sr.RetryPolicy(rand=lambda: 0.5)  # jitter fixed at its middle: factor 0.875


def status_error(status: int, *headers: tuple[str, str]) -> sr.APIStatusError:
    error = sr.response_error(status, headers, b'{"error": {"message": "x"}}', now=NOW)
    assert error is not None
    return error


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504])
def test_retryable_statuses_back_off_exponentially(status: int) -> None:
    error = status_error(status)
    assert MID.delay(error, 0) == 0.5 * 0.875
    assert MID.delay(error, 1) == 1.0 * 0.875
    assert MID.delay(error, 2) is None  # max_retries=2: a third retry is not made


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422, 418])
def test_other_statuses_are_not_retried(status: int) -> None:
    assert MID.delay(status_error(status), 0) is None


def test_backoff_is_capped_and_jittered() -> None:
    policy = sr.RetryPolicy(100, rand=lambda: 0.0)
    assert [policy.backoff(n) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert policy.backoff(10_000) == 8.0  # no overflow
    low = sr.RetryPolicy(rand=lambda: 0.999999)
    assert 0.375 <= low.backoff(0) < 0.5  # up to 25 % less, never more


def test_retry_after_ms_then_retry_after() -> None:
    assert MID.delay(status_error(429, ("retry-after-ms", "1500")), 0) == 1.5
    assert MID.delay(status_error(429, ("retry-after", "3")), 0) == 3.0
    # retry-after-ms wins over retry-after.
    both = status_error(429, ("retry-after-ms", "250"), ("retry-after", "30"))
    assert MID.delay(both, 0) == 0.25


def test_retry_after_http_date() -> None:
    future = email.utils.formatdate(NOW + 7, usegmt=True)
    assert MID.delay(status_error(503, ("retry-after", future)), 0) == 7.0
    past = email.utils.formatdate(NOW - 100, usegmt=True)
    # In the past: 0 s, which is not a usable wait, so the backoff applies.
    assert MID.delay(status_error(503, ("retry-after", past)), 0) == 0.5 * 0.875


def test_long_retry_after() -> None:
    # Above 60 s the server's wait is not taken (the backoff is), above 120 s no retry at all,
    # even with x-should-retry: true (the official SDK's order of checks).
    assert MID.delay(status_error(429, ("retry-after", "90")), 0) == 0.5 * 0.875
    assert MID.delay(status_error(429, ("retry-after", "60")), 0) == 60.0
    assert MID.delay(status_error(429, ("retry-after", "121")), 0) is None
    forced = status_error(429, ("retry-after", "500"), ("x-should-retry", "true"))
    assert MID.delay(forced, 0) is None
    assert (
        sr.RetryPolicy(max_retry_after=100, rand=lambda: 0.5).delay(
            status_error(429, ("retry-after", "90")), 0
        )
        == 90.0
    )


def test_x_should_retry_overrides_the_status() -> None:
    assert MID.delay(status_error(400, ("x-should-retry", "true")), 0) == 0.5 * 0.875
    assert MID.delay(status_error(503, ("x-should-retry", "false")), 0) is None
    assert MID.delay(status_error(503, ("x-should-retry", "maybe")), 0) == 0.5 * 0.875


def test_transport_failures() -> None:
    for error in (
        sr.ConnectError("refused"),
        sr.ConnectTimeout("slow"),
        sr.IdleTimeout("silent", timeout=1.0),
        sr.ConnectionDropped("reset"),
    ):
        assert MID.delay(error, 0) == 0.5 * 0.875
    assert MID.delay(sr.TotalTimeout("late", timeout=5.0), 0) is None
    assert MID.delay(sr.RemoteProtocolError("bad json"), 0) is None
    wrong = sr.UnexpectedContentType("json", status_code=200, content_type="a/b", body="")
    assert MID.delay(wrong, 0) is None


def test_zero_turns_retrying_off_and_bad_arguments_are_refused() -> None:
    assert sr.RetryPolicy(0).delay(status_error(503), 0) is None
    for bad in (-1, True, 1.5):
        with pytest.raises(ValueError):
            sr.RetryPolicy(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        sr.RetryPolicy(initial_delay=-1)
    assert "max_retries=2" in repr(sr.RetryPolicy())


# --- the Exchange: what is retried, counted, and bounded by the total deadline ------------------

BODY = StreamBuilder(background=True).text("a b c", chunks=3).completed().to_sse()
SSE = {"content-type": "text/event-stream"}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def exchange(**options: Any) -> Exchange[Any]:
    request = sr.responses_request({"model": "m", "background": True}, api_key="sk-k")
    options.setdefault("retry_policy", MID)
    return Exchange(request, **options)


def test_exchange_retries_a_status_and_counts() -> None:
    x = exchange()
    x.begin()
    x.on_head(503, {"retry-after-ms": "20"})
    x.on_end()
    assert x.state == "connect" and x.delay == 0.02 and x.retries == 1
    assert x.begin() is x.original and x.delay == 0.0
    x.on_head(200, SSE)
    x.on_data(BODY)
    x.on_end()
    assert x.state == "finished" and x.stream.outcome == "completed" and x.retries == 1


def test_exchange_gives_up_after_max_retries() -> None:
    x = exchange()
    for _ in range(2):
        x.begin()
        x.on_head(429, {})
        x.on_end()
        assert x.state == "connect"
    x.begin()
    x.on_head(429, {})
    with pytest.raises(sr.RateLimitError):
        x.on_end()
    assert x.retries == 2


def test_exchange_never_retries_after_a_body_byte() -> None:
    x = exchange(max_resume_attempts=0)
    x.begin()
    x.on_head(200, SSE)
    x.on_data(BODY[:10])  # not even one whole event
    with pytest.raises(sr.ConnectionDropped):
        x.on_error(sr.ConnectionDropped("reset"))
    assert x.retries == 0


def test_exchange_retries_a_drop_after_the_head_before_the_body() -> None:
    x = exchange()
    x.begin()
    x.on_head(200, SSE)
    x.on_error(sr.ConnectionDropped("reset"))
    assert x.state == "connect" and x.retries == 1


def test_exchange_retries_a_resume_request() -> None:
    x = exchange()
    x.begin()
    x.on_head(200, SSE)
    cut = BODY.index(b"event: response.output_text.delta")
    x.on_data(BODY[:cut])
    x.on_error(sr.ConnectionDropped("reset"))  # a body byte was delivered: a resume
    assert x.state == "connect" and x.resumes == 1 and x.retries == 0
    resume = x.begin()
    assert resume.method == "GET"
    x.on_head(502, {})
    x.on_end()
    assert x.state == "connect" and x.retries == 1 and x.begin() is resume


def test_total_deadline_on_a_fake_clock() -> None:
    clock = Clock()
    x = exchange(total_timeout=10, clock=clock)
    assert x.limit(30) == 10 and x.limit(None) == 10
    clock.now += 4
    assert x.limit(3) == 3 and x.timed_out("idle", 3).__class__ is sr.IdleTimeout
    assert x.limit(30) == 6
    late = x.timed_out("idle", 30)
    assert isinstance(late, sr.TotalTimeout) and late.timeout == 10
    assert not x.expired()
    clock.now += 6
    assert x.expired() and x.limit(30) == 1e-6
    # A retry whose wait would overrun the deadline is not taken: the cause is raised.
    y = exchange(total_timeout=1, clock=clock)
    y.begin()
    y.on_head(503, {"retry-after": "2"})
    with pytest.raises(sr.InternalServerError):
        y.on_end()
    with pytest.raises(ValueError):
        exchange(total_timeout=0)


def test_total_timeout_is_never_retried_or_resumed() -> None:
    x = exchange(total_timeout=5, clock=Clock())
    x.begin()
    x.on_head(200, SSE)
    cut = BODY.index(b"event: response.output_text.delta")
    x.on_data(BODY[:cut])
    events = []
    with pytest.raises(sr.TotalTimeout):
        x.on_error(x.total_failure())
        while (event := x.pop()) is not None:
            events.append(event)
    assert x.resumes == 0 and x.retries == 0 and x.stream.outcome == "truncated"
