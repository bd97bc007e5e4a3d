"""Reconnecting a dropped Responses WebSocket, sans-IO: when to try again, and what waits to be sent.

The rules are the official SDK's (3.57, ``_websocket_connection.py`` and
``types/websocket_reconnection.py``): a close with a recoverable code (RFC 6455 section 7.4.1:
1001, 1005, 1006, 1011, 1012, 1013, 1015) is retried up to ``max_retries`` (5) times, attempt *n*
waiting ``min(initial_delay * 2**(n-1), max_delay)`` (0.5 s up to 8 s) less up to a quarter of
jitter; the count starts again once a non-``error`` event arrives on the new socket. Messages sent
while no socket is open wait in a :class:`SendQueue` bounded in bytes (1 MiB) and are flushed, in
order, when one opens.

What happens to the responses in flight is the connection's business
(:meth:`ResponsesConnection.connection_lost`): they end ``"truncated"`` and are not sent again.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

from .._errors import LocalProtocolError
from .._http.policies import RetryPolicy

__all__ = [
    "DEFAULT_MAX_QUEUE_BYTES",
    "DEFAULT_MAX_RECONNECTS",
    "RECOVERABLE_CLOSE_CODES",
    "QueueFull",
    "ReconnectPolicy",
    "SendQueue",
]

#: The SDK's ``max_retries`` for a WebSocket connection.
DEFAULT_MAX_RECONNECTS = 5

#: The SDK's ``max_queue_size``: bytes of messages that may wait for a socket.
DEFAULT_MAX_QUEUE_BYTES = 1 << 20

#: Close codes worth reconnecting after (RFC 6455 section 7.4.1; the SDK's set).
RECOVERABLE_CLOSE_CODES: frozenset[int] = frozenset({1001, 1005, 1006, 1011, 1012, 1013, 1015})


class ReconnectPolicy:
    """Whether, and after how long, to open a new socket after the connection dropped.

    The backoff is :class:`RetryPolicy`'s (one implementation): ``min(initial_delay * 2**n,
    max_delay) * (1 - 0.25 * rand())`` before attempt ``n + 1``. Stateless: the caller counts the
    attempts (:class:`ResponsesConnection` does, see ``reconnect_delay``).

    Args:
        max_retries: reconnect attempts after one drop; 0 turns reconnecting off.
        initial_delay: seconds before the first attempt.
        max_delay: the longest wait, in seconds.
        recoverable: the close codes worth reconnecting after.
        rand: the jitter source (``random.random``); tests pass a constant.
    """

    def __init__(
        self,
        max_retries: int = DEFAULT_MAX_RECONNECTS,
        *,
        initial_delay: float = 0.5,
        max_delay: float = 8.0,
        recoverable: frozenset[int] = RECOVERABLE_CLOSE_CODES,
        rand: Callable[[], float] = random.random,
    ) -> None:
        self._backoff = RetryPolicy(
            max_retries, initial_delay=initial_delay, max_delay=max_delay, rand=rand
        )
        self.max_retries = max_retries
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self.recoverable = recoverable

    def __repr__(self) -> str:
        return (
            f"ReconnectPolicy(max_retries={self.max_retries}, initial_delay={self.initial_delay}, "
            f"max_delay={self.max_delay})"
        )

    def delay(self, close_code: int | None, attempts: int) -> float | None:
        """Seconds to wait before reconnect attempt ``attempts + 1``, or ``None`` to give up.

        *close_code* is the code the socket closed with (``None``: it dropped without a close
        frame, RFC 6455's 1006); *attempts* how many reconnects this drop already had.
        """
        code = 1006 if close_code is None else close_code
        if code not in self.recoverable or attempts >= self.max_retries:
            return None
        return self._backoff.backoff(attempts)


class QueueFull(LocalProtocolError):
    """A message would take the :class:`SendQueue` past its ``max_bytes``; it was not queued."""


class SendQueue:
    """Messages waiting for a socket, in order, bounded by their total UTF-8 size.

    Args:
        max_bytes: the most bytes queued at once (default 1 MiB, the SDK's ``max_queue_size``).
    """

    def __init__(self, max_bytes: int = DEFAULT_MAX_QUEUE_BYTES) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(f"max_bytes must be an int >= 0, got {max_bytes!r}")
        self.max_bytes = max_bytes
        self._items: deque[tuple[str, int]] = deque()
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._items)

    @property
    def bytes(self) -> int:
        """The UTF-8 size of the queued messages."""
        return self._bytes

    def put(self, message: str) -> None:
        """Queue *message*; raises :class:`QueueFull` (queuing nothing) past ``max_bytes``."""
        size = len(message.encode("utf-8"))
        if self._bytes + size > self.max_bytes:
            raise QueueFull(
                f"send queue full: {self._bytes} bytes queued, a {size}-byte message would pass "
                f"max_bytes ({self.max_bytes})"
            )
        self._items.append((message, size))
        self._bytes += size

    def drain(self) -> list[str]:
        """Take every queued message, oldest first (to send on the new socket)."""
        items = [message for message, _ in self._items]
        self._items.clear()
        self._bytes = 0
        return items

    def requeue(self, messages: list[str]) -> None:
        """Put back *messages* (from :meth:`drain`) that could not be sent, ahead of the rest.

        Never refused: they were within the bound when queued.
        """
        for message in reversed(messages):
            size = len(message.encode("utf-8"))
            self._items.appendleft((message, size))
            self._bytes += size
