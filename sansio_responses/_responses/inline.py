"""``ResponsesStream.feed`` and the JSON decoding of each event, with the inline delta path.

The bulk of every stream is deltas that continue the target of the previous one (text deltas;
function and MCP arguments, custom tool input, code, reasoning summary and text, refusal), in
sequence, with nothing to note or refuse. :meth:`InlineFeed._on_events`, called by
:meth:`InlineFeed.feed` once per chunk that completes any event, applies those inline in its loop
over the framed events: no call per event, the accumulator's caches of the target and the next
sequence number held in locals (read again after each event of the general path), the typed event
built on its mutable twin class from the values already checked. Everything else takes the general
path, ``ResponsesStream._on_object`` (through :meth:`InlineFeed._on_decoded`), which gives the same
events, state and diagnostics: the property tests in ``tests/test_fast_deltas.py`` hold the two
equal.

With the standard library's JSON, a delta laid out as the one that set the cached target is read
by that target's template (``templates.py``: a few ``startswith`` and ``scanstring`` calls, the
same dict as ``json.loads``) and goes inline without the checks, which the template's match
implies; ``tests/test_templates.py`` holds streams equal with and without templates.

:class:`InlineFeed` is a base class of :class:`ResponsesStream`, split out of it to keep each class
small; the state it reads is set by ``ResponsesStream.__init__``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, cast

import attrs

from .._base import (
    BIG_EVENT_DATA,
    JSONValue,
    Span,
    _orjson_loads,  # pyright: ignore[reportPrivateUsage]
    framed,
    stdlib_loads,
)
from .._errors import ProtocolError
from .._json.structured import ReaderAt
from .accumulate import _EXTENDERS  # pyright: ignore[reportPrivateUsage]
from .builders import _MERGE_EVERY  # pyright: ignore[reportPrivateUsage]
from .events import (
    EVENT_TYPES,
    ResponseStreamEvent,
    ResponseTextDeltaEvent,
    _twin,  # pyright: ignore[reportPrivateUsage]
)
from .logprobs import Logprobs, add_entries, done_span, exact_levels, split_logprobs
from .resume import ResumableStream
from .templates import Template, learn

__all__ = ["InlineFeed"]

_TEXT_DELTA_TWIN = _twin(ResponseTextDeltaEvent)
# The fields of a text delta the fast path reads, in one call (KeyError if one is left out).
_TEXT_FIELD_NAMES = ("sequence_number", "item_id", "output_index", "content_index", "delta")
_TEXT_FIELDS = operator.itemgetter(*_TEXT_FIELD_NAMES, "logprobs")
# Equal to no wire value: the locator of "no cached text part".
_NOTHING = object()
_NO_KEY = (_NOTHING, _NOTHING, _NOTHING)
# Wire type -> (class, its mutable twin, the part index field it declares or None) of the
# deltas that extend a Text found by their locator (the accumulator's _EXTENDERS).
_FAST_EXTENDERS: dict[str, tuple[type[Any], type[Any], str | None]] = {
    kind: (
        EVENT_TYPES[kind],
        _twin(EVENT_TYPES[kind]),
        next(
            (
                f.name
                for f in attrs.fields(EVENT_TYPES[kind])
                if f.name in ("content_index", "summary_index")
            ),
            None,
        ),
    )
    for kind in sorted(_EXTENDERS)
}
# Text.append merges its pieces when ``small`` reaches _MERGE_EVERY: below this, no merge is due.
_LAST_SMALL = _MERGE_EVERY - 1
_new = object.__new__


def _own_keys(obj: dict[str, Any]) -> tuple[Any, str]:
    """:data:`_TEXT_FIELDS` and ``"type"`` spelt with the key objects of *obj*, a decoded text delta.

    orjson gives every dict the same object for an equal key (its key cache): a lookup by that
    object matches at once, where an equal constant is compared character by character (about a
    third of the lookups' cost, measured). Any equal key finds the same values, so the result is
    the same whichever objects these are.
    """
    own: dict[str, str] = {k: k for k in obj if k.__class__ is str}
    names = (*_TEXT_FIELD_NAMES, "logprobs")
    return operator.itemgetter(*(own.get(n, n) for n in names)), own.get("type", "type")


# How the API writes the data of the event that repeats a text part's logprobs first.
_DONE_HEAD = b'{"type":"response.output_text.done"'


class InlineFeed(ResumableStream):
    """The event loop of :class:`ResponsesStream` (its base class): :meth:`feed` with the inline
    delta path, and the JSON decoding that hands every other event to ``_on_object``."""

    events: bool
    _applied_any: bool
    # The text delta's fields and "type", with the decoder's own key objects once one text delta
    # went the general path (see _own_keys).
    _text_fields: Callable[[dict[str, Any]], tuple[Any, ...]] = _TEXT_FIELDS
    _type_key = "type"
    # Whether text deltas' logprobs are kept as their JSON text (see logprobs.py): from the
    # first delta that brings any, so that a stream without them pays nothing.
    _split_logprobs = False
    # The held spans of the text parts' logprobs (see logprobs.done_span), for each large event
    # up to the terminal one.
    _logprobs_spans: tuple[Span, ...] = ()
    # The template of the cached target's deltas (see templates.py), and the cache key one was
    # last learnt for; False in tests to compare with the scanner alone.
    _template: Template | None = None
    _template_tried: Any = None
    _TEMPLATES = True

    def feed(self, data: bytes | bytearray | memoryview) -> list[ResponseStreamEvent]:
        """Feed the next piece of the response body; return the events it completed, in order.

        Chunk boundaries carry no meaning: any split of the same body gives the same events.
        """
        if self._closed or self._error is not None or isinstance(data, str):
            return super().feed(data)  # which raises the error of each case
        out: list[Any] = []
        try:
            raw = self._decoder.feed_raw(data)
            if raw:  # (a small chunk often completes none)
                self._on_events(raw, out)
            # The decoder defers a limit error past the events it completed (see the base).
            self._decoder.raise_pending()
        except ProtocolError as exc:
            self._fail(exc, out)
            raise
        return out

    def _on_events(self, raw: list[tuple[str, Any, int]], out: list[Any]) -> None:
        """Apply the events the decoder completed: :meth:`feed`'s loop, called once per call."""
        # EventStreamBase.feed with the bulk of every stream handled inline: a delta that
        # continues the target of the previous one, in sequence, with nothing to note or refuse
        # (no diagnostic, no locating: the accumulator's caches of the target). Everything else
        # takes the general path (_on_decoded, _on_object), which gives the same events, state
        # and diagnostics (property-tested in tests/test_fast_deltas.py).
        scan = self._scan
        loads = self._fast_loads
        deep = self._deep_len
        events = self.events
        text_fields = self._text_fields
        type_key = self._type_key
        # What only the general path changes, read again after each event it takes.
        tracker = self._seq
        acc = self._acc
        running = self.outcome is None and self._applied_any
        # Any: the checks of the inline paths narrow nothing for the type checkers.
        seq: Any
        delta: Any
        nxt: Any
        k_item: Any
        k_output: Any
        k_content: Any
        # The sequence number an inline delta must carry (None: there are holes), and the
        # accumulator's cached text part (Accumulator.text_delta): its locator and target.
        nxt = tracker.floor + 1 if tracker.last == tracker.floor else None
        k_item, k_output, k_content = acc.text_key or _NO_KEY
        part, text = acc.text_cache
        # With the standard library's scanner or orjson itself (not a caller's decoder).
        splits = scan is not None or loads is _orjson_loads
        split = self._split_logprobs and splits
        entries_text: Any = None
        # The template of the cached target's deltas (see templates.py): its match, or None.
        template: Any = self._refresh_template(None)  # (a Template whenever match is set)
        match = None if nxt is None else template and template.match
        # Which inline path an event takes: 0 none, 1 text delta, 2 other extending delta; the
        # fields it applies.
        fast: int
        kind: Any = None
        seq = delta = item_id = output_index = content_index = summary_index = logprobs = None
        for event_type, payload, offset in framed(raw):  # (each one's data released once read)
            if not event_type:
                self._on_comment()
                continue
            obj: JSONValue
            size = len(payload)
            checked = False
            entries_text = None
            fast = 0
            if size > BIG_EVENT_DATA:
                obj = self._load_big_or_none(payload)
            else:
                got = None if match is None or not running else match(payload, nxt)
                if got is not None and (event_type == "message" or event_type == template.kind):
                    # json.loads(payload), in the layout of the delta the template was learnt
                    # from (so within the nesting limit): its locator is the cached one (see
                    # _refresh_template), its sequence number nxt.
                    obj, delta, logprobs = got
                    seq = nxt
                    kind = template.kind
                    item_id = template.item_id
                    output_index = template.output_index
                    content_index = template.content_index
                    summary_index = template.summary_index
                    fast = template.fast
                else:
                    try:
                        if split and (got := split_logprobs(payload, scan)) is not None:
                            obj, entries_text = got
                        elif scan is None:
                            obj = loads(payload)
                        else:
                            obj, end = scan(payload, 0)
                            if end != size:
                                obj = loads(payload)  # its error
                    except (ValueError, RecursionError, StopIteration):
                        obj = None
                    if type(obj) is dict and running:
                        if size > deep:  # as _on_decoded does, first
                            self._check_depth(obj, payload, offset)
                            checked = True
                        kind = obj.get(type_key)
                        if kind == "response.output_text.delta":
                            try:
                                seq, item_id, output_index, content_index, delta, logprobs = (
                                    text_fields(obj)
                                )
                            except KeyError:  # a field left out: the general path
                                pass
                            else:
                                # The cached locator holds wire types (str or None, int or
                                # None): an equal one is the same part, once the indices are
                                # checked to be ints (True == 1).
                                if (
                                    seq.__class__ is int
                                    and seq == nxt
                                    and item_id == k_item
                                    and output_index == k_output
                                    and content_index == k_content
                                    and delta.__class__ is str
                                    and (output_index is None or output_index.__class__ is int)
                                    and (content_index is None or content_index.__class__ is int)
                                    and (logprobs is None or logprobs.__class__ is list)
                                    and (event_type == "message" or event_type == kind)
                                ):
                                    fast = 1
                        elif kind.__class__ is str and kind in _FAST_EXTENDERS:
                            get = obj.get
                            seq = get("sequence_number")
                            item_id = get("item_id")
                            output_index = get("output_index")
                            content_index = get("content_index")
                            summary_index = get("summary_index")
                            delta = get("delta")
                            # As above, with the accumulator's cache of the other deltas
                            # (Accumulator._extended, whose cache hit this is).
                            if (
                                seq.__class__ is int
                                and seq == nxt
                                and (kind, item_id, output_index, content_index, summary_index)
                                == acc.delta_key
                                and delta.__class__ is str
                                and (output_index is None or output_index.__class__ is int)
                                and (content_index is None or content_index.__class__ is int)
                                and (summary_index is None or summary_index.__class__ is int)
                                and (event_type == "message" or event_type == kind)
                            ):
                                fast = 2
            if fast == 1:
                json = text.json
                if text.small < _LAST_SMALL and (json is None or json.source is not None):
                    # Text.append, inlined: no merge due, nothing to push.
                    text.pieces.append(delta)
                    text.length += len(delta)
                    text.small += 1
                else:
                    text.append(delta)
                if logprobs:
                    if not split and splits:
                        split = True
                        entries_text = self._begin_split(payload, scan)
                    add_entries(part, logprobs, entries_text, scan is None)
                acc.version += 1  # (after the change, as Accumulator.text_delta does)
                tracker.floor = tracker.last = seq
                nxt = seq + 1
                if events:
                    # ResponseTextDeltaEvent._from_wire's object (its checks are made above),
                    # built the same way: on its mutable twin, then given its class.
                    event: Any = _new(_TEXT_DELTA_TWIN)
                    event.type = kind
                    event.sequence_number = seq
                    event._data = obj
                    event.item_id = item_id
                    event.output_index = output_index
                    event.content_index = content_index
                    event.delta = delta
                    event.logprobs = logprobs
                    # ResponsesStream's _attach_text, inlined: the builder and its length,
                    # and for a text tracked as JSON the reader of its value then as one
                    # object, not two closures (see ReaderAt: about 520 bytes less per event).
                    event._snapshot_fn = text
                    event._snapshot_at = text.length
                    event._parsed_fn = None if json is None else ReaderAt(json, text, text.length)
                    event.__class__ = ResponseTextDeltaEvent
                    out.append(event)
                continue
            if fast == 2:
                # The text part's cache is dropped, as Accumulator.apply drops it for any other
                # event. (A text template learnt before may still be held, and read the text
                # deltas that come next: they extend the same part, since only inline deltas,
                # which replace no item or part, came between.)
                acc.text_key = None
                k_item = _NOTHING
                target = acc.delta_text
                json = target.json
                if target.small < _LAST_SMALL and (json is None or json.source is not None):
                    target.pieces.append(delta)  # Text.append, inlined
                    target.length += len(delta)
                    target.small += 1
                else:
                    target.append(delta)
                acc.version += 1
                tracker.floor = tracker.last = seq
                nxt = seq + 1
                if events:
                    # The class's _from_wire object, built as it builds it.
                    cls, twin, index = _FAST_EXTENDERS[kind]
                    event = _new(twin)
                    event.type = kind
                    event.sequence_number = seq
                    event._data = obj
                    event.item_id = item_id
                    event.output_index = output_index
                    if index == "content_index":
                        event.content_index = content_index
                    elif index == "summary_index":
                        event.summary_index = summary_index
                    event.delta = delta
                    event._snapshot_fn = target  # as above
                    event._snapshot_at = target.length
                    event._parsed_fn = (
                        None if json is None else ReaderAt(json, target, target.length)
                    )
                    event.__class__ = cls
                    out.append(event)
                continue
            if (
                not split
                and splits
                and type(obj) is dict
                and obj.get(type_key) == "response.output_text.delta"
                and obj.get("logprobs")
            ):
                # (the general path takes the first delta of each part)
                split = True
                entries_text = self._begin_split(payload, scan)
            if entries_text is not None:  # (a text delta read apart: see Accumulator.text_delta)
                acc.entries_text = entries_text
                acc.entries_orjson = scan is None
            try:
                if checked:  # the general path, minus the depth check just made (a dict)
                    self._on_object(cast("dict[str, Any]", obj), payload, event_type, offset, out)
                else:
                    self._on_decoded(obj, event_type, payload, offset, out)
            finally:
                acc.entries_text = None
            tracker = self._seq
            acc = self._acc
            running = self.outcome is None and self._applied_any
            nxt = tracker.floor + 1 if tracker.last == tracker.floor else None
            k_item, k_output, k_content = acc.text_key or _NO_KEY
            part, text = acc.text_cache
            if (
                text_fields is _TEXT_FIELDS
                and k_item is not _NOTHING
                and type(obj) is dict
                and obj.get("type") == "response.output_text.delta"
            ):
                # The first text delta applied: its keys are the decoder's (once per stream).
                text_fields, type_key = self._text_fields, self._type_key = _own_keys(obj)
            # (Past the terminal event no delta comes: nothing to learn.)
            template = self._refresh_template(obj) if running else None
            match = None if nxt is None else template and template.match

    def _refresh_template(self, obj: JSONValue) -> Template | None:
        """The template of the deltas of the accumulator's cached target (see templates.py):
        the last one learnt while it serves that target, else one learnt from *obj* (the event
        the general path just applied) if it is a delta that target's cache was set from.

        Only for the standard library's scanner (orjson reads faster than a template). The
        data a template reads nest as deep as *obj*'s, which passed the nesting limit."""
        if self._scan is None or not self._TEMPLATES:
            return None
        acc = self._acc
        template = self._template
        if template is not None and template.key == (
            acc.text_key if template.fast == 1 else acc.delta_key
        ):
            return template
        if type(obj) is not dict:
            return None
        kind = obj.get("type")
        key = (
            acc.text_key
            if kind == "response.output_text.delta"
            else acc.delta_key
            if kind.__class__ is str and kind in _FAST_EXTENDERS
            else None
        )
        if key is None or key == self._template_tried:
            return None
        self._template_tried = key  # (learnt once per target, not per event)
        template = learn(obj)
        if template is None or template.key != key:
            return None
        self._template = template
        return template

    def _begin_split(self, payload: Any, scan: Any) -> Any:
        """The first text delta with logprobs met (inline or on the general path): from now on
        every event is read apart (see ``logprobs.split_logprobs``), and so is this one, so
        that the part's texts hold the whole array; its logprobs' text, or None."""
        self._split_logprobs = True
        got = split_logprobs(payload, scan)
        return None if got is None else got[1]

    def _load_big(self, data: str | bytes | bytearray) -> Any:
        """``EventStreamBase._load_big``, with the held spans of the text parts' logprobs: each
        built from the texts the deltas brought when its part's ``.done`` event comes (see
        ``logprobs.done_span``), then offered to every large event up to the terminal one,
        which repeat it. Such an event keeps no span of its own for the next one (a copy of
        the part or item out of the data while the joined texts are held)."""
        if isinstance(data, str) or self._big_loads is not stdlib_loads:
            return super()._load_big(data)
        spans = self._logprobs_spans
        if data.startswith(_DONE_HEAD):
            held: Any = self._acc.text_cache[0].get("logprobs")
            if held.__class__ is Logprobs:
                span = done_span(held, data)
                if span is not None:
                    spans = self._logprobs_spans = (*spans, span)
        if not spans:
            return super()._load_big(data)
        self._keep_spans = False
        try:
            self._spans += spans
            try:
                return super()._load_big(data)
            except RecursionError:
                # A bound of a span's levels past the limit: measured, then the event again
                # (the exact levels decide as the data's own nesting does).
                exact = tuple(exact_levels(span) for span in spans)
                if [span[2] for span in exact] == [span[2] for span in spans]:
                    raise
                spans = self._logprobs_spans = exact
                self._spans += spans
                return super()._load_big(data)
        finally:
            del self._keep_spans
            if data.startswith(self._last_heads):
                self._logprobs_spans = ()

    def _drop_spans(self) -> None:
        super()._drop_spans()
        self._logprobs_spans = ()

    def _load_big_or_none(self, data: str | bytes | bytearray) -> JSONValue:
        try:
            return self._load_big(data)  # type: ignore[no-any-return]
        except (ValueError, RecursionError):
            return None

    def _on_message(
        self, event_type: str, data: str | bytes | bytearray, offset: int, out: list[Any]
    ) -> None:
        obj: JSONValue  # a declaration only: no run-time work
        if len(data) > BIG_EVENT_DATA:
            obj = self._load_big_or_none(data)
        else:
            try:
                scan = self._scan
                if scan is None:
                    obj = self._fast_loads(data)  # type: ignore[arg-type]
                else:
                    # stdlib_loads inlined: anything it would hand to json.loads goes to it,
                    # so results and errors are the same.
                    obj, end = scan(data, 0)  # type: ignore[arg-type]
                    if end != len(data):
                        obj = self._fast_loads(data)  # type: ignore[arg-type]
            except (ValueError, RecursionError, StopIteration):
                obj = None
        self._on_decoded(obj, event_type, data, offset, out)

    def _on_decoded(
        self,
        obj: JSONValue,
        event_type: str,
        data: str | bytes | bytearray,
        offset: int,
        out: list[Any],
    ) -> None:
        """Apply one message whose data the hot decoder gave *obj* (``None``: it failed)."""
        if type(obj) is not dict:
            # Not JSON (or not an object): checked here, off the hot path.
            if not isinstance(data, str):
                data = data.decode("utf-8", "replace")  # what the event-stream rules give
            if data == "[DONE]":
                # Chat Completions' end marker; some compatible Responses servers send it too.
                self._note("done-marker", "data: [DONE] on a Responses stream", offset=offset)
                return
            if not data.strip():
                # ``data:`` alone dispatches an event with empty data (the event-stream rules):
                # a keep-alive, tolerated as the Chat stream tolerates it.
                self._note("empty-data", "an event with empty data", offset=offset)
                return
            obj = self._load_object(data, offset)  # the full decoder, or a located error
        if len(data) > self._deep_len:  # only long data can nest deeper than the limit
            self._check_depth(obj, data, offset)
        self._on_object(obj, data, event_type, offset, out)

    def _on_object(
        self,
        obj: dict[str, Any],
        data: str | bytes | bytearray,
        event_type: str,
        offset: int,
        out: list[Any],
    ) -> None:
        raise NotImplementedError  # ResponsesStream's: the general path
