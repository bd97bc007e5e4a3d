"""Parsed values of structured outputs and tool arguments, final and partial, computed only if read.

A growing JSON field (function-call arguments, MCP arguments, custom tool input, and structured
output text) gets a :class:`LazyJSON` next to its text builder. Each delta is only *queued* (one list
append); the incremental :class:`~sansio_responses.PartialJSON` parser consumes the queue when someone
reads a ``parsed`` value, continuing from where it stopped, so reading after every delta costs linear
time over the whole stream and never reading costs nothing. Reading an old event's value after later
deltas were parsed re-parses that prefix from scratch (correct, and only paid by that late read).

The partial value is the parser's live tree: it only grows, and callers that keep one across deltas
must copy it. Final values are parsed from the complete text with :func:`parse_json_text`; invalid
JSON there is an :class:`~sansio_responses.OutputParseError` carrying the raw text, raised when the
value is read, never from ``feed``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._parsing import parse_json_text
from ._partial_json import PartialJSON

__all__ = ["LazyJSON", "final_parser"]


class LazyJSON:
    """The partial JSON value of a text built from deltas, parsed on demand."""

    __slots__ = ("_fed", "_parser", "_pending", "_pushed", "_start")

    def __init__(self) -> None:
        self._parser = PartialJSON()
        self._pending: list[str] = []
        self._pushed = 0  # deltas pushed so far
        self._fed = 0  # deltas the parser has consumed
        self._start = 0  # the parser began at this delta (a reset starts a new parser)

    def push(self, delta: str) -> None:
        self._pending.append(delta)
        self._pushed += 1

    def reset(self, text: str) -> None:
        """The text was replaced by an authoritative value (a ``.done`` event)."""
        self._parser = PartialJSON()
        self._pending = [text]
        self._start = self._fed = self._pushed
        self._pushed += 1

    def value(self) -> Any:
        """The best partial value of everything pushed so far."""
        return self._value_at(self._pushed, None)

    def reader(self, prefix: Callable[[], str]) -> Callable[[], Any]:
        """A function giving the partial value as of now (for an event's lazy ``parsed``)."""
        count = self._pushed
        return lambda: self._value_at(count, prefix)

    def _value_at(self, count: int, prefix: Callable[[], str] | None) -> Any:
        if count >= self._fed and (count > self._start or not self._start):
            take = count - self._fed
            if take:
                feed = self._parser.feed
                for piece in self._pending[:take]:
                    feed(piece)
                del self._pending[:take]
                self._fed = count
            return self._parser.value
        # An older delta read after newer ones were parsed: parse its prefix afresh.
        assert prefix is not None
        parser = PartialJSON()
        parser.feed(prefix())
        return parser.value


def final_parser(text: Callable[[], str], parser: Callable[[Any], Any] | None) -> Callable[[], Any]:
    """A function parsing the complete *text* (and converting it with *parser*) when called."""
    return lambda: parse_json_text(text(), parser)
