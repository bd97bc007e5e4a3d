"""Chat Completions wire types: streamed chunks, in-stream errors, the accumulated completion.

Chunk classes (:class:`ChatCompletionChunk` and the pieces inside it) are built from one decoded
``chat.completion.chunk`` object. Every field is optional, because compatible servers leave fields
out (Azure's prompt-filter chunk has no ``id``; a usage chunk may lack ``choices``); a field that is
present with the wrong JSON type raises the internal :class:`SchemaError` naming its dotted path,
which the stream turns into a located :class:`RemoteProtocolError`. Each wire object keeps the dict
it was built from, so ``to_dict()`` gives back exactly what the server sent and ``extra`` holds
every field this library does not model (``obfuscation`` stays on the chunk too; it is only left out
of accumulation).

The snapshot classes (:class:`ChatCompletion`, :class:`Choice`, :class:`ChatCompletionMessage`,
...) mirror the API's non-streaming ``chat.completion`` object (API reference, "The chat completion
object").
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias, TypeVar

import attrs

from .._errors import LocalProtocolError, SchemaError
from .._responses.events import _restore  # pyright: ignore[reportPrivateUsage]
from .._responses.models import CompletionTokensDetails, PromptTokensDetails, copy_json, depth_safe

__all__ = [
    "ChatCompletion",
    "ChatCompletionChunk",
    "ChatCompletionMessage",
    "ChatStreamError",
    "ChatToolCall",
    "ChatEvent",
    "ChatUnknownEvent",
    "ChoiceDelta",
    "ChoiceLogprobs",
    "ChunkChoice",
    "CompletionUsage",
    "FunctionCall",
    "FunctionDelta",
    "ToolCallDelta",
    "Choice",
]

CHUNK_OBJECT = "chat.completion.chunk"

#: What the JSON decoder gives for a value (a custom ``json_loads`` may give other scalars, which
#: every type test here rejects). Declared on the values read from a decoded object, so that the
#: ``type(v) is dict`` tests narrow them to typed containers for pyright (from ``Any`` it would
#: infer ``dict[Unknown, Unknown]``). An annotation only: nothing is checked at run time.
JSONValue: TypeAlias = "dict[str, Any] | list[Any] | str | int | float | bool | None"

# -- field readers: return the value or None; raise SchemaError on a wrong JSON type ---------------
# The path is only formatted when raising, so the common case costs one dict lookup and a type test.


def _str(d: dict[str, Any], key: str, path: str) -> str | None:
    v = d.get(key)
    if v is None or type(v) is str:
        return v
    raise SchemaError(f"{path}.{key}", "a string or null", v)


def _int(d: dict[str, Any], key: str, path: str) -> int | None:
    v = d.get(key)
    if v is None or type(v) is int:  # bool is an int subclass: rejected on purpose
        return v
    raise SchemaError(f"{path}.{key}", "an integer or null", v)


def _dict(d: dict[str, Any], key: str, path: str) -> dict[str, Any] | None:
    v: JSONValue = d.get(key)
    if v is None or type(v) is dict:
        return v
    raise SchemaError(f"{path}.{key}", "an object or null", v)


_D = TypeVar("_D", PromptTokensDetails, CompletionTokensDetails)


def _details(d: dict[str, Any], key: str, path: str, model: type[_D]) -> _D | None:
    """A usage details object as its typed model (unknown keys kept in its ``extra``)."""
    v = _dict(d, key, path)
    return None if v is None else model.from_dict(v, f"{path}.{key}")


def _list(d: dict[str, Any], key: str, path: str) -> list[Any] | None:
    v: JSONValue = d.get(key)
    if v is None or type(v) is list:
        return v
    raise SchemaError(f"{path}.{key}", "an array or null", v)


def _objects(d: dict[str, Any], key: str, path: str) -> list[dict[str, Any]] | None:
    """An array whose items must all be objects (logprob entries, ``reasoning_details``, ...)."""
    v = _list(d, key, path)
    if v is not None:
        for i, item in enumerate(v):
            if type(item) is not dict:
                raise SchemaError(f"{path}.{key}[{i}]", "an object", item)
    return v


# Re-entrant: building one pending field may read another instance's (a chunk's choices).
_PENDING_LOCK = threading.RLock()


class _Pending:
    """Mixin for classes whose instances may be made with some fields not built yet.

    Such an instance leaves those fields unset (a slot never set reads as missing, which is when
    Python calls ``__getattr__``) and holds in ``_pending`` what makes them: a callable returning
    ``{field: value}`` for every field of ``_PENDING``. The first read of any of them (directly,
    or through ``==``, ``repr``, ``to_dict()``, pickling, copying or attrs' helpers, which all
    read the fields) sets them all, once; from then on it is an ordinary instance. The values are
    those the eager build gives (tests/test_chat_entries.py).
    """

    __slots__ = ("_pending",)
    _PENDING: ClassVar[frozenset[str]] = frozenset()

    if not TYPE_CHECKING:  # (for the checkers, a class with __getattr__ has every attribute)

        def __getattr__(self, name: str) -> Any:
            if name in self._PENDING:
                # One thread builds them, once: a second build would be a second flush of the
                # stream's entries (each build reads state that the first one moves on), and a
                # thread finding ``_pending`` gone reads what the first one set. Only first
                # reads take the lock (later ones find the slot set and never get here).
                with _PENDING_LOCK:
                    try:
                        make = object.__getattribute__(self, "_pending")
                    except AttributeError:
                        return object.__getattribute__(self, name)  # set by another thread
                    values = make()
                    for k, v in values.items():
                        object.__setattr__(self, k, v)
                    object.__delattr__(self, "_pending")
                    return values[name]
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


class _Wire:
    """Mixin for classes built from one wire dict: exact ``to_dict()``, unmodelled ``extra``."""

    __slots__ = ()
    _KNOWN: ClassVar[frozenset[str]] = frozenset()
    _raw: dict[str, Any]

    @property
    def extra(self) -> dict[str, Any]:
        """The fields of the wire object that this class does not model, by wire name (copies,
        as ``to_dict()`` gives: changing them changes nothing of the chunk)."""
        return {k: copy_json(v) for k, v in self._raw.items() if k not in self._KNOWN}

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of the wire object exactly as sent (unknown fields included)."""
        return copy_json(self._raw)  # type: ignore[no-any-return]


# -- chunk ------------------------------------------------------------------------------------


@attrs.frozen
class FunctionDelta(_Wire):
    """A piece of a function call: ``tool_calls[].function`` or the legacy ``function_call``."""

    _KNOWN = frozenset({"name", "arguments"})

    name: str | None
    arguments: str | None
    _raw: dict[str, Any] = attrs.field(repr=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str) -> FunctionDelta:
        """Build from a decoded wire object; raise SchemaError on a wrong field type."""
        return cls(_str(d, "name", path), _str(d, "arguments", path), d)


@attrs.frozen
class ToolCallDelta(_Wire):
    """One entry of ``delta.tool_calls``: a piece of the tool call at position ``index``.

    ``index`` is ``None`` when the server left it out (Gemini's compatible endpoint does); the
    stream then infers it and records a diagnostic.
    """

    _KNOWN = frozenset({"index", "id", "type", "function"})

    index: int | None
    id: str | None
    type: str | None
    function: FunctionDelta | None
    _raw: dict[str, Any] = attrs.field(repr=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str) -> ToolCallDelta:
        """Build from a decoded wire object; raise SchemaError on a wrong field type."""
        f = _dict(d, "function", path)
        return cls(
            _int(d, "index", path),
            _str(d, "id", path),
            _str(d, "type", path),
            None if f is None else FunctionDelta.from_dict(f, path + ".function"),
            d,
        )


@attrs.frozen
class ChoiceDelta(_Wire):
    """``choices[].delta``: what this chunk adds to one choice's message.

    ``reasoning_content`` (DeepSeek, older vLLM), ``reasoning`` (newer vLLM, OpenRouter) and
    ``reasoning_details`` (OpenRouter) are not in the OpenAI API but are modelled because compatible
    servers send reasoning text under these names.
    """

    _KNOWN = frozenset(
        {
            "role",
            "content",
            "refusal",
            "tool_calls",
            "function_call",
            "reasoning_content",
            "reasoning",
            "reasoning_details",
        }
    )

    role: str | None
    content: str | None
    refusal: str | None
    tool_calls: list[ToolCallDelta] | None
    function_call: FunctionDelta | None
    reasoning_content: str | None
    reasoning: str | None
    reasoning_details: list[dict[str, Any]] | None
    _raw: dict[str, Any] = attrs.field(repr=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str) -> ChoiceDelta:
        """Build from a decoded wire object; raise SchemaError on a wrong field type."""
        tcs = _list(d, "tool_calls", path)
        tool_calls: list[ToolCallDelta] | None = None
        if tcs is not None:
            tool_calls = []
            tc: JSONValue
            for i, tc in enumerate(tcs):
                p = f"{path}.tool_calls[{i}]"
                if type(tc) is not dict:
                    raise SchemaError(p, "an object", tc)
                tool_calls.append(ToolCallDelta.from_dict(tc, p))
        fc = _dict(d, "function_call", path)
        return cls(
            _str(d, "role", path),
            _str(d, "content", path),
            _str(d, "refusal", path),
            tool_calls,
            None if fc is None else FunctionDelta.from_dict(fc, path + ".function_call"),
            _str(d, "reasoning_content", path),
            _str(d, "reasoning", path),
            _objects(d, "reasoning_details", path),
            d,
        )


def no_delta() -> ChoiceDelta:
    """The delta of a choice sent without one: every field ``None``, an empty wire dict."""
    return ChoiceDelta(None, None, None, None, None, None, None, None, {})


@attrs.frozen
class ChoiceLogprobs(_Wire):
    """Log probabilities: ``content`` and ``refusal`` token entries (each a dict as sent)."""

    _KNOWN = frozenset({"content", "refusal"})

    content: list[dict[str, Any]] | None
    refusal: list[dict[str, Any]] | None
    _raw: dict[str, Any] = attrs.field(repr=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str) -> ChoiceLogprobs:
        """Build from a decoded wire object; raise SchemaError on a wrong field type."""
        return cls(_objects(d, "content", path), _objects(d, "refusal", path), d)


@attrs.frozen
class ChunkChoice(_Wire):
    """One entry of a chunk's ``choices``.

    ``delta`` is never ``None``, as in the official SDK (so ``chunk.choices[0].delta.content``
    type-checks): a choice sent without one (Azure's asynchronous content-filter choices, which
    carry only ``content_filter_results`` / ``content_filter_offsets``, kept in ``extra``) has an
    empty :class:`ChoiceDelta`, and ``to_dict()`` still shows the choice as sent.
    """

    _KNOWN = frozenset({"index", "delta", "logprobs", "finish_reason"})

    index: int | None
    delta: ChoiceDelta
    logprobs: ChoiceLogprobs | None
    finish_reason: str | None
    _raw: dict[str, Any] = attrs.field(repr=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str) -> ChunkChoice:
        """Build from a decoded wire object; raise SchemaError on a wrong field type."""
        delta = _dict(d, "delta", path)
        lp = _dict(d, "logprobs", path)
        return cls(
            _int(d, "index", path),
            no_delta() if delta is None else ChoiceDelta.from_dict(delta, path + ".delta"),
            None if lp is None else ChoiceLogprobs.from_dict(lp, path + ".logprobs"),
            _str(d, "finish_reason", path),
            d,
        )


@attrs.frozen
class CompletionUsage(_Wire):
    """Token usage, sent in the last chunk when ``stream_options.include_usage`` is set."""

    _KNOWN = frozenset(
        {
            "prompt_tokens",
            "completion_tokens",
            "total_tokens",
            "prompt_tokens_details",
            "completion_tokens_details",
        }
    )

    prompt_tokens: int | None
    completion_tokens: int | None
    total_tokens: int | None
    prompt_tokens_details: PromptTokensDetails | None
    completion_tokens_details: CompletionTokensDetails | None
    _raw: dict[str, Any] = attrs.field(repr=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str) -> CompletionUsage:
        """Build from a decoded wire object; raise SchemaError on a wrong field type."""
        return cls(
            _int(d, "prompt_tokens", path),
            _int(d, "completion_tokens", path),
            _int(d, "total_tokens", path),
            _details(d, "prompt_tokens_details", path, PromptTokensDetails),
            _details(d, "completion_tokens_details", path, CompletionTokensDetails),
            d,
        )


@attrs.frozen
class ChatCompletionChunk(_Wire, _Pending):
    """One ``chat.completion.chunk`` object, as streamed.

    Every field the server sent is kept: the modelled ones as attributes, the rest in ``extra``
    (Azure's ``prompt_filter_results``, ``obfuscation``, vendor fields), and ``to_dict()`` returns
    the wire object unchanged. :meth:`content_snapshot` gives the accumulated content at this chunk,
    :meth:`content_parsed` its partial JSON value (with a ``response_format``) and
    :meth:`tool_arguments_parsed` the partial value of a tool call's arguments.
    """

    _KNOWN = frozenset(
        {
            "id",
            "object",
            "created",
            "model",
            "choices",
            "usage",
            "system_fingerprint",
            "service_tier",
        }
    )

    id: str | None
    object: str | None
    created: int | None
    model: str | None
    choices: list[ChunkChoice]
    usage: CompletionUsage | None
    system_fingerprint: str | None
    service_tier: str | None
    _raw: dict[str, Any] = attrs.field(repr=False)
    # Set by the stream: ``view(what, choice_index, tool_call_index)`` answers for the state right
    # after this chunk (``what`` is "content", "content_parsed" or "tool_arguments_parsed").
    # Excluded from equality so that chunks decoded from the same bytes compare equal.
    _view: Callable[[str, int, int], Any] | None = attrs.field(default=None, eq=False, repr=False)
    # A chunk read by the logprobs template builds these on first read (see _Pending).
    _PENDING = frozenset({"choices", "_raw"})

    # The view is the stream's own state: a copy shares it (its helpers answer as the original's
    # do), a pickle leaves it behind (the data only: the helpers then raise LocalProtocolError).
    # Reading the state builds any pending field first (_Pending).
    def __reduce_ex__(self, protocol: int) -> tuple[Any, ...]:  # type: ignore[override]
        state: dict[str, Any] = self.__getstate__()  # type: ignore[attr-defined]
        state["_view"] = None
        return (_restore, (type(self), state))

    def __copy__(self) -> ChatCompletionChunk:
        return _restore(type(self), self.__getstate__())  # type: ignore[attr-defined,no-any-return]

    def __deepcopy__(self, memo: dict[int, Any]) -> ChatCompletionChunk:
        state: dict[str, Any] = self.__getstate__()  # type: ignore[attr-defined]
        state["_view"] = None
        new = object.__new__(type(self))
        new.__setstate__({**copy.deepcopy(state, memo), "_view": self._view})  # type: ignore[attr-defined]
        return new

    @classmethod
    def from_dict(
        cls,
        d: dict[str, Any],
        view: Callable[[str, int, int], Any] | None = None,
    ) -> ChatCompletionChunk:
        """Build from a decoded wire object; raise SchemaError (path from the root) if mistyped."""
        chunk = hot_chunk(d)
        if chunk is None:
            return cls._build(d, view)
        if view is not None:
            _SET_CHUNK_VIEW(chunk, view)
        return chunk

    @classmethod
    def _build(
        cls,
        d: dict[str, Any],
        view: Callable[[str, int, int], Any] | None = None,
    ) -> ChatCompletionChunk:
        """The generic build (every field through its reader); :func:`hot_chunk` must equal it."""
        raw_choices = _list(d, "choices", "chunk")
        choices: list[ChunkChoice] = []
        if raw_choices:
            c: JSONValue
            for i, c in enumerate(raw_choices):
                p = f"chunk.choices[{i}]"
                if type(c) is not dict:
                    raise SchemaError(p, "an object", c)
                choices.append(ChunkChoice.from_dict(c, p))
        usage = _dict(d, "usage", "chunk")
        return cls(
            _str(d, "id", "chunk"),
            _str(d, "object", "chunk"),
            _int(d, "created", "chunk"),
            _str(d, "model", "chunk"),
            choices,
            None if usage is None else CompletionUsage.from_dict(usage, "chunk.usage"),
            _str(d, "system_fingerprint", "chunk"),
            _str(d, "service_tier", "chunk"),
            d,
            view,
        )

    @property
    def obfuscation(self) -> str | None:
        """The ``obfuscation`` padding string, if sent (never accumulated)."""
        v = self._raw.get("obfuscation")
        return v if type(v) is str else None

    def content_snapshot(self, index: int = 0) -> str | None:
        """The content of choice *index* accumulated up to and including this chunk.

        ``None`` when that choice had no content yet. Computed only when called (the stream records
        nothing per chunk beyond a position), like the SDK's ``content.delta`` ``snapshot``.

        Raises:
            LocalProtocolError: the chunk was not produced by a :class:`ChatCompletionsStream`.
        """
        return self._ask("content_snapshot", "content", index, 0)  # type: ignore[no-any-return]

    def content_parsed(self, index: int = 0) -> Any:
        """The partial JSON value of choice *index*'s content as of this chunk.

        Tracked only when the stream was given a ``response_format``; ``None`` otherwise, and
        before the choice's content starts a value. The value only grows from chunk to chunk
        (keys and items appear, strings extend); it is the parser's live tree, so copy it to
        keep it across chunks. Computed when called, incrementally: reading every chunk in order
        costs linear time over the stream. The final, typed value is
        :meth:`ChatCompletionsStream.parsed`.

        Raises:
            LocalProtocolError: the chunk was not produced by a :class:`ChatCompletionsStream`.
        """
        return self._ask("content_parsed", "content_parsed", index, 0)

    def tool_arguments_parsed(self, choice_index: int = 0, tool_call_index: int = 0) -> Any:
        """The partial JSON value of a tool call's arguments as of this chunk.

        The tool call at ``index`` *tool_call_index* of choice *choice_index*; ``None`` when it
        does not exist yet or its arguments have not started a value. Grows like
        :meth:`content_parsed` (and is likewise a live tree). The final value is
        :meth:`ChatCompletionsStream.parsed_tool_arguments`.

        Raises:
            LocalProtocolError: the chunk was not produced by a :class:`ChatCompletionsStream`.
        """
        return self._ask(
            "tool_arguments_parsed", "tool_arguments_parsed", choice_index, tool_call_index
        )

    def _ask(self, method: str, what: str, index: int, tool_index: int) -> Any:
        if self._view is None:
            raise LocalProtocolError(
                f"{method}() needs a chunk produced by a stream (an unpickled chunk has only"
                " its data)"
            )
        return self._view(what, index, tool_index)


# -- hot-path constructors ----------------------------------------------------------------------
# Nearly every chunk of a stream has one choice whose delta holds a content string (or one tool
# call's arguments). Building it through the readers above costs a call and a path per field and
# attrs' ``__init__`` (one ``object.__setattr__`` per field). The constructors below check the
# common shape with plain type tests, then assemble each object on a mutable twin class (ordinary
# slot stores, which CPython specialises) and give it its real, frozen class at the end, as
# ``_events`` does for the Responses deltas. Anything else, including every invalid value, returns
# None: the caller then runs the generic build from the start, so errors (which field, in which
# order) and results are exactly the generic ones. tests/test_hot_paths.py checks the equality.


def _twin(cls: type[Any]) -> type[Any]:
    """A subclass of the frozen slotted class *cls* that allows plain attribute stores.

    It adds no slots, so an instance built on it can be switched to *cls* by assigning
    ``__class__``: the result is an ordinary frozen *cls* instance.
    """
    return type(
        f"_Mutable{cls.__name__}",
        (cls,),
        {
            "__slots__": (),
            # Both, so that CPython uses its generic (specialisable) attribute setter.
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__module__": __name__,
        },
    )


# Without a leading underscore: _chat builds chunks on them too.
FunctionDeltaTwin = _twin(FunctionDelta)
ToolCallDeltaTwin = _twin(ToolCallDelta)
ChoiceDeltaTwin = _twin(ChoiceDelta)
ChunkChoiceTwin = _twin(ChunkChoice)
ChoiceLogprobsTwin = _twin(ChoiceLogprobs)
ChunkTwin = _twin(ChatCompletionChunk)
_SET_CHUNK_VIEW: Callable[[Any, Any], None] = ChatCompletionChunk._view.__set__  # type: ignore[union-attr]
new_object = object.__new__


def _hot_tool_call(d: Any) -> ToolCallDelta | None:
    if d.__class__ is not dict:
        return None
    get = d.get
    index = get("index")
    id_ = get("id")
    kind = get("type")
    f = get("function")
    if (
        (index is not None and index.__class__ is not int)
        or (id_ is not None and id_.__class__ is not str)
        or (kind is not None and kind.__class__ is not str)
    ):
        return None
    name = arguments = None
    if f is not None:
        if f.__class__ is not dict:
            return None
        name = f.get("name")
        arguments = f.get("arguments")
        if (name is not None and name.__class__ is not str) or (
            arguments is not None and arguments.__class__ is not str
        ):
            return None
    return tool_call_delta(index, id_, kind, f, name, arguments, d)


def tool_call_delta(
    index: int | None,
    tc_id: str | None,
    tc_type: str | None,
    f: dict[str, Any] | None,
    name: str | None,
    arguments: str | None,
    tc: dict[str, Any],
) -> ToolCallDelta:
    """A :class:`ToolCallDelta` (and its :class:`FunctionDelta`, for a *f* dict) from values
    already checked: what the hot constructors and the Chat stream's common path build."""
    function = None
    if f is not None:
        function = new_object(FunctionDeltaTwin)
        function.name = name
        function.arguments = arguments
        function._raw = f
        function.__class__ = FunctionDelta
    call = new_object(ToolCallDeltaTwin)
    call.index = index
    call.id = tc_id
    call.type = tc_type
    call.function = function
    call._raw = tc
    call.__class__ = ToolCallDelta
    return call  # type: ignore[no-any-return]


def _hot_delta(d: dict[str, Any]) -> ChoiceDelta | None:
    role = content = refusal = None
    tool_calls: list[ToolCallDelta] | None = None
    # One pass over the keys the server sent (usually one): cheaper than a lookup per field.
    for k, v in d.items():
        if v is None:
            continue
        if k == "content":
            if v.__class__ is not str:
                return None
            content = v
        elif k == "tool_calls":
            if v.__class__ is not list:
                return None
            tool_calls = []
            for item in v:
                tc = _hot_tool_call(item)
                if tc is None:
                    return None
                tool_calls.append(tc)
        elif k == "role":
            if v.__class__ is not str:
                return None
            role = v
        elif k == "refusal":
            if v.__class__ is not str:
                return None
            refusal = v
        elif k in _DELTA_FIELDS:  # function_call, reasoning fields: the generic build
            return None
    self = new_object(ChoiceDeltaTwin)
    self.role = role
    self.content = content
    self.refusal = refusal
    self.tool_calls = tool_calls
    self.function_call = None
    self.reasoning_content = None
    self.reasoning = None
    self.reasoning_details = None
    self._raw = d
    self.__class__ = ChoiceDelta
    return self  # type: ignore[no-any-return]


_DELTA_FIELDS = ChoiceDelta._KNOWN  # pyright: ignore[reportPrivateUsage]


def _hot_entries(v: Any) -> bool:
    """Whether *v* is what ``_objects`` accepts: null or an array of objects."""
    if v is None:
        return True
    if v.__class__ is not list:
        return False
    for item in v:
        if item.__class__ is not dict:
            return False
    return True


def _hot_logprobs(d: Any) -> ChoiceLogprobs | None:
    """``ChoiceLogprobs.from_dict(d)`` for a valid *d* (``logprobs=True`` on every chunk: a
    ``content`` array of token entries, ``refusal`` null), else None (the generic build)."""
    if d.__class__ is not dict:
        return None
    get = d.get
    content = get("content")
    refusal = get("refusal")
    if not (_hot_entries(content) and _hot_entries(refusal)):
        return None
    self = new_object(ChoiceLogprobsTwin)
    self.content = content
    self.refusal = refusal
    self._raw = d
    self.__class__ = ChoiceLogprobs
    return self  # type: ignore[no-any-return]


def hot_chunk(d: dict[str, Any]) -> ChatCompletionChunk | None:
    """The chunk built from *d* when it has the common shape (see above), else None.

    The result equals ``ChatCompletionChunk._build(d)`` (``_view`` unset); None means "use the
    generic build", which also raises the located error for invalid data.
    """
    get = d.get
    raw_choices = get("choices")
    cid = get("id")
    kind = get("object")
    created = get("created")
    model = get("model")
    fingerprint = get("system_fingerprint")
    tier = get("service_tier")
    if (
        get("usage") is not None
        or (cid is not None and cid.__class__ is not str)
        or (kind is not None and kind.__class__ is not str)
        or (created is not None and created.__class__ is not int)
        or (model is not None and model.__class__ is not str)
        or (fingerprint is not None and fingerprint.__class__ is not str)
        or (tier is not None and tier.__class__ is not str)
    ):
        return None
    choices: list[ChunkChoice] = []
    if raw_choices:
        if raw_choices.__class__ is not list:
            return None
        for c in raw_choices:
            if c.__class__ is not dict:
                return None
            cget = c.get
            index = cget("index")
            raw_delta = cget("delta")
            finish = cget("finish_reason")
            raw_logprobs = cget("logprobs")
            if (index is not None and index.__class__ is not int) or (
                finish is not None and finish.__class__ is not str
            ):
                return None
            logprobs = None
            if raw_logprobs is not None:
                logprobs = _hot_logprobs(raw_logprobs)
                if logprobs is None:
                    return None
            if raw_delta is None:
                delta = no_delta()
            elif raw_delta.__class__ is dict:
                hot = _hot_delta(raw_delta)
                if hot is None:
                    return None
                delta = hot
            else:
                return None
            choice = new_object(ChunkChoiceTwin)
            choice.index = index
            choice.delta = delta
            choice.logprobs = logprobs
            choice.finish_reason = finish
            choice._raw = c
            choice.__class__ = ChunkChoice
            choices.append(choice)
    elif raw_choices is not None and raw_choices.__class__ is not list:
        return None  # a falsy non-list ("", 0, false, {}): the generic build names it
    self = new_object(ChunkTwin)
    self.id = cid
    self.object = kind
    self.created = created
    self.model = model
    self.choices = choices
    self.usage = None
    self.system_fingerprint = fingerprint
    self.service_tier = tier
    self._raw = d
    self._view = None
    self.__class__ = ChatCompletionChunk
    return self  # type: ignore[no-any-return]


class _NoChoices:
    """Mixin of the Chat events that are not chunks: the chunk attributes the SDK idiom reads.

    ``for chunk in stream.feed(data): for choice in chunk.choices: ...`` (and ``chunk.usage``) then
    type-checks and runs over every :data:`ChatEvent`, as it does over the SDK's chunk iterator: an
    error or unknown event has no choices and no usage.
    """

    __slots__ = ()

    @property
    def choices(self) -> list[ChunkChoice]:
        """Always empty: this event carries no choices."""
        return []

    @property
    def usage(self) -> CompletionUsage | None:
        """Always ``None``: this event carries no usage."""
        return None


@attrs.frozen
class ChatStreamError(_NoChoices):
    """An error object sent inside a Chat stream: ``data: {"error": {...}}``.

    Also built from the flat shapes some compatible servers send (``{"object": "error", "message":
    ...}`` as in vLLM, or the data of an ``event: error`` block). ``code`` may be a string or, from
    some servers, an integer. ``raw`` is the whole decoded data object.
    """

    message: str | None
    type: str | None
    code: str | int | None
    param: str | None
    raw: dict[str, Any] = attrs.field(repr=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ChatStreamError:
        """Build from the data object; raise SchemaError on a wrong field type."""
        body: JSONValue
        if "error" in d and d["error"] is not None:
            body = d["error"]
            path = "error"
            if type(body) is str:
                return cls(body, None, None, None, d)
            if type(body) is not dict:
                raise SchemaError(path, "an object or a string", body)
        else:
            body, path = d, "data"
        code = body.get("code")
        if not (code is None or type(code) is str or type(code) is int):
            raise SchemaError(f"{path}.code", "a string, an integer or null", code)
        return cls(
            _str(body, "message", path),
            _str(body, "type", path),
            code,
            _str(body, "param", path),
            d,
        )

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of the data object as sent."""
        return copy_json(self.raw)  # type: ignore[no-any-return]


@attrs.frozen
class ChatUnknownEvent(_NoChoices):
    """A JSON object in a Chat stream that is neither a chunk nor an error (``{"type": "ping"}``).

    Kept, never forced into a chunk. ``event`` is the SSE event type (``"message"`` by default).
    """

    event: str
    data: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of the data object as sent."""
        return copy_json(self.data)  # type: ignore[no-any-return]


# -- accumulated completion (the non-streaming shape) ------------------------------------------


@attrs.frozen
class FunctionCall:
    """A function name and its (JSON text) arguments, as accumulated."""

    name: str | None
    arguments: str

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "arguments"}``; a name never received is ``""``."""
        return {"name": self.name if self.name is not None else "", "arguments": self.arguments}


@attrs.frozen
class ChatToolCall:
    """One accumulated tool call of a message (``message.tool_calls[]``).

    ``index`` is the stream position it was accumulated under; it is not part of ``to_dict()``,
    which has the non-streaming shape ``{id, type, function: {name, arguments}}`` plus any vendor
    fields the deltas carried (``extra``). A custom tool call (``type: "custom"``) has
    ``{id, type, custom: {name, input}}`` instead, with no ``function``.
    """

    index: int
    id: str | None
    type: str | None
    function: FunctionCall
    extra: dict[str, Any] = attrs.field(factory=dict[str, Any])

    def to_dict(self) -> dict[str, Any]:
        """The non-streaming shape; ``type`` defaults to ``"function"`` when never sent."""
        out: dict[str, Any] = {
            "id": self.id,
            "type": self.type if self.type is not None else "function",
        }
        if self.type != "custom" or self.function.name is not None or self.function.arguments:
            out["function"] = self.function.to_dict()
        for k, v in self.extra.items():
            out.setdefault(k, copy_json(v))
        return out


@attrs.frozen
class ChatCompletionMessage:
    """The accumulated ``message`` of one choice.

    ``content`` and ``refusal`` are ``None`` unless some chunk carried a string for them.
    ``reasoning_content`` / ``reasoning`` / ``reasoning_details`` hold reasoning under the name the
    provider used; ``extra`` holds other delta fields (``annotations``, ``audio``, vendor fields).
    """

    role: str | None
    content: str | None
    refusal: str | None
    tool_calls: list[ChatToolCall]
    function_call: FunctionCall | None
    reasoning_content: str | None = None
    reasoning: str | None = None
    reasoning_details: list[dict[str, Any]] | None = None
    extra: dict[str, Any] = attrs.field(factory=dict[str, Any])

    def to_dict(self) -> dict[str, Any]:
        """The non-streaming ``message`` shape.

        Always present, as in the API: ``role`` (``"assistant"`` when never sent), ``content`` and
        ``refusal`` (``null`` when absent). Present only when seen: ``tool_calls``,
        ``function_call``, the reasoning fields, and every other field (``annotations``, ``audio``).
        """
        out: dict[str, Any] = {
            "role": self.role if self.role is not None else "assistant",
            "content": self.content,
            "refusal": self.refusal,
        }
        if self.tool_calls:
            out["tool_calls"] = [tc.to_dict() for tc in self.tool_calls]
        if self.function_call is not None:
            out["function_call"] = self.function_call.to_dict()
        if self.reasoning_content is not None:
            out["reasoning_content"] = self.reasoning_content
        if self.reasoning is not None:
            out["reasoning"] = self.reasoning
        if self.reasoning_details is not None:
            out["reasoning_details"] = copy_json(self.reasoning_details)
        for k, v in self.extra.items():
            out.setdefault(k, copy_json(v))
        return out


@attrs.frozen
class Choice(_Pending):
    """One accumulated choice: ``index``, ``message``, ``logprobs`` and ``finish_reason``.

    ``logprobs`` is ``None`` unless a chunk carried a logprobs object for this choice; then it is
    ``{"content": [...] | None, "refusal": [...] | None}`` with the entries of every chunk in order.
    ``extra`` holds choice-level vendor fields (Azure ``content_filter_results``), last value kept.
    """

    index: int
    message: ChatCompletionMessage
    logprobs: dict[str, Any] | None
    finish_reason: str | None
    extra: dict[str, Any] = attrs.field(factory=dict[str, Any])
    # A snapshot's choice whose token entries are still text builds it on first read.
    _PENDING = frozenset({"logprobs"})

    def to_dict(self) -> dict[str, Any]:
        """The non-streaming ``choices[]`` shape (``logprobs``, ``finish_reason`` always set)."""
        out: dict[str, Any] = {
            "index": self.index,
            "message": self.message.to_dict(),
            "logprobs": copy_json(self.logprobs),
            "finish_reason": self.finish_reason,
        }
        for k, v in self.extra.items():
            out.setdefault(k, copy_json(v))
        return out


def pending_choice(
    index: int,
    message: ChatCompletionMessage,
    logprobs: Callable[[], dict[str, Any]],
    finish_reason: str | None,
    extra: dict[str, Any],
) -> Choice:
    """``Choice(index, message, logprobs()["logprobs"], finish_reason, extra)``, with
    ``logprobs()`` called when the field is first read (see :class:`_Pending`)."""
    choice = object.__new__(Choice)
    setattr_ = object.__setattr__
    setattr_(choice, "index", index)
    setattr_(choice, "message", message)
    setattr_(choice, "finish_reason", finish_reason)
    setattr_(choice, "extra", extra)
    setattr_(choice, "_pending", logprobs)
    return choice


@attrs.frozen
class ChatCompletion:
    """The completion accumulated from the chunks so far, in the API's ``chat.completion`` shape.

    ``id``/``model``/``created`` are the first non-empty values seen (Azure's filter chunk sends
    empty ones); ``system_fingerprint``, ``service_tier`` and ``usage`` the last non-null ones.
    ``choices`` are sorted by ``index`` (gaps kept as gaps). ``extra`` holds other top-level fields
    (``prompt_filter_results`` lists are concatenated; others keep their last non-null value).
    """

    id: str | None
    created: int | None
    model: str | None
    choices: list[Choice]
    usage: CompletionUsage | None
    system_fingerprint: str | None
    service_tier: str | None
    extra: dict[str, Any] = attrs.field(factory=dict[str, Any])
    object: str = "chat.completion"

    def choice(self, index: int = 0) -> Choice | None:
        """The choice with this ``index``, or ``None``."""
        for c in self.choices:
            if c.index == index:
                return c
        return None

    def to_dict(self) -> dict[str, Any]:
        """The non-streaming ``chat.completion`` object.

        Keys always present: ``id, object, created, model, choices, usage, system_fingerprint,
        service_tier`` (``null`` when never sent), then the fields in ``extra``.
        """
        out: dict[str, Any] = {
            "id": self.id,
            "object": self.object,
            "created": self.created,
            "model": self.model,
            "choices": [c.to_dict() for c in self.choices],
            "usage": None if self.usage is None else self.usage.to_dict(),
            "system_fingerprint": self.system_fingerprint,
            "service_tier": self.service_tier,
        }
        for k, v in self.extra.items():
            out.setdefault(k, copy_json(v))
        return out


# repr(), str() and == of data nested as deep as the decoder allows (max_nesting_depth=None)
# never raise RecursionError (see _models.depth_safe).
for _cls in (
    FunctionDelta,
    ToolCallDelta,
    ChoiceDelta,
    ChoiceLogprobs,
    ChunkChoice,
    CompletionUsage,
    ChatCompletionChunk,
    ChatStreamError,
    ChatUnknownEvent,
    FunctionCall,
    ChatToolCall,
    ChatCompletionMessage,
    Choice,
    ChatCompletion,
):
    depth_safe(_cls)
del _cls

#: What :meth:`ChatCompletionsStream.feed` returns items of.
ChatEvent = ChatCompletionChunk | ChatStreamError | ChatUnknownEvent
