"""The hot-path event constructors build exactly what the generic constructor builds.

The frequent delta events skip attrs' ``__init__``: they are assembled on a mutable twin class and
then given their real class (see ``_events._twin``). Whatever the route, the result must be an
ordinary frozen instance of the registered class, equal to the generic build, with the same
repr, copy, pickle and error behaviour.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import attrs
import pytest

import sansio_responses as sr
from sansio_responses._events import EVENT_TYPES, _build, _Event

HOT = sorted(
    wire
    for wire, cls in EVENT_TYPES.items()
    if cls._from_wire.__func__ is not _Event._from_wire.__func__  # type: ignore[attr-defined]
)


def _wire(wire_type: str) -> dict[str, Any]:
    """A valid wire dict for *wire_type*, extra field included."""
    d: dict[str, Any] = {
        "type": wire_type,
        "sequence_number": 7,
        "item_id": "item_1",
        "output_index": 0,
        "content_index": 1,
        "summary_index": 2,
        "delta": "abc",
        "logprobs": [],
        "obfuscation": "xyz",
    }
    if wire_type == "error":
        d = {"type": "error", "sequence_number": 7, "code": "x", "message": "m", "param": None}
    return d


@pytest.mark.parametrize("wire_type", HOT)
def test_hot_constructor_equals_generic_build(wire_type: str) -> None:
    cls = EVENT_TYPES[wire_type]
    event = sr.parse_event(_wire(wire_type))
    generic = _build(cls, _wire(wire_type))
    assert type(event) is cls
    assert event == generic
    assert repr(event) == repr(generic)
    assert event.to_dict() == _wire(wire_type)
    assert event.extra == generic.extra
    for field in attrs.fields(cls):
        assert getattr(event, field.name) == getattr(generic, field.name), field.name
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        event.sequence_number = 8
    assert copy.copy(event) == event
    assert pickle.loads(pickle.dumps(event)) == event


@pytest.mark.parametrize("wire_type", HOT)
def test_hot_constructor_names_the_wrong_field(wire_type: str) -> None:
    wire = _wire(wire_type)
    wire["sequence_number"] = "7"
    with pytest.raises(sr.RemoteProtocolError, match="sequence_number"):
        sr.ResponsesStream().feed(f"data: {json.dumps(wire)}\n\n".encode())
