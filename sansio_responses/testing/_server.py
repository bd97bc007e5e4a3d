"""A real loopback HTTP server speaking the streaming Responses and Chat Completions protocols.

It runs ``aiohttp.web`` on its own event loop in a background thread, so synchronous, asyncio and
trio tests can all talk to it over a real socket. Answers are scripted per test (:class:`Script`).
This module imports without aiohttp (the ``testing`` extra); starting a server then raises a
:class:`ModuleNotFoundError` that says what to install.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any

import attrs

from .._install import install_hint
from ._pacing import scheduled_pieces
from ._script import Faults, Script, plan
from ._ws_server import websocket_handler

try:
    import aiohttp.web
except ModuleNotFoundError as exc:  # the pure helpers of the kit work without it
    if exc.name != "aiohttp":
        raise
    _aiohttp_missing: ModuleNotFoundError | None = exc
else:
    _aiohttp_missing = None

__all__ = ["REQUEST_BODY_LIMIT", "ReceivedRequest", "ResponsesServer", "serve"]

if TYPE_CHECKING:  # aiohttp may be missing at run time
    import aiohttp.web  # bound for the type checkers even when the import above failed

    from .._base import JSONValue

    _Handler = Callable[[aiohttp.web.Request], Awaitable[aiohttp.web.StreamResponse]]

REQUEST_BODY_LIMIT = 64 << 20
"""Largest request body the server accepts (64 MiB); a bigger one gets HTTP 413."""

_SENSITIVE = frozenset({"authorization", "api-key", "x-api-key", "openai-api-key"})


@attrs.frozen(repr=False)
class ReceivedRequest:
    """One request the server received.

    Attributes:
        method: ``"GET"`` or ``"POST"``.
        path: the path, e.g. ``"/v1/responses"``.
        query: the query parameters, in order.
        headers: the request headers with lower-case names, in order.
        body: the raw request body.
    """

    method: str
    path: str
    query: tuple[tuple[str, str], ...]
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        """The first value of header *name* (case-insensitive), or ``None``."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key == wanted), None)

    def param(self, name: str) -> str | None:
        """The first value of query parameter *name*, or ``None``."""
        return next((value for key, value in self.query if key == name), None)

    def json(self) -> Any:
        """The body decoded as JSON."""
        return json.loads(self.body)

    def __repr__(self) -> str:
        headers = tuple(
            (key, "<redacted>" if key in _SENSITIVE else value) for key, value in self.headers
        )
        return (
            f"ReceivedRequest(method={self.method!r}, path={self.path!r}, query={self.query!r}, "
            f"headers={headers!r}, body=<{len(self.body)} bytes>)"
        )


@attrs.define
class _Stored:
    script: Script
    resumes: deque[Faults | Script]


class ResponsesServer:
    """A scripted streaming server on ``127.0.0.1``; use :func:`serve` to run one.

    Routes (under *prefix*, ``/v1`` by default):

    * ``POST /responses`` and ``POST /chat/completions`` answer with the next :meth:`enqueue`-d
      script (one queue for both routes), else the :meth:`set_default` one, else a 500 error
      saying nothing was scripted. A 2xx background script is remembered by its response id.
    * ``GET /responses`` upgraded to a WebSocket: the Responses API's WebSocket mode, each
      ``response.create`` answered with the next script on its lane (see ``_ws_server``).
    * ``GET /responses/{id}?stream=true&starting_after=N`` replays a remembered background stream:
      exactly its events with ``sequence_number > N`` (all of them without ``starting_after``),
      sent with the script's next ``resumes`` entry (faults, or a whole :class:`Script` such as
      ``Script.error(503, ...)`` answered instead). An unknown id gets the API's 404 error.
      Without ``stream=true`` it answers the last response object of the stream as JSON.

    Every request is recorded in :attr:`requests`; every answer carries an ``x-request-id``.
    """

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0, prefix: str = "/v1") -> None:
        if _aiohttp_missing is not None:
            raise ModuleNotFoundError(
                "the test server (sansio_responses.testing.serve and ResponsesServer) needs "
                f"aiohttp, which is not installed: {install_hint('testing')}; recording, "
                "StreamBuilder, ChatStreamBuilder and Script work without it",
                name="aiohttp",
            ) from _aiohttp_missing
        self.host = host
        self.port = port
        self.prefix = prefix.rstrip("/")
        self._lock = threading.Lock()
        self._queue: deque[Script] = deque()
        self._default: Script | None = None
        self._stored: dict[str, _Stored] = {}
        self._requests: list[ReceivedRequest] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: aiohttp.web.AppRunner | None = None
        self._handlers: set[asyncio.Task[Any]] = set()

    # --- scripting (any thread) -----------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: pass it as ``base_url`` to the request builders."""
        return f"http://{self.host}:{self.port}{self.prefix}"

    @property
    def requests(self) -> list[ReceivedRequest]:
        """A copy of the requests received so far, in arrival order."""
        with self._lock:
            return list(self._requests)

    def enqueue(self, *scripts: Script) -> None:
        """Answer the next POSTs with *scripts*, in order."""
        with self._lock:
            self._queue.extend(scripts)

    def set_default(self, script: Script | None) -> None:
        """Answer POSTs with *script* whenever the queue is empty (``None`` clears it)."""
        with self._lock:
            self._default = script

    def remember(self, script: Script) -> str:
        """Store a background stream for resume GETs without a POST; returns its response id."""
        response_id = script.response_id()
        if response_id is None:
            raise ValueError("the script's body has no event carrying response.id")
        with self._lock:
            self._stored[response_id] = _Stored(script, deque(script.resumes))
        return response_id

    # --- lifecycle ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the server thread and wait until the socket is listening."""
        if self._thread is not None:
            raise RuntimeError("server already started")
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self._start())
            except BaseException as exc:  # reported to the starting thread
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

        self._thread = threading.Thread(target=run, name="ResponsesServer", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            self._thread.join()
            self._thread = None
            raise failure[0]

    def stop(self) -> None:
        """Cancel open answers (stalls included), close the socket and join the thread."""
        if self._thread is None or self._loop is None:
            return
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._thread = None
        self._loop = None

    def __enter__(self) -> ResponsesServer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    async def _start(self) -> None:
        app = aiohttp.web.Application(client_max_size=REQUEST_BODY_LIMIT)
        app.router.add_post(self.prefix + "/responses", self._guard(self._create))
        app.router.add_post(self.prefix + "/chat/completions", self._guard(self._create))
        app.router.add_get(self.prefix + "/responses/{response_id}", self._guard(self._retrieve))
        # WebSocket mode (see _ws_server): the upgrade is a GET of /responses.
        app.router.add_get(self.prefix + "/responses", self._guard(self._websocket))
        self._runner = aiohttp.web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = aiohttp.web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server  # pyright: ignore[reportPrivateUsage]  # the asyncio.Server: the only way to learn the ephemeral port
        assert isinstance(server, asyncio.base_events.Server)
        self.port = server.sockets[0].getsockname()[1]

    async def _stop(self) -> None:
        for task in list(self._handlers):
            task.cancel()
        if self._handlers:
            await asyncio.wait(list(self._handlers))
        assert self._runner is not None
        await self._runner.cleanup()

    # --- handlers (server thread) ---------------------------------------------------------------

    async def _record(self, request: aiohttp.web.Request) -> ReceivedRequest:
        received = ReceivedRequest(
            method=request.method,
            path=request.path,
            query=tuple(request.query.items()),
            headers=tuple((key.lower(), value) for key, value in request.headers.items()),
            body=await request.read(),
        )
        with self._lock:
            self._requests.append(received)
        return received

    async def _create(self, request: aiohttp.web.Request) -> aiohttp.web.StreamResponse:
        await self._record(request)
        with self._lock:
            script = self._queue.popleft() if self._queue else self._default
            if script is not None and script.status < 300 and script.is_background():
                response_id = script.response_id()
                if response_id is not None:
                    self._stored[response_id] = _Stored(script, deque(script.resumes))
        if script is None:
            script = Script.error(
                500,
                f"ResponsesServer: no script enqueued for {request.method} {request.path}",
                type="server_error",
            )
        return await self._send(request, script.status, script.headers, script.body, script.faults)

    def _take_script(self) -> Script | None:
        """The next enqueued script, else the default one (what a POST or a WebSocket
        ``response.create`` is answered with)."""
        with self._lock:
            return self._queue.popleft() if self._queue else self._default

    async def _websocket(self, request: aiohttp.web.Request) -> aiohttp.web.StreamResponse:
        await self._record(request)
        return await websocket_handler(request, self._take_script)

    async def _retrieve(self, request: aiohttp.web.Request) -> aiohttp.web.StreamResponse:
        await self._record(request)
        response_id = request.match_info["response_id"]
        streaming = request.query.get("stream") == "true"
        with self._lock:
            stored = self._stored.get(response_id)
            # Only streamed resumes consume the script's resume faults.
            plan_: Faults | Script = Faults()
            if stored is not None and streaming and stored.resumes:
                plan_ = stored.resumes.popleft()
        if stored is None:
            missing = Script.error(
                404, f"Response with id '{response_id}' not found.", param="response_id"
            )
            return await self._send(request, 404, missing.headers, missing.body, missing.faults)
        if not streaming:
            last = _last_response(stored.script)
            body = json.dumps(last).encode()
            return await self._send(
                request, 200, (), body, Faults(content_type="application/json", chunked=False)
            )
        if isinstance(plan_, Script):  # a scripted answer for this attempt, e.g. an HTTP error
            return await self._send(request, plan_.status, plan_.headers, plan_.body, plan_.faults)
        raw = request.query.get("starting_after")
        try:
            starting_after = int(raw) if raw is not None else None
        except ValueError:
            bad = Script.error(400, f"Invalid 'starting_after': {raw!r}.", param="starting_after")
            return await self._send(request, 400, bad.headers, bad.body, bad.faults)
        body = stored.script.events_after(starting_after)
        return await self._send(request, 200, stored.script.headers, body, plan_)

    async def _send(
        self,
        request: aiohttp.web.Request,
        status: int,
        headers: tuple[tuple[str, str], ...],
        body: bytes,
        faults: Faults,
    ) -> aiohttp.web.StreamResponse:
        return await self._write(request, status, headers, body, faults)

    def _guard(self, handler: _Handler) -> _Handler:
        """*handler*, tracked for :meth:`stop` and silent when the client goes away.

        A client that stops reading and closes the connection, mid-request or mid-answer, is an
        ordinary thing for a client to do, so it gets no "Error handling request" traceback
        (aiohttp raises ConnectionResetError, or its subclass ClientConnectionResetError, from
        the read or the write). Cancelling ends the handler without aiohttp trying to finish the
        response on the closed transport.
        """

        async def guarded(request: aiohttp.web.Request) -> aiohttp.web.StreamResponse:
            task = asyncio.current_task()
            assert task is not None
            self._handlers.add(task)
            try:
                return await handler(request)
            except ConnectionError:
                transport = request.transport
                if transport is not None:
                    transport.close()
                raise asyncio.CancelledError from None
            finally:
                self._handlers.discard(task)

        return guarded

    async def _write(
        self,
        request: aiohttp.web.Request,
        status: int,
        headers: tuple[tuple[str, str], ...],
        body: bytes,
        faults: Faults,
    ) -> aiohttp.web.StreamResponse:
        payload, boundaries, cut, stall = plan(body, faults)
        response = aiohttp.web.StreamResponse(status=status)
        default_type = "text/event-stream; charset=utf-8" if status < 300 else "application/json"
        response.headers["Content-Type"] = faults.content_type or default_type
        response.headers["x-request-id"] = f"req_{uuid.uuid4().hex}"
        for name, value in headers:
            response.headers[name] = value
        if faults.chunked:
            response.enable_chunked_encoding()
        else:
            response.content_length = len(payload)
        await response.prepare(request)
        end = len(payload) if cut is None else cut
        if faults.schedule is not None:
            await _write_scheduled(response, payload, end, faults, stall)
        else:
            for piece_start, piece_end in _pieces(end, boundaries, faults.chunk_size, stall):
                if piece_start == stall:
                    await asyncio.sleep(faults.stall_seconds)
                elif piece_start and faults.delay:
                    await asyncio.sleep(faults.delay)
                await response.write(payload[piece_start:piece_end])
        if stall == end and end > 0 and cut is None:
            await asyncio.sleep(faults.stall_seconds)
        if cut is not None:
            # Abrupt close: close() flushes what was written, then closes the socket without the
            # terminating chunk (or short of Content-Length): the client sees a broken body.
            transport = request.transport
            if transport is not None:
                transport.close()
            raise asyncio.CancelledError  # stop aiohttp from finishing the response
        await response.write_eof()
        return response


async def _write_scheduled(
    response: aiohttp.web.StreamResponse,
    payload: bytes,
    end: int,
    faults: Faults,
    stall: int | None,
) -> None:
    """Write ``payload[:end]`` in the recorded pieces of ``faults.schedule``, each when it is due
    (relative to the first write; a stall pushes the rest back)."""
    assert faults.schedule is not None
    loop = asyncio.get_running_loop()
    started = loop.time()
    for piece_start, piece_end, due in scheduled_pieces(end, faults.schedule, stall):
        if piece_start == stall:
            await asyncio.sleep(faults.stall_seconds)
            started += faults.stall_seconds
        wait = started + due - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        await response.write(payload[piece_start:piece_end])


def _pieces(
    end: int, boundaries: list[int], chunk_size: int | None, stall: int | None
) -> Iterator[tuple[int, int]]:
    """Write ranges covering ``[0, end)``: every *chunk_size* bytes, or at block boundaries, and
    always split at *stall*."""
    cuts: set[int] = set()
    if chunk_size is None:
        cuts.update(b for b in boundaries if 0 < b < end)
    else:
        cuts.update(range(chunk_size, end, chunk_size))
    if stall is not None and 0 < stall < end:
        cuts.add(stall)
    start = 0
    for point in sorted(cuts):
        yield start, point
        start = point
    if start < end:
        yield start, end


def _last_response(script: Script) -> Any:
    last: Any = None
    for block in script.blocks():
        lines = [line for line in block.splitlines() if line.startswith(b"data:")]
        for line in lines:
            try:
                data: JSONValue = json.loads(line[5:])
            except ValueError:
                continue
            if isinstance(data, dict) and isinstance(data.get("response"), dict):
                last = data["response"]
    return last


@contextlib.contextmanager
def serve(
    *scripts: Script,
    default: Script | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    prefix: str = "/v1",
) -> Generator[ResponsesServer, None, None]:
    """Run a :class:`ResponsesServer` for the ``with`` block: ``with serve(Script(...)) as server``.

    *scripts* are enqueued in order; *default* answers once they are used up.
    """
    server = ResponsesServer(host=host, port=port, prefix=prefix)
    server.enqueue(*scripts)
    server.set_default(default)
    server.start()
    try:
        yield server
    finally:
        server.stop()
