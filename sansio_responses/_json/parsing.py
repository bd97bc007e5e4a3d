"""Turning decoded JSON (structured outputs, tool arguments) into user types, and back into schemas.

:func:`make_parser` builds a converter once per type: an attrs class, a dataclass, a
``TypedDict``, a pydantic v2 model (recognised without importing pydantic, which is never
required) or any callable taking the decoded JSON. :class:`FunctionTool` attaches such a type to a
function tool and generates the tool's JSON schema; :func:`function_tool_parsers` maps the tools of
a request to the parser of each function call's arguments, as the official SDK's
``parse_function_tool_arguments`` does.

Semantics follow Structured Outputs: with a strict schema the model sends exactly the declared
fields, so a missing required field is an error while extra keys are ignored for attrs classes and
dataclasses (which have nowhere to keep them) and kept for ``TypedDict`` results (plain dicts).
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import json
import keyword
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeGuard, Union, cast

import attrs

from .._errors import LocalProtocolError, excerpt

if TYPE_CHECKING:
    # The converters of arrays and objects declare their value with it, not Any: ``type(v) is
    # list`` then narrows it to ``list[Any]`` (narrowing ``Any`` gives pyright ``list[Unknown]``).
    from .._base import JSONValue

__all__ = [
    "FunctionTool",
    "OutputParseError",
    "function_tool_parsers",
    "json_schema",
    "make_parser",
    "parse_json_text",
]

_Converter = Callable[[Any, str], Any]
_NoneType = type(None)
_LIST_ORIGINS = (list, collections.abc.Sequence, collections.abc.MutableSequence)
_DICT_ORIGINS = (dict, collections.abc.Mapping, collections.abc.MutableMapping)


class OutputParseError(ValueError):
    """A structured output or tool arguments could not be turned into the requested type.

    Attributes:
        message: what went wrong, in words.
        raw_text: the raw JSON text, when known (the streams set it for values parsed from a
            ``parse_json_text`` call or a completed output).
        path: where in the decoded value, as a JSONPath such as ``$.steps[2].title``.
        position: character offset into ``raw_text`` for invalid JSON, else ``None``.
    """

    def __init__(
        self,
        message: str,
        raw_text: str | None = None,
        path: str = "$",
        position: int | None = None,
    ) -> None:
        self.message = message
        self.raw_text = raw_text
        self.path = path
        self.position = position
        super().__init__(message)

    def __str__(self) -> str:
        text = f"{self.message} (at {self.path}"
        if self.position is not None:
            text += f", char {self.position}"
        text += ")"
        if self.raw_text is not None:
            text += f": {excerpt(self.raw_text)}"
        return text


def _join(path: str, key: str) -> str:
    if key.isidentifier() and not keyword.iskeyword(key):
        return f"{path}.{key}"
    return f"{path}[{key!r}]"


def _describe(tp: object) -> str:
    """A readable spelling of an annotation for error messages (``Cat | Dog``, ``list[Step]``)."""
    if tp is _NoneType or tp is None:
        return "None"
    if tp is Ellipsis:
        return "..."
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Union or origin is types.UnionType:
        return " | ".join(_describe(a) for a in args)
    if origin is Literal:
        return "Literal[" + ", ".join(repr(a) for a in args) + "]"
    if origin is typing.Annotated:
        return _describe(args[0])
    if origin is not None and args:
        return f"{_describe(origin)}[{', '.join(_describe(a) for a in args)}]"
    if isinstance(tp, type):
        return tp.__name__
    return repr(tp).replace("typing.", "")


def _mismatch(expected: str, value: object, path: str) -> OutputParseError:
    return OutputParseError(
        f"expected {expected}, got {type(value).__name__} {value!r:.60}", path=path
    )


def _is_pydantic_model(tp: object) -> bool:
    """A pydantic v2 model class, recognised by its bases so pydantic is never imported."""
    return (
        isinstance(tp, type)
        and hasattr(tp, "model_validate")
        and any(
            base.__name__ == "BaseModel" and base.__module__.split(".")[0] == "pydantic"
            for base in tp.__mro__
        )
    )


def _is_enum_class(tp: object) -> TypeGuard[type[enum.Enum]]:
    # A TypeGuard rather than the inline test: its negative branch leaves the caller's ``Any``
    # alone, where the inline ``isinstance`` would leave a partly unknown ``type[Unknown]``.
    return isinstance(tp, type) and issubclass(tp, enum.Enum)


def _is_record_class(tp: object) -> bool:
    """An attrs class, dataclass or TypedDict: a JSON object with declared fields."""
    # is_dataclass last: its TypeIs would leave a partly unknown type for the tests after it.
    return isinstance(tp, type) and (
        typing.is_typeddict(tp) or attrs.has(tp) or dataclasses.is_dataclass(tp)
    )


def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except RecursionError:
        raise  # too deep: json_schema / make_parser turn it into a LocalProtocolError
    except Exception as exc:  # NameError for unresolvable forward references, TypeError, ...
        raise TypeError(f"cannot resolve the field types of {cls.__qualname__}: {exc}") from exc


@attrs.frozen
class _Field:
    key: str  # the JSON key (the attribute name)
    init_name: str  # the constructor argument
    type: Any
    required: bool
    description: str | None


def _fields(cls: type) -> list[_Field]:
    """The init fields of an attrs class, dataclass or TypedDict, with resolved types."""
    hints = _hints(cls)
    if attrs.has(cls):
        out: list[_Field] = []
        for f in attrs.fields(cls):
            if not f.init:
                continue
            alias = getattr(f, "alias", None) or f.name.lstrip("_")
            out.append(
                _Field(
                    f.name,
                    alias,
                    hints.get(f.name, Any),
                    f.default is attrs.NOTHING,
                    f.metadata.get("description"),
                )
            )
        return out
    if dataclasses.is_dataclass(cls):
        return [
            _Field(
                f.name,
                f.name,
                hints.get(f.name, Any),
                f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
                f.metadata.get("description"),
            )
            for f in dataclasses.fields(cls)
            if f.init
        ]
    required = cls.__required_keys__  # type: ignore[attr-defined]
    return [_Field(k, k, tp, k in required, None) for k, tp in hints.items()]


# -- parsing --------------------------------------------------------------------------------------


def _identity(value: Any, path: str) -> Any:
    return value


def _none(value: Any, path: str) -> None:
    if value is not None:
        raise _mismatch("null", value, path)


def _str(value: Any, path: str) -> str:
    if type(value) is not str:
        raise _mismatch("string", value, path)
    return value


def _int(value: Any, path: str) -> int:
    if type(value) is not int:
        raise _mismatch("integer", value, path)
    return value


def _float(value: Any, path: str) -> float:
    # JSON has one number type: an integral number (``1``) is a valid float.
    if type(value) is float:
        return value
    if type(value) is int:
        return float(value)
    raise _mismatch("number", value, path)


def _bool(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise _mismatch("boolean", value, path)
    return value


_SCALARS: dict[object, _Converter] = {
    Any: _identity,
    object: _identity,
    None: _none,
    _NoneType: _none,
    str: _str,
    int: _int,
    float: _float,
    bool: _bool,
}


class _ParserBuilder:
    """Builds converters, memoised per class so recursive classes (a tree of nodes) work."""

    def __init__(self) -> None:
        self._classes: dict[type, _Converter] = {}

    def build(self, tp: Any) -> _Converter:
        scalar = _SCALARS.get(tp) if _hashable(tp) else None
        if scalar is not None:
            return scalar
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if origin is typing.Annotated:
            return self.build(args[0])
        if origin is Literal:
            return _literal(tp, args)
        if origin is Union or origin is types.UnionType:
            return self._union(tp, args)
        if tp is list or origin in _LIST_ORIGINS:
            return _list(self.build(args[0]) if args else _identity)
        if tp is tuple or origin is tuple:
            return self._tuple(tp, args)
        if tp is dict or origin in _DICT_ORIGINS:
            if args and args[0] not in (str, Any):
                raise TypeError(f"unsupported annotation {_describe(tp)}: JSON keys are strings")
            return _dict(self.build(args[1]) if args else _identity)
        if _is_enum_class(tp):
            return _enum(tp)
        if _is_pydantic_model(tp):
            return _pydantic(tp)
        if _is_record_class(tp):
            return self._record(tp)
        supertype = getattr(tp, "__supertype__", None)  # typing.NewType
        if supertype is not None:
            return self.build(supertype)
        raise TypeError(f"unsupported annotation {_describe(tp)}")

    def _union(self, tp: Any, args: tuple[Any, ...]) -> _Converter:
        nullable = _NoneType in args
        alternatives = [
            (self.build(a), _is_record_class(a) or _is_pydantic_model(a))
            for a in args
            if a is not _NoneType
        ]
        expected = _describe(tp)

        def convert(value: Any, path: str) -> Any:
            if value is None and nullable:
                return None
            matches: list[tuple[Any, bool]] = []
            errors: list[OutputParseError] = []
            for converter, structured in alternatives:
                try:
                    matches.append((converter(value, path), structured))
                except OutputParseError as exc:
                    errors.append(exc)
            if not matches:
                details = "; ".join(f"{e.message} at {e.path}" for e in errors)
                raise OutputParseError(
                    f"expected {expected}, got {type(value).__name__} {value!r:.60} ({details})",
                    path=path,
                )
            if sum(structured for _, structured in matches) > 1:
                names = ", ".join(type(v).__name__ for v, s in matches if s)
                raise OutputParseError(
                    f"ambiguous value for {expected}: it fits {names}; add a Literal tag field",
                    path=path,
                )
            # Declaration order decides between scalars (e.g. ``int | float`` given 1).
            return matches[0][0]

        return convert

    def _tuple(self, tp: Any, args: tuple[Any, ...]) -> _Converter:
        if not args or (len(args) == 2 and args[1] is Ellipsis):
            item = self.build(args[0]) if args else _identity
            to_list = _list(item)
            return lambda value, path: tuple(to_list(value, path))
        items = [self.build(a) for a in args]
        expected = _describe(tp)

        def convert(value: JSONValue, path: str) -> tuple[Any, ...]:
            if type(value) is not list or len(value) != len(items):
                raise _mismatch(f"{expected} (an array of {len(items)})", value, path)
            return tuple(
                c(v, f"{path}[{i}]") for i, (c, v) in enumerate(zip(items, value, strict=True))
            )

        return convert

    def _record(self, cls: type) -> _Converter:
        known = self._classes.get(cls)
        if known is not None:
            return known
        slot: list[_Converter] = []
        # A forwarding entry first, so a field referring back to cls finds it while building.
        self._classes[cls] = lambda value, path: slot[0](value, path)
        fields = [(f, self.build(f.type)) for f in _fields(cls)]
        name = cls.__qualname__
        keep_extra = typing.is_typeddict(cls)

        def convert(value: JSONValue, path: str) -> Any:
            if type(value) is not dict:
                raise _mismatch(f"object ({name})", value, path)
            out: dict[str, Any] = dict(value) if keep_extra else {}
            for field, converter in fields:
                if field.key in value:
                    out[field.init_name] = converter(value[field.key], _join(path, field.key))
                elif field.required:
                    raise OutputParseError(
                        f"missing required field {field.key!r} of {name}", path=path
                    )
            if keep_extra:
                return out
            try:
                return cls(**out)
            except (TypeError, ValueError) as exc:  # attrs validators, __post_init__ checks
                raise OutputParseError(f"{name} rejected the value: {exc}", path=path) from exc

        slot.append(convert)
        self._classes[cls] = convert
        return convert


def _hashable(tp: object) -> bool:
    try:
        hash(tp)
    except TypeError:
        return False
    return True


def _literal(tp: Any, values: tuple[Any, ...]) -> _Converter:
    expected = _describe(tp)

    def convert(value: Any, path: str) -> Any:
        # Compare types too: Literal[1] must not accept True, nor Literal[0] accept 0.0.
        for allowed in values:
            if type(value) is type(allowed) and value == allowed:
                return value
        raise _mismatch(f"one of {expected}", value, path)

    return convert


def _list(item: _Converter) -> _Converter:
    def convert(value: JSONValue, path: str) -> list[Any]:
        if type(value) is not list:
            raise _mismatch("array", value, path)
        return [item(v, f"{path}[{i}]") for i, v in enumerate(value)]

    return convert


def _dict(item: _Converter) -> _Converter:
    def convert(value: JSONValue, path: str) -> dict[str, Any]:
        if type(value) is not dict:
            raise _mismatch("object", value, path)
        return {k: item(v, _join(path, k)) for k, v in value.items()}

    return convert


def _enum(cls: type[enum.Enum]) -> _Converter:
    def convert(value: Any, path: str) -> enum.Enum:
        for member in cls:
            if type(member.value) is type(value) and member.value == value:
                return member
        allowed = ", ".join(repr(m.value) for m in cls)
        raise _mismatch(f"one of {cls.__name__} ({allowed})", value, path)

    return convert


def _pydantic(model: Any) -> _Converter:
    def convert(value: Any, path: str) -> Any:
        try:
            return model.model_validate(value)
        except ValueError as exc:  # pydantic_core.ValidationError is a ValueError
            where = path
            errors: Callable[[], Any] | None = getattr(exc, "errors", None)
            if callable(errors):
                first: dict[str, Any] = errors()[0] if errors() else {}
                for part in first.get("loc", ()):
                    where = f"{where}[{part}]" if isinstance(part, int) else _join(where, str(part))
            raise OutputParseError(
                f"{model.__name__} validation failed: {exc}", path=where
            ) from exc

    return convert


def make_parser(text_format: object) -> Callable[[Any], Any]:
    """Return a function converting a decoded JSON value into *text_format*.

    *text_format* may be:

    - an attrs class or a dataclass: built recursively from the object's fields, resolving the
      annotations with :func:`typing.get_type_hints`. Supported field types: ``str``, ``int``,
      ``float`` (accepts integral numbers), ``bool``, ``None``, ``Any``, ``Literal[...]``,
      ``list[X]``/``Sequence[X]``, ``tuple[X, ...]``/``tuple[X, Y]``, ``dict[str, X]``, ``Optional``
      and unions, ``enum.Enum`` subclasses, ``NewType``, and nested attrs classes, dataclasses,
      ``TypedDict``\\ s and pydantic models. A missing required field is an error; extra keys are
      ignored. A union value is tried against each alternative: if it fits more than one class it
      is ambiguous (an error: tag the classes with a ``Literal`` field); between scalar
      alternatives the first in declaration order wins;
    - a ``TypedDict``: required keys and the value types are checked with the same rules and a dict
      is returned, keeping keys the ``TypedDict`` does not declare;
    - a pydantic v2 model: ``model_validate`` (pydantic is not imported by this module);
    - any other callable: called with the decoded value as is.

    Unsupported annotations raise :class:`TypeError` here, not at parse time. The returned function
    raises :class:`OutputParseError` (with a JSONPath ``path``) when the value does not fit; a
    ``ValueError`` or ``TypeError`` raised by a plain callable is wrapped the same way. Types that
    nest too deeply for Python's recursion limit to walk raise :class:`LocalProtocolError` here.
    """
    if _is_pydantic_model(text_format) or _is_record_class(text_format):
        try:
            converter = _ParserBuilder().build(text_format)
        except RecursionError:
            raise _too_deep(text_format, "build a parser") from None

        def parse(value: Any) -> Any:
            return converter(value, "$")

        return parse
    if callable(text_format):
        func = text_format
        name = getattr(func, "__qualname__", repr(func))

        def call(value: Any) -> Any:
            try:
                return func(value)
            except OutputParseError:
                raise
            except (TypeError, ValueError) as exc:
                raise OutputParseError(f"{name} rejected the value: {exc}") from exc

        return call
    raise TypeError(f"text_format must be a class or a callable, not {type(text_format).__name__}")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON (RFC 8259)")


def parse_json_text(text: str, parser: Callable[[Any], Any] | None) -> Any:
    """Decode *text* as JSON and apply *parser* (from :func:`make_parser`) if given.

    Raises :class:`OutputParseError` carrying ``raw_text`` (and ``position`` for invalid JSON) when
    the text is not valid JSON (``NaN``/``Infinity`` included) or the value does not fit.
    """
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise OutputParseError(
            f"invalid JSON: {exc.msg}", raw_text=text, position=exc.pos
        ) from None
    except ValueError as exc:
        raise OutputParseError(f"invalid JSON: {exc}", raw_text=text) from None
    except RecursionError:
        raise OutputParseError("invalid JSON: nested too deeply to decode", raw_text=text) from None
    if parser is None:
        return value
    try:
        return parser(value)
    except OutputParseError as exc:
        exc.raw_text = text
        raise
    except RecursionError:
        # A recursive type (a tree of nodes) is converted recursively: data nested a few hundred
        # levels deep overflows the stack, which must not escape as a RecursionError.
        raise OutputParseError(
            "the value nests too deeply to convert to the requested type", raw_text=text
        ) from None


# -- JSON schema ----------------------------------------------------------------------------------


def _json_type(value: object) -> str | None:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return None


def _enum_schema(values: list[Any]) -> dict[str, Any]:
    types_ = {_json_type(v) for v in values}
    if len(types_) == 1 and None not in types_:
        return {"type": types_.pop(), "enum": values}
    return {"enum": values}


# How deep _strictify follows a schema: far past any real one (and any Python can generate), but
# a bound, so that a schema containing itself fails clearly instead of looping forever.
_MAX_SCHEMA_DEPTH = 100_000


def _strictify(schema: Any) -> Any:
    """Make a pydantic-generated schema strict, as the official SDK's ``to_strict_json_schema``.

    A fresh copy, walked without recursion: a schema of any depth works (never RecursionError).
    """
    holder: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, int]] = [(schema, holder, 0, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, parent, key, depth = pop()
        if depth > _MAX_SCHEMA_DEPTH:
            raise LocalProtocolError(
                f"the JSON schema nests more than {_MAX_SCHEMA_DEPTH} levels (or contains itself)"
            )
        if isinstance(node, list):
            # isinstance narrows the Any to list[Unknown]: the copy is typed, the narrowing ignored.
            out_list: list[Any] = list(node)  # pyright: ignore[reportUnknownArgumentType]
            parent[key] = out_list
            for i, child in enumerate(out_list):
                if isinstance(child, (list, dict)):
                    push((child, out_list, i, depth + 1))  # pyright: ignore[reportUnknownArgumentType]
            continue
        if not isinstance(node, dict):
            parent[key] = node
            continue
        out: dict[str, Any] = dict(node)  # pyright: ignore[reportUnknownArgumentType]
        # These look at the keys only, so the children can be made strict after (same result as
        # the bottom-up recursion this replaces).
        if out.get("type") == "object" and "properties" in out:
            out["additionalProperties"] = False
            out["required"] = list(out["properties"])
        if "default" in out and out["default"] is None:
            del out["default"]  # strict schemas reject defaults; None is what Optional fields carry
        parent[key] = out
        for k, child in out.items():
            if isinstance(child, (list, dict)):
                push((child, out, k, depth + 1))  # pyright: ignore[reportUnknownArgumentType]
    return holder[0]


def _too_deep(tp: object, what: str) -> LocalProtocolError:
    try:
        shown = _describe(tp)
    except RecursionError:
        shown = type(tp).__name__
    return LocalProtocolError(
        f"cannot {what} for {shown}: its types nest too deeply for Python's recursion limit "
        f"({sys.getrecursionlimit()})"
    )


class _SchemaBuilder:
    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.defs: dict[str, Any] = {}
        self._names: dict[type, str] = {}
        self._refs: set[str] = set()

    def root(self, tp: Any) -> dict[str, Any]:
        if _is_pydantic_model(tp):
            schema: dict[str, Any] = tp.model_json_schema()
            return _strictify(schema) if self.strict else schema
        if not _is_record_class(tp):
            raise TypeError(
                f"cannot generate a JSON schema for {_describe(tp)}: pass an attrs class, "
                "a dataclass, a TypedDict or a pydantic model"
            )
        name = self._define(tp)
        # The root is inlined (tool parameters must be an object schema); it stays in $defs only
        # when a field refers back to it.
        schema = dict(self.defs[name]) if name in self._refs else self.defs.pop(name)
        if self.defs:
            schema["$defs"] = self.defs
        return schema

    def _object(self, cls: type) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        required: list[str] = []
        for field in _fields(cls):
            prop = self.schema(field.type)
            if field.description is not None:
                prop = {**prop, "description": field.description}
            properties[field.key] = prop
            # Strict mode: every property is required; optional ones are expressed as nullable.
            if self.strict or field.required:
                required.append(field.key)
        schema: dict[str, Any] = {"type": "object", "properties": properties, "required": required}
        if self.strict:
            schema["additionalProperties"] = False
        if cls.__doc__ and not typing.is_typeddict(cls) and not _generated_doc(cls):
            schema["description"] = cls.__doc__.strip()
        return schema

    def schema(self, tp: Any) -> dict[str, Any]:
        simple = _SIMPLE_SCHEMAS.get(tp) if _hashable(tp) else None
        if simple is not None:
            return dict(simple)
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if origin is typing.Annotated:
            return self.schema(args[0])
        if origin is Literal:
            return _enum_schema(list(args))
        if origin is Union or origin is types.UnionType:
            alternatives = [self.schema(a) for a in args if a is not _NoneType]
            if _NoneType in args:
                alternatives.append({"type": "null"})
            return alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}
        if tp is list or origin in _LIST_ORIGINS:
            return {"type": "array", "items": self.schema(args[0]) if args else {}}
        if tp is tuple or origin is tuple:
            if not args or (len(args) == 2 and args[1] is Ellipsis):
                return {"type": "array", "items": self.schema(args[0]) if args else {}}
            return {
                "type": "array",
                "prefixItems": [self.schema(a) for a in args],
                "minItems": len(args),
                "maxItems": len(args),
            }
        if tp is dict or origin in _DICT_ORIGINS:
            # Free-form maps cannot be expressed in strict mode (additionalProperties must be
            # false); the API rejects such strict schemas, so use a class or strict=False.
            return {"type": "object", "additionalProperties": self.schema(args[1]) if args else {}}
        if _is_enum_class(tp):
            return _enum_schema([m.value for m in tp])
        if _is_pydantic_model(tp):
            sub = tp.model_json_schema()
            sub = _strictify(sub) if self.strict else sub
            self.defs.update(sub.pop("$defs", {}))
            return sub  # type: ignore[no-any-return]
        if _is_record_class(tp):
            name = self._define(tp)
            self._refs.add(name)
            return {"$ref": f"#/$defs/{name}"}
        supertype = getattr(tp, "__supertype__", None)
        if supertype is not None:
            return self.schema(supertype)
        raise TypeError(f"cannot generate a JSON schema for {_describe(tp)}")

    def _define(self, cls: type) -> str:
        name = self._names.get(cls)
        if name is not None:
            return name
        name = cls.__name__
        n = 2
        while name in self.defs:  # two classes with one name (from different modules)
            name = f"{cls.__name__}{n}"
            n += 1
        self._names[cls] = name
        self.defs[name] = {}  # reserve the name before recursing into the fields
        self.defs[name] = self._object(cls)
        return name


def _generated_doc(cls: type) -> bool:
    # dataclasses invent a docstring from the signature ("Point(x: int, y: int)").
    return dataclasses.is_dataclass(cls) and (cls.__doc__ or "").startswith(cls.__name__ + "(")


_SIMPLE_SCHEMAS: dict[object, dict[str, Any]] = {
    Any: {},
    object: {},
    None: {"type": "null"},
    _NoneType: {"type": "null"},
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
}


def json_schema(model: object, *, strict: bool = True) -> dict[str, Any]:
    """The JSON schema of an attrs class, dataclass, ``TypedDict`` or pydantic model.

    Nested classes go in ``$defs`` (so recursive types work) and are referenced with ``$ref``.
    With *strict* (Structured Outputs' strict mode) every object has ``additionalProperties: false``
    and lists all its properties as required; a field with a default is still required, so give
    optional fields an ``Optional`` type. A field's ``metadata={"description": ...}`` (attrs or
    dataclass) becomes the property's description, and a class docstring the object's.

    Raises:
        LocalProtocolError: the types nest too deeply for Python's recursion limit to walk.
    """
    try:
        return _SchemaBuilder(strict).root(model)
    except RecursionError:
        # The classes and annotations are walked recursively (a chain of hundreds of classes,
        # list[list[...]] hundreds deep); a located error, never a RecursionError.
        raise _too_deep(model, "generate a JSON schema") from None


# -- function tools -------------------------------------------------------------------------------


@attrs.frozen
class FunctionTool:
    """A function tool whose arguments are parsed into *model*.

    Attributes:
        name: the function name the model calls.
        model: the arguments' type: an attrs class, dataclass, ``TypedDict`` or pydantic model (or,
            without schema generation, any callable taking the decoded JSON).
        strict: whether the tool is sent with ``strict: true`` (Structured Outputs for arguments).
        description: the tool's description for the model, or ``None``.
    """

    name: str
    model: object
    strict: bool = True
    description: str | None = None

    def parameters(self) -> dict[str, Any]:
        """The JSON schema of the arguments (see :func:`json_schema`)."""
        return json_schema(self.model, strict=self.strict)

    def _function(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.description is not None:
            out["description"] = self.description
        out["parameters"] = self.parameters()
        out["strict"] = self.strict
        return out

    def to_param(self) -> dict[str, Any]:
        """The Responses API tool: ``{"type": "function", "name", "parameters", "strict", ...}``."""
        return {"type": "function", **self._function()}

    def to_chat_param(self) -> dict[str, Any]:
        """The Chat Completions tool: ``{"type": "function", "function": {...}}``."""
        return {"type": "function", "function": self._function()}


def _plain_json(value: Any) -> Any:
    """The parser of a strict tool without a model: the decoded JSON itself."""
    return value


def function_tool_parsers(
    tools: Iterable[Mapping[str, Any] | object],
) -> dict[str, Callable[[Any], Any] | None]:
    """Map each function tool's name to the parser of its call arguments.

    Accepts tools in the Responses shape ``{"type": "function", "name", "parameters", "strict"}``,
    the Chat shape ``{"type": "function", "function": {"name", ..., "strict"}}`` and
    :class:`FunctionTool`. As in the official SDK, arguments of a strict tool without a model are
    the decoded JSON as is (the parser returns its input) and a non-strict tool is not parsed
    (``None``). A :class:`FunctionTool` is parsed with its model even when not strict: the caller
    asked for that type. Tools of other types (web search, custom, MCP, ...) are skipped.
    """
    parsers: dict[str, Callable[[Any], Any] | None] = {}
    for tool in tools:
        if isinstance(tool, FunctionTool):
            parsers[tool.name] = make_parser(tool.model)
            continue
        if not isinstance(tool, Mapping):
            raise TypeError(
                f"a tool must be a mapping or a FunctionTool, not {type(tool).__name__}"
            )
        # isinstance gives Mapping[Unknown, Unknown]; a JSON tool has string keys.
        tool = cast("Mapping[str, Any]", tool)
        if tool.get("type") != "function":
            continue
        function = tool.get("function")
        spec = cast("Mapping[str, Any]", function) if isinstance(function, Mapping) else tool
        name = spec.get("name")
        if not isinstance(name, str):
            raise TypeError(f"function tool without a string name: {excerpt(repr(tool))}")
        parsers[name] = _plain_json if spec.get("strict") else None
    return parsers
