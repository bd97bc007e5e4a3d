"""The generated ``from_dict`` of every model gives exactly what the generic loop gives.

``sansio_responses._responses.fromdict`` writes one constructor per model class (checks inlined,
nested models written out, the lists' dispatch written out); ``_Model.generic_from_dict`` is the
loop over the class's field table it replaces. Built both ways from the same input, the results
must be equal, with the same ``repr`` and ``to_dict()`` (same key order) and exact classes at every
level, or both must raise the same error with the same message, path, expected type and value.
The reference build swaps every class's ``from_dict`` for the base class's (the loop), so nested
objects are built by the loop too. Inputs: hypothesis dicts with odd values in every field of every
class (each JSON type, bools for numbers, ``str`` subclasses, non-dict mappings, unknown types and
keys) and every object of every real recording in tests/data/real.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansio_responses import ChatCompletionChunk, parse_event
from sansio_responses._errors import SchemaError
from sansio_responses._responses import events, models
from sansio_responses._responses.fromdict import TWINS
from sansio_responses._responses.models import (
    Annotation,
    ContentPart,
    IncompleteDetails,
    InputTokensDetails,
    OutputItem,
    OutputTokensDetails,
    ResponseError,
    ResponseUsage,
)

REAL = Path(__file__).parent / "data" / "real"


@models._model  # pyright: ignore[reportPrivateUsage]
@attrs.frozen
class AllKinds(models._Model):  # pyright: ignore[reportPrivateUsage]
    """A model with a field of every annotation the decorator knows (some have no real user)."""

    type: Literal["all_kinds"]
    name: str
    text: str | None
    count: int | None
    number: float | None
    flag: bool | None
    mapping: dict[str, Any] | None
    names: list[str] | None
    items: list[OutputItem] | None
    parts: list[ContentPart] | None
    annotations: list[Annotation] | None
    error: ResponseError | None
    incomplete_details: IncompleteDetails | None
    usage: ResponseUsage | None
    input_tokens_details: InputTokensDetails | None
    output_tokens_details: OutputTokensDetails | None
    anything: Any


# Every class the decorator made a constructor for, with the fields it was generated from.
MODELS = [
    *sorted(
        (
            c
            for c in vars(models).values()
            if isinstance(c, type) and "from_dict" in c.__dict__ and c is not models._Model  # pyright: ignore[reportPrivateUsage]
        ),
        key=lambda c: c.__name__,
    ),
    AllKinds,
]
KINDS = {cls: models._kinds(cls) for cls in MODELS}  # pyright: ignore[reportPrivateUsage]
GENERIC = models._Model.__dict__["from_dict"]  # pyright: ignore[reportPrivateUsage]
DISPATCH = {
    "output": models.output_item_from_dict,
    "part": models.content_part_from_dict,
    "annotation": models.annotation_from_dict,
}


@contextmanager
def generic_loop() -> Generator[None, None, None]:
    """Every model class built by the generic loop (nested ones too), for the block's duration."""
    generated = {cls: cls.__dict__["from_dict"] for cls in MODELS}
    ours = events._ResponseEvent.__dict__["_from_wire"]  # pyright: ignore[reportPrivateUsage]
    try:
        for cls in MODELS:
            setattr(cls, "from_dict", GENERIC)  # noqa: B010
        # The lifecycle events' own constructor, replaced by the generic event loop.
        setattr(events._ResponseEvent, "_from_wire", classmethod(events._build))  # noqa: B010  # pyright: ignore[reportPrivateUsage]
        events._BUILDERS.update(  # pyright: ignore[reportPrivateUsage]
            {t: c._from_wire for t, c in events.EVENT_TYPES.items()}  # pyright: ignore[reportPrivateUsage]
        )
        yield
    finally:
        for cls, fn in generated.items():
            setattr(cls, "from_dict", fn)  # noqa: B010
        setattr(events._ResponseEvent, "_from_wire", ours)  # noqa: B010  # pyright: ignore[reportPrivateUsage]
        events._BUILDERS.update(  # pyright: ignore[reportPrivateUsage]
            {t: c._from_wire for t, c in events.EVENT_TYPES.items()}  # pyright: ignore[reportPrivateUsage]
        )


def _from_dict(cls: type[Any], *args: Any) -> Callable[[], Any]:
    """``cls.from_dict(*args)``, looked up when called (inside or outside :func:`generic_loop`)."""
    return lambda: cls.from_dict(*args)


def _outcome(build: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", build()
    except SchemaError as exc:
        return "error", (type(exc), str(exc), exc.path, exc.expected, exc.got)
    except Exception as exc:  # any other error must be the same too
        return "other", (type(exc), str(exc))


def _same_classes(a: Any, b: Any) -> None:
    """The same class at every place of two built trees (a ``str`` subclass kept by one side and a
    ``str`` by the other compare and print equal), and no mutable twin left anywhere."""
    twins = set(TWINS.values())
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        assert type(x) is type(y), (x, y)
        assert type(x) not in twins, type(x)
        if isinstance(x, list):
            stack.extend(zip(x, y, strict=True))  # pyright: ignore[reportUnknownArgumentType]
        elif hasattr(x, "__attrs_attrs__"):
            stack.extend((getattr(x, f.name), getattr(y, f.name)) for f in x.__attrs_attrs__)


def _owns(built: Any, wire: Any) -> None:
    """Each built object holds the very dict it was built from (taken over, not copied), when
    that was a dict (a copy of another mapping otherwise)."""
    stack = [(built, wire)]
    while stack:
        obj, src = stack.pop()
        raw = next(getattr(obj, a) for a in ("_raw", "_data", "data") if hasattr(obj, a))
        if src.__class__ is dict:
            assert raw is src
        for field in obj.__attrs_attrs__:
            value = getattr(obj, field.name)
            if hasattr(value, "__attrs_attrs__"):
                stack.append((value, raw[field.name]))
            elif value.__class__ is list and value and hasattr(value[0], "__attrs_attrs__"):
                stack.extend(zip(value, raw[field.name], strict=True))


def assert_same(build: Callable[[], Any], wire: Any = None) -> tuple[str, Any]:
    """*build* run with the generated constructors, then with the loop: the same outcome (*wire*:
    the input, which each built object must hold)."""
    return assert_all_same([(build, wire)])[0]


def assert_all_same(cases: list[tuple[Callable[[], Any], Any]]) -> list[tuple[str, Any]]:
    """:func:`assert_same` for many builds (the constructors swapped once)."""
    fast = [_outcome(build) for build, _ in cases]
    with generic_loop():
        slow = [_outcome(build) for build, _ in cases]
    for (_, wire), a, b in zip(cases, fast, slow, strict=True):
        _compare(a, b, wire)
    return fast


def _compare(fast: tuple[str, Any], slow: tuple[str, Any], wire: Any) -> None:
    assert fast[0] == slow[0], (fast, slow)
    if fast[0] == "ok":
        a, b = fast[1], slow[1]
        if wire is not None:
            _owns(a, wire)
            _owns(b, wire)
        assert type(a) is type(b)
        assert a == b
        assert repr(a) == repr(b)
        assert repr(a.to_dict()) == repr(b.to_dict())  # same values, same key order
        assert a.to_dict() == b.to_dict()
        _same_classes(a, b)
    elif fast[0] == "error":
        (ta, ma, pa, ea, ga), (tb, mb, pb, eb, gb) = fast[1], slow[1]
        assert (ta, ma, pa, ea) == (tb, mb, pb, eb)
        assert ga is gb  # the offending value itself
    else:
        assert fast[1] == slow[1]


# --- generated dicts ------------------------------------------------------------------------------


class Str(str):
    """A str subclass: a str for isinstance (the loop's test), not for ``__class__ is str``."""


json_scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=4,
)
# Values of every kind in any field: each JSON type, and what JSON cannot give but a caller can.
odd = (
    json_values
    | st.sampled_from([True, False, 0, 1, 1.5, -0.0, "", [], {}, [1], {"type": "x"}])
    | st.text(max_size=3).map(Str)
    | st.dictionaries(st.text(max_size=2), json_scalars, max_size=2).map(MappingProxyType)
)
ABSENT = object()


def _good(kind: tuple[Any, ...], depth: int) -> st.SearchStrategy[Any]:
    what = kind[0]
    if what == "str":
        return st.text(max_size=4) | st.text(max_size=2).map(Str)
    if what == "int":
        return st.integers()
    if what == "num":
        return st.integers() | st.floats(allow_nan=False)  # nan != nan, whoever builds it
    if what == "bool":
        return st.booleans()
    if what == "dict":
        return st.dictionaries(st.text(max_size=3), json_values, max_size=2)
    if what == "tag":
        return st.just(kind[1]) | st.just(Str(kind[1]))
    if what == "model":
        inner = model_dicts(kind[1], depth + 1)
        return inner | inner.map(MappingProxyType)
    if what == "list":
        table, unknown = kind[2], kind[3]
        element = (
            st.sampled_from(sorted(table)).flatmap(lambda t: model_dicts(table[t], depth + 1))
            | model_dicts(unknown, depth + 1)
            | odd
        )
        return st.lists(element, max_size=2)
    if what == "call":
        return st.lists(st.text(max_size=2) | odd, max_size=2)
    return json_values  # "any"


@st.composite
def _dicts(draw: st.DrawFn, cls: type[Any], depth: int) -> dict[str, Any]:
    fields = KINDS[cls]
    # At most two fields of an odd type (so that the fields after the first bad one are reached
    # too); the others well typed, absent or null.
    odd_ones = draw(st.sets(st.integers(0, max(len(fields) - 1, 0)), max_size=2))
    keys: list[tuple[str, Any]] = []
    for i, (name, kind) in enumerate(fields):
        if i in odd_ones or depth > 2:
            keys.append((name, draw(odd)))
            continue
        choice = draw(st.integers(0, 7))
        if choice == 0:
            continue
        keys.append((name, None if choice == 1 else draw(_good(kind, depth))))
    keys += draw(st.lists(st.tuples(st.text(max_size=3), json_values), max_size=2))  # unknown
    return dict(draw(st.permutations(keys)))


def model_dicts(cls: type[Any], depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    """Wire dicts for *cls*: every field well typed, absent, null or of an odd type."""
    return _dicts(cls, depth)


PATHS = st.sampled_from(["", "response", "response.output[0]"])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(MODELS).flatmap(lambda c: st.tuples(st.just(c), model_dicts(c))), PATHS)
def test_every_class_generated_and_loop_agree(
    case: tuple[type[Any], dict[str, Any]], path: str
) -> None:
    cls, wire = case
    assert_same(lambda: cls.from_dict(wire, path), wire)
    assert_same(lambda: cls.from_dict(MappingProxyType(wire), path))


@settings(max_examples=40, deadline=None)
@given(model_dicts(models.Response), PATHS)
def test_responses_with_items_agree(wire: dict[str, Any], path: str) -> None:
    """The largest model, with items, parts and annotations inside (the terminal event's)."""
    assert_same(lambda: models.Response.from_dict(wire, path), wire)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(DISPATCH)), odd | model_dicts(models.UnknownOutputItem), PATHS)
def test_dispatch_of_anything_agrees(which: str, value: Any, path: str) -> None:
    assert_same(lambda: DISPATCH[which](value, path), value)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["response.created", "response.completed", "response.failed"]),
    st.one_of(st.just(ABSENT), odd, model_dicts(models.Response)),
    st.one_of(st.just(ABSENT), st.integers(), odd),
)
def test_lifecycle_events_agree(etype: str, response: Any, seq: Any) -> None:
    """``_ResponseEvent._from_wire`` against the generic event loop (``_build``)."""
    wire: dict[str, Any] = {"type": etype}
    if seq is not ABSENT:
        wire["sequence_number"] = seq
    if response is not ABSENT:
        wire["response"] = response
    assert_same(lambda: parse_event(wire), wire)


# Each of these in each field of each class, alone (with the tag the class needs): deterministic.
ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    1.5,
    -0.0,
    2**70,
    "",
    "x",
    Str("x"),
    [],
    ["x"],
    [1],
    [None],
    {},
    {"type": "x"},
    MappingProxyType({}),
    MappingProxyType({"input_tokens": 1}),
    {"input_tokens": True},
    {"cached_tokens": "1"},
    {"code": 3},
    {"reason": []},
    [{"type": "nope"}],
    [{"type": 3}],
    [{"type": None}],
    [{}],
    [3],
    ["message"],
    [{"type": "message", "id": 3}],
    [{"type": "message", "content": [{"type": "output_text", "text": 1}]}],
    [MappingProxyType({"type": "function_call"})],
    [{"type": Str("reasoning")}],
    [{"type": "output_text", "annotations": [{"type": "url_citation", "url": 2}]}],
    [{"type": "file_citation", "index": True}],
    [{"type": "refusal"}, {"type": "summary_text", "text": 0}],
]


def _required(cls: type[Any]) -> dict[str, Any]:
    return {name: kind[1] for name, kind in KINDS[cls] if kind[0] == "tag"} | {
        name: "s" for name, kind in KINDS[cls] if kind[0] == "str" and len(kind) > 1
    }


def test_every_odd_value_in_every_field() -> None:
    cases: list[tuple[Callable[[], Any], Any]] = []
    for cls in MODELS:
        for name, _ in KINDS[cls]:
            for value in ODD_VALUES:
                wire = _required(cls) | {name: value}
                cases.append((_from_dict(cls, wire, "p"), wire))
                cases.append((_from_dict(cls, wire), wire))
    assert len(cases) > 5000
    assert_all_same(cases)


def test_non_mappings_and_subclasses() -> None:
    not_mappings: list[Any] = [None, [], "x", 3, ()]
    for cls in MODELS:
        for value in not_mappings:
            kind, _ = assert_same(_from_dict(cls, value, "p"))
            assert kind == "error"

    @models._model  # pyright: ignore[reportPrivateUsage]
    @attrs.frozen
    class Fresh(models._Model):  # pyright: ignore[reportPrivateUsage]
        """A class whose constructor is not generated yet (made at its first call)."""

        count: int | None

    class Sub(Fresh):
        """A subclass the generator does not know: built by the loop, as itself."""

    class SubUsage(models.ResponseUsage):
        """The same, under a class whose constructor is generated."""

    models.ResponseUsage.from_dict({})
    doc = models._Model.from_dict.__doc__  # pyright: ignore[reportPrivateUsage]
    assert doc and Fresh.from_dict.__doc__ == doc  # the stand-in, before the first call
    for cls in (Sub, Fresh, Sub, SubUsage):  # Sub before and after Fresh's first call
        built = cls.from_dict({"count": 1, "input_tokens": 2})
        assert type(built) is cls
        assert_same(_from_dict(cls, {"count": 1, "input_tokens": 2}))
        assert_same(_from_dict(cls, {"count": "1", "input_tokens": "2"}))
    for cls in (Fresh, models.ResponseUsage):  # generated: documented as the base's
        assert cls.from_dict.__doc__ == doc
        assert inspect.signature(cls.from_dict) == inspect.signature(models._Model.from_dict)  # pyright: ignore[reportPrivateUsage]


# --- the recordings -------------------------------------------------------------------------------


def _objects(event: dict[str, Any]) -> Iterator[tuple[Callable[[], Any], Any]]:
    """The event, and the response, item or part it carries, each built alone."""
    yield (lambda: parse_event(event)), event
    if isinstance(event.get("response"), dict):
        yield (lambda: models.Response.from_dict(event["response"], "response")), event["response"]
    if isinstance(event.get("item"), dict):
        yield (lambda: models.output_item_from_dict(event["item"], "item")), event["item"]
    if isinstance(event.get("part"), dict):
        yield (lambda: models.content_part_from_dict(event["part"], "part")), event["part"]


def _events(path: Path) -> Iterator[dict[str, Any]]:
    for block in path.read_text("utf-8").split("\n\n"):
        lines = [line[5:].lstrip(" ") for line in block.split("\n") if line.startswith("data:")]
        if lines and lines != ["[DONE]"]:
            yield json.loads("\n".join(lines))


RECORDINGS = sorted(REAL.glob("*.sse"))


def test_the_recordings_are_here() -> None:
    assert len([p for p in RECORDINGS if p.stem.startswith("responses-")]) >= 40


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: p.stem)
def test_every_recorded_object_agrees(path: Path) -> None:
    built = 0
    for event in _events(path):
        if path.stem.startswith("chat-"):
            assert_same(_from_dict(ChatCompletionChunk, event))
            built += 1
            continue
        for build, wire in _objects(event):
            kind, _ = assert_same(build, wire)
            built += kind == "ok"
    assert built


def test_a_generated_constructor_shows_its_source_in_tracebacks() -> None:
    # Its lines are registered with linecache (as attrs does for its generated methods): a
    # SchemaError raised inside it shows the statement that raised it; and it belongs to the
    # class's module, as the class's own methods do.
    import traceback

    models.Response.from_dict({"id": "resp_1", "object": "response"})  # generated on first use
    built = models.Response.__dict__["from_dict"].__func__
    assert built.__module__ == models.Response.__module__
    with pytest.raises(SchemaError) as caught:
        models.Response.from_dict({"id": 5})
    frame = traceback.extract_tb(caught.value.__traceback__)[-1]
    assert frame.filename.startswith("<generated from_dict of")
    assert frame.line is not None and "raise SchemaError" in frame.line
