"""Shared cases for the adapter tests, and tests of the sans-IO transport pieces they rest on.

Each :class:`Case` scripts the local test server (``sansio_responses.testing``), describes the
request and adapter options, and checks what an adapter produced. The per-adapter modules
(``test_adapters_httpx.py``, ``..._aiohttp.py``, ``..._trio.py``, ``..._socket.py``) run every
case over a real loopback socket with their own ``collect`` function, so all four adapters are held
to the same expectations: the events, snapshot, outcome and diagnostics of the core fed directly.
"""

from __future__ import annotations

import contextlib
import random
import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
import trustme
from _corpus import load, names
from _rawserver import RawServer

import sansio_responses as sr
from sansio_responses import (
    ConnectError,
    ConnectionDropped,
    Exchange,
    IdleTimeout,
    ResumePolicy,
    RetryPolicy,
    TransportError,
    new_stream,
)
from sansio_responses._chat.stream import ChatCompletionsStream
from sansio_responses._http.requests import (
    ERROR_BODY_LIMIT,
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    Request,
    UnexpectedContentType,
    UnprocessableEntityError,
    chat_request,
    responses_request,
)
from sansio_responses._responses.stream import ResponsesStream
from sansio_responses.testing import (
    ChatStreamBuilder,
    Faults,
    ResponsesServer,
    Script,
    StreamBuilder,
    serve,
)

API_KEY = "sk-test-SECRET-0123456789abcdef"


def raw_request(server: RawServer, background: bool = False) -> Request[ResponsesStream]:
    """A Responses request to the raw loopback server (tests/_rawserver.py) with the test key."""
    body: dict[str, Any] = {"model": "gpt-4o-mini", "input": "hi"}
    if background:
        body["background"] = True
    return responses_request(body, base_url=server.base_url, api_key=API_KEY)


BACKGROUND_RECORDING = "responses-pydantic-ai-test_background_mode_streaming_starting_after_vcr-1"


@attrs.define
class Result:
    """What an adapter produced: the events iterated, the yielded object (``None`` when entering
    the context raised) and the exception raised, if any."""

    events: list[Any]
    handle: Any
    error: BaseException | None


def key(event: Any) -> tuple[Any, Any]:
    """What must match between the adapter and the core fed directly: type and wire dict."""
    return getattr(event, "type", type(event).__name__), event.to_dict()


def collect_sync(
    open_stream: Callable[..., Any],
    request: Request,
    on_event: Callable[[int], None] = lambda n: None,
    **options: Any,
) -> Result:
    """Drive a blocking adapter's ``open_stream`` to the end; whatever it raised is in the result."""
    events: list[Any] = []
    handle = None
    try:
        with open_stream(request, **options) as handle:
            for event in handle:
                events.append(event)
                on_event(len(events))
    except Exception as exc:
        return Result(events, handle, exc)
    return Result(events, handle, None)


async def collect_async(
    open_stream: Callable[..., Any],
    request: Request,
    on_event: Callable[[int], None] = lambda n: None,
    **options: Any,
) -> Result:
    """The same for an async adapter's ``open_stream`` (asyncio or trio, as the caller runs it)."""
    events: list[Any] = []
    handle = None
    try:
        async with open_stream(request, **options) as handle:
            async for event in handle:
                events.append(event)
                on_event(len(events))
    except Exception as exc:
        return Result(events, handle, exc)
    return Result(events, handle, None)


def direct(body: bytes, kind: str = "responses") -> tuple[list[Any], Any, BaseException | None]:
    """The core fed the whole body directly: events, the stream, and the error close() raised."""
    stream: ResponsesStream | ChatCompletionsStream
    stream = ChatCompletionsStream() if kind == "chat" else ResponsesStream()
    events = list(stream.feed(body))
    try:
        events += stream.close()
    except sr.ProtocolError as exc:
        events += getattr(exc, "events", [])
        return events, stream, exc
    return events, stream, None


def snapshot_dict(stream: Any) -> Any:
    snapshot = stream.snapshot()
    return None if snapshot is None else snapshot.to_dict()


def no_secret(result: Result) -> None:
    """The API key appears in no str/repr of the raised error, its cause or context."""
    exc: BaseException | None = result.error
    seen: list[BaseException] = []
    while exc is not None:
        assert all(exc is not old for old in seen), "a cycle in the exception chain"
        seen.append(exc)
        assert API_KEY not in str(exc) and API_KEY not in repr(exc), exc
        exc = exc.__cause__ or exc.__context__


def fail(result: Result) -> BaseException:
    assert result.error is not None, f"expected an error, got {len(result.events)} events"
    no_secret(result)
    return result.error


@attrs.define
class Case:
    """One scripted exchange: ``setup(server)`` returns the request and adapter options;
    ``check(result, server)`` asserts on what the adapter produced; ``during(server, n)``, when
    given, runs in the consumer after its n-th event."""

    id: str
    setup: Callable[[ResponsesServer], tuple[Request, dict[str, Any]]]
    check: Callable[[Result, ResponsesServer], None]
    during: Callable[[ResponsesServer, int], None] | None = None

    def hook(self, server: ResponsesServer) -> Callable[[int], None]:
        """Called by ``collect`` with the number of events received so far, after each one."""
        during = self.during
        return (lambda n: during(server, n)) if during is not None else (lambda n: None)


def _responses(server: ResponsesServer, background: bool = False) -> Request:
    body: dict[str, Any] = {"model": "gpt-4o-mini", "input": "hi"}
    if background:
        body["background"] = True
    return responses_request(body, base_url=server.base_url, api_key=API_KEY)


def _same_as_direct(
    body: bytes, kind: str = "responses"
) -> Callable[[Result, ResponsesServer], None]:
    events, stream, error = direct(body, kind)

    def check(result: Result, server: ResponsesServer) -> None:
        if error is None:
            assert result.error is None, repr(result.error)
        else:
            assert type(fail(result)) is type(error)
        assert [key(e) for e in result.events] == [key(e) for e in events]
        assert result.handle.stream.outcome == stream.outcome
        assert snapshot_dict(result.handle.stream) == snapshot_dict(stream)
        if result.handle.resumes == 0:
            # In order: keep-alive comments are reported in stream order, whatever the chunking.
            assert result.handle.stream.diagnostics == stream.diagnostics
        assert result.handle.status_code == 200

    return check


# --- (1) every recorded Responses stream, (7) every recorded Chat stream -------------------------


def _corpus_case(name: str) -> Case:
    body, _ = load(name)
    kind = "chat" if name.startswith("chat-") else "responses"
    # A different write size per stream (1 to 97 bytes, or one event per write), so chunk
    # boundaries fall everywhere across the corpus.
    sizes = [None, *range(1, 98)]
    chunk_size = sizes[sum(name.encode()) % len(sizes)]

    def setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
        server.enqueue(Script(body, chunk_size=chunk_size))
        if kind == "chat":
            request = chat_request({"model": "m", "messages": []}, base_url=server.base_url)
            return request, {}
        return _responses(server), {}

    return Case(name, setup, _same_as_direct(body, kind))


CORPUS_CASES = [_corpus_case(n) for n in names("responses")]
CHAT_CASES = [_corpus_case(n) for n in names("chat")]


# --- (2) drops at random points, then automatic resume -------------------------------------------


def _resume_case(seed: int, recorded: bool) -> Case:
    rng = random.Random(seed)
    if recorded:
        body, _ = load(BACKGROUND_RECORDING)
    else:
        builder = StreamBuilder(background=True, response_id=f"resp_seed{seed}")
        words = [f"w{i} " for i in range(rng.randint(20, 60))]
        body = builder.text(words).function_call("f", '{"a": [1, 2, 3]}', 4).completed()
        body = body.to_sse()
    blocks = Script(body).blocks()
    # The first drop comes after response.created (before it no response id is known, so there
    # is nothing to resume); later drops anywhere in the resumed bodies, by bytes or events.
    first = rng.randint(len(blocks[0]), len(body) - 1)
    resumes = [
        Faults(disconnect_after_bytes=rng.randint(0, 2000), chunk_size=rng.randint(1, 300)),
        Faults(disconnect_after_events=rng.randint(1, 5), chunked=rng.random() < 0.5),
        Faults(chunk_size=rng.randint(1, 50)),
    ]

    def setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
        faults = Faults(disconnect_after_bytes=first, chunk_size=rng.randint(1, 400))
        server.enqueue(Script(body, faults=faults, resumes=resumes))
        return _responses(server, background=not recorded), {"max_resume_attempts": 5}

    events, stream, _ = direct(body)

    def check(result: Result, server: ResponsesServer) -> None:
        assert result.error is None, repr(result.error)
        # No event twice, none missing: exactly the events of the uninterrupted body.
        assert [key(e) for e in result.events] == [key(e) for e in events]
        assert snapshot_dict(result.handle.stream) == snapshot_dict(stream)
        assert result.handle.stream.outcome == "completed"
        gets = [r for r in server.requests if r.method == "GET"]
        assert result.handle.resumes == len(gets) >= 1
        for get in gets:
            assert get.param("stream") == "true" and get.param("starting_after") is not None
            assert get.header("authorization") == f"Bearer {API_KEY}"
            assert get.path == f"/v1/responses/{stream.response_id}"

    return Case(f"resume-{'recorded' if recorded else 'built'}-{seed}", setup, check)


RESUME_CASES = [_resume_case(seed, recorded=seed % 3 == 0) for seed in range(12)]


# --- (3) HTTP error statuses -------------------------------------------------------------------

ERROR_CLASSES: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
    500: InternalServerError,
    503: InternalServerError,
    418: APIStatusError,
}


def _error_case(status: int) -> Case:
    script = Script.error(
        status, f"boom {status}", code=f"code_{status}", param="input", retry_after=2.5
    )

    def setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
        server.enqueue(script)
        return _responses(server), {"max_retries": 0}  # retries: tests/test_adapters_faults.py

    def check(result: Result, server: ResponsesServer) -> None:
        exc = fail(result)
        assert type(exc) is ERROR_CLASSES[status]
        assert isinstance(exc, APIStatusError)
        assert exc.status_code == status
        assert exc.body == script.body  # intact
        assert exc.retry_after == 2.5
        assert exc.error is not None and exc.error.code == f"code_{status}"
        assert exc.error.param == "input" and f"boom {status}" in str(exc)
        assert exc.request_id is not None and exc.request_id.startswith("req_")
        assert result.handle is None and result.events == []

    return Case(f"status-{status}", setup, check)


ERROR_CASES = [_error_case(s) for s in ERROR_CLASSES]


# --- (4) idle timeout, (5) content type, and other single cases ----------------------------------

TEXT = StreamBuilder().text([f"t{i} " for i in range(10)]).completed().to_sse()


def _stall_setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
    server.enqueue(Script(TEXT, stall_after_events=4, stall_seconds=60))
    return _responses(server), {"idle_timeout": 0.2}


def _stall_check(result: Result, server: ResponsesServer) -> None:
    exc = fail(result)
    assert isinstance(exc, IdleTimeout) and exc.timeout == 0.2 and exc.attempts == 0
    assert [e.sequence_number for e in result.events] == [0, 1, 2, 3]
    assert result.handle.stream.outcome == "truncated"
    assert isinstance(exc.__cause__, sr.TruncatedStream)


def _keepalive_setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
    # 12 keep-alive comments between two events, one write every 0.03 s: 0.36 s with no event,
    # longer than the 0.3 s idle timeout, but never 0.3 s without bytes. Comments count as life.
    blocks = TEXT.split(b"\n\n")
    body = b"\n\n".join(blocks[:4]) + b"\n\n" + b": keep-alive\n\n" * 12 + b"\n\n".join(blocks[4:])
    server.enqueue(Script(body, delay=0.03))
    return _responses(server), {"idle_timeout": 0.3}


def _keepalive_check(result: Result, server: ResponsesServer) -> None:
    assert result.error is None, result.error
    assert result.handle.stream.outcome == "completed"
    assert result.handle.stream.diagnostic_counts["keepalive-comment"] == 12
    assert [key(e) for e in result.events] == [key(e) for e in direct(TEXT)[0]]


def _head_stall_setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
    server.enqueue(Script(TEXT, stall_after_events=0, stall_seconds=60, chunked=False))
    return _responses(server), {"idle_timeout": 0.2, "max_retries": 0}


def _head_stall_check(result: Result, server: ResponsesServer) -> None:
    # aiohttp.web sends the head with the first body write, so the stall hits the head: the
    # idle timeout covers waiting for it too.
    exc = fail(result)
    assert isinstance(exc, IdleTimeout) and result.events == []


JSON_BODY = b'{"id": "resp_1", "object": "response", "status": "completed", "output": []}'


def _json_setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
    server.enqueue(Script(JSON_BODY, content_type="application/json", chunked=False))
    return _responses(server), {}


def _json_check(result: Result, server: ResponsesServer) -> None:
    exc = fail(result)
    assert isinstance(exc, UnexpectedContentType)
    assert exc.status_code == 200 and exc.content_type == "application/json"
    assert exc.excerpt is not None and "resp_1" in exc.excerpt
    assert result.handle is None


BIG = "x" * (1 << 20)  # one delta event over 1 MiB: no line-length limit on the way


def _big_setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
    server.enqueue(Script(StreamBuilder().text([BIG]).completed().to_sse()))
    return _responses(server), {}


def _big_check(result: Result, server: ResponsesServer) -> None:
    assert result.error is None, repr(result.error)
    assert result.handle.stream.snapshot().output_text == BIG
    assert any(getattr(e, "delta", None) == BIG for e in result.events)


def _framed_case(name: str, **faults: Any) -> Case:
    def setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
        server.enqueue(Script(TEXT, **faults))
        return _responses(server), {}

    events, stream, _ = direct(TEXT)

    def check(result: Result, server: ResponsesServer) -> None:
        assert result.error is None, repr(result.error)
        assert [key(e) for e in result.events] == [key(e) for e in events]
        assert snapshot_dict(result.handle.stream) == snapshot_dict(stream)

    return Case(name, setup, check)


def _drop_case(name: str, background: bool, kind: str = "responses", **faults: Any) -> Case:
    """A dropped connection that must not (or can no longer) be resumed."""
    body = (
        ChatStreamBuilder().content("a b c d e f", chunks=6).finish().to_sse()
        if kind == "chat"
        else StreamBuilder(background=background).text("a b c d e f", chunks=6).completed().to_sse()
    )
    # Every resume drops before its first event: no progress, so the policy gives up.
    dead = [Faults(disconnect_after_events=0)] * 10

    def setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
        server.enqueue(Script(body, resumes=dead, disconnect_after_events=4, **faults))
        if kind == "chat":
            request = chat_request({"model": "m", "messages": []}, base_url=server.base_url)
            return request, {"max_resume_attempts": 2, "max_retries": 0}
        options = {"max_resume_attempts": 2, "max_retries": 0}
        return _responses(server, background=background), options

    def check(result: Result, server: ResponsesServer) -> None:
        exc = fail(result)
        assert isinstance(exc, ConnectionDropped)
        assert exc.attempts == (2 if background else 0)
        assert result.handle.resumes == exc.attempts
        assert len(result.events) == 4
        assert result.handle.stream.outcome == "truncated"
        assert len([r for r in server.requests if r.method == "GET"]) == exc.attempts

    return Case(name, setup, check)


def _truncated_setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
    body = StreamBuilder().text("a b c", chunks=3).to_sse()  # no terminal event
    server.enqueue(Script(body))
    return _responses(server), {}


def _truncated_check(result: Result, server: ResponsesServer) -> None:
    exc = fail(result)
    assert isinstance(exc, sr.TruncatedStream)
    assert result.handle.stream.outcome == "truncated"
    assert result.handle.stream.snapshot().output_text == "a b c"


def _refused_setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
    # A port nothing listens on: the server's, after the server was stopped.
    server.stop()
    return _responses(server), {"connect_timeout": 5, "max_retries": 0}


def _refused_check(result: Result, server: ResponsesServer) -> None:
    exc = fail(result)
    assert isinstance(exc, ConnectError) and result.handle is None


def _gone_setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
    body = StreamBuilder(background=True).text("a b c d e f", chunks=6).completed().to_sse()
    server.enqueue(Script(body, stall_after_events=3, stall_seconds=60))
    options = {"max_resume_attempts": 2, "connect_timeout": 5, "max_retries": 0}
    return _responses(server, background=True), options


def _gone_during(server: ResponsesServer, n: int) -> None:
    if n == 3:
        server.stop()  # the connection drops, and every resume finds nobody listening


def _gone_check(result: Result, server: ResponsesServer) -> None:
    exc = fail(result)
    assert isinstance(exc, ConnectError) and exc.attempts == 2
    assert result.handle.resumes == 2 and len(result.events) == 3
    assert result.handle.stream.outcome == "truncated"


def _resume_503_setup(server: ResponsesServer) -> tuple[Request, dict[str, Any]]:
    body = StreamBuilder(background=True).text("a b c d e f", chunks=6).completed().to_sse()
    overloaded = Script.error(503, "overloaded", type="server_error", retry_after=1)
    server.enqueue(Script(body, disconnect_after_events=3, resumes=[overloaded]))
    return _responses(server, background=True), {"max_retries": 0}


def _resume_503_check(result: Result, server: ResponsesServer) -> None:
    # With retries off, an HTTP error answering a resume is raised as such; the events before it
    # stay delivered and the stream is marked truncated.
    exc = fail(result)
    assert isinstance(exc, InternalServerError) and exc.status_code == 503
    assert exc.retry_after == 1 and exc.should_retry
    assert len(result.events) == 3 and result.handle.resumes == 1
    assert result.handle.stream.outcome == "truncated"
    assert isinstance(exc.__cause__, sr.TruncatedStream)


SINGLE_CASES = [
    Case("resume-answered-503", _resume_503_setup, _resume_503_check),
    Case("server-gone-during-resume", _gone_setup, _gone_check, _gone_during),
    Case("idle-timeout", _stall_setup, _stall_check),
    Case("idle-timeout-head", _head_stall_setup, _head_stall_check),
    Case("keepalive-comments-are-life", _keepalive_setup, _keepalive_check),
    Case("json-2xx", _json_setup, _json_check),
    Case("one-mebibyte-event", _big_setup, _big_check),
    Case("truncated", _truncated_setup, _truncated_check),
    Case("connection-refused", _refused_setup, _refused_check),
    _framed_case("content-length", chunked=False, chunk_size=3),
    _framed_case("crlf-keepalive", crlf=True, keepalive_every=1, chunk_size=5),
    _framed_case("byte-by-byte", chunk_size=1),
    _drop_case("drop-not-background", background=False),
    _drop_case("drop-content-length", background=False, chunked=False),
    _drop_case("drop-resume-exhausted", background=True),
    _drop_case("drop-chat", background=False, kind="chat"),
]

CASES = CORPUS_CASES + CHAT_CASES + RESUME_CASES + ERROR_CASES + SINGLE_CASES


def case_id(case: Case) -> str:
    return case.id


@pytest.fixture
def server() -> Iterator[ResponsesServer]:
    """A fresh local Responses server per test."""
    with serve() as running:
        yield running


@contextlib.contextmanager
def tls_proxy(server: ResponsesServer, ca: trustme.CA) -> Iterator[str]:
    """A TLS-terminating loopback proxy in front of *server*, with a certificate for
    ``localhost`` issued by *ca*; yields the ``https://localhost:PORT/v1`` base URL.

    The test server speaks plain HTTP only, so TLS is added here with the standard library: each
    accepted connection is unwrapped and its bytes are pumped to and from the server unchanged.
    """
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert("localhost", "127.0.0.1").configure_cert(context)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)

    def relay(raw: socket.socket) -> None:
        try:
            client = context.wrap_socket(raw, server_side=True)
        except OSError:  # a client that refused our certificate
            raw.close()
            return
        upstream = socket.create_connection((server.host, server.port))
        back = threading.Thread(target=pump, args=(upstream, client), daemon=True)
        back.start()
        pump(client, upstream)
        back.join()
        client.close()
        upstream.close()

    def accept() -> None:
        while True:
            try:
                raw, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=relay, args=(raw,), daemon=True).start()

    acceptor = threading.Thread(target=accept, daemon=True)
    acceptor.start()
    try:
        yield f"https://localhost:{port}/v1"
    finally:
        with contextlib.suppress(OSError):
            listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        acceptor.join()


def tls_request(base_url: str) -> tuple[Request, bytes]:
    body = StreamBuilder().text("over tls", 4).completed().to_sse()
    request = responses_request({"model": "m"}, base_url=base_url, api_key=API_KEY)
    return request, body


# --- sans-IO tests of the pieces the adapters share ---------------------------------------------


def _fed(body: bytes) -> ResponsesStream:
    stream = ResponsesStream()
    stream.feed(body)
    return stream


def test_new_stream_by_kind() -> None:
    req = responses_request({"model": "m"}, api_key=API_KEY)
    chat = chat_request({"model": "m"}, api_key=API_KEY)
    assert isinstance(new_stream(req), ResponsesStream)
    assert isinstance(new_stream(chat, strict=True), ChatCompletionsStream)
    assert new_stream(req, max_event_size=10).max_event_size == 10


def test_resume_policy_builds_the_resume_request() -> None:
    body = StreamBuilder(background=True, response_id="resp_abc").text("a b c", 3).to_sse()
    blocks = Script(body).blocks()
    stream = _fed(b"".join(blocks[:5]))
    request = responses_request(
        {"model": "m", "background": True},
        base_url="https://example.test:8443/openai/v1/",
        api_key=API_KEY,
        headers={"x-extra": "1"},
        organization="org_1",
    )
    policy = ResumePolicy(max_attempts=3)
    nxt = policy.next_request(request, stream, ConnectionDropped("reset"))
    assert nxt is not None and policy.attempts == 1
    assert nxt.method == "GET" and nxt.body is None
    assert nxt.url == (
        "https://example.test:8443/openai/v1/responses/resp_abc?stream=true&starting_after=4"
    )
    assert nxt.header("authorization") == f"Bearer {API_KEY}"
    assert nxt.header("x-extra") == "1" and nxt.header("openai-organization") == "org_1"
    assert nxt.header("content-type") is None
    assert API_KEY not in repr(nxt)
    # A resume of a resume keeps the base URL.
    again = policy.next_request(nxt, stream, sr.TruncatedStream("cut"))
    assert again is not None and again.url == nxt.url and policy.attempts == 2


def test_resume_policy_bounds_attempts_without_progress() -> None:
    body = StreamBuilder(background=True).text("a b c d", 4).to_sse()
    blocks = Script(body).blocks()
    stream = _fed(b"".join(blocks[:3]))
    request = responses_request({"model": "m", "background": True}, api_key=API_KEY)
    policy = ResumePolicy(max_attempts=2)
    drop = ConnectionDropped("reset")
    assert policy.next_request(request, stream, drop) is not None
    assert policy.next_request(request, stream, drop) is not None
    assert policy.next_request(request, stream, drop) is None
    # Progress (a new event) resets the count.
    stream.reconnect()
    stream.feed(blocks[3])
    assert policy.next_request(request, stream, drop) is not None and policy.attempts == 1
    assert ResumePolicy(max_attempts=0).next_request(request, stream, drop) is None
    with pytest.raises(ValueError):
        ResumePolicy(max_attempts=-1)


def test_resume_policy_refusals() -> None:
    fg = StreamBuilder(background=False).text("a b", 2).to_sse()
    bg = StreamBuilder(background=True).text("a b", 2).to_sse()
    drop = ConnectionDropped("reset")
    plain = responses_request({"model": "m"}, api_key=API_KEY)
    asked = responses_request({"model": "m", "background": True}, api_key=API_KEY)
    policy = ResumePolicy()
    # Neither the request nor the response asked for background mode.
    assert policy.next_request(plain, _fed(fg), drop) is None
    # The response says background although the request did not: resumable.
    assert policy.next_request(plain, _fed(bg), drop) is not None
    # The request asked for it although the response does not say so: resumable.
    assert policy.next_request(asked, _fed(fg), drop) is not None
    # No response id known yet.
    assert policy.next_request(asked, ResponsesStream(), drop) is None
    # Not a transport failure or truncation.
    assert policy.next_request(asked, _fed(bg), sr.RemoteProtocolError("bad json")) is None
    # A finished response.
    done = _fed(StreamBuilder(background=True).text("a", 1).completed().to_sse())
    assert policy.next_request(asked, done, drop) is None
    # Chat Completions cannot be resumed.
    chat = chat_request({"model": "m"}, api_key=API_KEY)
    assert policy.next_request(chat, ChatCompletionsStream(), drop) is None


def test_exchange_delivers_events_before_a_deferred_error() -> None:
    # Events decoded from the same chunk as an invalid one reach the consumer before the error.
    good = StreamBuilder().text("a", 1).to_sse()
    x = Exchange(responses_request({"model": "m"}, api_key=API_KEY))
    x.begin()
    x.on_head(200, [(b"Content-Type", b"text/event-stream")])
    x.on_data(good + b"data: {not json\n\n")
    seen = []
    with pytest.raises(sr.RemoteProtocolError):
        while (event := x.pop()) is not None:
            seen.append(event)
    assert len(seen) == len(Script(good).blocks()) and x.state == "finished"


def test_exchange_error_body_is_bounded() -> None:
    x = Exchange(responses_request({"model": "m"}, api_key=API_KEY), retry_policy=RetryPolicy(0))
    x.begin()
    x.on_head(500, {"content-type": "text/plain"})
    x.on_data(b"a" * 1000)
    with pytest.raises(InternalServerError) as info:
        x.on_data(b"b" * (ERROR_BODY_LIMIT + 10))
    assert len(info.value.body) == ERROR_BODY_LIMIT and x.state == "finished"


def test_exchange_ignores_a_drop_after_the_terminal_event() -> None:
    body = StreamBuilder().text("a", 1).completed().to_sse()
    x = Exchange(responses_request({"model": "m"}, api_key=API_KEY))
    x.begin()
    x.on_head(200, {"content-type": "text/event-stream"})
    x.on_data(body)
    x.on_error(ConnectionDropped("reset after the last event"))
    assert x.state == "finished" and x.stream.outcome == "completed"


def test_transport_errors_render_attempts() -> None:
    exc = IdleTimeout("no bytes from h:1 for 0.5 s", timeout=0.5, attempts=2)
    assert str(exc) == "no bytes from h:1 for 0.5 s (after 2 resume attempt(s))"
    assert isinstance(exc, TransportError) and str(ConnectionDropped("x")) == "x"
