"""A Chat choice's texts read as JSON: the partial value while they stream, the final one after.

With a ``response_format`` each choice's content is tracked as JSON, and every tool call's
arguments always are (as :class:`ResponsesStream` does for the Responses API). The incremental
:class:`PartialJSON` parser starts only when a value is first read, and continues from where it
stopped, so reading after every chunk is linear over the stream. Final values are parsed from the
complete text with :func:`parse_json_text`, and only when the choice ended normally
(:data:`COMPLETE_FINISH`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .._json.parsing import make_parser, parse_json_text
from .._json.structured import PARSING, LazyJSON
from .._responses.accumulate import Text

__all__ = ["COMPLETE_FINISH", "final_value", "format_parser", "json_of", "latest_value"]

# Finish reasons after which a choice's JSON is complete, so a final parse is meaningful. "length"
# (max tokens), "content_filter", "error" (OpenRouter) and vendor reasons leave the partial value.
COMPLETE_FINISH = frozenset({"stop", "tool_calls", "function_call"})


def json_of(text: Text) -> LazyJSON:
    """The partial-JSON tracker of *text*, started on first read (nothing is paid per delta
    while nobody reads a parsed value), reading the text itself: each read takes what the
    deltas added since the last one (see ``LazyJSON.source``).

    A reader, not a queue the deltas are pushed to: the first read may come from another
    thread while the stream appends (a UI thread reading returned chunks), where a delta
    appended between that read's copy of the text and the queue's start was counted twice.
    """
    lazy = text.json
    if lazy is None:
        with PARSING:  # two first reads in two threads: one tracker
            lazy = text.json
            if lazy is None:
                lazy = text.json = LazyJSON(text)
    return lazy


def final_value(
    text: Text, cache: tuple[int, Any] | None, parser: Callable[[Any], Any] | None
) -> Any:
    """The complete *text* parsed (and converted by *parser*), unless *cache* is still valid.

    Raises :class:`OutputParseError` (with ``raw_text``) for invalid JSON or a value that
    does not fit.
    """
    if cache is not None and cache[0] == text.length:
        return cache[1]
    return parse_json_text(text.value(), parser)


def latest_value(text: Text) -> Any:
    """The best partial JSON value of the whole text so far."""
    return json_of(text).value() if text.length else None


def format_parser(response_format: object | None) -> tuple[bool, Callable[[Any], Any] | None]:
    """Whether content is tracked as JSON, and the parser of the final value (None: plain JSON)."""
    if response_format is None:
        return False, None
    if isinstance(response_format, Mapping):
        # The API's response_format parameter ("Create chat completion", response_format).
        # (isinstance narrows an object to Mapping[Unknown, Unknown]; any key type will do here)
        kind = response_format.get("type")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        if kind in ("json_schema", "json_object"):
            return True, None
        if kind == "text":
            return False, None
        raise ValueError(
            "response_format as a dict must have type 'json_schema', 'json_object' or 'text', "
            f"not {kind!r}"
        )
    return True, make_parser(response_format)
