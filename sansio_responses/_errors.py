"""The exception tree.

Modelled on h11: ``ProtocolError`` splits into ``RemoteProtocolError`` (the bytes the peer sent are
wrong) and ``LocalProtocolError`` (the caller used the object wrongly). Every remote error says *where*:
the byte offset of the offending event in the body and, when known, its ``sequence_number``, plus a
short excerpt of the offending data. Raising never destroys state: the stream's snapshot stays readable.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "EventTooLarge",
    "LocalProtocolError",
    "ProtocolError",
    "RemoteProtocolError",
    "TruncatedStream",
]

_EXCERPT = 120


def excerpt(text: str, limit: int = _EXCERPT) -> str:
    """A short, single-line ``repr``-style excerpt of *text* for error messages."""
    if len(text) > limit:
        return repr(text[:limit]) + f"... ({len(text)} chars)"
    return repr(text)


def _rebuild(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    """An error of class *cls* with *args* and the attributes *state*, without calling its
    ``__init__`` (see :func:`reduce_error`)."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


def reduce_error(error: BaseException) -> tuple[Any, ...]:
    """``__reduce__`` of an error whose ``__init__`` takes other arguments than its ``args``.

    ``BaseException`` pickles as ``cls(*args)`` plus its ``__dict__``: with keyword-only or
    several required arguments that call fails on load (an event caching a raised error, a
    diagnostic sent to another process). Rebuilt from its ``args`` and attributes instead.
    """
    return (_rebuild, (type(error), error.args, dict(error.__dict__)))


class ProtocolError(Exception):
    """Base class of every error raised by the protocol objects.

    Attributes:
        message: what went wrong, in words.
        offset: byte offset in the body where the offending event starts, or ``None``.
        sequence_number: the offending event's ``sequence_number`` when it had one, else ``None``.
        excerpt: a short excerpt of the offending data, or ``None``.
        events: the events that the failing ``feed()`` / ``close()`` call decoded before the error
            (empty when raised elsewhere), so that nothing already decoded is lost.
    """

    def __init__(
        self,
        message: str,
        *,
        offset: int | None = None,
        sequence_number: int | None = None,
        excerpt: str | None = None,
    ) -> None:
        self.message = message
        self.offset = offset
        self.sequence_number = sequence_number
        self.excerpt = excerpt
        self.events: list[Any] = []
        super().__init__(self._render())

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_error(self)

    def _render(self) -> str:
        where: list[str] = []
        if self.sequence_number is not None:
            where.append(f"sequence_number {self.sequence_number}")
        if self.offset is not None:
            where.append(f"byte offset {self.offset}")
        text = self.message
        if where:
            text += " (at " + ", ".join(where) + ")"
        if self.excerpt is not None:
            text += f": {self.excerpt}"
        return text


class RemoteProtocolError(ProtocolError):
    """The peer sent bytes that break the protocol (invalid JSON, wrong field types, ...)."""


class LocalProtocolError(ProtocolError):
    """The caller misused a protocol object (for example, fed it after ``close()``)."""


class EventTooLarge(RemoteProtocolError):
    """One event grew past ``max_event_size`` bytes before its terminating blank line.

    Attributes:
        limit: the configured ``max_event_size``.
    """

    def __init__(self, message: str, *, limit: int, offset: int | None = None) -> None:
        self.limit = limit
        super().__init__(message, offset=offset)


class TruncatedStream(RemoteProtocolError):
    """The body ended before a terminal event (``response.completed``, ``[DONE]``, ...) arrived.

    The stream's ``outcome`` is ``"truncated"`` and its snapshot holds everything decoded so far.
    """


class SchemaError(ValueError):
    """Internal: a decoded JSON value does not have the shape its wire type requires.

    Raised by the model and event constructors with a dotted *path* to the offending field; the streams
    catch it and raise a :class:`RemoteProtocolError` that adds the byte offset, sequence number and an
    excerpt. Not part of the public API.
    """

    def __init__(self, path: str, expected: str, got: object) -> None:
        self.path = path
        self.expected = expected
        self.got = got
        super().__init__(
            f"field {path!r}: expected {expected}, got {type(got).__name__} {got!r:.60}"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_error(self)
