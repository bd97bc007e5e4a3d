"""Generated ``from_dict`` constructors of the Responses models: one function per class, made once.

The generic constructor (``models._from_dict_loop``, what ``_Model.from_dict`` was) is a loop over
the class's field table: per field a tuple unpacked, a ``dict.get``, a converter call and a slot
descriptor's ``__set__``, and nested objects go through more small functions. The terminal
``Response`` has about 40 fields. As attrs does for ``__init__``, :func:`compile_from_dict` writes,
once per class (at the class's first ``from_dict`` call, see ``models._compile_on_first_use``), the
source of a constructor with every field's check inlined (``v.__class__ is int``, ...) and the value
stored with a plain attribute store into a mutable twin of the class whose ``__class__`` is then set
to the class (the twin adds no slots: the result is exactly an instance of the frozen class). Nested
models, lists of items and the literal ``type`` tag are written out too. Measured on the terminal
event (issue 21): about 5% of its cost, cold.

It gives exactly what the loop gives: the same object (same values, same wire dict kept), the same
:class:`SchemaError` (path, expected type, value) for the first bad field in field order, the same
handling of a non-dict ``Mapping``. A subclass the generator did not see is built by the loop.
``tests/test_fromdict.py`` compares both on every class with generated dicts and on the recordings.
"""

from __future__ import annotations

import linecache
from collections.abc import Callable, Mapping
from typing import Any

from .._errors import SchemaError

__all__ = ["TWINS", "Kind", "compile_from_dict", "twin"]

Kind = tuple[Any, ...]
"""How a field is checked: ``("any",)``; ``("str",)``, ``("int",)``, ``("num",)``, ``("bool",)``,
``("dict",)`` (one JSON type; ``("str", True)`` when the field is required); ``("tag", "message")``
(the discriminating literal, required); ``("model", cls)`` (a nested model); ``("list", build,
table, unknown)`` (an array of objects dispatched on their ``type`` by ``build``, whose ``table`` and
``unknown`` class are read here directly); ``("call", conv)`` (any other converter, called as the
loop calls it)."""

# Refusal condition of a present value (the converters' tests, negated) and the expected type's name.
_CHECKS = {
    # A str subclass is a str (isinstance, as _conv_str); the exact class is tested first.
    "str": ("{v}.__class__ is not str and not isinstance({v}, str)", "string"),
    # bool is a subclass of int in Python but a distinct JSON type.
    "int": ("{v}.__class__ is not int", "integer"),
    "num": ("{v}.__class__ is not int and {v}.__class__ is not float", "number"),
    "bool": ("{v}.__class__ is not bool", "boolean"),
    "dict": ("{v}.__class__ is not dict", "object"),
}


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def twin(cls: type[Any]) -> type[Any]:
    """A subclass of the frozen slotted class *cls* that allows plain attribute assignment.

    The fast constructors build an instance of it with ordinary ``self.x = v`` stores (which
    CPython specialises for slots: a fraction of the cost of a descriptor call or of attrs'
    ``object.__setattr__`` per field), then set ``__class__`` to *cls*: the twin adds no slots,
    so the layout is the same and the result is exactly a frozen *cls* instance. One per class.
    """
    made = TWINS.get(cls)
    if made is None:
        made = TWINS[cls] = type(
            f"_Mutable{cls.__name__}",
            (cls,),
            {
                "__slots__": (),
                # Both, so that CPython uses its generic (specialisable) attribute setter.
                "__setattr__": object.__setattr__,
                "__delattr__": object.__delattr__,
                "__module__": cls.__module__,
            },
        )
    return made


TWINS: dict[type[Any], type[Any]] = {}
"""The twin of each class :func:`twin` was asked for."""

# Nested models are written into their parent's constructor down to this depth (then called).
_INLINE_DEPTH = 3


def compile_from_dict(
    cls: type[Any],
    kinds: Callable[[type[Any]], list[tuple[str, Kind]]],
    generic: Callable[..., Any],
) -> Callable[..., Any]:
    """The source of *cls*'s constructor, compiled: ``from_dict(cls, d, path="")`` (a function to
    wrap in ``classmethod``). *kinds* gives a model class's fields in the loop's order with their
    :data:`Kind`; *generic* is the loop, used for a subclass of *cls*."""
    env: dict[str, Any] = {
        "__name__": cls.__module__,  # the function's __module__, as for the class's own methods
        "_cls": cls,
        "_generic": generic,
        "_new": object.__new__,
        "SchemaError": SchemaError,
        "Mapping": Mapping,
        "_join": _join,
    }
    lines = [
        "def from_dict(cls, d, path=''):",
        "    if cls is not _cls:",
        "        return _generic(cls, d, path)",
        "    if d.__class__ is not dict:",
        "        if not isinstance(d, Mapping):",
        "            raise SchemaError(path or '(root)', 'object', d)",
        "        d = dict(d)",
    ]
    _Writer(env, lines, kinds).model(cls, "d", "self", "path", 0, "    ")
    lines.append("    return self")
    source = "\n".join(lines) + "\n"
    filename = f"<generated from_dict of {cls.__module__}.{cls.__qualname__}>"
    exec(compile(source, filename, "exec"), env)  # our own source, as attrs does
    # ... which registers it with linecache too, so that a traceback through it shows its lines
    # (a SchemaError's, say) and inspect.getsource() finds them.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    built: Callable[..., Any] = env["from_dict"]
    built.__qualname__ = f"{cls.__qualname__}.from_dict"
    return built


class _Writer:
    """Writes the statements that build one model (and the nested models it holds)."""

    def __init__(
        self,
        env: dict[str, Any],
        lines: list[str],
        kinds: Callable[[type[Any]], list[tuple[str, Kind]]],
    ) -> None:
        self.env = env
        self.lines = lines
        self.kinds = kinds

    def ref(self, value: Any) -> str:
        """A name bound to *value* in the generated function's globals."""
        name = f"_r{len(self.env)}"
        self.env[name] = value
        return name

    def model(self, cls: type[Any], d: str, obj: str, path: str, depth: int, pad: str) -> None:
        """Statements (indented by *pad*) building *cls* from the dict named *d* into *obj*
        (*path*: an expression of the dotted path, evaluated only to report an error)."""
        out = self.lines.append
        v, get = f"v{depth}", f"get{depth}"
        out(f"{pad}{obj} = _new({self.ref(twin(cls))})")
        out(f"{pad}{obj}._raw = {d}")
        out(f"{pad}{get} = {d}.get")
        for name, kind in self.kinds(cls):
            key = repr(name)
            where = f"_join({path}, {key})"
            out(f"{pad}{v} = {get}({key})")
            what = kind[0]
            if what in _CHECKS:
                test = _CHECKS[what][0].format(v=v)
                expected = repr(_CHECKS[what][1])
                if len(kind) > 1 and kind[1]:  # required: absent or null is refused
                    out(f"{pad}if {v} is None:")
                    out(f"{pad}    raise SchemaError({where}, {expected}, {v})")
                    out(f"{pad}if {test}:")
                else:
                    out(f"{pad}if {v} is not None and ({test}):")
                out(f"{pad}    raise SchemaError({where}, {expected}, {v})")
            elif what == "tag":
                tag = self.ref(kind[1])
                out(f"{pad}if {v} is None:")
                out(f"{pad}    raise SchemaError({where}, 'string', {v})")
                out(f"{pad}if not ({v} == {tag} and isinstance({v}, str)):")
                out(f"{pad}    raise SchemaError({where}, {repr(kind[1])!r}, {v})")
                out(f"{pad}{v} = {tag}")
            elif what == "model":
                inner = self.ref(kind[1])
                out(f"{pad}if {v} is not None:")
                if depth + 1 < _INLINE_DEPTH:
                    # A plain dict is built here; anything else by the class (Mapping, errors).
                    out(f"{pad}    if {v}.__class__ is dict:")
                    self.model(kind[1], v, f"o{depth + 1}", where, depth + 1, pad + "        ")
                    out(f"{pad}        {v} = o{depth + 1}")
                    out(f"{pad}    else:")
                    out(f"{pad}        {v} = {inner}.from_dict({v}, {where})")
                else:
                    out(f"{pad}    {v} = {inner}.from_dict({v}, {where})")
            elif what == "list":
                build, table, unknown = (self.ref(x) for x in kind[1:4])
                out(f"{pad}if {v} is not None:")
                out(f"{pad}    if {v}.__class__ is not list:")
                out(f"{pad}        raise SchemaError({where}, 'array', {v})")
                out(f"{pad}    base = {where}")
                out(f"{pad}    out = []")
                out(f"{pad}    for i, x in enumerate({v}):")
                out(f"{pad}        p = f'{{base}}[{{i}}]'")
                # _dispatch's common case, written out: a dict whose type is a str.
                out(f"{pad}        if x.__class__ is dict:")
                out(f"{pad}            k = x.get('type')")
                out(f"{pad}            if k.__class__ is str:")
                out(f"{pad}                out.append({table}.get(k, {unknown}).from_dict(x, p))")
                out(f"{pad}                continue")
                out(f"{pad}        out.append({build}(x, p))")
                out(f"{pad}    {v} = out")
            elif what == "call":
                out(f"{pad}if {v} is not None:")
                out(f"{pad}    {v} = {self.ref(kind[1])}({v}, {path}, {key})")
            elif what != "any":
                raise TypeError(f"{cls.__name__}.{name}: unknown kind {kind!r}")
            out(f"{pad}{obj}.{name} = {v}")
        out(f"{pad}{obj}.__class__ = {self.ref(cls)}")
