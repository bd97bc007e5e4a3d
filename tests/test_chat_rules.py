"""Chat Completions accumulation rules: the table (sr.CHAT_ACCUMULATION_RULES) is what the stream does.

Three checks keep the table from going stale: every field the chunk models (and the accumulator's
special keys) has a row, and every row names such a field; every row is applied, through the
general path and through the stream as it runs (fast paths included), and gives what its action
says; and the docs show every row.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import sansio_responses as sr
from sansio_responses._chat import accumulate, models

RULES = sr.CHAT_ACCUMULATION_RULES
FIELDS = [row[0] for row in RULES]


def _modelled_fields() -> set[str]:
    """Every chunk field the models type and the accumulator reads, as a path of the table."""
    # (_KNOWN: the fields each wire class models; everything else is carried as ``extra``.)
    level: dict[str, frozenset[str]] = {
        "": models.ChatCompletionChunk._KNOWN | accumulate.IGNORED_TOP | accumulate._FILTER_LISTS,
        "choices[].": models.ChunkChoice._KNOWN,
        "choices[].logprobs.": models.ChoiceLogprobs._KNOWN,
        "choices[].delta.": models.ChoiceDelta._KNOWN,
        "choices[].delta.function_call.": models.FunctionDelta._KNOWN,
        "choices[].delta.tool_calls[].": models.ToolCallDelta._KNOWN,
        "choices[].delta.tool_calls[].function.": models.FunctionDelta._KNOWN,
    }
    containers = {"choices", "delta", "logprobs", "function_call", "tool_calls", "function"}
    return {
        prefix + name for prefix, names in level.items() for name in names if name not in containers
    } | {prefix + "*" for prefix in level}


def test_every_modelled_field_has_a_row_and_every_row_a_field() -> None:
    expected = _modelled_fields()
    assert len(FIELDS) == len(set(FIELDS)), "a field has two rows"
    assert set(FIELDS) == expected, (
        f"missing rows: {sorted(expected - set(FIELDS))}; rows for no field: "
        f"{sorted(set(FIELDS) - expected)}"
    )


# -- every row applied ---------------------------------------------------------------------------

BASE: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "m",
    "choices": [{"index": 0, "delta": {}}],
}
# A field name no model knows and the generic merge does not set once.
OTHER = "vendor_field"
USAGE = [
    {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    {"prompt_tokens": 2, "completion_tokens": 2, "total_tokens": 4},
]


def _segments(path: str) -> list[str]:
    return [OTHER if s == "*" else s for s in path.split(".")]


def _put(chunk: dict[str, Any], path: str, value: Any) -> None:
    """Set the field *path* of the table in *chunk* (``[]``: the element at index 0)."""
    node: Any = chunk
    *inner, last = _segments(path)
    for seg in inner:
        if seg.endswith("[]"):
            seg = seg[:-2]
            if not node.get(seg):
                node[seg] = [{"index": 0}]
            node = node[seg][0]
        else:
            node = node.setdefault(seg, {})
    node[last] = value


def _get(snapshot: dict[str, Any], path: str) -> Any:
    """The field *path* of the table in a ``to_dict()`` snapshot (``[]``: the first element)."""
    node: Any = snapshot
    for seg in _segments(path):
        if seg.endswith("[]"):
            node = node[seg[:-2]]
            if seg != _segments(path)[-1]:
                node = node[0]
        else:
            node = node[seg]
    return node


def _values(chunk_field: str, action: str) -> list[Any]:
    """Two different values (then null, for "keep the last") of a type the field accepts."""
    if action.startswith("select"):
        return [1, 0]
    if action.startswith("extend"):
        return [[{"a": 1}], [{"b": 2}]]
    if chunk_field == "created":
        return [0, 5, 6]  # (0 first: "non-empty")
    if chunk_field == "usage":
        return [*USAGE, None]
    if action.startswith("keep the first"):
        return ["", "v1", "v2"]
    if action.startswith("keep the last"):
        return ["v1", "v2", None]
    if "role" in chunk_field:
        return ["assistant", "user"]
    return ["v1", "v2"]


def _expected(action: str, values: list[Any]) -> Any:
    if action.startswith("keep the first"):
        return values[1]
    if action.startswith("keep the last"):
        return values[1]
    if action.startswith(("append", "merge")):
        return values[0] + values[1]
    if action.startswith("extend"):
        return values[0] + values[1]
    if action.startswith("set once"):
        return values[0]
    raise AssertionError(f"no expectation for {action!r}")


def _body(chunks: list[dict[str, Any]]) -> bytes:
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)


class _General(sr.ChatCompletionsStream):
    _HOT = False  # the general path only (see tests/test_hot_paths.py)


@pytest.mark.parametrize("stream_type", [sr.ChatCompletionsStream, _General])
@pytest.mark.parametrize(("chunk_field", "target", "action"), RULES, ids=FIELDS)
def test_each_row_does_what_its_action_says(
    stream_type: type[sr.ChatCompletionsStream], chunk_field: str, target: str, action: str
) -> None:
    values = _values(chunk_field, action)
    chunks = []
    for value in values:
        chunk = json.loads(json.dumps(BASE))
        _put(chunk, chunk_field, value)
        chunks.append(chunk)
    # Both streams: the general path alone, and the stream as it runs (its chunks after the first
    # may take the common-shape path, which must not change any rule).
    stream = stream_type()
    stream.feed(_body(chunks))
    snapshot = stream.snapshot()
    assert snapshot is not None
    wire = snapshot.to_dict()
    if target == "-":
        text = json.dumps(wire)
        assert all(json.dumps(v) not in text for v in values), text
        assert wire["object"] == "chat.completion"
    elif action.startswith("select"):
        # Index 1 then index 0: both kept, in index order, whatever the order of arrival.
        assert len(_get(wire, target)) == 2
    else:
        assert _get(wire, target) == _expected(action, values)
    if "noted" in action and not action.startswith("select") and target != "-":
        assert stream.diagnostics, "the row says noted; nothing was recorded"


def test_the_table_prints_one_aligned_line_per_row() -> None:
    lines = sr.format_chat_accumulation_rules().splitlines()
    assert lines[0].split() == ["chunk", "field", "snapshot", "field", "action"]
    assert len(lines) == 1 + len(RULES)
    start = lines[0].index("snapshot field")
    action_at = lines[0].index("action")
    for line, (chunk_field, target, action) in zip(lines[1:], RULES, strict=True):
        assert line[:start].rstrip() == chunk_field
        assert line[start:action_at].rstrip() == target
        assert line[action_at:] == action


def test_the_rules_table_is_printed_in_the_docs() -> None:
    guide = (Path(__file__).parents[1] / "docs" / "guide" / "chat.md").read_text("utf-8")
    for chunk_field, target, action in RULES:
        shown = "-" if target == "-" else f"`{target}`"
        assert f"| `{chunk_field}` | {shown} | {action} |" in guide
