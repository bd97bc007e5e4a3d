"""The public sans-IO exchange's contract (issue 18), without sockets: what the adapter reports,
what it is told to do, cancelling, the total deadline in ``pop()``; and the testing ``Script``'s
fault keywords, which must stay the fields of ``Faults``."""

from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path

import attrs
import pytest

import sansio_responses as sr
from sansio_responses.testing import Faults, Script, StreamBuilder
from sansio_responses.testing._script import FaultOptions

SSE = [("content-type", "text/event-stream")]
BODY = StreamBuilder(background=True).text("Hello there", 3).completed().to_sse()


def _request(background: bool = True) -> sr.Request[sr.ResponsesStream]:
    body = {"model": "gpt-4o-mini", "input": "hi", "background": background}
    return sr.responses_request(body, base_url="http://127.0.0.1:9/v1", api_key="sk-test")


class Clock:
    """A hand-moved monotonic clock."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def state(x: sr.Exchange[sr.ResponsesStream]) -> str:
    """The state, read afresh (a type checker keeps an attribute narrowed across calls)."""
    return x.state


def _drain(x: sr.Exchange[sr.ResponsesStream]) -> list[sr.ResponseStreamEvent]:
    out: list[sr.ResponseStreamEvent] = []
    while (event := x.pop()) is not None:
        out.append(event)
    return out


def test_the_states_an_adapter_follows() -> None:
    x = sr.Exchange(_request())
    assert state(x) == "connect" and x.pop() is None
    sent = x.begin()
    assert sent is x.request and state(x) == "head"
    assert ("accept-encoding", "identity") in sr.send_headers(sent)
    x.on_head(200, SSE)
    assert state(x) == "body" and x.status_code == 200
    x.on_data(BODY)
    x.on_end()
    assert state(x) == "finished"
    events = _drain(x)
    assert events[-1].type == "response.completed" and x.stream.outcome == "completed"


def test_an_error_head_reads_the_body_then_raises_with_the_stream() -> None:
    x = sr.Exchange(_request(), max_retries=0)
    x.begin()
    x.on_head(404, [("content-type", "application/json")])
    assert x.state == "error-body"
    with pytest.raises(sr.NotFoundError) as caught:
        x.on_data(b'{"error": {"message": "no such model", "type": "invalid_request_error"}}')
        x.on_end()
    assert caught.value.stream is x.stream and "no such model" in str(caught.value)


def test_a_retryable_error_asks_for_a_new_connection_after_the_delay() -> None:
    x = sr.Exchange(_request(), retry_policy=sr.RetryPolicy(2, rand=lambda: 0.0))
    x.begin()
    x.on_head(503, [("content-type", "application/json"), ("retry-after-ms", "250")])
    x.on_end()
    assert (x.state, x.delay, x.retries) == ("connect", 0.25, 1)
    x.begin()
    assert x.delay == 0.0 and x.state == "head"


def test_a_drop_resumes_a_background_response_without_repeating_events() -> None:
    x = sr.Exchange(_request())
    x.begin()
    x.on_head(200, SSE)
    x.on_data(BODY[: len(BODY) // 2])
    x.on_error(sr.failure("dropped", x.request))
    first = _drain(x)
    assert x.state == "connect" and x.resumes == 1
    resume = x.begin()
    assert resume.method == "GET" and resume.kind == "responses"
    assert f"starting_after={x.stream.last_sequence_number}" in resume.url
    x.on_head(200, SSE)
    x.on_data(BODY)  # the server replays everything: the events already applied are skipped
    x.on_end()
    rest = _drain(x)
    direct = sr.ResponsesStream().feed(BODY)
    assert [e.to_dict() for e in first + rest] == [e.to_dict() for e in direct]


def test_pop_raises_the_total_timeout_when_nothing_is_buffered() -> None:
    clock = Clock()
    x = sr.Exchange(_request(), total_timeout=5.0, clock=clock)
    x.begin()
    assert x.limit(10.0) == 5.0 and x.limit(None) == 5.0 and x.limit(1.0) == 1.0
    x.on_head(200, SSE)
    x.on_data(BODY[: len(BODY) // 2])
    clock.now += 6.0
    events: list[sr.ResponseStreamEvent] = []  # buffered events come first
    while True:
        try:
            event = x.pop()
        except sr.TotalTimeout as exc:
            assert exc.stream is x.stream and exc.timeout == 5.0
            break
        assert event is not None
        events.append(event)
    assert events and x.state == "finished" and x.stream.outcome == "truncated"


def test_a_retry_that_would_overrun_the_deadline_is_not_taken() -> None:
    clock = Clock()
    policy = sr.RetryPolicy(5)
    x = sr.Exchange(_request(), total_timeout=0.4, retry_policy=policy, clock=clock)
    busy = [("content-type", "application/json"), ("retry-after-ms", "150")]
    x.begin()
    x.on_head(503, busy)
    x.on_end()
    assert (state(x), x.delay) == ("connect", 0.15)
    clock.now += 0.2  # the wait, and the second request
    x.begin()
    x.on_head(503, busy)
    with pytest.raises(sr.InternalServerError) as caught:  # 0.2 + 0.15 fits in 0.4; no more
        x.on_end()
        x.begin()
        clock.now += 0.16
        x.on_head(503, busy)
        x.on_end()
    assert x.retries == 2 and caught.value.stream is x.stream


def test_timed_out_tells_the_total_deadline_from_the_idle_timeout() -> None:
    clock = Clock()
    x = sr.Exchange(_request(), total_timeout=5.0, clock=clock)
    x.limit(1.0)  # the idle timeout bounds this wait
    assert isinstance(x.timed_out("idle", 1.0), sr.IdleTimeout)
    x.limit(30.0)  # the total deadline does
    assert isinstance(x.timed_out("idle", 30.0), sr.TotalTimeout)


def test_cancel_marks_the_stream_and_keeps_the_snapshot() -> None:
    x = sr.Exchange(_request())
    x.begin()
    x.on_head(200, SSE)
    x.on_data(BODY[: len(BODY) // 2])
    x.cancel()
    assert x.state == "finished" and x.pop() is None and x.stream.outcome == "cancelled"
    snapshot = x.stream.snapshot()
    assert snapshot is not None and snapshot.status == "in_progress"
    # A cancelled background response can still be resumed later, by hand.
    assert x.stream.resumable
    x.stream.reconnect()
    assert x.stream.outcome is None
    x.cancel()  # idempotent


def test_cancel_after_the_end_changes_nothing() -> None:
    x = sr.Exchange(_request())
    x.begin()
    x.on_head(200, SSE)
    x.on_data(BODY)
    x.on_end()
    x.cancel()
    assert x.stream.outcome == "completed" and len(_drain(x)) > 0


def test_next_request_keeps_the_request() -> None:
    stream = sr.ResponsesStream()
    stream.feed(BODY[: len(BODY) // 2])
    request = _request()
    resume = sr.ResumePolicy().next_request(request, stream, sr.TruncatedStream("cut"))
    assert resume is not None and resume.response_id == stream.response_id
    assert resume.header("authorization") == request.header("authorization")


def test_script_fault_keywords_are_the_fields_of_faults() -> None:
    fields = {f.name: f.default for f in attrs.fields(Faults)}
    keywords = {
        name: p.default
        for name, p in inspect.signature(Script).parameters.items()
        if name in fields or (p.kind is p.KEYWORD_ONLY and name not in _SCRIPT_OWN)
    }
    assert keywords == fields
    assert set(typing.get_type_hints(FaultOptions)) == set(fields)
    assert Script(b"", stall_after_events=1, stall_seconds=0.5).faults == Faults(
        stall_after_events=1, stall_seconds=0.5
    )
    with pytest.raises(TypeError, match="either faults= or fault keywords"):
        Script(b"", faults=Faults(), chunk_size=3)


_SCRIPT_OWN = {"status", "headers", "background", "resumes", "faults"}


ADAPTERS = Path(__file__).resolve().parents[1] / "adapters"


@pytest.mark.parametrize("path", sorted(ADAPTERS.glob("*.py")), ids=lambda p: p.name)
def test_adapters_use_public_names_only(path: Path) -> None:
    # Issue 18 item 3: the bundled adapters are written as a user's adapter would be.
    source = path.read_text(encoding="utf-8")
    assert "reportPrivateUsage" not in source
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            assert node.level <= 1, f"{path.name}:{node.lineno} imports from outside adapters/"
            # Absolute: the public package (or another library); relative: adapters/ itself.
            assert node.level == 1 or not module.startswith("sansio_responses._"), module
            names = [alias.name for alias in node.names]
            if module == "sansio_responses":
                assert not [n for n in names if n.startswith("_")], names
        elif isinstance(node, ast.Import):
            for alias in node.names:
                assert not alias.name.startswith("sansio_responses._"), alias.name
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "sr":
                assert not node.attr.startswith("_"), f"{path.name}:{node.lineno} sr.{node.attr}"
