"""Async adapter on ``httpx.AsyncClient``, written on anyio: the same code runs on asyncio and on
trio.

    async with open_stream(request, client) as events:
        async for event in events:
            ...
        events.stream.snapshot()

Every wait (connect and head, each body read, a retry's backoff) ends within *idle_timeout* and
*total_timeout*: httpx's own timeouts bound each socket read, and an anyio deadline
(``fail_after``) bounds the connect and head. The body reads are bounded by the total deadline
with one timer per request, not a deadline per read (which cost about 10 µs a read, issue 21): at
the deadline it shuts the connection's socket down (httpcore names the connection's network
stream in the response's ``network_stream`` extension, for a new and a pooled connection alike),
which ends the read in progress. The timer is the event loop's own (``call_later`` on asyncio, a
system task on trio). Should a transport name no socket, or the connection be HTTP/2 (its socket
carries other requests' streams too, which the shutdown would end), its body reads get an anyio
deadline each whenever the total deadline is nearer than httpx's read timeout. Cancelling the surrounding task
or cancel scope cancels the read in progress; leaving the block closes the body iterator and the
response (shielded, so this also works inside a cancelled scope), and no async generator is left
for the garbage collector.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import socket
import types
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping
from typing import Any, cast

import anyio
import httpx

import sansio_responses as sr

from ._events import AsyncEventIterator, S, decoding_error, dedicated_connection, refused_by_h11
from ._h11 import GzipMembers, gzip_only

__all__ = ["EventStream", "open_stream"]


def _nested(chunks: object) -> list[types.AsyncGeneratorType[Any, Any]]:
    """*chunks* and the async generators it iterates, outermost first.

    ``aiter_raw()`` (which the adapter iterates through :class:`_Decoded`) iterates httpx's and
    httpcore's stream generators, five deep (six under ``aiter_bytes()``). Closing the outer one
    early (a ``break``, an exception) ends its loop but not the generator it was iterating: that
    one is left to the garbage collector, and trio reports each as a ``ResourceWarning``. The
    generator an ``async for`` holds is on its frame's value stack, which ``gc.get_referents``
    lists (of the generator on CPython 3.11+, of its frame before).
    """
    found: list[types.AsyncGeneratorType[Any, Any]] = []
    current = chunks
    while isinstance(current, types.AsyncGeneratorType) and len(found) < 16:
        agen: types.AsyncGeneratorType[Any, Any] = current  # pyright: ignore[reportUnknownVariableType]
        found.append(agen)
        frame = agen.ag_frame
        if frame is None:  # finished: it iterates nothing any more
            break
        inner: list[object] = []
        for ref in gc.get_referents(agen, frame):
            if isinstance(ref, types.AsyncGeneratorType) and ref is not agen and ref not in inner:
                inner.append(cast(object, ref))
        if len(inner) != 1:
            break
        current = inner[0]
    return found


class _Decoded:
    """The body bytes of *response* as they arrive, its Content-Encoding undone: what
    ``aiter_bytes()`` gives, as a plain iterator over ``aiter_raw()``.

    ``aiter_bytes()`` decodes inside its own generator: when the very first chunk does not decode,
    the error unwinds that generator, and the ``aiter_raw()`` generator it was iterating (with
    the four under it) is dropped before the adapter can close it, for trio to report as a
    ``ResourceWarning``. Here the decoding error is raised in this object, while ``raw`` is still
    held, so the adapter closes the whole chain. The decoder is httpx's own (gzip, deflate, br,
    zstd and stacked codings, as ``aiter_bytes()`` decodes them), taken with the method
    ``aiter_bytes()`` uses; without it (a future httpx) the adapter uses ``aiter_bytes()``.
    """

    def __init__(self, response: httpx.Response, decoder: Any) -> None:
        #: The raw body generator (``aiter_raw()``), the outermost httpx generator held.
        self.raw: AsyncIterator[bytes] = response.aiter_raw()
        self._decode: Callable[[bytes], bytes] = decoder.decode
        self._flush: Callable[[], bytes] = decoder.flush
        self._ended = False

    def __aiter__(self) -> _Decoded:
        return self

    async def __anext__(self) -> bytes:
        while not self._ended:
            try:
                raw = await self.raw.__anext__()
            except StopAsyncIteration:
                self._ended = True
                tail = self._flush()  # a body cut inside a gzip member fails here
                if tail:
                    return tail
                break
            data = self._decode(raw)
            if data:
                return data
        raise StopAsyncIteration


def _body(response: httpx.Response) -> AsyncIterator[bytes]:
    codings = response.headers.get_list("content-encoding", split_commas=True)
    if all(c.strip().lower() in ("", "identity") for c in codings):
        return response.aiter_raw()  # nothing to undo: one layer less per read
    if gzip_only(codings):  # every member of the body (httpx's decoder reads the first one)
        return _Decoded(response, GzipMembers(httpx.DecodingError))
    decoder = getattr(response, "_get_content_decoder", None)  # see _Decoded
    if not callable(decoder):
        return response.aiter_bytes()
    return _Decoded(response, decoder())


class _Watchdog:
    """Shuts the connection's socket down at the total deadline, from a timer of the event loop:
    the body read in progress then ends (an end of file, which the adapter reports as the
    ``TotalTimeout``), and no read needs a deadline of its own."""

    def __init__(self) -> None:
        self._sock: Any = None
        self._stop: Callable[[], object] | None = None
        #: The deadline passed and the socket was shut down.
        self.fired = False

    def use(self, response: httpx.Response) -> None:
        """Take the socket of *response*'s connection: httpcore's network stream, which it names
        in the response's extensions (a transport that names none leaves the watchdog unarmed).

        Only an HTTP/1 connection's (:func:`dedicated_connection`): an HTTP/2 connection
        carries other requests' streams too, which shutting its socket down would end with this
        one; there each read keeps a deadline of its own."""
        if not dedicated_connection(response.http_version):
            return
        stream = response.extensions.get("network_stream")
        get = getattr(stream, "get_extra_info", None)
        sock = get("socket") if callable(get) else None
        if callable(getattr(sock, "shutdown", None)):  # socket.socket, or trio's socket
            self._sock = sock

    @property
    def armed(self) -> bool:
        """The timer runs and knows the socket to shut down."""
        return self._stop is not None

    def arm(self, seconds: float) -> None:
        """Fire in *seconds*, if the connection's socket is known (see :meth:`use`)."""
        if self._sock is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not asyncio: trio (the other backend anyio runs httpx on)
            self._stop = _trio_timer(seconds, self._fire)
        else:
            self._stop = loop.call_later(seconds, self._fire).cancel

    def _fire(self) -> None:
        self.fired = True
        # A timer callback, or trio's system task, must not raise.
        with contextlib.suppress(Exception):
            self._sock.shutdown(socket.SHUT_RDWR)

    def disarm(self) -> None:
        if self._stop is not None:
            self._stop()
        self._stop = self._sock = None
        self.fired = False


def _trio_timer(seconds: float, fire: Callable[[], None]) -> Callable[[], object]:
    import trio  # only under trio, where it is imported already

    scope = trio.CancelScope()

    async def watch() -> None:
        with scope:
            await trio.sleep(seconds)
            fire()

    trio.lowlevel.spawn_system_task(watch)
    return scope.cancel


def _seconds(timeout: float | None) -> float:
    # No limit is an infinite deadline (which never trips).
    return math.inf if timeout is None else timeout


class EventStream(AsyncEventIterator[S]):
    """The events of one stream, read through ``httpx.AsyncClient`` as the consumer iterates.
    ``stream`` is the core stream; see :class:`StreamHandle` for ``status_code``, ``headers``,
    ``resumes`` and ``retries``."""

    def __init__(self, x: sr.Exchange[S], client: httpx.AsyncClient,
                 connect_timeout: float | None, idle_timeout: float | None) -> None:  # fmt: skip
        self._x, self._client = x, client
        self._connect_timeout, self._idle_timeout = connect_timeout, idle_timeout
        self._response: httpx.Response | None = None
        self._chunks: AsyncIterator[bytes] | None = None
        self._nest: list[types.AsyncGeneratorType[Any, Any]] = []  # _nested(_chunks), once it runs
        self._read: float | None = None  # httpx's read timeout for the current response
        self._watchdog = _Watchdog()

    async def _step(self) -> None:
        request = self._x.request
        try:
            if self._x.state == "connect":
                await self._disconnect()
                if self._x.delay:  # a retry's backoff; the exchange kept it inside the deadline
                    await anyio.sleep(self._x.delay)
                await self._open(self._x.begin())
                return
            assert self._chunks is not None
            limit = self._x.limit(self._idle_timeout)
            try:
                if (
                    limit is None
                    or self._watchdog.armed
                    or (self._read is not None and limit >= self._read)
                ):
                    # httpx's read timeout (self._read, set in _open) bounds every socket read
                    # by no more than this wait's limit, and the watchdog the total deadline: an
                    # anyio deadline would only repeat them, at about 10 µs a read (issue 21).
                    # httpx's ReadTimeout gives the same error.
                    chunk: bytes | None = await self._chunks.__anext__()
                else:  # the total deadline is nearer than httpx's read timeout: one scope
                    with anyio.fail_after(limit):
                        chunk = await self._chunks.__anext__()
            except StopAsyncIteration:
                chunk = None
        except httpx.TransportError as exc:
            late = self._watchdog.fired  # before _disconnect(): it resets the watchdog
            await self._disconnect()
            if late or self._x.expired():  # the watchdog shut the socket down at the deadline
                self._x.on_error(self._x.total_failure())
            elif isinstance(exc, httpx.RemoteProtocolError) and refused_by_h11(exc):
                self._x.on_invalid(exc)  # not valid HTTP/1.1: the server's fault, never retried
            else:
                self._x.on_error(self._failure(exc, request))
            return
        except TimeoutError:  # anyio's deadline (the builtin class on every Python version)
            await self._disconnect()
            self._x.on_error(self._x.timed_out("idle", self._idle_timeout))
            return
        except httpx.DecodingError as exc:  # a corrupt gzip/deflate/br body: the server's fault
            await self._disconnect()
            self._x.fail(decoding_error(exc, request, self._x.headers))
            return
        if chunk is None:
            # A body framed by the connection's close also ends when the watchdog shuts the
            # socket down: that end is the deadline, not the server's (an error body that ended
            # is reported as such: its status is the news).
            late = self._watchdog.fired and self._x.state == "body"
            await self._disconnect()
            if late:
                self._x.on_error(self._x.total_failure())
            else:
                self._x.on_end()
        else:
            if not self._nest:  # taken while they run: an error inside ends the outer one first
                chunks = self._chunks
                self._nest = _nested(chunks.raw if isinstance(chunks, _Decoded) else chunks)
            self._x.on_data(chunk)

    def _failure(self, exc: httpx.TransportError, request: sr.Request[Any]) -> sr.TransportError:
        if isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout)):
            return self._x.timed_out("connect-timeout", self._connect_timeout)
        if isinstance(exc, httpx.ConnectError):
            return sr.failure("connect", request, cause=exc)
        if isinstance(exc, httpx.TimeoutException):
            return self._x.timed_out("idle", self._idle_timeout)
        return sr.failure("dropped", request, cause=exc)

    async def _open(self, request: sr.Request[Any]) -> None:
        # The connect, the send and the head together run under the total deadline; httpx bounds
        # the connect (and the pool wait, part of getting a connection) and the head's reads.
        # (limit() last for the read timeout: timed_out() then tells an idle from a total one.)
        total = self._x.limit(None)
        connect = self._x.limit(self._connect_timeout)
        self._read = self._x.limit(self._idle_timeout)
        timeout = httpx.Timeout(self._read, connect=connect, pool=connect)
        outgoing = self._client.build_request(
            request.method, request.url, headers=sr.send_headers(request), content=request.body,
            timeout=timeout,
        )  # fmt: skip
        with anyio.fail_after(_seconds(total)):
            self._response = await self._client.send(outgoing, stream=True)
        left = self._x.limit(None)
        if left is not None:
            self._watchdog.use(self._response)
            self._watchdog.arm(left)
        self._x.limit(self._idle_timeout)  # limit() last for the idle bound: see timed_out()
        # The body bytes as they arrive, any Content-Encoding undone; the core does the text
        # decoding.
        self._chunks = _body(self._response)
        self._x.on_head(self._response.status_code, self._response.headers.raw)

    async def _disconnect(self) -> None:
        """Close the body iterator and the response (idempotent; works inside a cancelled scope);
        the client stays open."""
        chunks, self._chunks = self._chunks, None
        if isinstance(chunks, _Decoded):
            chunks = chunks.raw
        nest, self._nest = self._nest or _nested(chunks), []
        response, self._response = self._response, None
        self._watchdog.disarm()
        with anyio.CancelScope(shield=True):
            for agen in nest:  # outermost first, as an exception would unwind them
                await agen.aclose()
            if response is not None:
                await response.aclose()


@contextlib.asynccontextmanager
async def open_stream(
    request: sr.Request[S],
    client: httpx.AsyncClient | None = None,
    *,
    connect_timeout: float | None = sr.DEFAULT_CONNECT_TIMEOUT,
    idle_timeout: float | None = sr.DEFAULT_IDLE_TIMEOUT,
    total_timeout: float | None = None,
    max_retries: int = sr.DEFAULT_MAX_RETRIES,
    retry_policy: sr.RetryPolicy | None = None,
    max_resume_attempts: int = sr.DEFAULT_MAX_RESUME_ATTEMPTS,
    stream_options: Mapping[str, Any] | None = None,
) -> AsyncGenerator[EventStream[S], None]:
    """Send *request* with *client* (a new ``httpx.AsyncClient`` when ``None``, closed on exit)
    and yield an async iterator of its events; runs on asyncio and on trio (anyio).

    The response head is read on entry: an HTTP error status raises its ``APIStatusError``, a 2xx
    that is not an event stream raises ``UnexpectedContentType``. *connect_timeout* bounds getting
    a connection; *idle_timeout* bounds every wait for bytes after that (``None``: no limit); both
    override the client's timeouts. *total_timeout* bounds the whole stream, retries and resumes
    included (``TotalTimeout``). A retryable failure before the first body byte is retried up to
    *max_retries* times (``RetryPolicy``; *retry_policy* replaces it whole). A dropped or
    truncated background response is resumed (see ``ResumePolicy``). The response is closed on
    leaving the block, also when it is cancelled.
    """
    x = sr.Exchange(
        request, max_resume_attempts=max_resume_attempts, stream_options=stream_options,
        max_retries=max_retries, retry_policy=retry_policy, total_timeout=total_timeout,
        connect_timeout=connect_timeout, idle_timeout=idle_timeout,
    )  # fmt: skip
    async with contextlib.AsyncExitStack() as owned:
        if client is None:
            client = await owned.enter_async_context(httpx.AsyncClient())
        async with EventStream(x, client, x.connect_timeout, x.idle_timeout) as events:
            yield events
