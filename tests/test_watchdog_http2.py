"""The httpx adapters' total-deadline watchdog shuts a connection's socket down only when the
response has that connection to itself (HTTP/1): an HTTP/2 connection multiplexes other requests'
streams over the same socket (RFC 9113 section 5), which the shutdown would end too.

No HTTP/2 server is available to the tests (h2 is not a dependency), so the watchdog is given
httpx's own ``Response`` with the ``http_version`` and ``network_stream`` extensions httpcore sets,
around a real connected socket, and the test checks whether the watchdog takes that socket.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator

import httpx
import pytest

from adapters import httpx_async, httpx_sync


class _NetworkStream:
    """What httpcore's network streams answer to ``get_extra_info("socket")``."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def get_extra_info(self, name: str) -> object:
        return self._sock if name == "socket" else None


@pytest.fixture
def sock() -> Iterator[socket.socket]:
    a, b = socket.socketpair()
    with a, b:
        yield a


def _response(version: bytes, sock: socket.socket) -> httpx.Response:
    extensions = {"http_version": version, "network_stream": _NetworkStream(sock)}
    return httpx.Response(200, extensions=extensions)


@pytest.mark.parametrize(("version", "taken"), [(b"HTTP/1.1", True), (b"HTTP/1.0", True),
                                                (b"HTTP/2", False)])  # fmt: skip
def test_sync_watchdog_takes_only_a_dedicated_connection(
    sock: socket.socket, version: bytes, taken: bool
) -> None:
    watchdog = httpx_sync._Watchdog()  # pyright: ignore[reportPrivateUsage]
    # The trace of a new connection's connect gave the socket before the head was read.
    watchdog.trace("connection.connect_tcp.complete", {"return_value": _NetworkStream(sock)})
    watchdog.use(_response(version, sock))
    assert (watchdog._sock is sock) is taken  # pyright: ignore[reportPrivateUsage]
    watchdog.arm(0.0)  # fires at once, from its thread
    assert watchdog._timer is not None  # pyright: ignore[reportPrivateUsage]
    watchdog._timer.join()  # pyright: ignore[reportPrivateUsage]
    # A shut-down socket reads end of file at once; a live one has nothing to read.
    sock.setblocking(False)
    if taken:
        assert sock.recv(1) == b""
    else:
        with pytest.raises(BlockingIOError):
            sock.recv(1)
    watchdog.disarm()


@pytest.mark.parametrize(("version", "taken"), [(b"HTTP/1.1", True), (b"HTTP/1.0", True),
                                                (b"HTTP/2", False)])  # fmt: skip
def test_async_watchdog_arms_only_on_a_dedicated_connection(
    sock: socket.socket, version: bytes, taken: bool
) -> None:
    async def check() -> None:
        watchdog = httpx_async._Watchdog()  # pyright: ignore[reportPrivateUsage]
        watchdog.use(_response(version, sock))
        watchdog.arm(60.0)
        assert watchdog.armed is taken
        watchdog.disarm()

    asyncio.run(check())
