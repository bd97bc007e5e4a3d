"""Faults at the edges, for every adapter, against a raw asyncio server that scripts every byte
(tests/_rawserver.py): framing errors, content codings, a total deadline, retries as the official
SDK does them, no API key in adapter frames, no iteration after the block.

Each test runs on all six ways to drive the library: the socket, httpx, trio and aiohttp adapters
and the httpx_async adapter on asyncio and on trio. Delays are tens of milliseconds: the retry
backoff is configured small (``RetryPolicy(initial_delay=...)``) and every test takes well under a
second.
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import json
import time
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import anyio
import pytest
import trio
from _deep import json_overflow_depth
from _rawserver import RawServer, Reply, chunk, drip, head, raw_server
from test_adapters_common import (
    API_KEY,
    Result,
    collect_async,
    collect_sync,
    direct,
    key,
    no_secret,
    raw_request,
)

import sansio_responses as sr
from adapters import aiohttp as aiohttp_adapter
from adapters import httpx_async, httpx_sync
from adapters import socket as socket_adapter
from adapters import trio as trio_adapter
from sansio_responses._http.requests import Request
from sansio_responses.testing import Script, StreamBuilder

ADAPTERS = ["socket", "httpx", "trio", "aiohttp", "httpx_async-asyncio", "httpx_async-trio"]
H11_ADAPTERS = ["socket", "trio"]

FAST = sr.RetryPolicy(initial_delay=0.001, max_delay=0.002)
"""Retries with millisecond backoff, so retry tests do not wait."""


def drive(adapter: str, request: Request, **options: Any) -> Result:
    """Run *request* to its end through *adapter*; what it raised is in the result, and the API
    key is in no str() or repr() of it or of its causes."""
    result = _drive(adapter, request, **options)
    if result.error is not None:
        no_secret(result)
    return result


def _drive(adapter: str, request: Request, **options: Any) -> Result:
    if adapter == "socket":
        return collect_sync(socket_adapter.open_stream, request, **options)
    if adapter == "httpx":
        return collect_sync(httpx_sync.open_stream, request, **options)
    if adapter == "trio":
        return trio.run(
            functools.partial(collect_async, trio_adapter.open_stream, request, **options)
        )
    if adapter == "aiohttp":
        return asyncio.run(collect_async(aiohttp_adapter.open_stream, request, **options))
    backend = adapter.split("-")[1]
    call = functools.partial(collect_async, httpx_async.open_stream, request, **options)
    return anyio.run(call, backend=backend)


BODY = StreamBuilder().text([f"w{i} " for i in range(12)]).completed().to_sse()
BLOCKS = Script(BODY).blocks()  # one SSE event per block
EVENTS = direct(BODY)[0]


def _keys(events: list[Any]) -> list[Any]:
    return [key(e) for e in events]


def _sse_ok() -> Reply:
    return Reply([head(), chunk(BODY), chunk(b"")])


# --- issue 11 item 1: a malformed chunk header in a later segment ends within the timeouts --------


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_bad_chunk_header_in_a_later_segment(raw: RawServer, adapter: str) -> None:
    good = b"".join(BLOCKS[:4])
    raw.enqueue(Reply([head(), chunk(good), 0.05, b"zz; not hex\r\nxx\r\n"], then="hang"))
    started = time.monotonic()
    result = drive(adapter, raw_request(raw), idle_timeout=0.5, max_retries=0)
    elapsed = time.monotonic() - started
    # Every event before the fault, then one library error, within the idle timeout (aiohttp's
    # readany() never wakes here: the adapter's own timer ends the wait). Invalid framing is the
    # server's fault, not a dropped connection (issue 22 item 10).
    assert _keys(result.events) == _keys(EVENTS[:4])
    assert type(result.error) is sr.RemoteProtocolError, repr(result.error)
    assert "invalid HTTP/1.1 response" in str(result.error)
    assert result.handle.stream.outcome == "truncated"
    assert elapsed < 0.5 + 0.4


# --- issue 11 item 2: events decoded in the same read as a framing error are not stranded --------


# aiohttp's parser handles a segment as a whole: when the head, the body and the invalid bytes
# arrive in one segment it fails before any response reaches the adapter (nothing is delivered,
# so nothing is lost: the error is the invalid response, on entering the block). These
# tests send the head first, as servers do; the h11 and httpx adapters pass in one segment too.
ONE_SEGMENT = [a for a in ADAPTERS if a != "aiohttp"]


@pytest.mark.parametrize("segments", ["head-apart", "one-segment"])
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_framing_error_in_the_same_read(raw: RawServer, adapter: str, segments: str) -> None:
    if segments == "one-segment" and adapter not in ONE_SEGMENT:
        pytest.skip("aiohttp drops a response whose head shares a segment with a framing error")
    good = b"".join(BLOCKS[:4])
    pause = [0.02] if segments == "head-apart" else []
    raw.enqueue(Reply([head(), *pause, chunk(good) + b"zz\r\nxx\r\n"], then="hang"))
    result = drive(adapter, raw_request(raw), idle_timeout=0.5, max_retries=0)
    assert _keys(result.events) == _keys(EVENTS[:4])
    assert type(result.error) is sr.RemoteProtocolError, repr(result.error)
    assert result.handle.stream.outcome == "truncated"


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_framing_error_resumes_a_background_response(raw: RawServer, adapter: str) -> None:
    body = StreamBuilder(background=True).text("a b c d e f", chunks=6).completed().to_sse()
    blocks = Script(body).blocks()
    rest = Script(body).events_after(3)  # what the resume GET returns: events 4..
    raw.enqueue(
        Reply([head(), 0.02, chunk(b"".join(blocks[:4])) + b"zz\r\n"], then="hang"),
        Reply([head(), chunk(rest), chunk(b"")]),
    )
    result = drive(adapter, raw_request(raw, background=True), idle_timeout=0.5)
    assert result.error is None, repr(result.error)
    assert _keys(result.events) == _keys(direct(body)[0])
    assert result.handle.resumes == 1 and result.handle.retries == 0
    assert raw.requests[1].startswith(b"GET /v1/responses/")
    assert b"starting_after=3" in raw.requests[1]


@pytest.mark.parametrize("segments", ["head-apart", "one-segment"])
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_content_length_shorter_than_the_body_sent(
    raw: RawServer, adapter: str, segments: str
) -> None:
    if segments == "one-segment" and adapter not in ONE_SEGMENT:
        pytest.skip("aiohttp drops a response whose head shares a segment with a framing error")
    # The framing says the body ends after 13 events; the rest is garbage after the response.
    framed = b"".join(BLOCKS[:13])
    pause = [0.02] if segments == "head-apart" else []
    raw.enqueue(Reply([head(chunked=False, length=len(framed)), *pause, BODY], then="hang"))
    result = drive(adapter, raw_request(raw), idle_timeout=0.5, max_retries=0)
    assert _keys(result.events) == _keys(EVENTS[:13])
    assert isinstance(result.error, sr.TruncatedStream), repr(result.error)


# --- issue 11 item 3: content codings ------------------------------------------------------------


def _deflate(data: bytes) -> bytes:
    return zlib.compress(data)


@pytest.mark.parametrize("coding", ["gzip", "deflate"])
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_compressed_body_is_decoded(raw: RawServer, adapter: str, coding: str) -> None:
    packed = gzip.compress(BODY) if coding == "gzip" else _deflate(BODY)
    pieces = [packed[i : i + 100] for i in range(0, len(packed), 100)]
    raw.enqueue(Reply([head(200, ("content-encoding", coding)), *map(chunk, pieces), chunk(b"")]))
    result = drive(adapter, raw_request(raw), max_retries=0)
    assert result.error is None, repr(result.error)
    assert _keys(result.events) == _keys(EVENTS)
    # Each adapter asked for no compression, although the server compressed anyway.
    assert b"accept-encoding: identity" in raw.requests[0].lower()


@pytest.mark.parametrize("split", ["one chunk", "per member", "100-byte chunks"])
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_gzip_body_of_several_members_is_decoded_whole(
    raw: RawServer, adapter: str, split: str
) -> None:
    # RFC 1952 2.2: a gzip body is a series of members (a server may compress each event alone).
    # The h11 adapters' decoder stopped at the end of the first member and dropped the rest:
    # the stream then ended "truncated" with every later byte received. Bytes after a member
    # that are no gzip member are ignored, as before (and as urllib3 and browsers do).
    members = [gzip.compress(b"".join(BLOCKS[i : i + 3])) for i in range(0, len(BLOCKS), 3)]
    packed = b"".join(members)
    pieces = {
        "one chunk": [packed],
        "per member": members,
        "100-byte chunks": [packed[i : i + 100] for i in range(0, len(packed), 100)],
    }[split]
    trailer = [chunk(b"\x00\x00 trailing garbage")] if adapter != "aiohttp" else []
    raw.enqueue(
        Reply([head(200, ("content-encoding", "gzip")), *map(chunk, pieces), *trailer, chunk(b"")])
    )
    result = drive(adapter, raw_request(raw), max_retries=0)
    assert result.error is None, repr(result.error)
    assert _keys(result.events) == _keys(EVENTS)


@pytest.mark.parametrize("adapter", H11_ADAPTERS)
def test_unknown_coding_is_named(raw: RawServer, adapter: str) -> None:
    raw.enqueue(
        Reply([head(200, ("content-encoding", "compress")), chunk(b"\x1f\x9d"), chunk(b"")])
    )
    result = drive(adapter, raw_request(raw), max_retries=0)
    assert isinstance(result.error, sr.RemoteProtocolError)
    assert "'compress'" in str(result.error) and result.events == []


# --- issue 11 item 4: total_timeout ---------------------------------------------------------------

# How late a total deadline may end the call on a loaded machine: well under the time the dripped
# bytes would take without it (2 s and more), so a deadline that did not fire still fails.
_MARGIN = 0.8


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_total_timeout_in_a_dripping_head(raw: RawServer, adapter: str) -> None:
    # One byte every 20 ms: never idle for 0.3 s, but the head would take seconds.
    raw.enqueue(Reply([*drip(head(), 0.02), chunk(BODY)]))
    started = time.monotonic()
    result = drive(adapter, raw_request(raw), idle_timeout=0.3, total_timeout=0.4)
    elapsed = time.monotonic() - started
    assert isinstance(result.error, sr.TotalTimeout), repr(result.error)
    assert result.error.timeout == 0.4 and "total_timeout=0.4" in str(result.error)
    assert result.events == [] and result.handle is None
    # The whole head would take 1.96 s; 0.35 s of margin failed once on a loaded machine (0.756 s,
    # trio on 3.13, in a clean-clone CI run with benchmarks beside it).
    assert 0.4 <= elapsed < 0.4 + _MARGIN
    assert len(raw.requests) == 1  # a total timeout is never retried


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_total_timeout_in_a_dripping_body(raw: RawServer, adapter: str) -> None:
    raw.enqueue(Reply([head(), chunk(b"".join(BLOCKS[:2])), *drip(chunk(BLOCKS[2]), 0.02)]))
    started = time.monotonic()
    result = drive(adapter, raw_request(raw, background=True), idle_timeout=0.3, total_timeout=0.4)
    elapsed = time.monotonic() - started
    assert isinstance(result.error, sr.TotalTimeout), repr(result.error)
    assert _keys(result.events) == _keys(EVENTS[:2])
    assert result.handle.stream.outcome == "truncated" and result.handle.resumes == 0
    assert elapsed < 0.4 + _MARGIN  # (the dripped block alone would take 5 s)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_total_timeout_spans_resumes(raw: RawServer, adapter: str) -> None:
    body = StreamBuilder(background=True).text("a b c d e f", chunks=6).completed().to_sse()
    blocks = Script(body).blocks()
    rest = Script(body).events_after(3)
    raw.enqueue(
        Reply([head(), chunk(b"".join(blocks[:4])), 0.2], then="reset"),
        Reply([head(), *drip(chunk(rest), 0.02)]),
    )
    started = time.monotonic()
    result = drive(adapter, raw_request(raw, background=True), idle_timeout=0.3, total_timeout=0.5)
    elapsed = time.monotonic() - started
    # 0.2 s in the first body, the rest of the 0.5 s in the resumed one: one deadline for both.
    assert isinstance(result.error, sr.TotalTimeout), repr(result.error)
    assert result.handle.resumes == 1 and len(result.events) == 4
    assert 0.5 <= elapsed < 0.5 + _MARGIN


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_total_timeout_bounds_retries(raw: RawServer, adapter: str) -> None:
    # Each 503 asks for 1 s: one retry fits in 1.9 s, a second would overrun it, so the adapter
    # stops at once with the server's error rather than sleep into the deadline. (The margin, 0.9 s
    # for the two requests, holds on a loaded machine: 0.35 s did not, on 2 cores shared by several
    # suites; the rule itself is checked on a hand-moved clock in tests/test_exchange_contract.py.)
    busy = Reply([head(503, ("retry-after-ms", "1000"), chunked=False, length=2) + b"{}"])
    raw.enqueue(busy, busy, busy)
    policy = sr.RetryPolicy(5)
    started = time.monotonic()
    result = drive(adapter, raw_request(raw), total_timeout=1.9, retry_policy=policy)
    elapsed = time.monotonic() - started
    assert isinstance(result.error, sr.InternalServerError), repr(result.error)
    # (Had it slept into the deadline, the error would be a TotalTimeout.) The deadline starts
    # before the client is made (httpx loads its TLS context then): on a loaded machine that alone
    # may leave too little for the retry, and the first 503 is raised.
    assert len(raw.requests) in (1, 2) and elapsed < 1.9, (len(raw.requests), elapsed)


# --- issue 11 item 5: retries as the official SDK does them ---------------------------------------


def _status(status: int, *headers: tuple[str, str]) -> Reply:
    body = b'{"error": {"message": "try again", "type": "server_error"}}'
    json = "application/json"
    return Reply(
        [head(status, *headers, chunked=False, length=len(body), content_type=json) + body]
    )


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_null_annotation_then_a_terminal_without_output(raw: RawServer, adapter: str) -> None:
    # Issue 22, item 1 (a): every adapter delivered 0 of these 5 events (an internal SchemaError
    # escaped the stream's feed()); now all 5, the anomaly noted, the outcome completed.
    response = {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}
    at = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    message = {"id": "msg_1", "type": "message", "role": "assistant", "content": []}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": response},
        {"type": "response.output_item.added", "output_index": 0, "item": message},
        {**at, "type": "response.output_text.delta", "delta": "Hi"},
        {**at, "type": "response.output_text.annotation.added", "annotation_index": 0},
        {"type": "response.completed", "response": {**response, "status": "completed"}},
    ]
    body = b"".join(
        b"data: " + json.dumps({**e, "sequence_number": n}).encode() + b"\n\n"
        for n, e in enumerate(events)
    )
    raw.enqueue(Reply([head(), chunk(body), chunk(b"")]))
    result = drive(adapter, raw_request(raw))
    assert result.error is None, repr(result.error)
    assert len(result.events) == 5 and result.handle.stream.outcome == "completed"
    assert "bad-annotation" in result.handle.stream.diagnostic_counts


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_an_error_body_too_deep_for_json(raw: RawServer, adapter: str) -> None:
    # Issue 22, item 2: every adapter let the RecursionError of response_error() out.
    depth = 2 * json_overflow_depth()
    body = b'{"error":' * depth + b"1" + b"}" * depth
    json = "application/json"
    raw.enqueue(Reply([head(400, chunked=False, length=len(body), content_type=json) + body]))
    result = drive(adapter, raw_request(raw))
    assert isinstance(result.error, sr.BadRequestError), repr(result.error)
    assert result.error.body == body and len(raw.requests) == 1


@pytest.mark.parametrize("status", [408, 409, 429, 500, 503])
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_retryable_status_is_retried(raw: RawServer, adapter: str, status: int) -> None:
    raw.enqueue(_status(status), _sse_ok())
    result = drive(adapter, raw_request(raw), retry_policy=FAST)
    assert result.error is None, repr(result.error)
    assert _keys(result.events) == _keys(EVENTS)
    assert result.handle.retries == 1 and len(raw.requests) == 2
    assert result.handle.stream.outcome == "completed"


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_retries_run_out(raw: RawServer, adapter: str) -> None:
    raw.enqueue(*[_status(429)] * 3)
    result = drive(adapter, raw_request(raw), retry_policy=sr.RetryPolicy(2, initial_delay=0.001))
    assert isinstance(result.error, sr.RateLimitError) and len(raw.requests) == 3
    raw.requests.clear()
    raw.enqueue(_status(429))
    result = drive(adapter, raw_request(raw), max_retries=0)  # 0 turns retrying off
    assert isinstance(result.error, sr.RateLimitError) and len(raw.requests) == 1


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_x_should_retry_overrides(raw: RawServer, adapter: str) -> None:
    raw.enqueue(_status(400, ("x-should-retry", "true")), _sse_ok())
    result = drive(adapter, raw_request(raw), retry_policy=FAST)
    assert result.error is None and result.handle.retries == 1
    raw.enqueue(_status(503, ("x-should-retry", "false")))
    result = drive(adapter, raw_request(raw), retry_policy=FAST)
    assert isinstance(result.error, sr.InternalServerError) and not result.error.should_retry
    raw.enqueue(_status(400))
    result = drive(adapter, raw_request(raw), retry_policy=FAST)
    assert isinstance(result.error, sr.BadRequestError)
    assert len(raw.requests) == 4


@pytest.mark.parametrize(
    "header", [("retry-after-ms", "60"), ("retry-after", "0.06")], ids=["ms", "seconds"]
)
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_retry_after_is_honoured(raw: RawServer, adapter: str, header: tuple[str, str]) -> None:
    # The backoff alone would be 5 s, more than the 1 s total: only the server's 60 ms fits.
    raw.enqueue(_status(429, header), _sse_ok())
    policy = sr.RetryPolicy(initial_delay=5, max_delay=5)
    started = time.monotonic()
    result = drive(adapter, raw_request(raw), retry_policy=policy, total_timeout=1)
    elapsed = time.monotonic() - started
    assert result.error is None, repr(result.error)
    assert result.handle.retries == 1 and 0.06 <= elapsed < 0.8


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_retry_after_http_date_in_the_past_backs_off(raw: RawServer, adapter: str) -> None:
    raw.enqueue(_status(503, ("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT")), _sse_ok())
    result = drive(adapter, raw_request(raw), retry_policy=FAST)
    assert result.error is None and result.handle.retries == 1


@pytest.mark.parametrize("then", ["close", "reset"])
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_connection_failure_before_the_first_byte_is_retried(
    raw: RawServer, adapter: str, then: str
) -> None:
    raw.enqueue(Reply([], then=then), Reply([head()], then=then), _sse_ok())
    result = drive(adapter, raw_request(raw), retry_policy=FAST)
    assert result.error is None, repr(result.error)
    assert _keys(result.events) == _keys(EVENTS)
    assert result.handle.retries == 2 and len(raw.requests) == 3


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_connection_refused_is_retried(adapter: str) -> None:
    with raw_server() as gone:
        pass  # stopped: nothing listens on its port any more
    started = time.monotonic()
    result = drive(adapter, raw_request(gone), retry_policy=FAST, connect_timeout=0.5)
    assert isinstance(result.error, sr.ConnectError) and result.handle is None
    assert result.error.retries == 2 and str(result.error).endswith("(after 2 retries)")
    assert time.monotonic() - started < 0.5


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_never_retried_once_a_body_byte_was_delivered(raw: RawServer, adapter: str) -> None:
    raw.enqueue(Reply([head(), chunk(b"".join(BLOCKS[:2]))], then="reset"), _sse_ok())
    result = drive(adapter, raw_request(raw), retry_policy=FAST)
    assert isinstance(result.error, sr.ConnectionDropped), repr(result.error)
    assert _keys(result.events) == _keys(EVENTS[:2])
    assert result.handle.retries == 0 and len(raw.requests) == 1


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_resume_get_is_retried(raw: RawServer, adapter: str) -> None:
    body = StreamBuilder(background=True).text("a b c d e f", chunks=6).completed().to_sse()
    blocks = Script(body).blocks()
    rest = Script(body).events_after(3)
    raw.enqueue(
        Reply([head(), chunk(b"".join(blocks[:4]))], then="reset"),
        _status(503),
        Reply([], then="reset"),
        Reply([head(), chunk(rest), chunk(b"")]),
    )
    result = drive(adapter, raw_request(raw, background=True), retry_policy=FAST)
    assert result.error is None, repr(result.error)
    assert _keys(result.events) == _keys(direct(body)[0])
    # aiohttp itself sends an idempotent request again once after a disconnect (its
    # retry_connection): one of the two failed GETs is retried below the adapter.
    assert result.handle.resumes == 1
    assert result.handle.retries == (1 if adapter == "aiohttp" else 2)
    assert [r.split(b" ", 1)[0] for r in raw.requests] == [b"POST", b"GET", b"GET", b"GET"]


# --- issue 11 item 8: no API key in the locals of adapter frames ---------------------------------


def _adapter_locals(error: BaseException) -> Iterator[tuple[str, str, str]]:
    seen: set[int] = set()
    stack: list[BaseException | None] = [error]
    while stack:
        exc = stack.pop()
        if exc is None or id(exc) in seen:
            continue
        seen.add(id(exc))
        stack += [exc.__cause__, exc.__context__]
        tb = exc.__traceback__
        while tb is not None:
            frame = tb.tb_frame
            if "/adapters/" in frame.f_code.co_filename.replace("\\", "/"):
                for name, value in frame.f_locals.items():
                    yield frame.f_code.co_name, name, repr(value)
            tb = tb.tb_next


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_no_key_in_adapter_frame_locals(raw: RawServer, adapter: str) -> None:
    raw.enqueue(_status(401), Reply([head() + b"zz\r\n"]))
    for _ in range(2):
        result = drive(adapter, raw_request(raw), max_retries=0)
        assert result.error is not None
        frames = list(_adapter_locals(result.error))
        assert frames  # the traceback does go through the adapter
        leaks = [(f, n) for f, n, shown in frames if API_KEY in shown]
        assert not leaks, leaks


# --- issue 12 item 8: iterating after the block says the stream is closed -------------------------


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_iterating_after_the_block_says_closed(raw: RawServer, adapter: str) -> None:
    raw.enqueue(Reply([head(), chunk(BODY)], then="hang"), _sse_ok())
    request = raw_request(raw)

    async def first_then_leave(open_stream: Callable[..., Any]) -> Any:
        async with open_stream(request) as events:
            await events.__anext__()
        return events

    if adapter in ("socket", "httpx"):
        module = socket_adapter if adapter == "socket" else httpx_sync
        with module.open_stream(request) as events:
            next(events)
        with pytest.raises(sr.LocalProtocolError, match="closed when its `with` block ended"):
            next(events)
        with module.open_stream(request) as done:
            assert len(list(done)) == len(EVENTS)
        assert list(done) == []  # a finished stream just ends
        return
    runner: Callable[[Callable[..., Any]], Any]
    if adapter == "trio":
        events = trio.run(first_then_leave, trio_adapter.open_stream)
        runner = trio.run
    elif adapter == "aiohttp":
        events = asyncio.run(first_then_leave(aiohttp_adapter.open_stream))
        runner = asyncio.run
    else:
        backend = adapter.split("-")[1]
        events = anyio.run(first_then_leave, httpx_async.open_stream, backend=backend)
        runner = functools.partial(anyio.run, backend=backend)

    async def more() -> Any:
        return await events.__anext__()

    with pytest.raises(sr.LocalProtocolError, match="closed when its `with` block ended"):
        runner(more) if adapter != "aiohttp" else asyncio.run(more())
