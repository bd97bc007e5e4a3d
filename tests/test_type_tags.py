"""The ``Literal`` type tags that type checkers narrow on agree with what run time dispatches on.

Event classes declare their tag for type checkers only (under ``if TYPE_CHECKING``, read here from
the source); models declare it as their ``type`` field, which ``from_dict`` enforces.
"""

from __future__ import annotations

import ast
import inspect
import re

import attrs
import pytest

import sansio_responses as sr
from sansio_responses._responses import events as _events
from sansio_responses._responses import models as _models

UNKNOWN = "<unknown>"


def _type_checking_tags(module: object) -> dict[str, str]:
    """Class name -> the tag its ``if TYPE_CHECKING:`` block declares for ``type``."""
    tree = ast.parse(inspect.getsource(module))
    tags: dict[str, str] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        for stmt in node.body:
            if not (isinstance(stmt, ast.If) and ast.unparse(stmt.test) == "TYPE_CHECKING"):
                continue
            for inner in stmt.body:
                # ``type: Literal[...]`` or a ``def type(self) -> ...`` property.
                if (
                    isinstance(inner, ast.AnnAssign)
                    and isinstance(inner.target, ast.Name)
                    and inner.target.id == "type"
                ):
                    annotation = inner.annotation
                elif isinstance(inner, ast.FunctionDef) and inner.name == "type" and inner.returns:
                    annotation = inner.returns
                else:
                    continue
                text = ast.unparse(annotation)
                match = re.fullmatch(r"Literal\['(.*)'\]", text)
                tags[node.name] = match.group(1) if match else text
    return tags


def test_every_event_class_declares_its_wire_type_as_its_tag() -> None:
    tags = _type_checking_tags(_events)
    assert len(sr.EVENT_TYPES) == 59
    for wire_type, cls in sr.EVENT_TYPES.items():
        assert tags.get(cls.__name__) == wire_type, cls.__name__
    assert tags["UnknownEvent"] == "UnknownEventType"
    assert _events.UnknownEventType.__args__ == (UNKNOWN,)


def test_unknown_events_keep_the_wire_type_at_run_time() -> None:
    stream = sr.ResponsesStream()
    (event,) = stream.feed(b'data: {"type": "response.keep_alive", "sequence_number": 4}\n\n')
    assert isinstance(event, sr.UnknownEvent)
    assert event.type == "response.keep_alive" == event.data["type"]
    # The placeholder that type checkers see is no wire type the registry knows.
    assert UNKNOWN not in sr.EVENT_TYPES


TABLES = [
    (_models.OUTPUT_ITEM_TYPES, _models.UnknownOutputItem, _models.output_item_from_dict),
    (_models._CONTENT_PART_TYPES, _models.UnknownContentPart, _models.content_part_from_dict),
    (_models._ANNOTATION_TYPES, _models.UnknownAnnotation, _models.annotation_from_dict),
]


@pytest.mark.parametrize(("table", "unknown", "build"), TABLES, ids=["items", "parts", "notes"])
def test_every_model_class_is_tagged_with_its_wire_type(
    table: dict[str, type[object]], unknown: type[object], build: object
) -> None:
    for wire_type, cls in table.items():
        field = attrs.fields_dict(cls)["type"]
        assert field.type == f"Literal[{wire_type!r}]", cls.__name__
    assert _type_checking_tags(_models)[unknown.__name__] == "UnknownTag"
    assert UNKNOWN not in table
    obj = build({"type": "brand_new_kind", "x": 1})
    assert isinstance(obj, unknown) and obj.type == "brand_new_kind"


def test_from_dict_refuses_another_types_object() -> None:
    # The tag type checkers trust must hold when a class is built directly, not only by dispatch.
    assert sr.ResponseOutputText.from_dict({"type": "output_text", "text": "x"}).text == "x"
    with pytest.raises(ValueError) as info:
        sr.ResponseOutputText.from_dict({"type": "refusal", "refusal": "no"}, "output[0]")
    assert info.value.path == "output[0].type"
    assert "'output_text'" in str(info.value) and "'refusal'" in str(info.value)
