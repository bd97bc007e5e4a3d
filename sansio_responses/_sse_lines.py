"""The event-stream line rules: complete lines in, dispatched events out.

WHATWG HTML §9.2.6 "Interpreting an event stream": each complete line is a comment, a field
(``data``, ``event``, ``id``, ``retry``; any other name ignored) or a blank line, which dispatches
the block's event when its data buffer is non-empty and always sets the last event ID.
:class:`LineMachine` holds the state of the block being read (its data values, event type,
retry, size against ``max_event_size``) and the stream-wide values the spec keeps; the framing
of bytes into lines (and the block fast path) is :class:`~sansio_responses._sse.SSEDecoder`'s,
which is a :class:`LineMachine`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

import attrs

from ._errors import EventTooLarge, ProtocolError

__all__ = ["TYPE_CACHE_BYTES", "TYPE_CACHE_SIZE", "LineMachine", "ServerSentEvent"]

# A retry value is "only ASCII digits"; CPython refuses int() on > 4300 digits, and anything past
# 10 significant digits (~115 days in milliseconds) is not a meaningful reconnection time: ignored.
_MAX_RETRY_DIGITS = 10
# Every this many bytes of one event, join its data values gathered so far into one bytearray:
# many tiny `data:` lines would otherwise cost a Python object each (~40 bytes per 8-byte line).
_COMPACT_EVERY = 64 * 1024
# Event types are few and repeated: cache their decoded (and thus shared) strings, bounded.
TYPE_CACHE_SIZE = 256
# ... of at most this many bytes each (a type is a few dozen bytes; the cache stays under 64 KiB
# plus the strings' headers, whatever types a server sends).
TYPE_CACHE_BYTES = 256


@attrs.frozen
class ServerSentEvent:
    """One dispatched event (WHATWG §9.2.6, "dispatch the event").

    Attributes:
        event: the event type; ``"message"`` when the block had no (or an empty) ``event`` field.
        data: the data buffer: the ``data`` field values joined with ``"\\n"``.
        id: the last event ID string at dispatch. Sticky: it carries over from earlier blocks until
            an ``id`` field changes it (an empty ``id`` resets it to ``""``).
        retry: the last valid ``retry`` value parsed within this event's block, else ``None``. The
            stream-wide reconnection time is :attr:`SSEDecoder.reconnection_time`.
    """

    event: str = "message"
    data: str = ""
    id: str = ""
    retry: int | None = None


def _compact(parts: list[bytes | bytearray]) -> list[bytes | bytearray]:
    """Join the data values *parts* into one bytearray (amortised linear: earlier ones stay)."""
    if len(parts) < 2:
        return parts
    head = parts[0]
    joined = head if type(head) is bytearray else bytearray(head)
    joined += b"\n"
    joined += b"\n".join(parts[1:])
    return [joined]


def _parse_retry(value: bytes) -> int | None:
    """The retry value if it "consists of only ASCII digits" (WHATWG §9.2.6), else ``None``."""
    # bytes.isdigit() is ASCII-only and False for b"", unlike int() which accepts "+5", " 5",
    # "1_000" and non-ASCII digits.
    if not value.isdigit():
        return None
    significant = value.lstrip(b"0")
    if len(significant) > _MAX_RETRY_DIGITS:
        return None
    return int(significant) if significant else 0


class LineMachine:
    """The line interpreter of :class:`~sansio_responses._sse.SSEDecoder` (WHATWG §9.2.6).

    Args:
        limit: the most bytes one event may occupy (``sys.maxsize``: unlimited); see
            ``SSEDecoder``'s ``max_event_size``.
        report_comments: :meth:`_lines` (for ``feed_raw``) appends ``("", "", offset)`` per
            comment line.
    """

    __slots__ = (
        "_block_retry",
        "_block_size",
        "_block_start",
        "_bytes_over",
        "_check_at",
        "_data",
        "_etype",
        "_first_check",
        "_id_buf",
        "_keep_bytes",
        "_limit",
        "_report_comments",
        "_types",
        "comments",
        "last_event_id",
        "reconnection_time",
    )

    def __init__(self, limit: int, report_comments: bool) -> None:
        self._limit = limit
        # feed_raw() reports each comment line as ("", "", offset) in order with the events, so a
        # caller that records keep-alives sees the same order whatever the chunking.
        self._report_comments = report_comments
        # The current block: data values, event type buffer, retry, size, start offset (-1: none).
        self._data: list[bytes | bytearray] = []
        self._etype = b""
        self._block_retry: int | None = None
        self._block_size = 0
        self._block_start = -1
        # Block size at which the data values are next compacted or the limit checked.
        self._first_check = self._check_at = min(limit, _COMPACT_EVERY)
        self._id_buf = ""
        self._types: dict[bytes, str] = {}
        # feed_raw() returns each event's data as the bytes received (not decoded), for a JSON
        # decoder that reads UTF-8 itself (orjson: set by ResponsesStream). Invalid UTF-8 is then
        # the caller's to replace (decode("utf-8", "replace") gives what feed_raw returns
        # otherwise). feed() always decodes.
        self._keep_bytes = False
        # ... and only for data longer than this many bytes (set by ResponsesStream, which
        # decodes its large events from the bytes, see EventStreamBase._load_big): one large
        # event is then held once, as received, not also as a str of up to four times its size.
        self._bytes_over = sys.maxsize
        self.last_event_id = ""
        self.reconnection_time: int | None = None
        self.comments = 0

    def _too_large(self, start: int) -> EventTooLarge:
        return EventTooLarge(
            f"event exceeds max_event_size ({self._limit} bytes) before its terminating blank line",
            limit=self._limit,
            offset=start,
        )

    def _end_comment(self, start: int, full: bool, out: list[Any]) -> None:
        """Count (and report, for feed_raw) a comment line begun at *start* in an earlier chunk."""
        self.comments += 1
        if self._report_comments and not full:
            out.append(("", "", start))

    def _lines(
        self, lines: list[bytes], seps: Iterable[int], pos: int, full: bool, out: list[Any]
    ) -> ProtocolError | None:
        """Interpret complete *lines* (WHATWG §9.2.6), appending to *out*; return an error that
        stops them (the caller raises it after the events in *out*). *pos* is the first line's
        offset."""
        append = out.append
        parts = self._data
        etype = self._etype
        retry = self._block_retry
        size = self._block_size
        start = self._block_start
        id_buf = self._id_buf
        limit = self._limit
        check = self._check_at
        types = self._types
        ncomments = 0
        error: ProtocolError | None = None
        for line, sep in zip(lines, seps, strict=False):
            if line:
                if line[0] == 0x3A:  # ":" (a literal: cheaper than a global lookup)
                    # "If the line starts with a U+003A COLON character (:): Ignore the line."
                    ncomments += 1
                    if self._report_comments and not full:
                        append(("", "", pos))
                else:
                    if start < 0:
                        start = pos
                    size += len(line)
                    if size > check:
                        if size > limit:
                            error = self._too_large(start)
                            break
                        parts = _compact(parts)
                        check = min(limit, size + _COMPACT_EVERY)
                    # The commonest lines first, sliced once: "data: " and "event: " with the
                    # one space the spec removes (same result as the general rule below).
                    if line.startswith(b"data: "):
                        pos += len(line) + sep
                        if isinstance(line, bytearray):
                            # A long line completed over several chunks (see _completed): its
                            # buffer becomes the value in place, no copy of it is made.
                            del line[:6]
                            parts.append(line)
                        else:
                            parts.append(line[6:])
                        continue
                    if line.startswith(b"event: "):
                        etype = line[7:]
                        pos += len(line) + sep
                        continue
                    # Field name up to the first colon (literal comparison, no case folding);
                    # one leading U+0020 removed from the value; no colon: empty value.
                    name, _, value = line.partition(b":")
                    if value[:1] == b" ":
                        value = value[1:]
                    if name == b"data":
                        parts.append(value)
                    elif name == b"event":
                        etype = value
                    elif name == b"id":
                        # "If the field value does not contain U+0000 NULL" (a NUL byte in UTF-8).
                        if 0 not in value:
                            id_buf = value.decode("utf-8", "replace")
                    elif name == b"retry":
                        value_retry = _parse_retry(value)
                        if value_retry is not None:
                            retry = self.reconnection_time = value_retry
                    # Any other field name: "The field is ignored."
            else:
                # Blank line: dispatch. The last event ID string is set even if nothing fires.
                self.last_event_id = id_buf
                if parts:
                    # One LF between values and none trailing, i.e. the buffer minus its last LF.
                    # Decoding the joined bytes equals decoding line by line (LF is ASCII).
                    raw = parts[0] if len(parts) == 1 else b"\n".join(parts)
                    if full or not (self._keep_bytes or len(raw) > self._bytes_over):
                        text = raw.decode("utf-8", "replace")
                    else:
                        text = raw  # type: ignore[assignment]  # (see _keep_bytes)
                    del raw  # for one large event, keep one copy of its data alive, not two
                    if etype:
                        event = types.get(etype)
                        if event is None:
                            event = etype.decode("utf-8", "replace")
                            if len(types) < TYPE_CACHE_SIZE and len(etype) <= TYPE_CACHE_BYTES:
                                types[etype] = event
                    else:
                        event = "message"
                    if full:
                        append(ServerSentEvent(event, text, id_buf, retry))  # pyright: ignore[reportArgumentType]  # full: text is a str
                    else:
                        append((event, text, start))
                    parts = []
                etype = b""
                retry = None
                size = 0
                check = self._first_check
                start = -1
            pos += len(line) + sep
        self._data = parts
        self._etype = etype
        self._block_retry = retry
        self._block_size = size
        self._check_at = check
        self._block_start = start
        self._id_buf = id_buf
        self.comments += ncomments
        return error
