"""``ResponsesStream``: the one stateful object for a Responses API streaming body.

Bytes go in through :meth:`ResponsesStream.feed`; typed events come out, the snapshot accumulates, and
the outcome is set from the terminal events (``response.completed`` / ``incomplete`` / ``failed`` and the
``error`` event, per the API reference's "Streaming events"). The lifecycle, as a table you can print
with :func:`print_state_table`::

    state      event                                   next state   outcome
    open       response.created/queued/in_progress     open         -
    open       any delta / item / part event           open         -
    open       response.completed                      done         "completed"
    open       response.incomplete                     done         "incomplete"
    open       response.failed                         done         "failed"
    open       error                                   done         "error"
    open       end of body                             closed       "truncated" (close() raises)
    done       end of body                             closed       (unchanged)
    open/closed reconnect()                            open         None (resume: new body)

Sequence numbers (``sequence_number``, increasing by one per event) drive the tolerance rules: an event
whose number was already applied is a duplicate (a replayed prefix) and is neither applied nor returned;
gaps and reordering are applied and recorded. A resumed stream (after a dropped connection, fed the body
of ``GET /responses/{id}?stream=true&starting_after=N``) keeps its snapshot and skips what it has.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .._base import (
    DEFAULT_MAX_DIAGNOSTICS,
    DEFAULT_MAX_NESTING_DEPTH,
    SHARE_MIN,
    JSONLoads,
    JSONValue,
    Outcome,
)
from .._errors import (
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
    SchemaError,
    TruncatedStream,
    excerpt,
)
from .._json.parsing import function_tool_parsers, make_parser
from .._json.structured import final_parser
from .._sse import DEFAULT_MAX_EVENT_SIZE, ServerSentEvent
from .accumulate import (
    ACCUMULATION_RULES,
    DEFAULT_MAX_OUTPUT_ITEMS,
    Text,
)
from .events import (
    _BUILDERS,  # pyright: ignore[reportPrivateUsage]
    EVENT_TYPES,
    ResponseStreamEvent,
    ResponseTextDeltaEvent,
    _set_lazy,  # pyright: ignore[reportPrivateUsage]
    parse_event,
    text_delta_fits,
)
from .inline import InlineFeed
from .models import Response, UnknownOutputItem, output_item_from_dict
from .resume import Checkpoint

__all__ = [
    "DEFAULT_SEQUENCE_WINDOW",
    "OUTCOMES",
    "STATE_TABLE",
    "ResponsesStream",
    "format_accumulation_rules",
    "print_state_table",
]

#: Terminal event type -> outcome.
OUTCOMES: dict[str, Outcome] = {
    "response.completed": "completed",
    "response.incomplete": "incomplete",
    "response.failed": "failed",
    "error": "error",
}

_LIFECYCLE = frozenset({"response.created", "response.queued", "response.in_progress"})
_FINAL_PARSE = frozenset(
    {
        "response.output_text.done",
        "response.function_call_arguments.done",
        "response.custom_tool_call_input.done",
        "response.mcp_call_arguments.done",
    }
)
_KEEPALIVE = frozenset({"keepalive", "keep_alive", "ping", "response.keep_alive", "response.ping"})

#: The lifecycle as rows of (state, input, next state, outcome).
STATE_TABLE: tuple[tuple[str, str, str, str], ...] = (
    ("open", "response.created/queued/in_progress", "open", "-"),
    ("open", "delta / item / part event", "open", "-"),
    ("open", "response.completed", "done", "completed"),
    ("open", "response.incomplete", "done", "incomplete"),
    ("open", "response.failed", "done", "failed"),
    ("open", "error", "done", "error"),
    ("open", "end of body", "closed", "truncated (close() raises TruncatedStream)"),
    ("done", "end of body", "closed", "(unchanged)"),
    ("open/closed", "reconnect()", "open", "None: a resumed body follows"),
)

#: Default ``sequence_window``: how many sequence numbers above the contiguous prefix are
#: remembered for duplicate detection. Past it, the older half is given up at once (amortised O(1)
#: per event whatever the pattern): numbers in the holes below the kept ones then count as already
#: applied. Real streams number their events without holes and never get near it.
DEFAULT_SEQUENCE_WINDOW = 65536
_MAX_SEEN = DEFAULT_SEQUENCE_WINDOW


# The slot setters of the events that carry lazy ``snapshot`` / ``parsed`` helpers: writing the
# frozen slots directly is several times cheaper per delta than a generic setattr helper.
_Setter = Callable[[Any, Any], None]
_LAZY_SETTERS: dict[type[Any], tuple[_Setter, _Setter, _Setter]] = {
    cls: (cls._snapshot_fn.__set__, cls._parsed_fn.__set__, cls._snapshot_at.__set__)
    for cls in EVENT_TYPES.values()
    if hasattr(cls, "_snapshot_fn") and hasattr(cls, "_parsed_fn")
}


_TEXT_DELTA_SETTERS = _LAZY_SETTERS[ResponseTextDeltaEvent]
_TEXT_DELTA_BUILD = _BUILDERS["response.output_text.delta"]


def _prefix_fn(text: Text, n: int) -> Callable[[], str]:
    # Default arguments, not a closure, like the inline path's: an event's pickling reads them
    # (events.py, _reduce_lazy).
    def prefix(text: Text = text, n: int = n) -> str:
        return text.prefix(n)

    return prefix


def _attach_text(event: Any, text: Text, setters: tuple[_Setter, _Setter, _Setter]) -> None:
    """Give a delta event its lazy ``snapshot`` (and ``parsed``) from the builder it extended.

    A text not tracked as JSON: the builder and its length now (see ``_Snapshot`` in events.py);
    else a prefix function, which the JSON reader shares. The inline path (inline.py) does the
    same without the call.
    """
    set_snapshot, set_parsed, set_at = setters
    json = text.json
    if json is None:
        set_snapshot(event, text)
        set_at(event, text.length)
    else:
        prefix = _prefix_fn(text, text.length)
        set_snapshot(event, prefix)
        set_parsed(event, json.reader(prefix))


def _aligned(header: tuple[str, ...], table: Iterable[tuple[str, ...]]) -> str:
    rows = (header, *table)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )


def format_state_table() -> str:
    """The lifecycle table as aligned text (printed by ``python -m sansio_responses states``)."""
    return _aligned(("state", "input", "next", "outcome"), STATE_TABLE)


def format_accumulation_rules() -> str:
    """:data:`ACCUMULATION_RULES` as aligned text (printed by ``python -m sansio_responses rules``).

    One row per event type: the output item kind it may touch (``-``: it addresses no existing
    item) and what it does. An event aimed at an item of another kind leaves it unchanged
    (diagnostic ``wrong-item-type``; ``strict=True`` raises).
    """
    return _aligned(("event", "item kind", "action"), ACCUMULATION_RULES)


def print_state_table() -> str:
    """Print the lifecycle table to stdout; :func:`format_state_table` gives the text alone.

    The same text is returned too, so code written when this function only returned it keeps its
    value (``print(print_state_table())`` now shows the table twice).
    """
    table = format_state_table()
    print(table)
    return table


class _Sequence:
    """Which sequence numbers were applied: a contiguous prefix ``<= floor`` plus a bounded set."""

    __slots__ = ("floor", "last", "seen", "window")

    def __init__(self, window: int = DEFAULT_SEQUENCE_WINDOW) -> None:
        self.floor = -1
        self.seen: set[int] = set()
        self.last: int | None = None
        self.window = window

    def copy(self) -> _Sequence:
        twin = _Sequence(self.window)
        twin.floor, twin.last, twin.seen = self.floor, self.last, set(self.seen)
        return twin

    def applied(self, n: int) -> bool:
        return n <= self.floor or n in self.seen

    def add(self, n: int) -> None:
        if n == self.floor + 1 and not self.seen:
            self.floor = n
        else:
            seen = self.seen
            seen.add(n)
            floor = self.floor
            while floor + 1 in seen:  # each number leaves the set once: amortised O(1)
                floor += 1
                seen.discard(floor)
            self.floor = floor
            if len(seen) > self.window:
                self._forget()
        if self.last is None or n > self.last:
            self.last = n

    def _forget(self) -> None:
        """Give up the older half of the remembered numbers: their holes are gone for good.

        Halving (rather than dropping one number per event) makes the O(n log n) sort run once per
        n/2 events, so the cost per event stays constant for any pattern of gaps.
        """
        ordered = sorted(self.seen)
        # The newest half of the window (not of the set: a stream resumed from one with a wider
        # window may hold more).
        keep = ordered[len(ordered) - self.window // 2 :]
        floor = keep[0] - 1 if keep else ordered[-1]
        seen = set(keep)
        while floor + 1 in seen:
            floor += 1
            seen.discard(floor)
        self.floor = floor
        self.seen = seen


class ResponsesStream(InlineFeed):
    """A Responses API streaming body, decoded incrementally.

    Args:
        max_event_size: the most bytes buffered for a single event before :class:`EventTooLarge`
            (default 32 MiB: real ``response.completed`` and image events run to megabytes).
        strict: turn every tolerated anomaly into a :class:`RemoteProtocolError`.
        max_diagnostics: how many :class:`Diagnostic` records are kept.
        json_loads: JSON decoder for the event data (default: orjson when importable, else the
            standard library).
        resume_from: continue an earlier stream whose connection dropped: start from its snapshot and
            last sequence number; feed this object the body of the resume request
            (``resume_request(response_id, starting_after=previous.last_sequence_number)``).
        starting_after: skip events with ``sequence_number <= starting_after`` (a resume without the
            earlier state, as ``GET /responses/{id}?stream=true&starting_after=N`` does on the server).
        text_format: the type of a structured output (an attrs class, dataclass, TypedDict, pydantic
            model, or any callable taking the decoded JSON). Output text is then tracked as JSON:
            text deltas get a partial ``parsed`` value, ``output_text.done`` a final one converted
            to this type, and :attr:`output_parsed` gives either. Without it, a response whose
            ``text.format`` is ``json_schema`` or ``json_object`` still gets plain JSON values.
        tools: the request's tools (Responses or Chat shape, or :class:`FunctionTool`): arguments of
            strict function tools are converted on ``function_call_arguments.done``, as the
            official SDK does; other arguments are parsed as plain JSON.
        max_nesting_depth: the deepest nesting of arrays and objects accepted in one event
            (default 256); deeper data raises a located :class:`RemoteProtocolError`.
        max_output_items: the most output items one response may have (default 10,000); one
            more raises a located :class:`RemoteProtocolError`. ``None`` disables it.
        sequence_window: how many sequence numbers above the contiguous prefix are remembered to
            tell duplicates (default 65,536, :data:`DEFAULT_SEQUENCE_WINDOW`). Past it the older
            half is given up at once, and numbers in its holes then count as already applied
            (``duplicate-sequence-number``). 0 remembers no holes: a number below the highest one
            applied is then a duplicate. Each remembered number holds about 75 bytes.
        events: ``False`` for the snapshot only (the official SDK's ``get_final_response()``
            use): :meth:`feed` and :meth:`close` then return ``[]``, and text deltas are applied
            without building their typed events, the bulk of a stream's cost after the JSON.
            Everything else is the same code on the same data: framing, JSON, validation (an
            event the typed path would refuse is refused with the same error), accumulation,
            :attr:`diagnostics`, :attr:`outcome`, the limits, :meth:`snapshot`,
            :attr:`terminal_event` and :attr:`error_event`. The exceptions raised carry
            ``events == []``.

    Attributes:
        outcome: ``None`` while open, then ``"completed"``, ``"incomplete"``, ``"failed"``,
            ``"error"``, ``"truncated"`` or ``"cancelled"`` (an :data:`Outcome`).
        diagnostics: tolerated anomalies, each a :class:`Diagnostic` (code, message, sequence number).
        terminal_event: the event that decided the outcome, if any.
        error_event: the ``error`` event, if one arrived.
    """

    def __init__(
        self,
        *,
        max_event_size: int | None = DEFAULT_MAX_EVENT_SIZE,
        strict: bool = False,
        max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS,
        json_loads: JSONLoads | None = None,
        resume_from: ResponsesStream | None = None,
        starting_after: int | None = None,
        text_format: object | None = None,
        tools: Iterable[Mapping[str, Any] | object] | None = None,
        max_nesting_depth: int | None = DEFAULT_MAX_NESTING_DEPTH,
        max_output_items: int | None = DEFAULT_MAX_OUTPUT_ITEMS,
        sequence_window: int = DEFAULT_SEQUENCE_WINDOW,
        events: bool = True,
    ) -> None:
        if type(sequence_window) is not int or sequence_window < 0:
            raise ValueError(f"sequence_window must be an int >= 0, got {sequence_window!r}")
        super().__init__(
            max_event_size=max_event_size,
            strict=strict,
            max_diagnostics=max_diagnostics,
            json_loads=json_loads,
            max_nesting_depth=max_nesting_depth,
        )
        self.max_output_items = max_output_items
        #: False: the snapshot only (see the class docstring); fixed at construction.
        self.events = events
        self._acc = self._new_accumulator()
        # Wire type -> constructor. A WebSocket lane's stream gets the WebSocket table (its
        # ``error`` event has another shape); see ResponsesConnection.
        self._builders: dict[object, Callable[[dict[str, Any]], Any]] = _BUILDERS
        self.sequence_window = sequence_window
        self._seq = _Sequence(sequence_window)
        self._current_seq: int | None = None
        self._current_offset: int | None = None
        self._applied_any = False
        self._resuming = False
        # The id a resumed body must carry (set by reconnect() / resume_from): a body of another
        # response is refused when an event names it.
        self._resume_id: str | None = None
        # The state when the resume began, until the resumed body names the right response: the
        # deltas before that name no response, so if another one is named they are rolled back
        # (see _begin_checkpoint).
        self._checkpoint: Checkpoint | None = None
        self._final: Response | None = None
        self._final_patched = False
        self._snapshot: Response | None = None
        self._snapshot_version = -1
        self.terminal_event: ResponseStreamEvent | None = None
        self.error_event: ResponseStreamEvent | None = None
        self.text_format = text_format
        self._text_parser: Callable[[Any], Any] | None = (
            None if text_format is None else make_parser(text_format)
        )
        self._tool_parsers = function_tool_parsers(tools or ())
        self._acc.structured_text = text_format is not None
        if resume_from is not None:
            self._take_over(resume_from)
            # The format the taken-over response asked for, not only this stream's text_format.
            self._detect_structured({"response": self._acc.response})
        if starting_after is not None:
            self._resuming = True
            if starting_after > self._seq.floor:
                self._seq.floor = starting_after
                self._seq.seen = {s for s in self._seq.seen if s > starting_after}
            if self._seq.last is None or self._seq.last < starting_after:
                self._seq.last = starting_after
        if self._resume_id is not None:
            self._begin_checkpoint(None if resume_from is None else resume_from._checkpoint)

    # -- public state ------------------------------------------------------------------------

    @property
    def last_sequence_number(self) -> int | None:
        """The highest ``sequence_number`` applied so far: the ``starting_after`` for a resume."""
        return self._seq.last

    @property
    def response_id(self) -> str | None:
        """The response id, once any lifecycle event (or the terminal one) has named it."""
        for source in (self._final, self._acc.response):
            if source is not None:
                rid = source.id if isinstance(source, Response) else source.get("id")
                if isinstance(rid, str):
                    return rid
        return None

    @property
    def background(self) -> bool:
        """True when the response says it runs in background mode (so it can be resumed)."""
        if self._final is not None and self._final.background is not None:
            return bool(self._final.background)
        return bool(self._acc.response and self._acc.response.get("background"))

    @property
    def resumable(self) -> bool:
        """True when a resume request can continue this stream: background mode, an id known,
        and no terminal event yet (open, ``"truncated"`` or ``"cancelled"``)."""
        return (
            self.background
            and self.response_id is not None
            and self.outcome in (None, "truncated", "cancelled")
        )

    def snapshot(self) -> Response | None:
        """The response as the events so far describe it (``None`` before any event).

        Once a terminal event (``response.completed`` / ``incomplete`` / ``failed``) has arrived this
        is the server's own response object. Cached until the next event changes it; rebuilding
        costs time in proportion to the response, so to follow text live read the deltas or an
        event's lazy ``snapshot`` rather than calling this after every event.
        """
        if self._final is not None:
            return self._final
        # The version the snapshot is built from, read first: an event applied meanwhile (the
        # stream fed in another thread) leaves the cache older than the state, never tagged
        # with a version it does not show.
        version = self._acc.version
        if self._snapshot_version == version:
            return self._snapshot
        if version == 0 and self._acc.response is None:
            self._snapshot = None
            self._snapshot_version = version
            return None
        base = self._acc.response
        wire: dict[str, Any] = {} if base is None else dict(base)
        if base is None:
            wire = {"object": "response", "status": "in_progress"}
        wire["output"] = self._acc.output()
        try:
            snapshot = Response.from_dict(wire)
        except SchemaError:
            snapshot = _tolerant_response(wire)
        self._snapshot = snapshot
        self._snapshot_version = version  # only once built: a failure is never cached
        return snapshot

    def _drop_spans(self) -> None:
        super()._drop_spans()
        self._acc.forget_long_strings()

    def reconnect(self) -> None:
        """Prepare to read a new body that continues this response (after a dropped connection).

        Framing state is reset; the snapshot, sequence numbers and diagnostics are kept, the outcome
        reopens, and events already applied will be skipped. Build the request with
        ``resume_request(stream.response_id, starting_after=stream.last_sequence_number)``.
        """
        if self.outcome in ("completed", "incomplete", "failed"):
            raise LocalProtocolError(
                f"cannot reconnect: the response already ended ({self.outcome})"
            )
        self._reset_decoder()
        self._error = None
        self._resuming = True
        self._resume_id = self.response_id
        if self.outcome in ("truncated", "cancelled"):
            self.outcome = None
        self._begin_checkpoint()  # last: a rollback comes back to the reopened stream

    # -- the event loop --------------------------------------------------------------------------

    # With orjson, the data arrive as the bytes received (see EventStreamBase._BYTES_DATA).
    _BYTES_DATA = True
    # Each .done event repeats the previous one's large value (text, part, item): kept for it.
    _keep_spans = True
    # ... but for the terminal events (their type first, as the API writes it).
    _last_heads = tuple(f'{{"type":"{etype}"'.encode() for etype in OUTCOMES if etype != "error")

    def _shared_strings(self, size: int) -> list[str]:
        return self._acc.long_strings(SHARE_MIN, size // 4)

    def _on_object(
        self,
        obj: dict[str, Any],
        data: str | bytes | bytearray,
        event_type: str,
        offset: int,
        out: list[Any],
    ) -> None:
        """Apply one decoded event object (*data*: its text, for error excerpts).

        The seam between framing and the protocol: :meth:`_on_message` calls it for each SSE
        message, and :class:`~sansio_responses.ResponsesConnection` for each WebSocket message
        (decoded once, there, to route it to its lane).
        """
        try:  # parse_event, minus a call on the hot path
            build = self._builders.get(obj.get("type"))
        except TypeError:  # an unhashable type ({} or []): parse_event's located error below
            build = None
        event: Any = None
        if build is _TEXT_DELTA_BUILD and not self.events and text_delta_fits(obj):
            # Snapshot only (events=False): a text delta the builder would accept is applied
            # from the dict itself, without its typed event (see text_delta_fits).
            etype = "response.output_text.delta"
            seq = obj.get("sequence_number")
        else:
            try:
                event = parse_event(obj) if build is None else build(obj)
            except SchemaError as exc:
                seq = obj.get("sequence_number")
                shown = data if isinstance(data, str) else data.decode("utf-8", "replace")
                raise RemoteProtocolError(
                    f"invalid {obj.get('type')!r} event: {exc}",
                    offset=offset,
                    sequence_number=seq if type(seq) is int else None,
                    excerpt=excerpt(shown),
                ) from None
            etype = event.type
            seq = event.sequence_number
        self._current_seq = seq
        self._current_offset = offset
        if event_type != "message" and event_type != etype:
            self._note(
                "event-name-mismatch",
                f"SSE event name {event_type!r} differs from the data's type {etype!r}",
                sequence_number=seq,
                offset=offset,
            )
        if build is None and etype in _KEEPALIVE:  # keep-alive types are never registered ones
            self._note("keepalive-event", f"{etype!r} event", sequence_number=seq, offset=offset)
            if self.events:
                out.append(event)
            return
        if self._resume_id is not None and (etype in OUTCOMES or etype in _LIFECYCLE):
            self._check_resumed_id(obj, etype, seq, offset)
        # The sequence number is recorded only once the event is applied (at the end): a strict
        # mode error partway leaves last_sequence_number where it was, for a resume.
        tracker = self._seq
        in_order = seq is not None and seq == tracker.floor + 1 and tracker.last == tracker.floor
        if in_order:
            pass  # the common case: the next number, no holes
        elif seq is None:
            self._note(
                "missing-sequence-number",
                f"{etype!r} event has no sequence_number",
                offset=offset,
            )
        elif not self._check_sequence(seq, etype, offset):
            return
        first = not self._applied_any  # a flag, not a counter: no store per event
        if first and not self._resuming and etype not in _LIFECYCLE:
            self._note(
                "missing-response-created",
                f"the stream starts with {etype!r}, not response.created",
                sequence_number=seq,
                offset=offset,
            )
        if self.outcome is not None and self.outcome != "error":
            self._note(
                "event-after-terminal",
                f"{etype!r} after the terminal event ({self.outcome})",
                sequence_number=seq,
                offset=offset,
            )
        if etype == "response.output_text.delta":
            # The bulk of every stream, handled inline (same effect as _apply's general branch).
            text = self._acc.text_delta(obj, event)
            # None: aimed at an item of another kind, not applied; or no event (snapshot only).
            if text is not None and event is not None:
                _attach_text(event, text, _TEXT_DELTA_SETTERS)
        else:
            self._apply(event, obj)
        if in_order:
            tracker.floor = tracker.last = seq  # type: ignore[assignment]  # in_order: an int
        elif seq is not None:
            if tracker.last is None:
                tracker.floor = seq - 1
            tracker.add(seq)
        if first:
            self._applied_any = True
        if self.events:
            out.append(event)

    def _check_sequence(self, seq: int, etype: str, offset: int) -> bool:
        """Note what *seq* says of the order; return False for a duplicate (already applied: skip it)."""
        tracker = self._seq
        if tracker.applied(seq):
            self._note(
                "duplicate-sequence-number",
                f"{etype!r} with sequence_number {seq} was already applied; skipped",
                sequence_number=seq,
                offset=offset,
            )
            return False
        last = tracker.last
        if last is None:
            if seq != 0 and not self._resuming:
                self._note(
                    "stream-starts-late",
                    f"the first sequence_number is {seq}, not 0",
                    sequence_number=seq,
                    offset=offset,
                )
        elif seq > last + 1:
            self._note(
                "sequence-gap",
                f"sequence_number jumps from {last} to {seq}",
                sequence_number=seq,
                offset=offset,
            )
        elif seq < last:
            self._note(
                "sequence-reordered",
                f"sequence_number {seq} arrived after {last}",
                sequence_number=seq,
                offset=offset,
            )
        return True  # recorded by _on_message once the event is applied

    def _apply(self, event: Any, obj: dict[str, Any]) -> None:
        etype: str = event.type
        outcome = OUTCOMES.get(etype)
        if outcome is None:
            text = self._acc.apply(etype, obj)
            if etype in _LIFECYCLE:  # after: a strict mode error in apply changes nothing
                self._detect_structured(obj)
            if text is not None:
                setters = _LAZY_SETTERS.get(type(event))  # pyright: ignore[reportUnknownArgumentType]
                if setters is not None:
                    _attach_text(event, text, setters)
            elif etype in _FINAL_PARSE:
                self._attach_final_parse(event, obj)
            return
        self._drop_spans()  # nothing repeats them after the terminal event
        if outcome == "error":
            self.error_event = event
            if self.outcome is None:
                self.outcome = "error"
                self.terminal_event = event
            return
        if self.outcome is not None and self.outcome != "error":
            # A terminal response event is final (docs/guide/outcomes.md): a second one, noted as
            # 'event-after-terminal' by _on_object, changes neither the outcome nor the snapshot
            # (an error event's outcome is not: the response.failed after it sets "failed").
            return
        # A Response: the event schema refuses a terminal event without one (a located error).
        response: Response = event.response
        known = self._acc.response.get("id") if self._acc.response is not None else None
        if known is not None and response.id != known:
            # Noted before anything changes: in strict mode the terminal event is not applied.
            self._note(
                "response-id-changed",
                f"the terminal {etype} is for response {response.id!r}, the stream for {known!r}",
                sequence_number=self._current_seq,
                offset=self._current_offset,
            )
        # Everything that may be noted is noted before the state changes (strict mode raises).
        final = self._complete_terminal(response)
        self.outcome = outcome
        self.terminal_event = event
        self._checkpoint = None
        self._final = final

    def _detect_structured(self, obj: dict[str, Any]) -> None:
        """Track output text as JSON when the response asks for a JSON format (API ``text.format``)."""
        response: JSONValue = obj.get("response")
        text: JSONValue = response.get("text") if type(response) is dict else None
        fmt: JSONValue = text.get("format") if type(text) is dict else None
        if type(fmt) is dict and fmt.get("type") in ("json_schema", "json_object"):
            self._acc.structured_text = True

    def _attach_final_parse(self, event: Any, obj: dict[str, Any]) -> None:
        """The lazy final ``parsed`` of a ``.done`` event: parsed from its complete text on read."""
        etype = event.type
        if etype == "response.output_text.done":
            if not self._acc.structured_text:
                return
            value = obj.get("text")
            parser = self._text_parser
        elif etype == "response.function_call_arguments.done":
            value = obj.get("arguments")
            name = obj.get("name")
            if type(name) is not str:
                item = self._acc.find(obj)
                name = item.get("name") if item is not None else None
            parser = self._tool_parsers.get(name) if type(name) is str else None
        else:  # custom tool input and MCP arguments: plain JSON when they are JSON
            value = obj.get(
                "input" if etype == "response.custom_tool_call_input.done" else "arguments"
            )
            parser = None
        if type(value) is str:
            text: str = value
            _set_lazy(event, parsed_fn=final_parser(text, parser))

    @property
    def output_parsed(self) -> Any:
        """The structured output: final once the response completed, else the best partial value.

        Final: the output text parsed as JSON and converted to ``text_format`` (an invalid
        document raises :class:`OutputParseError` with the raw text). While streaming, or when the
        response ended ``incomplete``, ``failed``, with an ``error`` or truncated, it is the partial
        value so far (never a parse attempted as if complete): ``outcome`` says why it is partial.
        ``None`` when no output text was tracked as JSON.
        """
        if self.outcome == "completed":
            snapshot = self.snapshot()
            if snapshot is None or not snapshot.output_text:
                return None
            return final_parser(snapshot.output_text, self._text_parser)()
        lazy = self._acc.last_text_json()
        return None if lazy is None else lazy.value()

    def _complete_terminal(self, response: Response) -> Response:
        """The server's terminal response; output filled from the deltas if the server left it out."""
        # Counted, not materialised: the common case (the server's output is complete) copies
        # nothing, where materialising every accumulated item cost several times the decoding
        # of the event itself (a 1.9 MB response with logprobs: issue 21).
        streamed = len(self._acc.items.slots)
        server_items = len(response.output or ())
        if server_items >= streamed:
            return response
        accumulated = self._acc.output()
        # Compatible servers send terminal responses without some or all output items (OpenRouter,
        # Copilot proxies, the Codex backend); the official SDK 3.57 rebuilds a missing output from
        # the items it saw. We keep the server's items and append the streamed ones it left out.
        self._note(
            "terminal-output-missing-items",
            f"the terminal response has {server_items} output item(s) but "
            f"{len(accumulated)} were streamed; the missing ones were filled in from the stream",
            sequence_number=self._current_seq,
            offset=self._current_offset,
        )
        wire = response.to_dict()
        wire["output"] = [*(wire.get("output") or []), *accumulated[server_items:]]
        try:
            return Response.from_dict(wire)
        except SchemaError:
            # A streamed item that does not fit its model: kept whole, as snapshot() keeps it.
            return _tolerant_response(wire)

    def _feed_object(self, obj: dict[str, Any], data: str, offset: int) -> list[Any]:
        """Apply one decoded WebSocket message, with :meth:`feed`'s error discipline.

        For :class:`~sansio_responses.ResponsesConnection`, which has checked the object's JSON
        (depth included) and routed it here; *offset* counts the connection's received bytes.
        """
        if self._closed:
            raise LocalProtocolError("a message fed after close()")
        if self._error is not None:
            raise LocalProtocolError(f"the stream is in an error state after: {self._error}")
        out: list[Any] = []
        try:
            self._on_object(obj, data, "message", offset, out)
        except ProtocolError as exc:
            self._fail(exc, out)
            raise
        return out

    def _on_unterminated(self, event: ServerSentEvent, out: list[Any]) -> None:
        if event.data == "[DONE]":
            self._note("done-marker", "data: [DONE] on a Responses stream (unterminated)")
            return
        try:
            obj = self._loads(event.data)
        except (ValueError, RecursionError):
            return  # an incomplete event: the spec discards it; truncation is judged in _on_end
        if type(obj) is not dict:
            return
        self._note(
            "unterminated-final-event",
            "the body ended without the blank line after its last event; the event was complete "
            "JSON and was accepted",
        )
        self._on_message(event.event, event.data, self._decoder.offset - len(event.data), out)

    def _on_end(self, out: list[Any]) -> None:
        self._drop_spans()
        if self.outcome is not None:
            return
        self.outcome = "truncated"
        last = self._seq.last
        raise TruncatedStream(
            "the body ended before a terminal event (response.completed, response.incomplete, "
            f"response.failed or error); last sequence_number {last}, {self.bytes_fed} bytes in "
            "this body",
            offset=self.bytes_fed,
            sequence_number=last,
        )

    def _take_over(self, previous: ResponsesStream) -> None:
        self._acc = self._copy_accumulator(previous._acc)
        self._acc.structured_text = self.text_format is not None
        self._seq = previous._seq.copy()
        self._seq.window = self.sequence_window  # this stream's own setting, not the previous one's
        diagnostics = copy.deepcopy(previous.diagnostics)
        self._acc.version = 1
        self.diagnostics = diagnostics
        self.diagnostic_counts = dict(previous.diagnostic_counts)
        self._applied_any = previous._applied_any
        self._resuming = True
        self._resume_id = previous.response_id


def _tolerant_response(wire: dict[str, Any]) -> Response:
    """The snapshot when an accumulated item does not fit its model: that item is kept as an
    :class:`UnknownOutputItem` (all its data), so ``snapshot()`` never raises."""
    items: list[Any] = []
    item: JSONValue
    for item in wire["output"]:
        try:
            items.append(output_item_from_dict(item))
        except SchemaError:
            items.append(UnknownOutputItem.from_dict(item if type(item) is dict else {}))
    response = Response.from_dict({**wire, "output": []})
    response._raw["output"] = wire["output"]  # pyright: ignore[reportPrivateUsage]
    _SET_OUTPUT(response, items)
    return response


_SET_OUTPUT: Callable[[Any, Any], None] = Response.output.__set__  # type: ignore[union-attr]
