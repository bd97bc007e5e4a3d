"""Template decoding of the deltas of one part, with the standard library's JSON (issue 21).

Almost every event of a stream is a delta of the part the previous one extended, written by the
server in one fixed layout, e.g. (``bench/generate.py``, most recordings in ``tests/data/real``)::

    {"type":"response.output_text.delta","content_index":0,"delta":"...","item_id":"msg_...",
     "logprobs":[],"obfuscation":"...","output_index":0,"sequence_number":123}

Once such a delta has taken the general path, everything in the next one is known except the
sequence number (the next one, when the inline path applies: see ``inline.py``) and the strings
``delta`` and ``obfuscation``. :func:`learn` turns the decoded delta into a :class:`Template`:
the literal text around those strings, in the wire's own key order, and the dict to copy.
:meth:`Template.match` reads a payload as: ``startswith`` of the text up to the first string,
the string by the standard library's own C ``json.decoder.scanstring`` (strict: the function and
the mode ``json.loads`` decodes every string with), the text between the strings, the second
string, then the rest, which must end the payload; the sequence number is written by ``str``
of the expected ``int`` (JSON's integer grammar: digits, no leading zero, no sign or spaces).

Why the result is ``json.loads(payload)`` exactly: the template is the compact JSON text of one
object with distinct keys, each literal value written by ``json.dumps`` (which ``json.loads``
reads back to an equal value of the same type), so a payload that matches it, character for
character outside the two strings, is that object with those strings: the same keys in the same
order, the same values and types. Anything else (whitespace, another order, an escaped key, a
missing or extra field, another sequence number, a bad string) does not match and is decoded by
the scanner as before. ``tests/test_templates.py`` holds the two equal on real, generated and
edited payloads, and whole streams with and without templates.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = ["Template", "Wire", "learn", "wire_dict"]

_scanstring: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_SEQ = "sequence_number"
# The strings read per event; the fixed fields (the part's locator) and their wire types.
_STRINGS = ("delta", "obfuscation")
_FIXED: dict[str, tuple[type[Any], ...]] = {
    "type": (str,),
    "item_id": (str, type(None)),
    "output_index": (int, type(None)),
    "content_index": (int, type(None)),
    "summary_index": (int, type(None)),
}
# The locator fields of a text delta that the inline path reads with a KeyError if absent.
_TEXT_NEEDS = ("item_id", "output_index", "content_index", "logprobs")


#: The data of a delta a template read, as the event holds it (its ``_data``, see
#: ``events.py``): ``(template, sequence number, first string, second string, logprobs)``. The
#: dict ``json.loads`` gives (:func:`wire_dict`) is built only when read (``to_dict()``,
#: ``extra``): a tuple of five costs 80 bytes where that dict costs 272, on an object every
#: delta event holds while the caller holds the list ``feed()`` returned (issue 21).
Wire = tuple["Template", int, str, str, "list[Any] | None"]


def wire_dict(wire: Wire) -> dict[str, Any]:
    """``json.loads`` of the payload *wire* was read from (a fresh dict on each call)."""
    return wire[0].data(wire)


class Template:
    """The layout of the deltas of one part (see the module's docstring): :meth:`match` gives
    ``(data, delta, logprobs)`` of a payload in that layout, else ``None``."""

    __slots__ = (
        "base",
        "content_index",
        "fast",
        "head",
        "head_after",
        "item_id",
        "key",
        "kind",
        "logprobs",
        "middle",
        "output_index",
        "second",
        "seq_in_head",
        "summary_index",
        "tail",
        "tail_after",
    )

    def __init__(self, obj: dict[str, Any], pieces: list[str], strings: list[str]) -> None:
        get = obj.get
        self.kind: str = obj["type"]
        self.item_id: Any = get("item_id")
        self.output_index: Any = get("output_index")
        self.content_index: Any = get("content_index")
        self.summary_index: Any = get("summary_index")
        #: The accumulator's cache key this template serves (``Accumulator.text_key`` for text
        #: deltas, ``Accumulator.delta_key`` for the others).
        self.key: tuple[Any, ...] = (
            (self.item_id, self.output_index, self.content_index)
            if self.kind == "response.output_text.delta"
            else (
                self.kind,
                self.item_id,
                self.output_index,
                self.content_index,
                self.summary_index,
            )
        )
        #: Which inline path its deltas take (see ``inline.py``): 1 text, 2 the others.
        self.fast = 1 if self.kind == "response.output_text.delta" else 2
        # The data to copy per match, key order included (the strings and the number are set).
        self.base = dict(obj)
        self.logprobs = "logprobs" in obj
        #: Which string is the delta's: the first or (``second``) the second.
        self.second = strings[0] != "delta"
        # pieces: [head, middle, tail] or [head, tail]; the sequence number sits in the head
        # or in the tail (learn refuses other layouts), split around it.
        head, *rest = pieces
        self.middle: str | None = rest[0] if len(rest) == 2 else None
        tail = rest[-1]
        self.seq_in_head = "\0" in head
        self.head, _, self.head_after = head.partition("\0")
        self.tail, _, self.tail_after = tail.partition("\0")

    def match(self, p: str, seq: int) -> tuple[Wire, str, Any] | None:
        """``(wire, its delta, its logprobs or None)`` if *p* is this layout with the sequence
        number *seq*, else ``None``; ``wire_dict(wire)`` is ``json.loads(p)``."""
        try:
            number = str(seq)
        except ValueError:  # past Python's int-to-str digit limit: the scanner's error instead
            return None
        if self.seq_in_head:
            head = self.head + number + self.head_after
            tail = self.tail
        else:
            head = self.head
            tail = self.tail + number + self.tail_after
        if not p.startswith(head):
            return None
        try:
            first, i = _scanstring(p, len(head), True)
            middle = self.middle
            if middle is None:
                second = first
            elif p.startswith(middle, i):
                second, i = _scanstring(p, i + len(middle), True)
            else:
                return None
        except ValueError:  # not a JSON string: the scanner's error, from the general decode
            return None
        if len(p) - i != len(tail) or not p.endswith(tail):
            return None
        logprobs: list[Any] | None = [] if self.logprobs else None
        return (self, seq, first, second, logprobs), second if self.second else first, logprobs

    def data(self, wire: Wire) -> dict[str, Any]:
        """The dict ``json.loads`` gives for the payload :meth:`match` read as *wire*: a fresh
        one on each call (its ``logprobs`` list is the one in *wire*, the event's)."""
        _, seq, first, second, logprobs = wire
        data = self.base.copy()
        data[_SEQ] = seq
        if self.second:
            data["delta"] = second
            if self.middle is not None:
                data["obfuscation"] = first
        else:
            data["delta"] = first
            if self.middle is not None:
                data["obfuscation"] = second
        if self.logprobs:
            data["logprobs"] = logprobs
        return data


def learn(obj: dict[str, Any]) -> Template | None:
    """The template of the deltas laid out as *obj* (a decoded delta, keys in wire order), or
    ``None`` if its layout is not one a template reads: fields other than the type, the
    sequence number, the locator, ``delta``, ``obfuscation`` and an empty ``logprobs``, a value
    of another type, the sequence number between the two strings."""
    if obj.get("type").__class__ is not str:
        return None
    text = "{"
    pieces: list[str] = []
    strings: list[str] = []
    for key, value in obj.items():
        if text != "{":
            text += ","
        text += json.dumps(key) + ":"
        if key == _SEQ:
            if value.__class__ is not int:
                return None
            text += "\0"  # where the number goes (no JSON text holds a raw NUL)
        elif key in _STRINGS:
            if value.__class__ is not str:
                return None
            pieces.append(text + '"')
            strings.append(key)
            text = ""
        elif key == "logprobs":
            if value.__class__ is not list or value:
                return None
            text += "[]"
        elif key in _FIXED:
            if value.__class__ not in _FIXED[key]:
                return None
            text += json.dumps(value, ensure_ascii=False)
        else:
            return None
    pieces.append(text + "}")
    if (
        "delta" not in strings
        or _SEQ not in obj
        or sum("\0" in piece for piece in (pieces[0], pieces[-1])) != 1
    ):
        return None
    if obj["type"] == "response.output_text.delta" and any(k not in obj for k in _TEXT_NEEDS):
        return None
    return Template(obj, pieces, strings)
