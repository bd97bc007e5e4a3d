"""One typed class per Responses streaming event type, the wire-type registry and ``parse_event``.

The classes mirror the newest official SDK's ``ResponseStreamEvent`` union (59 types, see
``official-sdk.md`` section 1): same class names, same wire field names. Every event has ``type``
(the wire string), ``sequence_number`` (``None`` when the server sent none) and its fields; nested
objects are models from ``_models`` (``response`` -> :class:`Response`, ``item`` -> an output item,
``part`` -> a content part, ``annotation`` -> an annotation). Each event keeps its wire dict:
``to_dict()`` gives it back exactly and ``extra`` holds the undeclared keys (``obfuscation`` on most
deltas, provider extensions).

Any other ``type`` (``ping``/``keepalive`` events, types newer than this library) becomes an
:class:`UnknownEvent`: never an error, never a wrong class (the SDK, by contrast, builds the first
member of its union, ``ResponseAudioDeltaEvent``, for an unknown type; official-sdk.md section 3.3).

Validation: a missing or non-string ``type``, a non-integer ``sequence_number``, a present field of
the wrong JSON type, or a missing payload field (``delta``, ``text``, ``response``, ``item``, ...)
raises :class:`SchemaError` with the field's dotted path. The index and id fields that compatible
servers are known to omit (``item_id``, ``output_index``, ``content_index``, ``summary_index``,
``logprobs``) read as ``None`` when absent.

Field requirements are written as annotations: a non-Optional annotation is a required wire
field, ``X | None`` an optional one; the registry decorator derives each class's validation table
from them.
The frequent small delta events have explicit constructors for speed (about 1 µs per text delta).
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType as _FunctionType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias, TypeVar

import attrs

from .._errors import SchemaError
from .._json.structured import ReaderAt, reparsed
from .builders import Text
from .fromdict import TWINS, twin
from .models import (
    Annotation,
    ContentPart,
    OutputItem,
    Response,
    _conv_dict,  # pyright: ignore[reportPrivateUsage]
    _conv_int,  # pyright: ignore[reportPrivateUsage]
    _conv_str,  # pyright: ignore[reportPrivateUsage]
    annotation_from_dict,
    content_part_from_dict,
    copy_json,
    depth_safe,
    output_item_from_dict,
)
from .templates import Wire, wire_dict

__all__ = [
    "EVENT_TYPES",
    "ResponseAudioDeltaEvent",
    "ResponseAudioDoneEvent",
    "ResponseAudioTranscriptDeltaEvent",
    "ResponseAudioTranscriptDoneEvent",
    "ResponseCodeInterpreterCallCodeDeltaEvent",
    "ResponseCodeInterpreterCallCodeDoneEvent",
    "ResponseCodeInterpreterCallCompletedEvent",
    "ResponseCodeInterpreterCallInProgressEvent",
    "ResponseCodeInterpreterCallInterpretingEvent",
    "ResponseCompactionCompactingEvent",
    "ResponseCompletedEvent",
    "ResponseContentPartAddedEvent",
    "ResponseContentPartDoneEvent",
    "ResponseCreatedEvent",
    "ResponseCustomToolCallInputDeltaEvent",
    "ResponseCustomToolCallInputDoneEvent",
    "ResponseErrorEvent",
    "ResponseFailedEvent",
    "ResponseFileSearchCallCompletedEvent",
    "ResponseFileSearchCallInProgressEvent",
    "ResponseFileSearchCallSearchingEvent",
    "ResponseFunctionCallArgumentsDeltaEvent",
    "ResponseFunctionCallArgumentsDoneEvent",
    "ResponseImageGenCallCompletedEvent",
    "ResponseImageGenCallGeneratingEvent",
    "ResponseImageGenCallInProgressEvent",
    "ResponseImageGenCallPartialImageEvent",
    "ResponseInProgressEvent",
    "ResponseIncompleteEvent",
    "ResponseMcpCallArgumentsDeltaEvent",
    "ResponseMcpCallArgumentsDoneEvent",
    "ResponseMcpCallCompletedEvent",
    "ResponseMcpCallFailedEvent",
    "ResponseMcpCallInProgressEvent",
    "ResponseMcpListToolsCompletedEvent",
    "ResponseMcpListToolsFailedEvent",
    "ResponseMcpListToolsInProgressEvent",
    "ResponseOutputItemAddedEvent",
    "ResponseOutputItemDoneEvent",
    "ResponseOutputTextAnnotationAddedEvent",
    "ResponseQueuedEvent",
    "ResponseReasoningSummaryPartAddedEvent",
    "ResponseReasoningSummaryPartDoneEvent",
    "ResponseReasoningSummaryTextDeltaEvent",
    "ResponseReasoningSummaryTextDoneEvent",
    "ResponseReasoningTextDeltaEvent",
    "ResponseReasoningTextDoneEvent",
    "ResponseRefusalDeltaEvent",
    "ResponseRefusalDoneEvent",
    "ResponseShellCallCommandAddedEvent",
    "ResponseShellCallCommandDeltaEvent",
    "ResponseShellCallCommandDoneEvent",
    "ResponseShellCallOutputContentDeltaEvent",
    "ResponseShellCallOutputContentDoneEvent",
    "ResponseStreamEvent",
    "ResponseTextDeltaEvent",
    "ResponseTextDoneEvent",
    "ResponseWebSearchCallCompletedEvent",
    "ResponseWebSearchCallInProgressEvent",
    "ResponseWebSearchCallSearchingEvent",
    "UnknownEvent",
    "UnknownEventType",
    "parse_event",
]

_E = TypeVar("_E", bound="_Event")
# A converter checks one present (non-null) value: (value, path, key) -> typed value.
_Conv = Callable[[Any, str, str], Any]
_Setter = Callable[[object, Any], None]


def _conv_code(v: Any, path: str, key: str) -> str | int:
    # Error codes: strings in the API reference; some compatible servers send an HTTP status.
    if isinstance(v, str) or v.__class__ is int:
        return v
    raise SchemaError(key, "string", v)


def _conv_list(v: Any, path: str, key: str) -> list[Any]:
    if v.__class__ is list:
        return v
    raise SchemaError(key, "array", v)


# Annotation string -> (converter, name of the expected JSON type). Nested models get the field name
# as their path prefix, so errors read ``response.output[0].content[1].text``.
_CONVERTERS: dict[str, tuple[_Conv | None, str]] = {
    "Any": (None, "any"),
    "str": (_conv_str, "string"),
    "int": (_conv_int, "integer"),
    "str | int": (_conv_code, "string"),
    "list[Any]": (_conv_list, "array"),
    "dict[str, Any]": (_conv_dict, "object"),
    "Response": (lambda v, p, k: Response.from_dict(v, k), "object"),
    "OutputItem": (lambda v, p, k: output_item_from_dict(v, k), "object"),
    "ContentPart": (lambda v, p, k: content_part_from_dict(v, k), "object"),
    "Annotation": (lambda v, p, k: annotation_from_dict(v, k), "object"),
}

EVENT_TYPES: dict[str, type[Any]] = {}
"""Wire ``type`` -> event class, for every type of the SDK's ``ResponseStreamEvent`` union."""


def _event(
    wire_type: str, registry: dict[str, type[Any]] | None = None
) -> Callable[[type[_E]], type[_E]]:
    """Class decorator: register an attrs event class for *wire_type* and derive its field table.

    Runs once per class at import; an annotation without a converter is a programming error.
    *registry* defaults to :data:`EVENT_TYPES` (the WebSocket-only events keep their own).
    """
    if registry is None:
        registry = EVENT_TYPES

    def register(cls: type[_E]) -> type[_E]:
        spec: list[tuple[str, _Conv | None, str, bool, _Setter]] = []
        lazy: list[_Setter] = []
        for field in attrs.fields(cls):
            if not field.init:
                lazy.append(getattr(cls, field.name).__set__)
                continue
            if field.name.startswith("_") or field.name in ("type", "sequence_number"):
                continue
            annotation = field.type if isinstance(field.type, str) else repr(field.type)
            optional = annotation.endswith(" | None")
            base = annotation[: -len(" | None")] if optional else annotation
            if base not in _CONVERTERS:
                raise TypeError(f"{cls.__name__}.{field.name}: no converter for {annotation!r}")
            conv, expected = _CONVERTERS[base]
            spec.append(
                (field.name, conv, expected, not optional, getattr(cls, field.name).__set__)
            )
        # The class attributes of _Event, set here for each registered class.
        cls._TYPE = wire_type  # pyright: ignore[reportPrivateUsage]
        cls._SPEC = tuple(spec)  # pyright: ignore[reportPrivateUsage]
        cls._LAZY = tuple(lazy)  # pyright: ignore[reportPrivateUsage]
        names = ["type", "sequence_number", "stream_id", *(name for name, *_ in spec)]
        cls._FIELDS = frozenset(names)  # pyright: ignore[reportPrivateUsage]
        if wire_type in registry:
            raise TypeError(f"{wire_type!r} registered twice")
        registry[wire_type] = cls
        return depth_safe(cls)

    return register


def _sequence_number(d: dict[str, Any]) -> int | None:
    seq = d.get("sequence_number")
    # bool is an int subclass in Python but a distinct JSON type.
    if seq is None or seq.__class__ is int:
        return seq
    raise SchemaError("sequence_number", "integer", seq)


def _stream_id(d: dict[str, Any]) -> str | None:
    value = d.get("stream_id")
    if value is None or value.__class__ is str:
        return value
    raise SchemaError("stream_id", "string", value)


def _setters(cls: type[Any], *names: str) -> tuple[_Setter, ...]:
    """The slot descriptors' ``__set__`` of *names*: they write a frozen slotted instance directly.

    Used by the hot-path constructors, which skip attrs' generated ``__init__`` (it makes one bound
    ``object.__setattr__`` call per field); the result is the same object.
    """
    return tuple(getattr(cls, name).__set__ for name in names)


# The fast constructors' mutable twins (shared with the models' generated constructors).
_twin = twin
_TWINS = TWINS


def _build(cls: type[_E], d: dict[str, Any]) -> _E:
    """Generic constructor: validate *d* against ``cls._SPEC`` and build the event.

    The hot-path constructors fall back to it when their fast check fails, so that the error names
    the offending field exactly as here.
    """
    # Slots are written through their descriptors, as in the hot-path constructors.
    self = object.__new__(cls)
    s_type, s_seq, s_data = _BASE
    s_type(self, d["type"])
    s_seq(self, _sequence_number(d))
    s_data(self, d)
    get = d.get
    for name, conv, expected, required, setter in cls._SPEC:  # pyright: ignore[reportPrivateUsage]
        value = get(name)
        if value is None:
            if required:
                raise SchemaError(name, expected, value)
        elif conv is not None:
            value = conv(value, "", name)
        setter(self, value)
    for setter in cls._LAZY:  # pyright: ignore[reportPrivateUsage]
        setter(self, None)
    return self


@attrs.frozen
class _Event:
    """Base of the registered event classes: ``type``, ``sequence_number`` and the wire dict."""

    _TYPE: ClassVar[str] = ""
    _SPEC: ClassVar[tuple[tuple[str, _Conv | None, str, bool, _Setter], ...]] = ()
    _LAZY: ClassVar[tuple[_Setter, ...]] = ()
    _FIELDS: ClassVar[frozenset[str]] = frozenset()

    type: str
    sequence_number: int | None
    # alias: attrs' default for a private field, spelt out for the type checkers' __init__.
    # The wire dict, or for a delta a template read (inline.py) what it read, the dict built
    # when asked (templates.Wire: 72 bytes per delta where the dict costs 272). Read through
    # _wire().
    _data: dict[str, Any] | Wire = attrs.field(eq=False, repr=False, alias="data")

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> _Event:
        """Build the event from its wire dict (``d["type"]`` already checked by the caller)."""
        return _build(cls, d)

    def _wire(self) -> dict[str, Any]:
        """The wire dict (built afresh from a template's reading: not to be kept or changed)."""
        data = self._data
        return data if type(data) is dict else wire_dict(data)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        """The wire dict of the event, as a fresh deep copy (unknown fields included)."""
        return copy_json(self._wire())  # type: ignore[no-any-return]

    @property
    def extra(self) -> dict[str, Any]:
        """The wire fields this class does not declare (e.g. ``obfuscation`` on deltas)."""
        fields = self._FIELDS
        return {k: copy_json(v) for k, v in self._wire().items() if k not in fields}

    @property
    def stream_id(self) -> str | None:
        """The WebSocket lane of the event, or ``None`` (always ``None`` over SSE).

        Present when the ``response.create`` that started the response named a ``stream_id``
        (WebSocket mode). Read from the wire dict on access, so building an event costs nothing
        more for it.

        Raises:
            SchemaError: the wire ``stream_id`` is present but not a string.
        """
        return _stream_id(self._wire())


_BASE = _setters(_Event, "type", "sequence_number", "_data")


class _Prefix:
    """The first *n* characters of a text builder, when called: a prefix function that pickles."""

    __slots__ = ("n", "text")

    def __init__(self, text: Text, n: int) -> None:
        self.text = text
        self.n = n

    def __call__(self) -> str:
        return self.text.prefix(self.n)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Prefix, (self.text, self.n))


def _restore(cls: type[Any], state: dict[str, Any]) -> Any:
    """An event of *cls* with attrs' *state* (the unpickling half of :func:`_reduce_lazy`)."""
    self = object.__new__(cls)
    self.__setstate__(state)
    return self


def _reduce_lazy(self: Any, protocol: int) -> tuple[Any, ...]:
    """``__reduce_ex__`` of the events with lazy ``snapshot`` / ``parsed`` helpers.

    The stream attaches them as closures over its builders, or (the inline path) as the builder
    and a :class:`~sansio_responses._json.structured.ReaderAt`; pickling or copying such an
    event replaces them with objects that pickle and give the same values: the prefix function
    by :class:`_Prefix` over the same builder (shared by every event of the part: pickling the
    whole list stays linear), the incremental reader by
    :class:`~sansio_responses._json.structured.reparsed` of that prefix. The stream's live state
    is not carried along, only the builders the values are read from; a template's reading of
    the wire (``templates.Wire``) goes as the dict it stands for.
    """
    state: dict[str, Any] = self.__getstate__()
    # A template's reading goes as the dict it stands for (no template in a pickle).
    state["_data"] = self._wire()
    fn = state.get("_snapshot_fn")
    if type(fn) is _FunctionType:
        # the (text, n) the stream bound as default arguments (stream.py, inline.py)
        bound: Any = fn.__defaults__
        text: Text = bound[0]
        n: int = bound[1]
        state["_snapshot_fn"] = fn = _Prefix(text, n)
        parsed = state.get("_parsed_fn")
        if type(parsed) is _FunctionType:
            state["_parsed_fn"] = reparsed(fn)
    parsed = state.get("_parsed_fn")
    if type(parsed) is ReaderAt:
        # The inline path's reader (with the builder and its length in the snapshot slots):
        # its prefix, parsed afresh, as for the closures above.
        state["_parsed_fn"] = reparsed(_Prefix(parsed.text, parsed.n))  # type: ignore[arg-type]
    return (_restore, (type(self), state))


class _Snapshot:
    """Mixin: the ``snapshot`` property of the delta events (filled lazily by the stream).

    The stream sets ``_snapshot_fn`` to a function giving the text, or to the :class:`Text`
    builder itself with ``_snapshot_at`` its length after this delta: two slot stores where a
    closure cost a function object per delta (issue 21). The inline path always does the
    latter; for a text tracked as JSON, ``_parsed_fn`` is then a
    :class:`~sansio_responses._json.structured.ReaderAt` of the same builder and length.
    """

    __slots__ = ()
    _snapshot_fn: Callable[[], str] | Text | None
    _snapshot_at: int | None
    __reduce_ex__ = _reduce_lazy  # type: ignore[assignment]

    @property
    def snapshot(self) -> str | None:
        """The accumulated text of this event's part after this delta, or ``None`` if not tracked.

        Computed from the stream's accumulator when read; costs nothing when not read.
        """
        fn = self._snapshot_fn
        if fn is None:
            return None
        if isinstance(fn, Text):
            at: Any = self._snapshot_at  # an int whenever fn is a Text
            return fn.prefix(at)
        return fn()


class _Parsed:
    """Mixin: the ``parsed`` property (a partial or final parsed JSON value, set by the stream)."""

    __slots__ = ()
    _parsed_fn: Callable[[], Any] | None
    __reduce_ex__ = _reduce_lazy  # type: ignore[assignment]

    @property
    def parsed(self) -> Any:
        """The value parsed from the accumulated JSON text so far, or ``None`` if not tracked."""
        fn = self._parsed_fn
        return None if fn is None else fn()


def _set_lazy(  # pyright: ignore[reportUnusedFunction]  # used by _stream
    event: object,
    snapshot_fn: Callable[[], str] | None = None,
    parsed_fn: Callable[[], Any] | None = None,
) -> bool:
    """Attach the stream's lazy helpers to a (frozen) event; return whether anything was attached.

    A function for a slot the event's class does not have is ignored, so the stream may call this
    for any event.
    """
    attached = False
    if snapshot_fn is not None and isinstance(event, _Snapshot):
        object.__setattr__(event, "_snapshot_fn", snapshot_fn)
        attached = True
    if parsed_fn is not None and isinstance(event, _Parsed):
        object.__setattr__(event, "_parsed_fn", parsed_fn)
        attached = True
    return attached


# --- error ----------------------------------------------------------------------------------------


@_event("error")
@attrs.frozen
class ResponseErrorEvent(_Event):
    """An ``error`` event. It ends the response: the stream's outcome becomes ``"error"``.

    Both wire shapes give the same attributes: the flat ``{"type": "error", "code", "message",
    "param"}`` of the API reference, and ``{"type": "error", "error": {"type", "code", "message",
    "param"}}`` that the API also sends. ``code`` may be an integer from compatible servers (an HTTP
    status); it is kept as sent. ``error`` is the nested object when present, else ``None``;
    ``error_type`` is its ``type``.
    """

    if TYPE_CHECKING:
        type: Literal["error"]

    code: str | int | None
    message: str | None
    param: str | None
    error: dict[str, Any] | None
    error_type: str | None

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> ResponseErrorEvent:
        nested = d.get("error")
        if nested is not None and nested.__class__ is not dict:
            raise SchemaError("error", "object", nested)
        values: dict[str, Any] = {}
        # Flat fields win; the nested object fills what the flat shape lacks. "type" is only read
        # from the nested object (the top-level one is the event type "error").
        for key in ("code", "message", "param", "type"):
            value = None if key == "type" else d.get(key)
            path = key
            if value is None and nested is not None:
                value = nested.get(key)
                path = f"error.{key}"
            if value is not None and not isinstance(value, str):
                if not (key == "code" and value.__class__ is int):
                    raise SchemaError(path, "string", value)
            values[key] = value
        return cls(
            type=d["type"],
            sequence_number=_sequence_number(d),
            data=d,
            code=values["code"],
            message=values["message"],
            param=values["param"],
            error=nested,
            error_type=values["type"],
        )


# error_type is derived from error.type, not a top-level wire field.
ResponseErrorEvent._FIELDS = frozenset(  # pyright: ignore[reportPrivateUsage]
    ["type", "sequence_number", "stream_id", "code", "message", "param", "error"]
)


# --- lifecycle: events carrying the whole response ------------------------------------------------


@attrs.frozen
class _ResponseEvent(_Event):
    response: Response

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> _ResponseEvent:
        # The lifecycle and terminal events: _build's steps written out (one field); the generic
        # path only runs to name the offending field.
        response = d.get("response")
        seq = d.get("sequence_number")
        if response is None or (seq is not None and seq.__class__ is not int):
            return _build(cls, d)  # raises SchemaError naming the field
        self = object.__new__(_TWINS.get(cls) or _twin(cls))
        self.type = d["type"]
        self.sequence_number = seq
        self._data = d
        self.response = Response.from_dict(response, "response")
        self.__class__ = cls
        return self  # type: ignore[no-any-return]


@_event("response.created")
@attrs.frozen
class ResponseCreatedEvent(_ResponseEvent):
    """``response.created``: the response object as created (usually ``in_progress``)."""

    if TYPE_CHECKING:
        type: Literal["response.created"]


@_event("response.in_progress")
@attrs.frozen
class ResponseInProgressEvent(_ResponseEvent):
    """``response.in_progress``: the response is being generated."""

    if TYPE_CHECKING:
        type: Literal["response.in_progress"]


@_event("response.queued")
@attrs.frozen
class ResponseQueuedEvent(_ResponseEvent):
    """``response.queued``: a background response waits for capacity."""

    if TYPE_CHECKING:
        type: Literal["response.queued"]


@_event("response.completed")
@attrs.frozen
class ResponseCompletedEvent(_ResponseEvent):
    """``response.completed``: terminal; ``response`` is the server's final object."""

    if TYPE_CHECKING:
        type: Literal["response.completed"]


@_event("response.incomplete")
@attrs.frozen
class ResponseIncompleteEvent(_ResponseEvent):
    """``response.incomplete``: terminal; see ``response.incomplete_details``."""

    if TYPE_CHECKING:
        type: Literal["response.incomplete"]


@_event("response.failed")
@attrs.frozen
class ResponseFailedEvent(_ResponseEvent):
    """``response.failed``: terminal; see ``response.error``."""

    if TYPE_CHECKING:
        type: Literal["response.failed"]


# --- output items and content parts ---------------------------------------------------------------


@_event("response.output_item.added")
@attrs.frozen
class ResponseOutputItemAddedEvent(_Event):
    """``response.output_item.added``: a new output item at ``output_index``."""

    if TYPE_CHECKING:
        type: Literal["response.output_item.added"]

    output_index: int | None
    item: OutputItem


@_event("response.output_item.done")
@attrs.frozen
class ResponseOutputItemDoneEvent(_Event):
    """``response.output_item.done``: the finished output item at ``output_index``."""

    if TYPE_CHECKING:
        type: Literal["response.output_item.done"]

    output_index: int | None
    item: OutputItem


@_event("response.content_part.added")
@attrs.frozen
class ResponseContentPartAddedEvent(_Event):
    """``response.content_part.added``: a new part in a message (or reasoning) item."""

    if TYPE_CHECKING:
        type: Literal["response.content_part.added"]

    item_id: str | None
    output_index: int | None
    content_index: int | None
    part: ContentPart


@_event("response.content_part.done")
@attrs.frozen
class ResponseContentPartDoneEvent(_Event):
    """``response.content_part.done``: a finished content part."""

    if TYPE_CHECKING:
        type: Literal["response.content_part.done"]

    item_id: str | None
    output_index: int | None
    content_index: int | None
    part: ContentPart


# --- output text ----------------------------------------------------------------------------------


@_event("response.output_text.delta")
@attrs.frozen
class ResponseTextDeltaEvent(_Event, _Snapshot, _Parsed):
    """``response.output_text.delta``: more text for an ``output_text`` part.

    ``logprobs`` stays raw JSON (a list of ``{token, logprob, top_logprobs}`` dicts).
    """

    if TYPE_CHECKING:
        type: Literal["response.output_text.delta"]

    item_id: str | None
    output_index: int | None
    content_index: int | None
    delta: str
    logprobs: list[Any] | None
    _snapshot_fn: Callable[[], str] | Text | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )
    _snapshot_at: int | None = attrs.field(init=False, default=None, eq=False, repr=False)
    _parsed_fn: Callable[[], Any] | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> ResponseTextDeltaEvent:
        # Hot path: one check expression, then direct slot writes; the generic path only runs to
        # name the offending field.
        get = d.get
        seq = get("sequence_number")
        item_id = get("item_id")
        output_index = get("output_index")
        content_index = get("content_index")
        delta = get("delta")
        logprobs = get("logprobs")
        if (
            delta.__class__ is not str
            or (seq is not None and seq.__class__ is not int)
            or (item_id is not None and item_id.__class__ is not str)
            or (output_index is not None and output_index.__class__ is not int)
            or (content_index is not None and content_index.__class__ is not int)
            or (logprobs is not None and logprobs.__class__ is not list)
        ):
            return _build(cls, d)  # raises SchemaError naming the field
        self = object.__new__(_TWINS.get(cls) or _twin(cls))
        self.type = d["type"]
        self.sequence_number = seq
        self._data = d
        self.item_id = item_id
        self.output_index = output_index
        self.content_index = content_index
        self.delta = delta
        self.logprobs = logprobs
        self._snapshot_fn = None
        self._snapshot_at = None
        self._parsed_fn = None
        self.__class__ = cls
        return self  # type: ignore[no-any-return]


def text_delta_fits(d: dict[str, Any]) -> bool:
    """Whether :class:`ResponseTextDeltaEvent` accepts the wire dict *d* (of that type): the
    check its constructor makes, for the snapshot-only stream (``ResponsesStream(events=False)``),
    which applies such a delta without building it. A dict it refuses goes to the constructor,
    which raises the located :class:`SchemaError`; tests hold the two to the same answer."""
    get = d.get
    seq = get("sequence_number")
    item_id = get("item_id")
    output_index = get("output_index")
    content_index = get("content_index")
    logprobs = get("logprobs")
    return not (
        get("delta").__class__ is not str
        or (seq is not None and seq.__class__ is not int)
        or (item_id is not None and item_id.__class__ is not str)
        or (output_index is not None and output_index.__class__ is not int)
        or (content_index is not None and content_index.__class__ is not int)
        or (logprobs is not None and logprobs.__class__ is not list)
    )


@_event("response.output_text.done")
@attrs.frozen
class ResponseTextDoneEvent(_Event, _Parsed):
    """``response.output_text.done``: the final text of an ``output_text`` part."""

    if TYPE_CHECKING:
        type: Literal["response.output_text.done"]

    item_id: str | None
    output_index: int | None
    content_index: int | None
    text: str
    logprobs: list[Any] | None
    _parsed_fn: Callable[[], Any] | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )


@_event("response.output_text.annotation.added")
@attrs.frozen
class ResponseOutputTextAnnotationAddedEvent(_Event):
    """``response.output_text.annotation.added``: a citation on an ``output_text`` part."""

    if TYPE_CHECKING:
        type: Literal["response.output_text.annotation.added"]

    item_id: str | None
    output_index: int | None
    content_index: int | None
    annotation_index: int
    annotation: Annotation | None


# --- deltas of one part: refusal and reasoning text (item_id, output_index, content_index) --------


def _part_delta(cls: type[_E], d: dict[str, Any], index: str) -> _E:
    """Hot-path constructor of the deltas located by an item and one part index (*index*: the
    ``content_index`` or ``summary_index`` wire name)."""
    get = d.get
    seq = get("sequence_number")
    item_id = get("item_id")
    output_index = get("output_index")
    part_index = get(index)
    delta = get("delta")
    if (
        delta.__class__ is not str
        or (seq is not None and seq.__class__ is not int)
        or (item_id is not None and item_id.__class__ is not str)
        or (output_index is not None and output_index.__class__ is not int)
        or (part_index is not None and part_index.__class__ is not int)
    ):
        return _build(cls, d)
    self = object.__new__(_TWINS.get(cls) or _twin(cls))
    self.type = d["type"]
    self.sequence_number = seq
    self._data = d
    self.item_id = item_id
    self.output_index = output_index
    if index == "content_index":
        self.content_index = part_index
    else:
        self.summary_index = part_index
    self.delta = delta
    self._snapshot_fn = None
    self._snapshot_at = None
    self._parsed_fn = None
    self.__class__ = cls
    return self  # type: ignore[no-any-return]


@attrs.frozen
class _ContentDeltaEvent(_Event, _Snapshot, _Parsed):
    item_id: str | None
    output_index: int | None
    content_index: int | None
    delta: str
    _snapshot_fn: Callable[[], str] | Text | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )
    _snapshot_at: int | None = attrs.field(init=False, default=None, eq=False, repr=False)
    _parsed_fn: Callable[[], Any] | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> _ContentDeltaEvent:
        return _part_delta(cls, d, "content_index")


@_event("response.refusal.delta")
@attrs.frozen
class ResponseRefusalDeltaEvent(_ContentDeltaEvent):
    """``response.refusal.delta``: more text for a ``refusal`` part."""

    if TYPE_CHECKING:
        type: Literal["response.refusal.delta"]


@_event("response.refusal.done")
@attrs.frozen
class ResponseRefusalDoneEvent(_Event):
    """``response.refusal.done``: the final text of a ``refusal`` part."""

    if TYPE_CHECKING:
        type: Literal["response.refusal.done"]

    item_id: str | None
    output_index: int | None
    content_index: int | None
    refusal: str


@_event("response.reasoning_text.delta")
@attrs.frozen
class ResponseReasoningTextDeltaEvent(_ContentDeltaEvent):
    """``response.reasoning_text.delta``: more raw reasoning text (``reasoning_text`` part)."""

    if TYPE_CHECKING:
        type: Literal["response.reasoning_text.delta"]


@_event("response.reasoning_text.done")
@attrs.frozen
class ResponseReasoningTextDoneEvent(_Event):
    """``response.reasoning_text.done``: the final text of a ``reasoning_text`` part."""

    if TYPE_CHECKING:
        type: Literal["response.reasoning_text.done"]

    item_id: str | None
    output_index: int | None
    content_index: int | None
    text: str


# --- reasoning summaries --------------------------------------------------------------------------


@_event("response.reasoning_summary_part.added")
@attrs.frozen
class ResponseReasoningSummaryPartAddedEvent(_Event):
    """``response.reasoning_summary_part.added``: a new ``summary_text`` part."""

    if TYPE_CHECKING:
        type: Literal["response.reasoning_summary_part.added"]

    item_id: str | None
    output_index: int | None
    summary_index: int | None
    part: ContentPart


@_event("response.reasoning_summary_part.done")
@attrs.frozen
class ResponseReasoningSummaryPartDoneEvent(_Event):
    """``response.reasoning_summary_part.done``: a finished summary part (``status`` optional)."""

    if TYPE_CHECKING:
        type: Literal["response.reasoning_summary_part.done"]

    item_id: str | None
    output_index: int | None
    summary_index: int | None
    part: ContentPart
    status: str | None


@_event("response.reasoning_summary_text.delta")
@attrs.frozen
class ResponseReasoningSummaryTextDeltaEvent(_Event, _Snapshot, _Parsed):
    """``response.reasoning_summary_text.delta``: more text for a summary part."""

    if TYPE_CHECKING:
        type: Literal["response.reasoning_summary_text.delta"]

    item_id: str | None
    output_index: int | None
    summary_index: int | None
    delta: str
    _snapshot_fn: Callable[[], str] | Text | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )
    _snapshot_at: int | None = attrs.field(init=False, default=None, eq=False, repr=False)
    _parsed_fn: Callable[[], Any] | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> ResponseReasoningSummaryTextDeltaEvent:
        return _part_delta(cls, d, "summary_index")


@_event("response.reasoning_summary_text.done")
@attrs.frozen
class ResponseReasoningSummaryTextDoneEvent(_Event):
    """``response.reasoning_summary_text.done``: the final text of a summary part."""

    if TYPE_CHECKING:
        type: Literal["response.reasoning_summary_text.done"]

    item_id: str | None
    output_index: int | None
    summary_index: int | None
    text: str


# --- deltas of one item field (item_id, output_index): tool-call arguments, input, code -----------


@attrs.frozen
class _ItemDeltaEvent(_Event, _Snapshot, _Parsed):
    item_id: str | None
    output_index: int | None
    delta: str
    _snapshot_fn: Callable[[], str] | Text | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )
    _snapshot_at: int | None = attrs.field(init=False, default=None, eq=False, repr=False)
    _parsed_fn: Callable[[], Any] | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> _ItemDeltaEvent:
        get = d.get
        seq = get("sequence_number")
        item_id = get("item_id")
        output_index = get("output_index")
        delta = get("delta")
        if (
            delta.__class__ is not str
            or (seq is not None and seq.__class__ is not int)
            or (item_id is not None and item_id.__class__ is not str)
            or (output_index is not None and output_index.__class__ is not int)
        ):
            return _build(cls, d)
        self = object.__new__(_TWINS.get(cls) or _twin(cls))
        self.type = d["type"]
        self.sequence_number = seq
        self._data = d
        self.item_id = item_id
        self.output_index = output_index
        self.delta = delta
        self._snapshot_fn = None
        self._snapshot_at = None
        self._parsed_fn = None
        self.__class__ = cls
        return self  # type: ignore[no-any-return]


@_event("response.function_call_arguments.delta")
@attrs.frozen
class ResponseFunctionCallArgumentsDeltaEvent(_ItemDeltaEvent):
    """``response.function_call_arguments.delta``: more JSON text of a function call's arguments."""

    if TYPE_CHECKING:
        type: Literal["response.function_call_arguments.delta"]


@_event("response.function_call_arguments.done")
@attrs.frozen
class ResponseFunctionCallArgumentsDoneEvent(_Event, _Parsed):
    """``response.function_call_arguments.done``: the final arguments (``name`` optional: the
    newest SDK dropped it)."""

    if TYPE_CHECKING:
        type: Literal["response.function_call_arguments.done"]

    item_id: str | None
    output_index: int | None
    arguments: str
    name: str | None
    _parsed_fn: Callable[[], Any] | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )


@_event("response.custom_tool_call_input.delta")
@attrs.frozen
class ResponseCustomToolCallInputDeltaEvent(_ItemDeltaEvent):
    """``response.custom_tool_call_input.delta``: more free-form input of a custom tool call."""

    if TYPE_CHECKING:
        type: Literal["response.custom_tool_call_input.delta"]


@_event("response.custom_tool_call_input.done")
@attrs.frozen
class ResponseCustomToolCallInputDoneEvent(_Event, _Parsed):
    """``response.custom_tool_call_input.done``: the final input of a custom tool call."""

    if TYPE_CHECKING:
        type: Literal["response.custom_tool_call_input.done"]

    item_id: str | None
    output_index: int | None
    input: str
    _parsed_fn: Callable[[], Any] | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )


@_event("response.mcp_call_arguments.delta")
@attrs.frozen
class ResponseMcpCallArgumentsDeltaEvent(_ItemDeltaEvent):
    """``response.mcp_call_arguments.delta``: more JSON text of an MCP call's arguments."""

    if TYPE_CHECKING:
        type: Literal["response.mcp_call_arguments.delta"]


@_event("response.mcp_call_arguments.done")
@attrs.frozen
class ResponseMcpCallArgumentsDoneEvent(_Event, _Parsed):
    """``response.mcp_call_arguments.done``: the final arguments of an MCP call."""

    if TYPE_CHECKING:
        type: Literal["response.mcp_call_arguments.done"]

    item_id: str | None
    output_index: int | None
    arguments: str
    _parsed_fn: Callable[[], Any] | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )


@_event("response.code_interpreter_call_code.delta")
@attrs.frozen
class ResponseCodeInterpreterCallCodeDeltaEvent(_ItemDeltaEvent):
    """``response.code_interpreter_call_code.delta``: more code of a code interpreter call."""

    if TYPE_CHECKING:
        type: Literal["response.code_interpreter_call_code.delta"]


@_event("response.code_interpreter_call_code.done")
@attrs.frozen
class ResponseCodeInterpreterCallCodeDoneEvent(_Event):
    """``response.code_interpreter_call_code.done``: the final code of a code interpreter call."""

    if TYPE_CHECKING:
        type: Literal["response.code_interpreter_call_code.done"]

    item_id: str | None
    output_index: int | None
    code: str


# --- audio ----------------------------------------------------------------------------------------


@_event("response.audio.delta")
@attrs.frozen
class ResponseAudioDeltaEvent(_Event):
    """``response.audio.delta``: a chunk of base64 audio (no item_id/output_index on the wire)."""

    if TYPE_CHECKING:
        type: Literal["response.audio.delta"]

    delta: str


@_event("response.audio.done")
@attrs.frozen
class ResponseAudioDoneEvent(_Event):
    """``response.audio.done``: the audio is complete."""

    if TYPE_CHECKING:
        type: Literal["response.audio.done"]


@_event("response.audio.transcript.delta")
@attrs.frozen
class ResponseAudioTranscriptDeltaEvent(_Event, _Snapshot, _Parsed):
    """``response.audio.transcript.delta``: more transcript text."""

    if TYPE_CHECKING:
        type: Literal["response.audio.transcript.delta"]

    delta: str
    _snapshot_fn: Callable[[], str] | Text | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )
    _snapshot_at: int | None = attrs.field(init=False, default=None, eq=False, repr=False)
    _parsed_fn: Callable[[], Any] | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )


@_event("response.audio.transcript.done")
@attrs.frozen
class ResponseAudioTranscriptDoneEvent(_Event):
    """``response.audio.transcript.done``: the transcript is complete."""

    if TYPE_CHECKING:
        type: Literal["response.audio.transcript.done"]


# --- shell calls (these carry output_index and command_index, no item_id) -------------------------


@_event("response.shell_call_command.added")
@attrs.frozen
class ResponseShellCallCommandAddedEvent(_Event):
    """``response.shell_call_command.added``: a new command of a shell call."""

    if TYPE_CHECKING:
        type: Literal["response.shell_call_command.added"]

    output_index: int | None
    command_index: int
    command: str


@_event("response.shell_call_command.delta")
@attrs.frozen
class ResponseShellCallCommandDeltaEvent(_Event, _Snapshot, _Parsed):
    """``response.shell_call_command.delta``: more text of a shell command (``obfuscation`` is
    declared here in the SDK, unlike on the other deltas)."""

    if TYPE_CHECKING:
        type: Literal["response.shell_call_command.delta"]

    output_index: int | None
    command_index: int
    delta: str
    obfuscation: str | None
    _snapshot_fn: Callable[[], str] | Text | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )
    _snapshot_at: int | None = attrs.field(init=False, default=None, eq=False, repr=False)
    _parsed_fn: Callable[[], Any] | None = attrs.field(
        init=False, default=None, eq=False, repr=False
    )


@_event("response.shell_call_command.done")
@attrs.frozen
class ResponseShellCallCommandDoneEvent(_Event):
    """``response.shell_call_command.done``: the final text of a shell command."""

    if TYPE_CHECKING:
        type: Literal["response.shell_call_command.done"]

    output_index: int | None
    command_index: int
    command: str


@_event("response.shell_call_output_content.delta")
@attrs.frozen
class ResponseShellCallOutputContentDeltaEvent(_Event):
    """``response.shell_call_output_content.delta``: ``delta`` is ``{stdout?, stderr?}`` (raw)."""

    if TYPE_CHECKING:
        type: Literal["response.shell_call_output_content.delta"]

    item_id: str | None
    output_index: int | None
    command_index: int
    delta: dict[str, Any]


@_event("response.shell_call_output_content.done")
@attrs.frozen
class ResponseShellCallOutputContentDoneEvent(_Event):
    """``response.shell_call_output_content.done``: ``output`` is the raw list of
    ``{stdout, stderr, outcome, created_by?}``."""

    if TYPE_CHECKING:
        type: Literal["response.shell_call_output_content.done"]

    item_id: str | None
    output_index: int | None
    command_index: int
    output: list[Any]


# --- image generation -----------------------------------------------------------------------------


@_event("response.image_generation_call.partial_image")
@attrs.frozen
class ResponseImageGenCallPartialImageEvent(_Event):
    """``response.image_generation_call.partial_image``: a partial image (base64)."""

    if TYPE_CHECKING:
        type: Literal["response.image_generation_call.partial_image"]

    item_id: str | None
    output_index: int | None
    partial_image_b64: str
    partial_image_index: int
    background: str | None
    output_format: str | None
    quality: str | None
    size: str | None


# --- status events of tool-call items (item_id, output_index only) --------------------------------


@attrs.frozen
class _ItemStatusEvent(_Event):
    item_id: str | None
    output_index: int | None


@_event("response.code_interpreter_call.completed")
@attrs.frozen
class ResponseCodeInterpreterCallCompletedEvent(_ItemStatusEvent):
    """``response.code_interpreter_call.completed``."""

    if TYPE_CHECKING:
        type: Literal["response.code_interpreter_call.completed"]


@_event("response.code_interpreter_call.in_progress")
@attrs.frozen
class ResponseCodeInterpreterCallInProgressEvent(_ItemStatusEvent):
    """``response.code_interpreter_call.in_progress``."""

    if TYPE_CHECKING:
        type: Literal["response.code_interpreter_call.in_progress"]


@_event("response.code_interpreter_call.interpreting")
@attrs.frozen
class ResponseCodeInterpreterCallInterpretingEvent(_ItemStatusEvent):
    """``response.code_interpreter_call.interpreting``."""

    if TYPE_CHECKING:
        type: Literal["response.code_interpreter_call.interpreting"]


@_event("response.file_search_call.completed")
@attrs.frozen
class ResponseFileSearchCallCompletedEvent(_ItemStatusEvent):
    """``response.file_search_call.completed``."""

    if TYPE_CHECKING:
        type: Literal["response.file_search_call.completed"]


@_event("response.file_search_call.in_progress")
@attrs.frozen
class ResponseFileSearchCallInProgressEvent(_ItemStatusEvent):
    """``response.file_search_call.in_progress``."""

    if TYPE_CHECKING:
        type: Literal["response.file_search_call.in_progress"]


@_event("response.file_search_call.searching")
@attrs.frozen
class ResponseFileSearchCallSearchingEvent(_ItemStatusEvent):
    """``response.file_search_call.searching``."""

    if TYPE_CHECKING:
        type: Literal["response.file_search_call.searching"]


@_event("response.image_generation_call.completed")
@attrs.frozen
class ResponseImageGenCallCompletedEvent(_ItemStatusEvent):
    """``response.image_generation_call.completed``."""

    if TYPE_CHECKING:
        type: Literal["response.image_generation_call.completed"]


@_event("response.image_generation_call.generating")
@attrs.frozen
class ResponseImageGenCallGeneratingEvent(_ItemStatusEvent):
    """``response.image_generation_call.generating``."""

    if TYPE_CHECKING:
        type: Literal["response.image_generation_call.generating"]


@_event("response.image_generation_call.in_progress")
@attrs.frozen
class ResponseImageGenCallInProgressEvent(_ItemStatusEvent):
    """``response.image_generation_call.in_progress``."""

    if TYPE_CHECKING:
        type: Literal["response.image_generation_call.in_progress"]


@_event("response.mcp_call.completed")
@attrs.frozen
class ResponseMcpCallCompletedEvent(_ItemStatusEvent):
    """``response.mcp_call.completed``."""

    if TYPE_CHECKING:
        type: Literal["response.mcp_call.completed"]


@_event("response.mcp_call.failed")
@attrs.frozen
class ResponseMcpCallFailedEvent(_ItemStatusEvent):
    """``response.mcp_call.failed``."""

    if TYPE_CHECKING:
        type: Literal["response.mcp_call.failed"]


@_event("response.mcp_call.in_progress")
@attrs.frozen
class ResponseMcpCallInProgressEvent(_ItemStatusEvent):
    """``response.mcp_call.in_progress``."""

    if TYPE_CHECKING:
        type: Literal["response.mcp_call.in_progress"]


@_event("response.mcp_list_tools.completed")
@attrs.frozen
class ResponseMcpListToolsCompletedEvent(_ItemStatusEvent):
    """``response.mcp_list_tools.completed``."""

    if TYPE_CHECKING:
        type: Literal["response.mcp_list_tools.completed"]


@_event("response.mcp_list_tools.failed")
@attrs.frozen
class ResponseMcpListToolsFailedEvent(_ItemStatusEvent):
    """``response.mcp_list_tools.failed``."""

    if TYPE_CHECKING:
        type: Literal["response.mcp_list_tools.failed"]


@_event("response.mcp_list_tools.in_progress")
@attrs.frozen
class ResponseMcpListToolsInProgressEvent(_ItemStatusEvent):
    """``response.mcp_list_tools.in_progress``."""

    if TYPE_CHECKING:
        type: Literal["response.mcp_list_tools.in_progress"]


@_event("response.web_search_call.completed")
@attrs.frozen
class ResponseWebSearchCallCompletedEvent(_ItemStatusEvent):
    """``response.web_search_call.completed``."""

    if TYPE_CHECKING:
        type: Literal["response.web_search_call.completed"]


@_event("response.web_search_call.in_progress")
@attrs.frozen
class ResponseWebSearchCallInProgressEvent(_ItemStatusEvent):
    """``response.web_search_call.in_progress``."""

    if TYPE_CHECKING:
        type: Literal["response.web_search_call.in_progress"]


@_event("response.web_search_call.searching")
@attrs.frozen
class ResponseWebSearchCallSearchingEvent(_ItemStatusEvent):
    """``response.web_search_call.searching``."""

    if TYPE_CHECKING:
        type: Literal["response.web_search_call.searching"]


@_event("response.compaction.compacting")
@attrs.frozen
class ResponseCompactionCompactingEvent(_ItemStatusEvent):
    """``response.compaction.compacting`` (newest SDK): a compaction item is being produced."""

    if TYPE_CHECKING:
        type: Literal["response.compaction.compacting"]


# --- unknown --------------------------------------------------------------------------------------


UnknownEventType: TypeAlias = Literal["<unknown>"]
"""The type that type checkers give :attr:`UnknownEvent.type` (at run time: the wire string).

Type checkers narrow ``event.type == "response.output_text.delta"`` to one class only when every
member of the union has a ``Literal`` tag (mypy does not narrow at all otherwise; pyright keeps the
``str``-tagged member in every branch), and no ``Literal`` can spell "any string but the 59 known
ones", which is what an unknown event's type is. This placeholder stands for it: it matches none
of the registered types, as at run time (the registry decides the class). Read the wire type of an
unknown event as ``event.data["type"]`` or compare it after ``isinstance(event, UnknownEvent)``;
see the concepts guide, "Typing".
"""


@attrs.frozen
class _UnknownFields:
    # The attrs fields of UnknownEvent, on a base class: the subclass redeclares ``type`` for type
    # checkers only (a class cannot redeclare its own field), and __init__ keeps ``type: str``.
    type: str
    sequence_number: int | None
    data: dict[str, Any]


@depth_safe
@attrs.frozen
class UnknownEvent(_UnknownFields):
    """An event whose ``type`` is not one of the SDK's (``ping``, ``keepalive``, newer types, ...).

    ``type`` is the wire string and ``data`` the decoded JSON object as sent. Never raised as an
    error. ``sequence_number`` is the integer the server sent, else ``None`` (unknown events are not
    validated). For type checkers ``type`` is :data:`UnknownEventType`, so that comparing
    ``event.type`` narrows the union of events to one registered class.
    """

    if TYPE_CHECKING:
        # A read-only property, not a field: type checkers then keep ``type: str`` in __init__, so
        # ``UnknownEvent("ping", None, {...})`` type-checks as it runs.
        @property
        def type(self) -> UnknownEventType: ...  # pyright: ignore[reportIncompatibleVariableOverride]

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> UnknownEvent:
        seq = d.get("sequence_number")
        return cls(d["type"], seq if seq.__class__ is int else None, d)

    def to_dict(self) -> dict[str, Any]:
        """The wire dict of the event, as a fresh deep copy."""
        return copy_json(self.data)  # type: ignore[no-any-return]

    @property
    def extra(self) -> dict[str, Any]:
        """Every wire field except ``type``, ``sequence_number`` and ``stream_id``."""
        return {
            k: copy_json(v)
            for k, v in self.data.items()
            if k not in ("type", "sequence_number", "stream_id")
        }

    @property
    def stream_id(self) -> str | None:
        """The WebSocket lane of the event, or ``None`` (as on the registered classes).

        Raises:
            SchemaError: the wire ``stream_id`` is present but not a string.
        """
        return _stream_id(self.data)


ResponseStreamEvent: TypeAlias = (
    ResponseErrorEvent
    | ResponseCreatedEvent
    | ResponseInProgressEvent
    | ResponseQueuedEvent
    | ResponseCompletedEvent
    | ResponseIncompleteEvent
    | ResponseFailedEvent
    | ResponseOutputItemAddedEvent
    | ResponseOutputItemDoneEvent
    | ResponseContentPartAddedEvent
    | ResponseContentPartDoneEvent
    | ResponseTextDeltaEvent
    | ResponseTextDoneEvent
    | ResponseOutputTextAnnotationAddedEvent
    | ResponseRefusalDeltaEvent
    | ResponseRefusalDoneEvent
    | ResponseReasoningTextDeltaEvent
    | ResponseReasoningTextDoneEvent
    | ResponseReasoningSummaryPartAddedEvent
    | ResponseReasoningSummaryPartDoneEvent
    | ResponseReasoningSummaryTextDeltaEvent
    | ResponseReasoningSummaryTextDoneEvent
    | ResponseFunctionCallArgumentsDeltaEvent
    | ResponseFunctionCallArgumentsDoneEvent
    | ResponseCustomToolCallInputDeltaEvent
    | ResponseCustomToolCallInputDoneEvent
    | ResponseMcpCallArgumentsDeltaEvent
    | ResponseMcpCallArgumentsDoneEvent
    | ResponseCodeInterpreterCallCodeDeltaEvent
    | ResponseCodeInterpreterCallCodeDoneEvent
    | ResponseAudioDeltaEvent
    | ResponseAudioDoneEvent
    | ResponseAudioTranscriptDeltaEvent
    | ResponseAudioTranscriptDoneEvent
    | ResponseShellCallCommandAddedEvent
    | ResponseShellCallCommandDeltaEvent
    | ResponseShellCallCommandDoneEvent
    | ResponseShellCallOutputContentDeltaEvent
    | ResponseShellCallOutputContentDoneEvent
    | ResponseImageGenCallPartialImageEvent
    | ResponseCodeInterpreterCallCompletedEvent
    | ResponseCodeInterpreterCallInProgressEvent
    | ResponseCodeInterpreterCallInterpretingEvent
    | ResponseFileSearchCallCompletedEvent
    | ResponseFileSearchCallInProgressEvent
    | ResponseFileSearchCallSearchingEvent
    | ResponseImageGenCallCompletedEvent
    | ResponseImageGenCallGeneratingEvent
    | ResponseImageGenCallInProgressEvent
    | ResponseMcpCallCompletedEvent
    | ResponseMcpCallFailedEvent
    | ResponseMcpCallInProgressEvent
    | ResponseMcpListToolsCompletedEvent
    | ResponseMcpListToolsFailedEvent
    | ResponseMcpListToolsInProgressEvent
    | ResponseWebSearchCallCompletedEvent
    | ResponseWebSearchCallInProgressEvent
    | ResponseWebSearchCallSearchingEvent
    | ResponseCompactionCompactingEvent
    | UnknownEvent
)
"""What :func:`parse_event` returns: one of the 59 registered classes or :class:`UnknownEvent`.

Every member has a ``Literal`` type tag, so ``event.type == "response.output_text.delta"`` narrows
the union to :class:`ResponseTextDeltaEvent` under mypy and pyright (see :data:`UnknownEventType`).
"""

# Keyed by wire type, but looked up with whatever the data's "type" is (hence object).
_BUILDERS: dict[object, Callable[[dict[str, Any]], Any]] = {
    wire_type: cls._from_wire  # pyright: ignore[reportPrivateUsage]
    for wire_type, cls in EVENT_TYPES.items()
}


def parse_event(data: dict[str, Any]) -> ResponseStreamEvent:
    """Build the typed event for one decoded ``data:`` JSON object of a Responses stream.

    The JSON ``type`` alone picks the class (as in the SDK; the SSE ``event:`` name is not used).
    Unregistered types give :class:`UnknownEvent`. *data* is taken over, not copied.

    Raises:
        SchemaError: *data* is not an object, ``type`` is missing or not a string, or a registered
            type's field is missing or has the wrong JSON type (the error's ``path`` names it).
    """
    if data.__class__ is not dict:
        raise SchemaError("(event)", "object", data)
    kind = data.get("type")
    build = _BUILDERS.get(kind) if kind.__class__ is str else None
    if build is not None:
        return build(data)  # type: ignore[no-any-return]
    if not isinstance(kind, str):
        raise SchemaError("type", "string", kind)
    return UnknownEvent._from_wire(data)  # pyright: ignore[reportPrivateUsage]
