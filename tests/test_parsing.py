"""Tests for converting decoded JSON into user types and generating tool schemas."""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Sequence
from typing import Any, Literal, Optional, TypedDict, Union

import attrs
import pytest

from sansio_responses._json.parsing import (
    FunctionTool,
    OutputParseError,
    function_tool_parsers,
    json_schema,
    make_parser,
    parse_json_text,
)

# -- types under test (module level so that get_type_hints resolves them) -------------------------


@attrs.define
class Step:
    title: str
    minutes: int
    done: bool = False


@attrs.define
class Plan:
    """A plan of steps."""

    name: str
    steps: list[Step]
    weights: dict[str, float]
    note: str | None
    kind: Literal["quick", "slow"] = "quick"


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Meta(TypedDict):
    author: str


class MetaWithYear(Meta, total=False):
    year: int


@dataclasses.dataclass
class Point:
    x: float
    y: float


@dataclasses.dataclass
class Shape:
    name: str
    points: list[Point]
    color: Color
    meta: Optional[MetaWithYear]  # noqa: UP045 - the typing.Optional spelling is under test
    corners: tuple[int, int] = (0, 0)
    labels: Sequence[str] = ()


@attrs.frozen
class Node:
    value: int
    children: list[Node] = attrs.Factory(list)


@attrs.define
class Cat:
    kind: Literal["cat"]
    lives: int


@attrs.define
class Dog:
    kind: Literal["dog"]
    good: bool


@attrs.define
class Pet:
    pet: Cat | Dog
    age: int | float


@attrs.define
class Left:
    x: int


@attrs.define
class Right:
    x: int


@attrs.define
class Either:
    item: Union[Left, Right]  # noqa: UP007 - the typing.Union spelling is under test


@attrs.define
class Private:
    _secret: str
    visible: int = attrs.field(default=1, validator=attrs.validators.gt(0))


@attrs.define
class Described:
    city: str = attrs.field(metadata={"description": "The city name"})
    unit: Literal["c", "f"] = "c"


@attrs.define
class IntKeys:
    table: dict[int, str]


@attrs.define
class Unsupported:
    when: complex


@attrs.define
class Dangling:
    other: NotDefinedAnywhere  # type: ignore[name-defined]  # noqa: F821


# -- make_parser: attrs ---------------------------------------------------------------------------

PLAN = {
    "name": "trip",
    "steps": [{"title": "pack", "minutes": 20}, {"title": "go", "minutes": 5, "done": True}],
    "weights": {"cost": 2, "time": 0.5},
    "note": None,
    "kind": "slow",
    "extra": "ignored",
}


def test_attrs_nested() -> None:
    plan = make_parser(Plan)(PLAN)
    assert plan == Plan(
        name="trip",
        steps=[Step("pack", 20), Step("go", 5, True)],
        weights={"cost": 2.0, "time": 0.5},
        note=None,
        kind="slow",
    )
    assert type(plan.weights["cost"]) is float  # JSON 2 is a valid float
    assert not hasattr(plan, "extra")


def test_attrs_defaults_apply_when_absent() -> None:
    doc = {k: v for k, v in PLAN.items() if k != "kind"}
    assert make_parser(Plan)(doc).kind == "quick"


@pytest.mark.parametrize(
    ("patch", "path", "message"),
    [
        ({"steps": [{"title": "pack"}]}, "$.steps[0]", "missing required field 'minutes' of Step"),
        ({"steps": [{"title": "a", "minutes": "20"}]}, "$.steps[0].minutes", "expected integer"),
        ({"steps": [{"title": "a", "minutes": True}]}, "$.steps[0].minutes", "expected integer"),
        ({"steps": [{"title": "a", "minutes": 1.0}]}, "$.steps[0].minutes", "expected integer"),
        ({"steps": {"title": "a"}}, "$.steps", "expected array"),
        ({"weights": {"has space": "x"}}, "$.weights['has space']", "expected number"),
        ({"note": 3}, "$.note", "expected str | None"),
        ({"kind": "fast"}, "$.kind", "expected one of Literal['quick', 'slow']"),
        ({"name": None}, "$.name", "expected string, got NoneType"),
    ],
)
def test_attrs_errors_have_paths(patch: dict[str, Any], path: str, message: str) -> None:
    with pytest.raises(OutputParseError) as info:
        make_parser(Plan)({**PLAN, **patch})
    assert info.value.path == path
    assert message in info.value.message
    assert path in str(info.value)


def test_missing_top_level_field_and_wrong_top_level_type() -> None:
    doc = dict(PLAN)
    del doc["note"]  # Optional but without a default: still required
    with pytest.raises(OutputParseError, match="missing required field 'note' of Plan"):
        make_parser(Plan)(doc)
    with pytest.raises(OutputParseError, match=r"expected object \(Plan\), got list") as info:
        make_parser(Plan)([])
    assert info.value.path == "$"


def test_attrs_private_field_alias_and_validator() -> None:
    assert make_parser(Private)({"_secret": "s", "visible": 3}) == Private("s", 3)
    with pytest.raises(OutputParseError, match="Private rejected the value") as info:
        make_parser(Private)({"_secret": "s", "visible": 0})
    assert isinstance(info.value.__cause__, ValueError)


def test_recursive_class() -> None:
    tree = make_parser(Node)({"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]})
    assert tree == Node(1, [Node(2, [Node(3)])])
    with pytest.raises(OutputParseError) as info:
        make_parser(Node)({"value": 1, "children": [{"value": 2, "children": [{"value": "3"}]}]})
    assert info.value.path == "$.children[0].children[0].value"


def test_tagged_union_and_scalar_union() -> None:
    parse = make_parser(Pet)
    assert parse({"pet": {"kind": "cat", "lives": 9}, "age": 3}) == Pet(Cat("cat", 9), 3)
    assert parse({"pet": {"kind": "dog", "good": True}, "age": 2.5}) == Pet(Dog("dog", True), 2.5)
    assert type(parse({"pet": {"kind": "cat", "lives": 9}, "age": 3}).age) is int  # int first
    with pytest.raises(OutputParseError, match=r"expected Cat \| Dog, got dict") as info:
        parse({"pet": {"kind": "bird"}, "age": 1})
    assert info.value.path == "$.pet"
    assert "one of Literal['cat']" in info.value.message  # says why each alternative failed


def test_ambiguous_union_is_an_error() -> None:
    with pytest.raises(
        OutputParseError, match=r"ambiguous value for Left \| Right: it fits Left, Right"
    ):
        make_parser(Either)({"item": {"x": 1}})


# -- make_parser: dataclasses, TypedDict, enums, tuples -------------------------------------------


def test_dataclass_with_enum_typeddict_and_tuples() -> None:
    doc = {
        "name": "tri",
        "points": [{"x": 0, "y": 1.5}],
        "color": "blue",
        "meta": {"author": "ann", "year": 2024, "unknown": [1]},
        "corners": [3, 4],
        "labels": ["a"],
    }
    shape = make_parser(Shape)(doc)
    meta: Any = {"author": "ann", "year": 2024, "unknown": [1]}
    assert shape == Shape(
        "tri",
        [Point(0.0, 1.5)],
        Color.BLUE,
        meta,  # TypedDict keeps undeclared keys
        (3, 4),
        ["a"],
    )
    assert make_parser(Shape)({**doc, "meta": None, "corners": [1, 2]}).meta is None


@pytest.mark.parametrize(
    ("patch", "path", "message"),
    [
        ({"color": "green"}, "$.color", "one of Color ('red', 'blue')"),
        ({"meta": {"year": 1}}, "$.meta", "missing required field 'author' of MetaWithYear"),
        # A union (Optional) reports at its own path, with the alternative's reason and path.
        (
            {"meta": {"author": "a", "year": "1"}},
            "$.meta",
            "expected integer, got str '1' at $.meta.year",
        ),
        ({"corners": [1, 2, 3]}, "$.corners", "an array of 2"),
        ({"corners": [1, "2"]}, "$.corners[1]", "expected integer"),
        ({"points": [{"x": 1}]}, "$.points[0]", "missing required field 'y' of Point"),
    ],
)
def test_dataclass_errors(patch: dict[str, Any], path: str, message: str) -> None:
    doc: dict[str, Any] = {"name": "n", "points": [], "color": "red", "meta": None}
    with pytest.raises(OutputParseError) as info:
        make_parser(Shape)({**doc, **patch})
    assert message in info.value.message
    assert info.value.path == path


def test_top_level_typeddict_returns_dict() -> None:
    parse = make_parser(MetaWithYear)
    assert parse({"author": "a"}) == {"author": "a"}
    assert parse({"author": "a", "year": 1, "x": None}) == {"author": "a", "year": 1, "x": None}
    with pytest.raises(OutputParseError, match="missing required field 'author'"):
        parse({"year": 1})


# -- make_parser: callables and unsupported types ------------------------------------------------


def test_plain_callable_is_called_as_is() -> None:
    def total(value: Any) -> int:
        return sum(value["numbers"])

    assert make_parser(total)({"numbers": [1, 2, 3]}) == 6
    assert make_parser(dict)({"a": 1}) == {"a": 1}
    with pytest.raises(OutputParseError, match="total rejected the value") as info:
        make_parser(total)({"numbers": ["x"]})
    assert isinstance(info.value.__cause__, TypeError)


@pytest.mark.parametrize(
    ("text_format", "message"),
    [
        (IntKeys, "JSON keys are strings"),
        (Unsupported, "unsupported annotation complex"),
        (Dangling, "cannot resolve the field types of Dangling"),
        (42, "text_format must be a class or a callable, not int"),
    ],
)
def test_bad_text_formats_fail_at_make_parser(text_format: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        make_parser(text_format)


# -- pydantic (optional) --------------------------------------------------------------------------


def test_pydantic_model() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Item(pydantic.BaseModel):  # type: ignore[misc, name-defined]
        name: str
        qty: int

    class Order(pydantic.BaseModel):  # type: ignore[misc, name-defined]
        items: list[Item]
        note: Optional[str] = None  # noqa: UP045

    order = make_parser(Order)({"items": [{"name": "a", "qty": 2}]})
    assert isinstance(order, Order)
    assert order.items[0].qty == 2
    with pytest.raises(OutputParseError, match="Order validation failed") as info:
        make_parser(Order)({"items": [{"name": "a", "qty": "many"}]})
    assert info.value.path == "$.items[0].qty"

    schema = json_schema(Order)
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["items", "note"]
    assert "default" not in schema["properties"]["note"]
    assert schema["$defs"]["Item"]["additionalProperties"] is False
    assert schema["$defs"]["Item"]["required"] == ["name", "qty"]


def test_pydantic_model_nested_in_attrs_class() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Inner(pydantic.BaseModel):  # type: ignore[misc, name-defined]
        n: int

    @attrs.define
    class Outer:
        inner: Inner

    # A local class: its string annotation names a local, so give get_type_hints the class.
    Outer.__annotations__["inner"] = Inner
    outer = make_parser(Outer)({"inner": {"n": 1}})
    assert outer.inner == Inner(n=1)
    with pytest.raises(OutputParseError) as info:
        make_parser(Outer)({"inner": {"n": "x"}})
    assert info.value.path == "$.inner.n"


# -- parse_json_text ------------------------------------------------------------------------------


def test_parse_json_text() -> None:
    assert parse_json_text('{"a": [1]}', None) == {"a": [1]}
    assert parse_json_text(json.dumps(PLAN), make_parser(Plan)).steps[1] == Step("go", 5, True)


def test_parse_json_text_invalid_json_carries_raw_text_and_position() -> None:
    text = '{"title": "x", "minutes": 2'
    with pytest.raises(OutputParseError) as info:
        parse_json_text(text, make_parser(Step))
    err = info.value
    assert err.raw_text == text
    assert err.position == len(text)
    assert "invalid JSON" in err.message
    assert '\'{"title"' in str(err)  # the excerpt of the raw text


def test_parse_json_text_rejects_nan() -> None:
    with pytest.raises(OutputParseError, match="NaN is not valid JSON") as info:
        parse_json_text('{"x": NaN}', None)
    assert info.value.raw_text == '{"x": NaN}'


def test_parse_json_text_type_error_carries_raw_text() -> None:
    text = '{"title": 1, "minutes": 2}'
    with pytest.raises(OutputParseError) as info:
        parse_json_text(text, make_parser(Step))
    assert info.value.raw_text == text
    assert info.value.path == "$.title"
    assert info.value.position is None


# -- schema generation ----------------------------------------------------------------------------


def test_strict_schema_for_nested_attrs() -> None:
    assert json_schema(Plan) == {
        "type": "object",
        "description": "A plan of steps.",
        "properties": {
            "name": {"type": "string"},
            "steps": {"type": "array", "items": {"$ref": "#/$defs/Step"}},
            "weights": {"type": "object", "additionalProperties": {"type": "number"}},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "kind": {"type": "string", "enum": ["quick", "slow"]},
        },
        "required": ["name", "steps", "weights", "note", "kind"],
        "additionalProperties": False,
        "$defs": {
            "Step": {
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "minutes": {"type": "integer"},
                    "done": {"type": "boolean"},
                },
                "required": ["title", "minutes", "done"],
                "additionalProperties": False,
            }
        },
    }


def test_non_strict_schema_requires_only_fields_without_defaults() -> None:
    schema = json_schema(Plan, strict=False)
    assert schema["required"] == ["name", "steps", "weights", "note"]
    assert "additionalProperties" not in schema
    assert schema["$defs"]["Step"]["required"] == ["title", "minutes"]


def test_schema_for_dataclass_enum_typeddict_tuple() -> None:
    schema = json_schema(Shape)
    assert "description" not in schema  # the dataclass-generated docstring is not a description
    props = schema["properties"]
    assert props["color"] == {"type": "string", "enum": ["red", "blue"]}
    assert props["meta"] == {"anyOf": [{"$ref": "#/$defs/MetaWithYear"}, {"type": "null"}]}
    assert schema["$defs"]["MetaWithYear"]["properties"] == {
        "author": {"type": "string"},
        "year": {"type": "integer"},
    }
    assert json_schema(MetaWithYear, strict=False)["required"] == ["author"]
    assert props["corners"] == {
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "integer"}],
        "minItems": 2,
        "maxItems": 2,
    }
    assert props["labels"] == {"type": "array", "items": {"type": "string"}}
    assert props["points"] == {"type": "array", "items": {"$ref": "#/$defs/Point"}}


def test_schema_for_recursive_class_keeps_root_in_defs() -> None:
    schema = json_schema(Node)
    assert schema["properties"]["children"] == {"type": "array", "items": {"$ref": "#/$defs/Node"}}
    assert schema["$defs"]["Node"]["properties"] == schema["properties"]
    # A non-recursive root is only inlined.
    assert "$defs" not in json_schema(Step)


def test_schema_descriptions_and_unions() -> None:
    schema = json_schema(Described)
    assert schema["properties"]["city"] == {"type": "string", "description": "The city name"}
    pet = json_schema(Pet)
    assert pet["properties"]["pet"] == {"anyOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]}
    assert pet["properties"]["age"] == {"anyOf": [{"type": "integer"}, {"type": "number"}]}
    assert pet["$defs"]["Cat"]["properties"]["kind"] == {"type": "string", "enum": ["cat"]}


def test_schema_rejects_what_it_cannot_describe() -> None:
    with pytest.raises(TypeError, match="cannot generate a JSON schema for complex"):
        json_schema(Unsupported)
    with pytest.raises(TypeError, match="pass an attrs class"):
        json_schema(len)


# -- function tools -------------------------------------------------------------------------------


def test_function_tool_params() -> None:
    tool = FunctionTool("get_weather", Described, description="Weather for a city")
    assert tool.to_param() == {
        "type": "function",
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": json_schema(Described),
        "strict": True,
    }
    assert tool.to_chat_param() == {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather for a city",
            "parameters": json_schema(Described),
            "strict": True,
        },
    }
    loose = FunctionTool("f", Described, strict=False).to_param()
    assert "description" not in loose
    assert loose["strict"] is False
    assert loose["parameters"]["required"] == ["city"]


def test_function_tool_parsers_both_shapes() -> None:
    tools: list[Any] = [
        {"type": "function", "name": "strict_r", "parameters": {}, "strict": True},
        {"type": "function", "name": "loose_r", "parameters": {}, "strict": False},
        {"type": "function", "name": "default_r", "parameters": {}},
        {"type": "function", "function": {"name": "strict_c", "parameters": {}, "strict": True}},
        {"type": "function", "function": {"name": "loose_c", "parameters": {}}},
        {"type": "web_search"},
        {"type": "custom", "name": "grammar_tool"},
        FunctionTool("weather", Described),
        FunctionTool("step", Step, strict=False),
    ]
    parsers = function_tool_parsers(tools)
    assert set(parsers) == {
        "strict_r",
        "loose_r",
        "default_r",
        "strict_c",
        "loose_c",
        "weather",
        "step",
    }
    assert parsers["loose_r"] is None
    assert parsers["default_r"] is None
    assert parsers["loose_c"] is None
    value = {"any": ["json"]}
    strict_r, strict_c = parsers["strict_r"], parsers["strict_c"]
    assert strict_r is not None and strict_c is not None
    assert strict_r(value) is value
    assert strict_c(value) is value
    weather, step = parsers["weather"], parsers["step"]
    assert weather is not None and step is not None
    assert weather({"city": "Oslo", "unit": "f"}) == Described("Oslo", "f")
    assert step({"title": "t", "minutes": 1}) == Step("t", 1)  # model given: parsed even if loose
    with pytest.raises(OutputParseError):
        weather({"unit": "f"})


def test_function_tool_parsers_bad_tools() -> None:
    with pytest.raises(TypeError, match="mapping or a FunctionTool"):
        function_tool_parsers([Step])
    with pytest.raises(TypeError, match="without a string name"):
        function_tool_parsers([{"type": "function", "function": {"parameters": {}}}])


# -- deep user types and schemas: work, or a clear LocalProtocolError, never RecursionError --


def _strictify_reference(schema: Any) -> Any:
    # The recursive definition the iterative _strictify must agree with.
    if isinstance(schema, list):
        return [_strictify_reference(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _strictify_reference(v) for k, v in schema.items()}
    if out.get("type") == "object" and "properties" in out:
        out["additionalProperties"] = False
        # The names as given, before the children are made strict (the official SDK's
        # _ensure_strict_json_schema lists properties.keys() first): a property named "default"
        # with a null schema is still required, though its entry is dropped below.
        out["required"] = _strictify_reference(list(schema["properties"]))
    if "default" in out and out["default"] is None:
        del out["default"]
    return out


def _schemas() -> Any:
    from hypothesis import strategies as st

    leaf = st.sampled_from([None, 0, "x", True, "object"])
    key = st.sampled_from(["type", "properties", "default", "required", "items", "a"])
    return st.recursive(
        leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(key, inner, max_size=4)
    )


def test_strictify_agrees_with_its_recursive_definition() -> None:
    from hypothesis import given, settings

    from sansio_responses._json.parsing import _strictify

    @settings(max_examples=300, deadline=None)
    @given(_schemas())
    def check(schema: Any) -> None:
        before = json.dumps(schema)
        try:
            expected = _strictify_reference(schema)
        except TypeError:  # "properties" that are not a collection of names: both refuse it
            with pytest.raises(TypeError):
                _strictify(schema)
        else:
            assert _strictify(schema) == expected
        assert json.dumps(schema) == before  # the input is not changed

    check()


def _deep_pydantic_model(levels: int) -> Any:
    pydantic = pytest.importorskip("pydantic")
    schema: dict[str, Any] = {"type": "object", "properties": {"x": {"type": "integer"}}}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"child": schema}, "default": None}

    class Deep(pydantic.BaseModel):  # type: ignore[misc,name-defined]
        x: int = 0

        @classmethod
        def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
            return json.loads(json.dumps(schema)) if levels < 500 else _copy_deep(schema)

    return Deep


def _copy_deep(schema: dict[str, Any]) -> dict[str, Any]:
    from sansio_responses._responses.models import copy_tree

    copied: dict[str, Any] = copy_tree(schema)
    return copied


def test_a_pydantic_schema_of_any_depth_is_made_strict() -> None:
    levels = 3000
    out = json_schema(_deep_pydantic_model(levels), strict=True)
    node = out
    for _ in range(levels):
        assert node["additionalProperties"] is False and node["required"] == ["child"]
        assert "default" not in node
        node = node["properties"]["child"]
    assert node == {
        "type": "object",
        "properties": {"x": {"type": "integer"}},
        "additionalProperties": False,
        "required": ["x"],
    }


def test_a_schema_containing_itself_is_a_clear_error() -> None:
    import sansio_responses as sr
    from sansio_responses._json.parsing import _strictify

    looped: dict[str, Any] = {"type": "object", "properties": {}}
    looped["properties"]["self"] = looped
    with pytest.raises(sr.LocalProtocolError, match="contains itself"):
        _strictify(looped)


def _class_chain(n: int) -> type:
    """A dataclass whose field is the next class, *n* classes long."""
    last: type = dataclasses.make_dataclass("Leaf", [("x", int)])
    for i in range(n):
        last = dataclasses.make_dataclass(f"Link{i}", [("next", last)])
    return last


def test_types_too_deep_to_walk_are_a_local_protocol_error() -> None:
    import sansio_responses as sr

    chain = _class_chain(1500)
    nested: Any = int
    for _ in range(3000):
        nested = list[nested]
    deep_field = attrs.make_class("DeepField", {"v": attrs.field(type=nested)})
    for tp in (chain, deep_field):
        with pytest.raises(sr.LocalProtocolError, match="nest too deeply") as info:
            json_schema(tp)
        assert "generate a JSON schema" in str(info.value)
        with pytest.raises(sr.LocalProtocolError, match="nest too deeply"):
            make_parser(tp)
        with pytest.raises(sr.LocalProtocolError, match="nest too deeply"):
            sr.ResponsesStream(text_format=tp)
    # A chain Python can walk still works, both ways.
    short = _class_chain(20)
    assert json_schema(short)["type"] == "object"
    value: Any = {"x": 1}
    for _ in range(20):
        value = {"next": value}
    parsed = make_parser(short)(value)
    for _ in range(20):
        parsed = parsed.next
    assert parsed.x == 1
