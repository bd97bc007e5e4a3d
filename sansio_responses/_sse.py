"""The event-stream (``text/event-stream``) decoder: bytes in, server-sent events out.

Follows WHATWG HTML §9.2.5 "Parsing an event stream" and §9.2.6 "Interpreting an event stream":
always UTF-8 with replacement of invalid bytes, one leading BOM stripped, CRLF/LF/CR line endings
only, comments ignored, events dispatched on blank lines only when the data buffer is non-empty,
the last event ID sticky across events, and an unterminated final event discarded at end of body.

Sans-IO: :class:`SSEDecoder` never reads anything; feed it the body in chunks split anywhere and it
returns the events each chunk completes. Cost is linear in the bytes fed whatever the chunking: an
open line is kept in a ``bytearray`` and never rescanned, and runs of complete lines are split with
``bytes.split``/``re.split`` at C speed. Blocks of the shapes the OpenAI API sends (``event:`` and
``data:``, or ``data:`` alone) are read straight from the chunk with ``find``/``startswith``, and
the start of such a block cut by chunk boundaries is held as received until the chunk that ends it
(``SSEDecoder._blocks``; the holding and the heads are ``_sse_held``'s); everything else takes the
line rules (``_sse_lines``). Memory for one event is bounded by ``max_event_size``.
"""

from __future__ import annotations

import re
import sys
from itertools import repeat
from typing import Any

from ._errors import LocalProtocolError, ProtocolError
from ._sse_held import HeldStart
from ._sse_lines import ServerSentEvent

__all__ = ["DEFAULT_MAX_EVENT_SIZE", "SSEDecoder", "ServerSentEvent"]

DEFAULT_MAX_EVENT_SIZE: int = 32 * 1024 * 1024
"""Default bound on the bytes of one event (32 MiB).

Big enough for Responses API events that carry a whole response (``response.completed``) or base64
image data, which a 1 MiB limit (httpx2's default) would reject.
"""

_BOM = b"\xef\xbb\xbf"
_COLON = 0x3A
_LF = 0x0A
_CR = 0x0D
# WHATWG §9.2.5: the only line endings are CRLF, LF and CR ("\r\n" must be tried before "\r").
# Python's str.splitlines() also splits on VT, FF, U+2028 etc., which the spec forbids.
_LINE_END = re.compile(rb"(\r\n|\r|\n)")


def _completed(line: bytearray) -> bytes | bytearray:
    """The open line *line*, now complete, as it goes to the line machine.

    A ``data:`` line is handed over as the buffer itself (the machine strips its field name in
    place): a large event arrives over many chunks as one such line, and copying it into
    ``bytes`` and then slicing off ``data: `` would hold it three times. Any other line is
    copied into ``bytes`` (its value may become a dict key, such as the event type).
    """
    return line if line.startswith(b"data: ") else bytes(line)


class SSEDecoder(HeldStart):
    """Incremental, sans-IO decoder of a ``text/event-stream`` body.

    Feed the body's bytes with :meth:`feed` (or :meth:`feed_raw`, the fast path) in chunks split
    anywhere; each call returns the events that the chunk completed, in order, with no delay: a CR
    at the end of a chunk ends its line at once and a following LF in the next chunk is swallowed.
    Call :meth:`close` at end of body: per the spec, an event missing its terminating blank line is
    not dispatched; it is recorded in :attr:`discarded` for diagnostics.

    Args:
        max_event_size: the most bytes one event may occupy, counting the bytes of every non-comment
            line of its block (field names included, line endings excluded), the open unterminated
            line included. Comment lines are never buffered and do not count. ``None`` means
            unlimited. Exceeding it raises :class:`~sansio_responses.EventTooLarge` as soon as a
            chunk would take the event past the limit, before that chunk is copied in. The memory
            held for one event thus stays near the limit (the data values of many small lines are
            joined every 64 KiB), plus, transiently, the lines of the chunk being processed.
        report_comments: make :meth:`feed_raw` also return one ``("", "", offset)`` tuple per
            comment line, in stream order with the events (an event type is never ``""``: an
            empty ``event`` field means ``"message"``). :meth:`feed` never reports comments.

    Attributes:
        last_event_id: the last event ID string (set from the ID buffer on every blank line, even
            when no event is dispatched; WHATWG §9.2.6).
        reconnection_time: the last valid ``retry`` value seen anywhere in the stream, or ``None``
            (values of more than 10 significant digits are ignored, as if invalid).
        offset: total bytes fed so far.
        comments: number of complete comment lines seen so far (servers send them as keep-alives).
        discarded: after :meth:`close`, the event the spec discarded because the body ended before
            its blank line, built as if that blank line had arrived (the unterminated last line, if
            any, processed as a complete line first); ``None`` if no data was pending.
        closed: whether :meth:`close` has been called.
        max_event_size: the configured limit (``None`` = unlimited).

    After an error the decoder is unusable: further calls raise
    :class:`~sansio_responses.LocalProtocolError`. If a chunk completes some events and then takes
    the next event past ``max_event_size``, the completed events are returned and the
    :class:`~sansio_responses.EventTooLarge` is raised by the next :meth:`feed`/:meth:`close` call
    (nothing more is buffered in between), so no dispatched event is ever lost.
    """

    __slots__ = (
        "_broken",
        "_head",
        "_in_comment",
        "_pending_error",
        "_skip_lf",
        "_slow",
        "closed",
        "discarded",
        "max_event_size",
        "offset",
    )

    def __init__(
        self, *, max_event_size: int | None = DEFAULT_MAX_EVENT_SIZE, report_comments: bool = False
    ) -> None:
        if max_event_size is not None and max_event_size < 0:
            raise ValueError(f"max_event_size must be >= 0 or None, got {max_event_size}")
        self.max_event_size = max_event_size
        super().__init__(sys.maxsize if max_event_size is None else max_event_size, report_comments)
        # The open (unterminated) line, unless it is a comment, which is never buffered.
        self._line = bytearray()
        self._in_comment = False
        # Absolute offset where the open line starts.
        self._line_start = 0
        # The previous chunk ended in CR: one LF at the start of the next chunk belongs to it.
        self._skip_lf = False
        # Bytes at offset 0 that may still turn out to be the BOM; None once decided.
        self._head: bytes | None = b""
        self._pending_error: ProtocolError | None = None
        self._broken: str | None = None
        # False when feed_raw() may take its shortcut: not closed or failed, BOM decided, no LF to
        # swallow.
        self._slow = True
        self.offset = 0
        self.discarded: ServerSentEvent | None = None
        self.closed = False

    def __repr__(self) -> str:
        return (
            f"<SSEDecoder offset={self.offset} last_event_id={self.last_event_id!r} "
            f"closed={self.closed}>"
        )

    # -- public API ---------------------------------------------------------------------------

    def feed(self, data: bytes | bytearray | memoryview) -> list[ServerSentEvent]:
        """Feed the next chunk of the body; return the events it completed, in order.

        Raises:
            EventTooLarge: an event grew past ``max_event_size``.
            LocalProtocolError: called after :meth:`close` or after an error.
        """
        return self._feed(data, True)

    def feed_raw(self, data: bytes | bytearray | memoryview) -> list[tuple[str, str, int]]:
        """Like :meth:`feed`, but return ``(event_type, data, start_offset)`` tuples.

        ``start_offset`` is the byte offset in the whole body where the event's first line (its
        first non-comment line after the previous blank line) began. This is the fast path: no
        :class:`ServerSentEvent` objects are built. The event's ``id`` is :attr:`last_event_id`
        right after the call when it is the last event returned. Mixable with :meth:`feed`.
        """
        # Shortcuts, when _feed()'s checks of the decoder's state are known to pass (not _slow)
        # and the chunk is bytes. A chunk with a line end (LF first: memchr stops at the first
        # one, where a CR test would read a large block whole, which _chunk() reads for CR
        # anyway) goes to _chunk(); a chunk inside a line (tiny chunks are common from some
        # transports) only extends the open line. Line starts, limit errors, CR and everything
        # else take _feed(). (Integer needles: `b"\n" in data` is several times slower.)
        if not self._slow and type(data) is bytes:
            n = len(data)
            held = self._held
            if _LF in data:
                if held is None:
                    self.offset += n
                    if (
                        data[n - 1] == _LF
                        and n > 7
                        and data[n - 2] == _LF
                        and not self._line
                        and not self._in_comment
                        and self._block_start < 0
                        and (got := self._one_block(data, n)) is not None
                    ):
                        return got
                    return self._chunk(data, n, False)
                if _CR not in data:
                    # The end of a held block's start: no check of _feed's applies.
                    self.offset += n
                    self._held = None
                    return self._after_held(held, data, n, False)
                return self._feed(data, False)
            if _CR in data:
                return self._feed(data, False)
            if held is not None:
                # The rest of a held block's start (small chunks): no check of _feed's applies.
                self.offset += n
                if len(held) + n > self._hold_max:
                    self._held = None
                    return self._after_held(held, data, n, False)
                held += data
                return []
            if self._in_comment:
                self.offset += n
                return []
            line = self._line
            if (line or (n and data[0] != _COLON)) and self._block_size + len(
                line
            ) + n <= self._limit:
                self.offset += n
                line += data
                return []
        return self._feed(data, False)

    def close(self) -> list[ServerSentEvent]:
        """Signal the end of the body. Always returns ``[]``.

        WHATWG §9.2.5: "Once the end of the file is reached, any pending data must be discarded."
        The event that was discarded, if any data was pending, is kept in :attr:`discarded`.
        Calling ``close()`` again is a no-op.

        Raises:
            EventTooLarge: a pending limit error from the last :meth:`feed` call.
            LocalProtocolError: the decoder failed earlier.
        """
        self._check_usable("close()")
        if self.closed:
            return []
        self.closed = self._slow = True
        if self._held is not None:
            self._absorb_held()
        # Build the discarded event as if a line end and a blank line had arrived, then restore
        # the stream-wide state the spec leaves untouched (the pending lines are discarded).
        if self._head is not None:
            pending = self._head
        elif self._in_comment:
            pending = b""
        else:
            pending = bytes(self._line)
        self._line = bytearray()
        last_id, reconnection = self.last_event_id, self.reconnection_time
        lines = [pending, b""] if pending else [b""]
        events: list[Any] = []
        self._lines(lines, repeat(1), self._line_start, True, events)
        self.last_event_id, self.reconnection_time = last_id, reconnection
        self.discarded = events[0] if events else None
        return []

    # -- internals ----------------------------------------------------------------------------

    def raise_pending(self) -> None:
        """Raise now an error that :meth:`feed_raw` deferred so it could return completed events.

        Callers that want :class:`EventTooLarge` at the moment the limit is passed (rather than on
        the next call) call this right after handling the events a feed returned.
        """
        if self._pending_error is not None:
            self._check_usable("feed()")

    def _check_usable(self, what: str) -> None:
        if self._broken is not None:
            raise LocalProtocolError(
                f"SSEDecoder.{what} called after the decoder failed ({self._broken}); "
                "it cannot be used any more"
            )
        error = self._pending_error
        if error is not None:
            self._pending_error = None
            self._broken = str(error)
            try:
                raise error
            finally:
                del error  # no frame -> traceback -> exception cycle holding buffers

    def _fail(self, error: ProtocolError, out: list[Any]) -> list[Any]:
        """Raise *error* now, or after returning *out* if the chunk completed events first."""
        # Emptied in place, not replaced: the frames of this call, kept alive by the traceback
        # on the error, still refer to these buffers (up to max_event_size bytes).
        self._line.clear()
        self._data.clear()
        self._held = None
        self._slow = True
        if out:
            self._pending_error = error
            return out
        self._broken = str(error)
        try:
            raise error
        finally:
            del error  # no frame -> traceback -> exception cycle holding the chunk's lines

    def _feed(self, data: bytes | bytearray | memoryview, full: bool) -> list[Any]:
        if self._broken is not None or self._pending_error is not None:
            self._check_usable("feed()")
        if self.closed:
            raise LocalProtocolError("SSEDecoder.feed() called after close()")
        if type(data) is not bytes:
            data = bytes(data)
        n = len(data)
        if not n:
            return []
        self.offset += n
        if self._head is not None:
            # WHATWG §9.2.5 / Encoding "UTF-8 decode": strip one leading BOM, which may arrive
            # split over several chunks; any later U+FEFF is ordinary text.
            head = self._head + data[: 3 - len(self._head)]
            if len(head) < 3 and _BOM.startswith(head):
                self._head = head
                return []
            if head == _BOM:
                data = data[3 - len(self._head) :]
                self._line_start = 3
            else:
                data = self._head + data
            self._head = None
            self._slow = self._skip_lf
            n = len(data)
            if not n:
                return []
        held = self._held
        if held is not None:
            self._held = None
            if _CR not in data:
                return self._after_held(held, data, n, full)
            held += data
            data = bytes(held)
            n = len(data)
        return self._chunk(data, n, full)

    def _chunk(self, data: bytes, n: int, full: bool) -> list[Any]:
        """Feed *data* (*n* > 0 bytes, counted in :attr:`offset`, the BOM decided, nothing
        held): :meth:`_feed` once it has checked the decoder's state."""
        base = self.offset - n  # absolute offset of data[0]
        i = 0
        if self._skip_lf:
            # The previous chunk ended with CR; an LF here completes that CRLF (WHATWG §9.2.5).
            self._skip_lf = False
            self._slow = False
            if data[0] == _LF:
                i = 1
                self._line_start += 1
                if n == 1:
                    return []
        lf = data.rfind(_LF, i)
        cr = data.rfind(_CR, i)
        if lf < 0 and cr < 0:
            # No line end: the chunk extends the open line.
            if self._in_comment:
                return []
            if not self._line and data[i] == _COLON:
                self._in_comment = True
                return []
            if self._block_size + len(self._line) + n - i > self._limit:
                start = self._block_start if self._block_start >= 0 else self._line_start
                return self._fail(self._too_large(start), [])
            self._line += memoryview(data)[i:] if i else data
            return []
        seps: list[int] | repeat[int]
        if cr < 0 and not i:
            # Commonest case of all (what the OpenAI API sends): LF-only line endings with at
            # least one blank line in the chunk. Whole blocks are read at once (_blocks).
            end = data.rfind(b"\n\n", 0, lf + 1)  # (not into an open line after the last LF)
            if end >= 0:
                return self._blocks(data, base, end, full)
        if cr < 0:
            # Common case: LF-only line endings, split at C speed.
            # Splitting the whole chunk avoids copying it into a slice first.
            last = lf
            if n - lf > lf:
                # A long open line after the last LF (the start of a large event): only the
                # lines before it are split, so it is copied once, into the open line.
                lines = data[:lf].split(b"\n")
            else:
                lines = data.split(b"\n")
                lines.pop()  # the tail after the last LF, handled below
            if i:
                del lines[0]  # the empty piece before the LF that completed a CRLF
            seps = repeat(1)
        elif lf > cr and (region := data[i : lf + 1]).count(_CR) == region.count(
            b"\r\n"
        ) == region.count(_LF):
            # Every line end is CRLF (another common form): split on it, also at C speed.
            last = lf
            lines = region[:-2].split(b"\r\n")
            seps = repeat(2)
        else:
            last = lf if lf > cr else cr
            parts = _LINE_END.split(data[i : last + 1])
            lines = parts[0::2]
            lines.pop()  # the empty piece after the final line end
            seps = [len(sep) for sep in parts[1::2]]
            if cr == n - 1:
                self._skip_lf = self._slow = True
        pos = self._line_start
        out: list[Any] = []
        if self._in_comment:
            # The rest of a comment line begun in an earlier chunk: one comment line, reported
            # at the offset where it began, then skipped.
            self._in_comment = False
            self._end_comment(pos, full, out)
            pos = base + i + len(lines[0]) + (seps.pop(0) if isinstance(seps, list) else next(seps))
            del lines[0]
        elif self._line:
            # Check before copying the rest of the open line in.
            if self._block_size + len(self._line) + len(lines[0]) > self._limit:
                start = self._block_start if self._block_start >= 0 else pos
                return self._fail(self._too_large(start), [])
            self._line += lines[0]
            lines[0] = _completed(self._line)  # type: ignore[assignment]
            self._line = bytearray()
        error = self._lines(lines, seps, pos, full, out)
        if error is not None:
            return self._fail(error, out)
        # The tail after the last line end opens the next line.
        self._line_start = start = base + last + 1
        if start < base + n:
            if data[last + 1] == _COLON:
                self._in_comment = True
            elif self._block_size + n - last - 1 > self._limit:
                bstart = self._block_start if self._block_start >= 0 else start
                return self._fail(self._too_large(bstart), out)
            else:
                self._line = bytearray(memoryview(data)[last + 1 :])
        return out

    def _one_block(self, data: bytes, n: int) -> list[Any] | None:
        """The event of *data* (*n* bytes, counted in :attr:`offset`) for :meth:`feed_raw`, if
        it is one whole block of the API's shapes, else ``None`` (then :meth:`_chunk`).

        The caller has found the chunk ending with a blank line at a block boundary (nothing
        open or buffered): what a server that writes whole events sends, one per read, and a
        large event (a ``response.completed``) fed whole. Such a block is read as :meth:`_blocks`
        reads it, without the chunk's line-end searches and its loop: its payload's end found
        once (``find``), the chunk tested for CR once (``in``), the payload copied once.
        """
        shape = self._shape
        if not data.startswith(shape[0]):
            got = self._shape_at(data, 0)
            if got is None:
                return None
            shape = got
        skip = shape[2]
        at = n - 2
        if data.find(b"\n", skip) != at or _CR in data or at > self._limit:
            return None  # (several blocks or lines, a CR, or a block at the limit: _chunk)
        self._shape = shape
        self._line_start = self.offset
        self.last_event_id = self._id_buf  # (the blank line, WHATWG §9.2.6)
        payload = data[skip:at]
        if self._keep_bytes or at - skip > self._bytes_over:
            return [(shape[1], payload, self.offset - n)]
        return [(shape[1], payload.decode("utf-8", "replace"), self.offset - n)]

    def _blocks(self, data: bytes, base: int, end: int, full: bool) -> list[Any]:
        """Feed an LF-only chunk whose last blank line starts at *end* (``data[0]`` at *base*).

        Each complete block that is exactly ``event: <type>\\ndata: <payload>`` or
        ``data: <payload>`` (what the OpenAI API sends) is dispatched straight from the chunk's
        bytes, without the line-by-line loop. Everything else (the rest of a block begun in an
        earlier chunk, comments, ``id:``/``retry:`` fields, several ``data:`` lines, a field
        without its space, extra blank lines, a block longer than the limit) goes through
        :meth:`_lines`, so the result is the line machine's, whatever the chunking. Blocks are
        cut as ``data.split(b"\\n\\n")`` would cut them. The part after the last blank line
        opens the next block, as in :meth:`_feed`.
        """
        out: list[Any] = []
        append = out.append
        find = data.find
        pos = 0
        lines: list[bytes]
        if self._line or self._in_comment or self._block_start >= 0:
            # A block (or line) begun in an earlier chunk: its end takes the line machine, which
            # also joins the open line and checks the limit. Its last line and the blank line:
            lf = find(b"\n")  # the end of the line open at the chunk's start
            if data[lf + 1] == 10:
                # ... which ends the block (a large event that this chunk ends): its rest is
                # copied into the open line once, not sliced and split first.
                first = lf
                lines = [b"", b""]  # (the line, set below)
            else:
                first = find(b"\n\n", lf + 1)
                lines = data[:first].split(b"\n")
                lines.append(b"")
            line_pos = self._line_start
            if self._in_comment:
                # The rest of a comment line: one comment line, as in _feed.
                self._in_comment = False
                self._end_comment(line_pos, full, out)
                line_pos = base + lf + 1
                del lines[0]
            elif self._line:
                if self._block_size + len(self._line) + lf > self._limit:
                    start = self._block_start if self._block_start >= 0 else line_pos
                    return self._fail(self._too_large(start), out)
                self._line += memoryview(data)[:lf]
                lines[0] = _completed(self._line)  # type: ignore[assignment]
                self._line = bytearray()
            elif first == lf:
                lines[0] = data[:lf]
            error = self._lines(lines, repeat(1), line_pos, full, out)
            if error is not None:
                return self._fail(error, out)
            pos = first + 2
        # From here on every block starts at a block boundary: no open line, nothing buffered.
        # One pass of finds over the chunk: a block's head (its "event: " line and "data: ", or
        # "data: " alone) is matched with the last one met, its payload ends at the next LF
        # (memchr), and an LF right after that ends the block. The payload is the one copy made.
        id_buf = self._id_buf
        keep = self._keep_bytes
        big = self._bytes_over
        # Only a chunk longer than these can hold a whole block with such data, or a block past
        # the limit: one test per chunk keeps the per-event cost of the common case unchanged.
        huge = len(data) > big
        limit = self._limit if len(data) > self._limit else -1
        starts = data.startswith
        head, event, skip = self._shape
        while pos <= end:  # a blank line at or after pos: a complete block starts at pos
            if starts(head, pos):
                at = find(b"\n", pos + skip)
            elif data[pos] == 10:
                # A blank line where a block starts changes nothing: no data is buffered, and
                # the last event ID is already the ID buffer (set by the blank line before).
                pos += 1
                continue
            elif (shape := self._shape_at(data, pos)) is not None:
                head, event, skip = self._shape = shape
                at = find(b"\n", pos + skip)
            else:
                at = -1
            # data[end] is an LF at or after pos + skip (a head holds no blank line): at <= end.
            if at >= 0 and data[at + 1] == 10 and (limit < 0 or at - pos <= limit):
                payload = data[pos + skip : at]
                if full:  # (feed() decodes whatever _keep_bytes says, as _lines does)
                    append(ServerSentEvent(event, payload.decode("utf-8", "replace"), id_buf, None))
                elif keep:
                    append((event, payload, base + pos))
                else:
                    append(
                        (
                            event,
                            payload
                            if huge and len(payload) > big
                            else payload.decode("utf-8", "replace"),
                            base + pos,
                        )
                    )
                pos = at + 2
                continue
            # Any other block: the line machine, from its start to the next blank line (found
            # LF by LF with memchr, not with a two-byte search: the lines are split anyway).
            if at < 0:
                at = find(b"\n", pos)
            while data[at + 1] != 10:
                at = find(b"\n", at + 1)
            lines = data[pos:at].split(b"\n")
            lines.append(b"")
            error = self._lines(lines, repeat(1), base + pos, full, out)
            if error is not None:
                return self._fail(error, out)
            id_buf = self._id_buf
            pos = at + 2
        # Every blank line sets the last event ID from the ID buffer (WHATWG §9.2.6).
        self.last_event_id = id_buf
        # The tail opens the next block: its complete lines (if any) take the line machine.
        self._line_start = start = base + pos
        n = len(data)
        if pos == n:
            return out
        if n - pos <= self._hold_max and self._holds(tail := data[pos:]):
            self._held = bytearray(tail)  # see _held: the chunk is LF-only (no CR)
            return out
        # (A long tail, such as the start of a large event, is copied once: into the open line.)
        lf = data.rfind(_LF, pos)
        if lf >= 0:
            lines = data[pos:lf].split(b"\n")
            error = self._lines(lines, repeat(1), start, full, out)
            if error is not None:
                return self._fail(error, out)
            pos = lf + 1
            self._line_start = start = base + pos
            if pos == n:
                return out
        if data[pos] == _COLON:
            self._in_comment = True
        elif self._block_size + n - pos > self._limit:
            bstart = self._block_start if self._block_start >= 0 else start
            return self._fail(self._too_large(bstart), out)
        else:
            self._line = bytearray(memoryview(data)[pos:])
        return out
