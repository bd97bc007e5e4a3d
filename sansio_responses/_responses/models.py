"""Typed models of the Responses API objects: ``Response``, output items, content parts.

Every model is a frozen, slotted attrs class built from a decoded wire dict with
``Cls.from_dict(d)`` and turned back into one with ``to_dict()``. The round trip is exact (same
keys, same values, same key order, unknown fields included) because each model keeps the dict it was
built from and ``to_dict()`` returns a deep copy of it; the typed attributes are derived from that
dict at construction.

Tolerance follows the shape of real and compatible servers: a field that is absent (optional or
not) reads as ``None``; a field that is present with the wrong JSON type raises
:class:`SchemaError` with a dotted path such as ``output[0].content[1].text``. Fields whose shape
the API keeps evolving (tool configurations, reasoning and text configs, ``tool_choice``,
``metadata``, actions, ...) are kept as raw JSON (typed ``Any``) and not validated. Unknown item,
part and annotation types become ``UnknownOutputItem``, ``UnknownContentPart`` and
``UnknownAnnotation``, which keep the whole dict.

Field sets follow the official SDK (``openai/types/responses/*.py``, see ``official-sdk.md``
section 2), including the fields of the newest release.

``from_dict`` does not copy its input: the model takes ownership of the dict, which must not be
mutated afterwards (the stream hands over freshly decoded JSON). ``to_dict`` always returns a fresh
copy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias, TypeVar

import attrs

from .._errors import SchemaError
from .fromdict import Kind, compile_from_dict

__all__ = [
    "AdditionalTools",
    "Annotation",
    "CompletionTokensDetails",
    "ContainerFileCitation",
    "ContentPart",
    "FileCitation",
    "FilePath",
    "ImageGenerationCall",
    "OUTPUT_ITEM_TYPES",
    "IncompleteDetails",
    "InputTokensDetails",
    "LocalShellCall",
    "LocalShellCallOutput",
    "McpApprovalRequest",
    "McpApprovalResponse",
    "McpCall",
    "McpListTools",
    "OutputItem",
    "OutputTokensDetails",
    "Program",
    "ProgramOutput",
    "PromptTokensDetails",
    "ReasoningText",
    "Response",
    "ResponseApplyPatchToolCall",
    "ResponseApplyPatchToolCallOutput",
    "ResponseCodeInterpreterToolCall",
    "ResponseCompactionItem",
    "ResponseComputerToolCall",
    "ResponseComputerToolCallOutputItem",
    "ResponseCustomToolCall",
    "ResponseCustomToolCallOutputItem",
    "ResponseError",
    "ResponseFileSearchToolCall",
    "ResponseFunctionShellToolCall",
    "ResponseFunctionShellToolCallOutput",
    "ResponseFunctionToolCall",
    "ResponseFunctionToolCallOutputItem",
    "ResponseFunctionWebSearch",
    "ResponseOutputMessage",
    "ResponseOutputRefusal",
    "ResponseOutputText",
    "ResponseReasoningItem",
    "ResponseToolSearchCall",
    "ResponseToolSearchOutputItem",
    "ResponseUsage",
    "SummaryText",
    "URLCitation",
    "UnknownAnnotation",
    "UnknownContentPart",
    "UnknownOutputItem",
    "annotation_from_dict",
    "content_part_from_dict",
    "copy_json",
    "copy_tree",
    "output_item_from_dict",
]

_M = TypeVar("_M", bound="_Model")
_C = TypeVar("_C", bound=type)

# A converter checks one present (non-null) value and returns the typed value.
# Arguments: the value, the path of the enclosing object, the key.
_Conv = Callable[[Any, str, str], Any]

# Writes one slot of a frozen slotted instance (a member descriptor's __set__).
_Setter = Callable[[object, Any], None]

_CONTAINERS = (dict, list)


def copy_json(value: Any) -> Any:
    """Return a deep copy of a JSON tree (dicts, lists, scalars); faster than ``copy.deepcopy``.

    Scalars (str, int, float, bool, None) are immutable and shared; dicts keep their key order.
    Any depth is safe: a tree too deep for the recursive copy is copied by :func:`copy_tree`.
    """
    try:
        return _copy_json(value)
    except RecursionError:
        return copy_tree(value)


def json_repr(value: Any) -> str:
    """``repr(value)`` of a JSON tree at any depth (never ``RecursionError``); same text as repr."""
    try:
        return repr(value)
    except RecursionError:
        pass
    out: list[str] = []
    # A stack of pending pieces: a str is emitted as is, anything else is a value to render.
    stack: list[Any] = [_Raw(value)]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        if node.__class__ is str:
            out.append(node)
            continue
        value = node.value
        cls = value.__class__
        if cls is dict and value:
            push("}")
            for i, (k, v) in enumerate(reversed(value.items())):
                push(_Raw(v))
                push(f"{k!r}: " if i == len(value) - 1 else f", {k!r}: ")
            push("{")
        elif cls is list and value:
            push("]")
            for i, v in enumerate(reversed(value)):
                push(_Raw(v))
                if i != len(value) - 1:
                    push(", ")
            push("[")
        else:
            out.append(repr(value))
    return "".join(out)


class _Raw:
    # A value still to be rendered by json_repr (its text pieces are plain str on the stack).
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def json_equal(a: Any, b: Any) -> bool:
    """``a == b`` for JSON trees at any depth (never ``RecursionError``); the same answer as ==."""
    stack = [(a, b)]
    pop, extend = stack.pop, stack.extend
    while stack:
        x, y = pop()
        if x is y:
            continue  # as list and dict comparison do (identity first)
        cx, cy = x.__class__, y.__class__
        if cx is dict and cy is dict:
            if len(x) != len(y):
                return False
            for k, v in x.items():
                if k not in y:
                    return False
                stack.append((v, y[k]))
        elif cx is list and cy is list:
            if len(x) != len(y):
                return False
            extend(zip(x, y, strict=True))
        elif not (x == y):  # scalars, or models (whose __eq__ is depth-safe in turn)
            return False
    return True


def depth_safe(cls: _C) -> _C:
    """Class decorator (after attrs): ``repr()``, ``str()`` and ``==`` never raise RecursionError.

    Fields typed ``Any`` hold JSON as sent, which may nest as deep as the decoder allows (with
    ``max_nesting_depth=None``, about 1000 levels), deeper than Python's recursive repr and
    comparison can go. attrs' own methods stay the fast path; only a tree too deep for them takes
    the iterative :func:`json_repr` / :func:`json_equal`, which give the same text and answer.
    """
    klass: Any = cls  # the instance methods, not those of the class object
    fast_repr: Callable[[Any], str] = klass.__repr__
    fast_eq: Callable[[Any, Any], Any] = klass.__eq__

    def __repr__(self: Any) -> str:
        try:
            return fast_repr(self)
        except RecursionError:
            pieces: list[str] = []
            for field in attrs.fields(self.__class__):
                if field.repr is False:
                    continue
                value = getattr(self, field.name)
                shown = field.repr(value) if callable(field.repr) else json_repr(value)
                pieces.append(f"{field.name}={shown}")
            return f"{self.__class__.__qualname__}({', '.join(pieces)})"

    def __eq__(self: Any, other: Any) -> Any:
        try:
            return fast_eq(self, other)
        except RecursionError:
            if other.__class__ is not self.__class__:
                return NotImplemented
            return all(
                json_equal(getattr(self, f.name), getattr(other, f.name))
                for f in attrs.fields(self.__class__)
                if f.eq
            )

    klass.__repr__ = __repr__
    klass.__eq__ = __eq__
    return cls


def _copy_json(value: Any) -> Any:
    cls = value.__class__
    if cls is dict:
        return {k: (_copy_json(v) if v.__class__ in _CONTAINERS else v) for k, v in value.items()}
    if cls is list:
        return [_copy_json(v) if v.__class__ in _CONTAINERS else v for v in value]
    return value


def copy_tree(
    value: Any,
    leaf: Callable[[Any], Any] | None = None,
    sequences: Callable[[Any], list[Any] | None] | None = None,
) -> Any:
    """A deep copy of a tree of dicts and lists without recursion (any depth, no RecursionError).

    *leaf* converts every other value (default: kept as is). *sequences* may turn another object
    into the list of its children, copied as a list (the accumulators' sparse part lists). The
    streams bound nesting when data is decoded, so this is the fallback of the fast recursive
    copies, taken only by trees deeper than Python's recursion limit allows.
    """
    holder: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, holder, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, parent, key = pop()
        cls = node.__class__
        children: Any = None
        if cls is dict:
            copy: Any = dict.fromkeys(node)
            children = node.items()
        else:
            seq = node if cls is list else (None if sequences is None else sequences(node))
            if seq is None:
                parent[key] = node if leaf is None else leaf(node)
                continue
            copy = [None] * len(seq)
            children = enumerate(seq)
        parent[key] = copy
        for k, child in children:
            push((child, copy, k))
    return holder[0]


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


# --- converters: each is called only for a present, non-null value -------------------------------


def _conv_str(v: Any, path: str, key: str) -> str:
    if isinstance(v, str):
        return v
    raise SchemaError(_join(path, key), "string", v)


def _conv_int(v: Any, path: str, key: str) -> int:
    # bool is a subclass of int in Python but a distinct JSON type.
    if v.__class__ is int:
        return v
    raise SchemaError(_join(path, key), "integer", v)


def _conv_num(v: Any, path: str, key: str) -> float:
    if v.__class__ is int or v.__class__ is float:
        return v
    raise SchemaError(_join(path, key), "number", v)


def _conv_bool(v: Any, path: str, key: str) -> bool:
    if v.__class__ is bool:
        return v
    raise SchemaError(_join(path, key), "boolean", v)


def _conv_dict(v: Any, path: str, key: str) -> dict[str, Any]:
    if v.__class__ is dict:
        return v
    raise SchemaError(_join(path, key), "object", v)


def _conv_str_list(v: Any, path: str, key: str) -> list[str]:
    if v.__class__ is not list:
        raise SchemaError(_join(path, key), "array", v)
    for i, x in enumerate(v):
        if not isinstance(x, str):
            raise SchemaError(f"{_join(path, key)}[{i}]", "string", x)
    return v


def _conv_list(v: Any, path: str, key: str, build: Callable[[Any, str], Any]) -> list[Any]:
    base = _join(path, key)
    if v.__class__ is not list:
        raise SchemaError(base, "array", v)
    return [build(x, f"{base}[{i}]") for i, x in enumerate(v)]


def _conv_model(v: Any, path: str, key: str, model: type[_Model]) -> Any:
    return model.from_dict(v, _join(path, key))


def _nested(name: str) -> tuple[_Conv, Callable[[], Kind]]:
    """The converter and kind of a field holding the model class *name* (defined further down)."""

    def conv(v: Any, path: str, key: str) -> Any:
        return _conv_model(v, path, key, globals()[name])

    return conv, lambda: ("model", globals()[name])


def _items(build: str, table: str, unknown: str) -> tuple[_Conv, Callable[[], Kind]]:
    """The converter and kind of a list of objects dispatched on their type by the function
    *build* (with its *table* and *unknown* class; all defined further down)."""

    def conv(v: Any, path: str, key: str) -> Any:
        return _conv_list(v, path, key, globals()[build])

    return conv, lambda: ("list", globals()[build], globals()[table], globals()[unknown])


# Annotation string (as written in the class body, postponed by ``from __future__ import
# annotations``) -> (converter of the generic loop, the field's Kind for the generated constructor).
# Model-typed fields resolve their class or builder by name when called: they are defined later.
_CONVERTERS: dict[str, tuple[_Conv | None, Callable[[], Kind]]] = {
    "Any": (None, lambda: ("any",)),
    "str": (_conv_str, lambda: ("str", True)),
    "str | None": (_conv_str, lambda: ("str",)),
    "int | None": (_conv_int, lambda: ("int",)),
    "float | None": (_conv_num, lambda: ("num",)),
    "bool | None": (_conv_bool, lambda: ("bool",)),
    "dict[str, Any] | None": (_conv_dict, lambda: ("dict",)),
    "list[str] | None": (_conv_str_list, lambda: ("call", _conv_str_list)),
    "list[OutputItem] | None": _items(
        "output_item_from_dict", "OUTPUT_ITEM_TYPES", "UnknownOutputItem"
    ),
    "list[ContentPart] | None": _items(
        "content_part_from_dict", "_CONTENT_PART_TYPES", "UnknownContentPart"
    ),
    "list[Annotation] | None": _items(
        "annotation_from_dict", "_ANNOTATION_TYPES", "UnknownAnnotation"
    ),
    "ResponseError | None": _nested("ResponseError"),
    "IncompleteDetails | None": _nested("IncompleteDetails"),
    "ResponseUsage | None": _nested("ResponseUsage"),
    "InputTokensDetails | None": _nested("InputTokensDetails"),
    "OutputTokensDetails | None": _nested("OutputTokensDetails"),
}


def _conv_tag(tag: str) -> _Conv:
    """The converter of a ``type: Literal["tag"]`` field: the wire value must be that tag.

    The dispatch functions only hand a dict to the class of its ``type``; this keeps a direct
    ``Cls.from_dict`` of another type from building an object whose tag type checkers would trust.
    """

    def conv(v: Any, path: str, key: str) -> str:
        if v == tag and isinstance(v, str):
            return tag
        raise SchemaError(_join(path, key), repr(tag), v)

    return conv


def _model(cls: type[_M]) -> type[_M]:
    """Class decorator: derive the from_dict field table of an attrs model from its annotations,
    and its generated ``from_dict`` (:mod:`.fromdict`, made at the first call), which gives what
    the table's loop gives.

    Runs once per class at import; an annotation without a converter is a programming error.
    """
    spec: list[tuple[str, _Conv | None, bool, _Setter]] = []
    for field in attrs.fields(cls):
        if field.name.startswith("_"):
            continue
        annotation = field.type if isinstance(field.type, str) else repr(field.type)
        # A non-Optional annotation (only the discriminating ``type``) must be present.
        required = annotation == "str" or annotation.startswith("Literal[")
        if annotation.startswith("Literal["):
            conv: _Conv | None = _conv_tag(_tag_of(annotation))
        elif annotation in _CONVERTERS:
            conv = _CONVERTERS[annotation][0]
        else:
            raise TypeError(f"{cls.__name__}.{field.name}: no converter for {annotation!r}")
        setter = getattr(cls, field.name).__set__
        spec.append((field.name, conv, required, setter))
    cls._SPEC = tuple(spec)  # pyright: ignore[reportPrivateUsage]
    cls._FIELDS = frozenset(name for name, *_ in spec)  # pyright: ignore[reportPrivateUsage]
    setattr(cls, "from_dict", classmethod(_compile_on_first_use(cls)))  # noqa: B010
    return depth_safe(cls)


def _compile_on_first_use(cls: type[Any]) -> Callable[..., Any]:
    """*cls*'s ``from_dict`` until its first call, which generates the class's own (and installs it
    in place of this one): the generation costs about 0.3 ms a class, and a program uses a few of
    the classes (import time). Typed from the outside as :meth:`_Model.from_dict`."""

    def from_dict(owner: type[Any], d: Mapping[str, Any], path: str = "") -> Any:
        if owner is not cls:  # a subclass the generator does not know
            return _from_dict_loop(owner, d, path)
        built = _documented(compile_from_dict(cls, _kinds, _from_dict_loop))
        setattr(cls, "from_dict", classmethod(built))  # noqa: B010  # threads: the same function
        return built(cls, d, path)

    return _documented(from_dict)


def _documented(fn: Callable[..., Any]) -> Callable[..., Any]:
    """*fn* with the docstring and (for ``inspect.signature``) the signature of the base's
    ``from_dict``, which it stands for."""
    base = _Model.__dict__["from_dict"].__func__
    fn.__doc__ = base.__doc__
    fn.__wrapped__ = base  # type: ignore[attr-defined]
    return fn


def _tag_of(annotation: str) -> str:
    # Postponed annotations are unparsed source: Literal['message'].
    return annotation[len("Literal[") + 1 : -2]


def _kinds(cls: type[Any]) -> list[tuple[str, Kind]]:
    """The fields of a decorated model with their :data:`~.fromdict.Kind` (the generator's input),
    from the same annotations as its ``_SPEC``."""
    kinds: list[tuple[str, Kind]] = []
    for field in attrs.fields(cls):
        if field.name.startswith("_"):
            continue
        annotation = field.type if isinstance(field.type, str) else repr(field.type)
        if annotation.startswith("Literal["):
            kinds.append((field.name, ("tag", _tag_of(annotation))))
        else:
            kinds.append((field.name, _CONVERTERS[annotation][1]()))
    return kinds


@attrs.frozen
class _Model:
    """Base of every model: keeps the wire dict; provides from_dict, to_dict and extra."""

    _SPEC: ClassVar[tuple[tuple[str, _Conv | None, bool, _Setter], ...]] = ()
    _FIELDS: ClassVar[frozenset[str]] = frozenset()

    _raw: dict[str, Any] = attrs.field(eq=False, repr=False)

    @classmethod
    def from_dict(cls: type[_M], d: Mapping[str, Any], path: str = "") -> _M:
        """Build the model from a decoded wire dict (taken over, not copied).

        *path* is the dotted location of *d* in the enclosing object, used in error messages.

        Raises:
            SchemaError: *d* is not an object, or a present field has the wrong JSON type.
        """
        # Each model class has its own, generated at its first call (see _model): the same result.
        return _from_dict_loop(cls, d, path)

    def to_dict(self) -> dict[str, Any]:
        """The wire dict this model was built from, as a fresh deep copy (unknown fields kept)."""
        return copy_json(self._raw)  # type: ignore[no-any-return]

    @property
    def extra(self) -> dict[str, Any]:
        """The wire fields this class does not declare (new API fields, provider extensions)."""
        fields = self._FIELDS
        return {k: copy_json(v) for k, v in self._raw.items() if k not in fields}


def _from_dict_loop(cls: type[_M], d: Mapping[str, Any], path: str = "") -> _M:
    """:meth:`_Model.from_dict` as a loop over the class's field table: the reference of the
    generated constructors, and the constructor of a subclass they were not made for."""
    if d.__class__ is not dict:
        if not isinstance(d, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise SchemaError(path or "(root)", "object", d)
        d = dict(d)
    # Slots are written through their descriptors rather than attrs' __init__ (one bound
    # object.__setattr__ call per field): a third faster, same object.
    self = object.__new__(cls)
    _set_raw(self, d)
    get = d.get
    for name, conv, required, setter in cls._SPEC:  # pyright: ignore[reportPrivateUsage]
        value = get(name)
        if value is None:
            if required:
                raise SchemaError(_join(path, name), "string", value)
        elif conv is not None:
            value = conv(value, path, name)
        setter(self, value)
    return self


_set_raw: _Setter = _Model._raw.__set__  # type: ignore[attr-defined]


UnknownTag: TypeAlias = Literal["<unknown>"]
"""What type checkers see as the ``type`` of the Unknown* models (at run time: the wire value).

Each registered class declares ``type: Literal["<its wire type>"]``, so ``item.type == "message"``
narrows a union to one class; an unknown kind's type is "any other string", which no ``Literal``
can spell, and a ``str`` member would stop narrowing (mypy) or stay in every branch (pyright). This
placeholder matches no registered type, as at run time. Read an unknown object's wire type from
``data["type"]``; see the concepts guide, "Typing".
"""


@attrs.frozen
class _UnknownTagged(_Model):
    # The ``type`` field of the Unknown* models, on a base class so that mypy's attrs plugin (which
    # does not read the ``if TYPE_CHECKING`` redeclaration in the subclasses) keeps it a field.
    type: str | None


# --- annotations ----------------------------------------------------------------------------------


@_model
@attrs.frozen
class FileCitation(_Model):
    """A ``file_citation`` annotation on output text."""

    type: Literal["file_citation"]
    file_id: str | None
    filename: str | None
    index: int | None


@_model
@attrs.frozen
class URLCitation(_Model):
    """A ``url_citation`` annotation on output text."""

    type: Literal["url_citation"]
    url: str | None
    title: str | None
    start_index: int | None
    end_index: int | None


@_model
@attrs.frozen
class ContainerFileCitation(_Model):
    """A ``container_file_citation`` annotation on output text."""

    type: Literal["container_file_citation"]
    container_id: str | None
    file_id: str | None
    filename: str | None
    start_index: int | None
    end_index: int | None


@_model
@attrs.frozen
class FilePath(_Model):
    """A ``file_path`` annotation on output text."""

    type: Literal["file_path"]
    file_id: str | None
    index: int | None


@_model
@attrs.frozen
class UnknownAnnotation(_UnknownTagged):
    """An annotation of a type this library does not know; the whole dict is kept in ``data``."""

    if TYPE_CHECKING:
        type: UnknownTag

    @property
    def data(self) -> dict[str, Any]:
        """The wire dict of the annotation (a copy)."""
        return self.to_dict()


Annotation: TypeAlias = (
    FileCitation | URLCitation | ContainerFileCitation | FilePath | UnknownAnnotation
)
"""An annotation on output text: one of the four SDK kinds, or :class:`UnknownAnnotation`."""

_ANNOTATION_TYPES: dict[str, type[_Model]] = {
    "file_citation": FileCitation,
    "url_citation": URLCitation,
    "container_file_citation": ContainerFileCitation,
    "file_path": FilePath,
}


def annotation_from_dict(d: Any, path: str = "") -> Annotation:
    """Build the annotation class registered for ``d["type"]``, else :class:`UnknownAnnotation`."""
    return _dispatch(d, path, _ANNOTATION_TYPES, UnknownAnnotation)  # type: ignore[no-any-return]


def _dispatch(d: Any, path: str, table: dict[str, type[_Model]], unknown: type[_Model]) -> Any:
    if d.__class__ is not dict:
        if not isinstance(d, Mapping):
            raise SchemaError(path or "(root)", "object", d)
        d = dict(d)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    kind = d.get("type")
    if kind is None:
        return unknown.from_dict(d, path)
    if not isinstance(kind, str):
        raise SchemaError(_join(path, "type"), "string", kind)
    return table.get(kind, unknown).from_dict(d, path)


# --- content parts --------------------------------------------------------------------------------


@_model
@attrs.frozen
class ResponseOutputText(_Model):
    """An ``output_text`` content part of a message. ``logprobs`` stays raw JSON (list of dicts)."""

    type: Literal["output_text"]
    text: str | None
    annotations: list[Annotation] | None
    logprobs: Any


@_model
@attrs.frozen
class ResponseOutputRefusal(_Model):
    """A ``refusal`` content part of a message."""

    type: Literal["refusal"]
    refusal: str | None


@_model
@attrs.frozen
class ReasoningText(_Model):
    """A ``reasoning_text`` part (``content`` of a reasoning item, or a content part event)."""

    type: Literal["reasoning_text"]
    text: str | None


@_model
@attrs.frozen
class SummaryText(_Model):
    """A ``summary_text`` part of a reasoning item's ``summary``."""

    type: Literal["summary_text"]
    text: str | None


@_model
@attrs.frozen
class UnknownContentPart(_UnknownTagged):
    """A content part of a type this library does not know; the whole dict is kept in ``data``."""

    if TYPE_CHECKING:
        type: UnknownTag

    @property
    def data(self) -> dict[str, Any]:
        """The wire dict of the part (a copy)."""
        return self.to_dict()


ContentPart: TypeAlias = (
    ResponseOutputText | ResponseOutputRefusal | ReasoningText | SummaryText | UnknownContentPart
)
"""A content part of a message or reasoning item, or :class:`UnknownContentPart`."""

_CONTENT_PART_TYPES: dict[str, type[_Model]] = {
    "output_text": ResponseOutputText,
    "refusal": ResponseOutputRefusal,
    "reasoning_text": ReasoningText,
    "summary_text": SummaryText,
}


def content_part_from_dict(d: Any, path: str = "") -> ContentPart:
    """Build the part class registered for ``d["type"]``, else :class:`UnknownContentPart`."""
    return _dispatch(d, path, _CONTENT_PART_TYPES, UnknownContentPart)  # type: ignore[no-any-return]


# --- output items (the 28 members of the SDK's ResponseOutputItem union) --------------------------


@_model
@attrs.frozen
class ResponseOutputMessage(_Model):
    """A ``message`` item: the assistant's text (``output_text`` and ``refusal`` parts)."""

    type: Literal["message"]
    id: str | None
    role: str | None
    status: str | None
    content: list[ContentPart] | None
    phase: str | None


@_model
@attrs.frozen
class ResponseFileSearchToolCall(_Model):
    """A ``file_search_call`` item."""

    type: Literal["file_search_call"]
    id: str | None
    queries: list[str] | None
    status: str | None
    results: Any


@_model
@attrs.frozen
class ResponseFunctionToolCall(_Model):
    """A ``function_call`` item: ``arguments`` is the JSON text the model produced."""

    type: Literal["function_call"]
    id: str | None
    call_id: str | None
    name: str | None
    arguments: str | None
    status: str | None
    namespace: str | None
    caller: Any


@_model
@attrs.frozen
class ResponseFunctionToolCallOutputItem(_Model):
    """A ``function_call_output`` item."""

    type: Literal["function_call_output"]
    id: str | None
    call_id: str | None
    output: Any
    status: str | None
    caller: Any
    created_by: str | None
    name: str | None
    namespace: str | None


@_model
@attrs.frozen
class ResponseFunctionWebSearch(_Model):
    """A ``web_search_call`` item."""

    type: Literal["web_search_call"]
    id: str | None
    action: Any
    status: str | None


@_model
@attrs.frozen
class ResponseComputerToolCall(_Model):
    """A ``computer_call`` item."""

    type: Literal["computer_call"]
    id: str | None
    call_id: str | None
    action: Any
    actions: Any
    pending_safety_checks: Any
    status: str | None


@_model
@attrs.frozen
class ResponseComputerToolCallOutputItem(_Model):
    """A ``computer_call_output`` item."""

    type: Literal["computer_call_output"]
    id: str | None
    call_id: str | None
    output: Any
    status: str | None
    acknowledged_safety_checks: Any
    created_by: str | None


@_model
@attrs.frozen
class ResponseReasoningItem(_Model):
    """A ``reasoning`` item: ``summary_text`` parts in ``summary``, ``reasoning_text`` parts in
    ``content``."""

    type: Literal["reasoning"]
    id: str | None
    summary: list[ContentPart] | None
    content: list[ContentPart] | None
    encrypted_content: str | None
    status: str | None


@_model
@attrs.frozen
class Program(_Model):
    """A ``program`` item (programmatic tool calling)."""

    type: Literal["program"]
    id: str | None
    call_id: str | None
    code: str | None
    fingerprint: str | None


@_model
@attrs.frozen
class ProgramOutput(_Model):
    """A ``program_output`` item."""

    type: Literal["program_output"]
    id: str | None
    call_id: str | None
    result: str | None
    status: str | None


@_model
@attrs.frozen
class ResponseToolSearchCall(_Model):
    """A ``tool_search_call`` item; ``arguments`` is raw JSON (an object)."""

    type: Literal["tool_search_call"]
    id: str | None
    call_id: str | None
    arguments: Any
    execution: str | None
    status: str | None
    created_by: str | None


@_model
@attrs.frozen
class ResponseToolSearchOutputItem(_Model):
    """A ``tool_search_output`` item; ``tools`` are raw tool configurations."""

    type: Literal["tool_search_output"]
    id: str | None
    call_id: str | None
    execution: str | None
    status: str | None
    tools: Any
    created_by: str | None


@_model
@attrs.frozen
class AdditionalTools(_Model):
    """An ``additional_tools`` item."""

    type: Literal["additional_tools"]
    id: str | None
    role: str | None
    tools: Any


@_model
@attrs.frozen
class ResponseCompactionItem(_Model):
    """A ``compaction`` item."""

    type: Literal["compaction"]
    id: str | None
    encrypted_content: str | None
    created_by: str | None


@_model
@attrs.frozen
class ImageGenerationCall(_Model):
    """An ``image_generation_call`` item; ``result`` is the base64 image once generated."""

    type: Literal["image_generation_call"]
    id: str | None
    status: str | None
    result: str | None
    action: Any
    background: str | None
    error: Any
    output_format: str | None
    quality: str | None
    revised_prompt: str | None
    size: str | None
    svg_usage: Any


@_model
@attrs.frozen
class ResponseCodeInterpreterToolCall(_Model):
    """A ``code_interpreter_call`` item."""

    type: Literal["code_interpreter_call"]
    id: str | None
    code: str | None
    container_id: str | None
    outputs: Any
    status: str | None


@_model
@attrs.frozen
class LocalShellCall(_Model):
    """A ``local_shell_call`` item."""

    type: Literal["local_shell_call"]
    id: str | None
    call_id: str | None
    action: Any
    status: str | None


@_model
@attrs.frozen
class LocalShellCallOutput(_Model):
    """A ``local_shell_call_output`` item."""

    type: Literal["local_shell_call_output"]
    id: str | None
    output: str | None
    status: str | None


@_model
@attrs.frozen
class ResponseFunctionShellToolCall(_Model):
    """A ``shell_call`` item."""

    type: Literal["shell_call"]
    id: str | None
    call_id: str | None
    action: Any
    environment: Any
    status: str | None
    caller: Any
    created_by: str | None


@_model
@attrs.frozen
class ResponseFunctionShellToolCallOutput(_Model):
    """A ``shell_call_output`` item; ``output`` is raw JSON (list of stdout/stderr/outcome)."""

    type: Literal["shell_call_output"]
    id: str | None
    call_id: str | None
    max_output_length: int | None
    output: Any
    status: str | None
    caller: Any
    created_by: str | None


@_model
@attrs.frozen
class ResponseApplyPatchToolCall(_Model):
    """An ``apply_patch_call`` item; ``operation`` is raw JSON."""

    type: Literal["apply_patch_call"]
    id: str | None
    call_id: str | None
    operation: Any
    status: str | None
    caller: Any
    created_by: str | None


@_model
@attrs.frozen
class ResponseApplyPatchToolCallOutput(_Model):
    """An ``apply_patch_call_output`` item."""

    type: Literal["apply_patch_call_output"]
    id: str | None
    call_id: str | None
    status: str | None
    output: str | None
    caller: Any
    created_by: str | None


@_model
@attrs.frozen
class McpCall(_Model):
    """An ``mcp_call`` item."""

    type: Literal["mcp_call"]
    id: str | None
    name: str | None
    server_label: str | None
    arguments: str | None
    approval_request_id: str | None
    output: str | None
    error: Any
    status: str | None


@_model
@attrs.frozen
class McpListTools(_Model):
    """An ``mcp_list_tools`` item."""

    type: Literal["mcp_list_tools"]
    id: str | None
    server_label: str | None
    tools: Any
    error: str | None


@_model
@attrs.frozen
class McpApprovalRequest(_Model):
    """An ``mcp_approval_request`` item."""

    type: Literal["mcp_approval_request"]
    id: str | None
    name: str | None
    server_label: str | None
    arguments: str | None


@_model
@attrs.frozen
class McpApprovalResponse(_Model):
    """An ``mcp_approval_response`` item."""

    type: Literal["mcp_approval_response"]
    id: str | None
    approval_request_id: str | None
    approve: bool | None
    reason: str | None


@_model
@attrs.frozen
class ResponseCustomToolCall(_Model):
    """A ``custom_tool_call`` item: ``input`` is the free-form text the model produced."""

    type: Literal["custom_tool_call"]
    id: str | None
    call_id: str | None
    name: str | None
    input: str | None
    namespace: str | None
    caller: Any


@_model
@attrs.frozen
class ResponseCustomToolCallOutputItem(_Model):
    """A ``custom_tool_call_output`` item."""

    type: Literal["custom_tool_call_output"]
    id: str | None
    call_id: str | None
    output: Any
    status: str | None
    caller: Any
    created_by: str | None


@_model
@attrs.frozen
class UnknownOutputItem(_UnknownTagged):
    """An output item of a type this library does not know; the whole dict is kept in ``data``."""

    if TYPE_CHECKING:
        type: UnknownTag

    @property
    def id(self) -> str | None:
        """The item's ``id`` if it is a string, else ``None`` (unknown items are not validated)."""
        value = self._raw.get("id")
        return value if isinstance(value, str) else None

    @property
    def data(self) -> dict[str, Any]:
        """The wire dict of the item (a copy)."""
        return self.to_dict()


OutputItem: TypeAlias = (
    ResponseOutputMessage
    | ResponseFileSearchToolCall
    | ResponseFunctionToolCall
    | ResponseFunctionToolCallOutputItem
    | ResponseFunctionWebSearch
    | ResponseComputerToolCall
    | ResponseComputerToolCallOutputItem
    | ResponseReasoningItem
    | Program
    | ProgramOutput
    | ResponseToolSearchCall
    | ResponseToolSearchOutputItem
    | AdditionalTools
    | ResponseCompactionItem
    | ImageGenerationCall
    | ResponseCodeInterpreterToolCall
    | LocalShellCall
    | LocalShellCallOutput
    | ResponseFunctionShellToolCall
    | ResponseFunctionShellToolCallOutput
    | ResponseApplyPatchToolCall
    | ResponseApplyPatchToolCallOutput
    | McpCall
    | McpListTools
    | McpApprovalRequest
    | McpApprovalResponse
    | ResponseCustomToolCall
    | ResponseCustomToolCallOutputItem
    | UnknownOutputItem
)
"""An output item: one of the SDK's 28 item classes, or :class:`UnknownOutputItem`."""

OUTPUT_ITEM_TYPES: dict[str, type[_Model]] = {
    "message": ResponseOutputMessage,
    "file_search_call": ResponseFileSearchToolCall,
    "function_call": ResponseFunctionToolCall,
    "function_call_output": ResponseFunctionToolCallOutputItem,
    "web_search_call": ResponseFunctionWebSearch,
    "computer_call": ResponseComputerToolCall,
    "computer_call_output": ResponseComputerToolCallOutputItem,
    "reasoning": ResponseReasoningItem,
    "program": Program,
    "program_output": ProgramOutput,
    "tool_search_call": ResponseToolSearchCall,
    "tool_search_output": ResponseToolSearchOutputItem,
    "additional_tools": AdditionalTools,
    "compaction": ResponseCompactionItem,
    "image_generation_call": ImageGenerationCall,
    "code_interpreter_call": ResponseCodeInterpreterToolCall,
    "local_shell_call": LocalShellCall,
    "local_shell_call_output": LocalShellCallOutput,
    "shell_call": ResponseFunctionShellToolCall,
    "shell_call_output": ResponseFunctionShellToolCallOutput,
    "apply_patch_call": ResponseApplyPatchToolCall,
    "apply_patch_call_output": ResponseApplyPatchToolCallOutput,
    "mcp_call": McpCall,
    "mcp_list_tools": McpListTools,
    "mcp_approval_request": McpApprovalRequest,
    "mcp_approval_response": McpApprovalResponse,
    "custom_tool_call": ResponseCustomToolCall,
    "custom_tool_call_output": ResponseCustomToolCallOutputItem,
}
"""Wire ``type`` of an output item -> its model class (the SDK's 28-member union)."""


def output_item_from_dict(d: Any, path: str = "") -> OutputItem:
    """Build the item class registered for ``d["type"]``, else :class:`UnknownOutputItem`.

    Raises:
        SchemaError: *d* is not an object, ``type`` is not a string, or a field has the wrong type.
    """
    return _dispatch(d, path, OUTPUT_ITEM_TYPES, UnknownOutputItem)  # type: ignore[no-any-return]


# --- the response ---------------------------------------------------------------------------------


@_model
@attrs.frozen
class ResponseError(_Model):
    """The ``error`` of a failed response: ``code``, ``message`` (newer: ``param``, ``type``)."""

    code: str | None
    message: str | None
    param: str | None
    type: str | None
    misalignment: Any


@_model
@attrs.frozen
class IncompleteDetails(_Model):
    """Why a response is incomplete: ``reason`` (``max_output_tokens``, ``content_filter``, ...)."""

    reason: str | None


@_model
@attrs.frozen
class InputTokensDetails(_Model):
    """``usage.input_tokens_details``: ``cached_tokens``, ``cache_write_tokens`` (newer SDKs).

    New keys the API adds are kept in ``extra`` and in ``to_dict()``.
    """

    cached_tokens: int | None
    cache_write_tokens: int | None
    cache_write_tokens_details: Any


@_model
@attrs.frozen
class OutputTokensDetails(_Model):
    """``usage.output_tokens_details``: ``reasoning_tokens``; new keys are kept in ``extra``."""

    reasoning_tokens: int | None


@_model
@attrs.frozen
class ResponseUsage(_Model):
    """Token usage, with typed details: ``usage.output_tokens_details.reasoning_tokens``."""

    input_tokens: int | None
    input_tokens_details: InputTokensDetails | None
    output_tokens: int | None
    output_tokens_details: OutputTokensDetails | None
    total_tokens: int | None


# --- Chat Completions usage details (used by ``_chat_models.CompletionUsage``) --------------------


@_model
@attrs.frozen
class PromptTokensDetails(_Model):
    """Chat ``usage.prompt_tokens_details``: ``cached_tokens``, ``audio_tokens``; new keys in ``extra``."""

    cached_tokens: int | None
    audio_tokens: int | None


@_model
@attrs.frozen
class CompletionTokensDetails(_Model):
    """Chat ``usage.completion_tokens_details``: reasoning, audio and prediction token counts."""

    reasoning_tokens: int | None
    audio_tokens: int | None
    accepted_prediction_tokens: int | None
    rejected_prediction_tokens: int | None


@_model
@attrs.frozen
class Response(_Model):
    """The Responses API ``response`` object.

    Request echoes whose shape keeps evolving (``tools``, ``tool_choice``, ``reasoning``, ``text``,
    ``instructions``, ``metadata``, ``prompt``, ``conversation``, ...) are raw JSON.
    """

    id: str | None
    object: str | None
    created_at: float | None
    status: str | None
    completed_at: float | None
    error: ResponseError | None
    incomplete_details: IncompleteDetails | None
    instructions: Any
    metadata: Any
    model: str | None
    output: list[OutputItem] | None
    parallel_tool_calls: bool | None
    temperature: float | None
    top_p: float | None
    tool_choice: Any
    tools: Any
    background: bool | None
    conversation: Any
    max_output_tokens: int | None
    max_tool_calls: int | None
    top_logprobs: int | None
    moderation: Any
    previous_response_id: str | None
    prompt: Any
    prompt_cache_key: str | None
    prompt_cache_options: Any
    prompt_cache_retention: str | None
    reasoning: Any
    safety_identifier: str | None
    service_tier: str | None
    text: Any
    truncation: str | None
    usage: ResponseUsage | None
    user: str | None
    # Fields of the newest SDK release ([P] in official-sdk.md), kept raw.
    access_programs: Any
    image: Any
    input_transformations: Any
    prompt_cache_diagnostics: Any
    tool_usage: Any

    @property
    def output_text(self) -> str:
        """The ``text`` of every ``output_text`` part of every ``message`` item, joined (as SDK)."""
        texts: list[str] = []
        for item in self.output or ():
            if isinstance(item, ResponseOutputMessage):
                for part in item.content or ():
                    if isinstance(part, ResponseOutputText) and part.text is not None:
                        texts.append(part.text)
        return "".join(texts)
