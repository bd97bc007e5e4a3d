"""A raw asyncio HTTP server for the adapter fault tests: every byte of every answer is scripted.

The project's own test server (``sansio_responses.testing``) speaks HTTP through aiohttp.web, so
it cannot send a malformed chunk header, a Content-Length shorter than the body, a head dripped
one byte at a time or a gzip body the client did not ask for. This one reads each request (head
and Content-Length body) and then plays the next queued :class:`Reply` on that connection, byte
for byte. It runs its own event loop in a background thread, so blocking, asyncio and trio
clients can all use it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import socket
import struct
import threading
from collections.abc import Iterator, Sequence

import attrs

Step = bytes | float
"""Bytes to write (then drained), or seconds to wait."""


@attrs.define
class Reply:
    """What the server does on one connection after reading the request.

    Attributes:
        steps: bytes to write and pauses (seconds), in order.
        then: ``"close"`` (FIN), ``"reset"`` (RST) or ``"hang"`` (keep the connection open,
            silent, until the server stops).
    """

    steps: Sequence[Step]
    then: str = "close"


def head(status: int = 200, *headers: tuple[str, str], chunked: bool = True,
         length: int | None = None, content_type: str = "text/event-stream") -> bytes:  # fmt: skip
    """A response head: status line, ``content-type``, then *headers*, then the framing header
    (``transfer-encoding: chunked``, or ``content-length: length``, or none: read until close).
    ``connection: close`` is always sent (the server closes after each reply), so that no client
    reuses a connection, and aiohttp does not retry an idempotent request by itself."""
    lines = [f"HTTP/1.1 {status} X", f"content-type: {content_type}", "connection: close"]
    lines += [f"{name}: {value}" for name, value in headers]
    if chunked:
        lines.append("transfer-encoding: chunked")
    elif length is not None:
        lines.append(f"content-length: {length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def chunk(data: bytes) -> bytes:
    """One chunk of a chunked body (``chunk(b"")`` is the last chunk)."""
    return b"%x\r\n%s\r\n" % (len(data), data)


def drip(data: bytes, every: float) -> list[Step]:
    """*data* one byte at a time, *every* seconds apart."""
    steps: list[Step] = []
    for i in range(len(data)):
        steps += [data[i : i + 1], every]
    return steps


class RawServer:
    """The server; ``enqueue`` replies, read ``requests`` (the raw request heads, in order).
    A connection that finds no reply queued is closed at once."""

    def __init__(self) -> None:
        self.requests: list[bytes] = []
        self._replies: collections.deque[Reply] = collections.deque()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stopping: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.host = "127.0.0.1"
        self.port = 0

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        return f"http://{self.host}:{self.port}/v1"

    def enqueue(self, *replies: Reply) -> None:
        """Queue *replies*, one per incoming connection, in order."""
        self._replies.extend(replies)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        finally:
            # Closed here, or the garbage collector reports it later as a ResourceWarning,
            # in whichever test is running then (tests that assert none saw it).
            self._loop.close()

    async def _main(self) -> None:
        self._stopping = asyncio.Event()
        server = await asyncio.start_server(self._serve, self.host, 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        async with server:
            await self._stopping.wait()
            server.close()
            tasks = list(self._tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            request = await reader.readuntil(b"\r\n\r\n")
            self.requests.append(request)
            for line in request.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    await reader.readexactly(int(value))
            if not self._replies:
                return
            reply = self._replies.popleft()
            for step in reply.steps:
                if isinstance(step, bytes):
                    writer.write(step)
                    await writer.drain()
                else:
                    await asyncio.sleep(step)
            if reply.then == "reset":
                # SO_LINGER with a zero timeout: close() sends RST instead of FIN.
                sock = writer.get_extra_info("socket")
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            elif reply.then == "hang":
                assert self._stopping is not None
                await self._stopping.wait()
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        except asyncio.CancelledError:  # the server stops: no reply plays on
            pass
        finally:
            self._tasks.discard(task)
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    def start(self) -> None:
        self._thread.start()
        self._ready.wait(5)

    def stop(self) -> None:
        """Stop serving; connections in a ``"hang"`` are closed."""
        if self._stopping is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join(5)


@contextlib.contextmanager
def raw_server() -> Iterator[RawServer]:
    """A running :class:`RawServer`, stopped on exit."""
    server = RawServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
