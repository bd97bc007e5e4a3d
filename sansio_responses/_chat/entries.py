"""A choice's ``logprobs.content`` token entries, kept as the JSON text they came in until read.

With ``logprobs=True`` every chunk brings a few token entries, kept as text for the reasons
``_held_entries`` gives (on a stream of 5,000 chunks the garbage collector's walks of decoded
entries cost more than decoding them: bench/chat_peers.py). The logprobs template
(:meth:`ChatFastPaths._logprobs_templated`) has already checked each chunk's entries (an array of
objects, within ``max_nesting_depth``): it matched them with :data:`ONE_ENTRY` (the API's one
entry a chunk, below), or read them with the standard library's scanner; it keeps the array's
text in the choice's :class:`Entries`, after the decoded entries of every other path (the list
:meth:`ChoiceAcc.extend_logprobs` extends), and the snapshot's ``Choice.logprobs`` decodes them
on first access (:func:`pending_logprobs`). With orjson as the decoder, :func:`pack_entries`
keeps orjson's text of them instead. tests/test_chat_entries.py proves the result equal to the
general path's, which keeps every entry decoded.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

from .._held_entries import PACK, UNPACK, HeldEntries

__all__ = [
    "ENTRY_DEPTH",
    "ONE_ENTRY",
    "PACK",
    "UNPACK",
    "Entries",
    "pack_entries",
    "pending_logprobs",
]

#: The holder of a choice's ``logprobs.content`` entries (the bytes texts are elements alone).
Entries = HeldEntries


# -- the common entry, checked without decoding it ------------------------------------------------
#
# The OpenAI API sends one token entry a chunk, always in the same form: the keys token, logprob,
# bytes and top_logprobs, in that order, written without spaces; each top_logprobs entry has the
# first three. ONE_ENTRY matches exactly such an array of one entry, and nothing else: each part
# below is a subset of the JSON grammar (RFC 8259 sections 6, 7) that the standard library's
# scanner decodes without error, so a matched text is one complete JSON value (its end is where
# the scanner would stop), an array of one object, and it nests exactly ENTRY_DEPTH levels. The
# logprobs template (ChatFastPaths._logprobs_templated) then keeps its text and decodes it only
# when it is read. Anything else (spaces, another key order, NaN, more entries) is scanned as
# before.
#
# - a string: no quote, backslash or control character but in escapes (section 7);
# - a number: section 6's grammar; the integer part at most 19 digits, so that the decoder never
#   meets Python's limit on integer digits (sys.set_int_max_str_digits, at least 640);
# - bytes: null or an array of integers of at most 3 digits without a leading zero.
#
# Possessive repeats (``*+``, ``++``: no backtracking into a part once matched) from Python 3.11,
# plain greedy ones on 3.10, whose ``re`` lacks them. The matches are the same: each repeated part
# is followed by a character it cannot match itself (a string's run by a quote or a backslash,
# the digits by a dot, an exponent or a separator, an element by a comma or a bracket), so each
# position is matched one way only and a non-match gives up in time linear in the text. The
# possessive form is about a quarter faster on the API's entries (3.0 against 4.0 µs each).
_P = "+" if sys.version_info >= (3, 11) else ""
_STRING = (
    r'"[^"\\\x00-\x1f]*'
    + _P
    + r'(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*'
    + _P
    + ")*"
    + _P
    + '"'
)
_NUMBER = r"-?(?:0|[1-9][0-9]{0,18})(?:\.[0-9]+" + _P + r")?(?:[eE][-+]?[0-9]+" + _P + ")?"
_BYTE = r"(?:[1-9][0-9]{0,2}|0)"
_BYTES = r"(?:\[" + _BYTE + r"(?:," + _BYTE + r")*" + _P + r"\]|\[\]|null)"
_HEAD = r'\{"token":' + _STRING + r',"logprob":' + _NUMBER + r',"bytes":' + _BYTES
_TOP = _HEAD + r"\}"
ONE_ENTRY: re.Pattern[str] = re.compile(
    r"\[" + _HEAD + r',"top_logprobs":\[(?:' + _TOP + r"(?:," + _TOP + r")*" + _P + r")?\]\}\]"
)
#: How deep a text ONE_ENTRY matches nests: the array, the entry, top_logprobs, one of its
#: entries, its bytes.
ENTRY_DEPTH = 5


def pack_entries(
    owner: Any, items: list[Any], entries: list[Any], pack: Callable[[Any], bytes]
) -> bool:
    """Keep *entries* (decoded by orjson) as orjson's text of them after *items* (the choice's
    ``logprobs["content"]``) in ``owner.entries``; False (nothing kept) if orjson cannot write
    them (nesting past its limit). orjson writes back what it reads exactly (dict order, floats
    in their shortest form, no NaN or infinity, which it refuses to read), so reading the text
    again gives equal values."""
    try:
        # The elements alone: a slice is a bytes object of its own size (orjson's own result
        # keeps the whole buffer it wrote into, about 4 KB).
        text = pack(entries)[1:-1]
    except (TypeError, ValueError):  # (orjson.JSONEncodeError is a TypeError)
        return False
    # orjson writes NaN and the infinities as null, silently; the entries of a large chunk were
    # decoded by the standard library, which reads them. Where the text has a null, keep the
    # entries decoded unless it reads back equal (a NaN never does).
    if b"null" in text and UNPACK(b"[" + text + b"]") != entries:  # type: ignore[misc]
        return False
    kept: Entries | None = owner.entries
    if kept is None:
        kept = owner.entries = Entries(items, True)
    # (Texts of one kind only: a stream decoding with orjson has no logprobs template.)
    kept.add(text, len(entries))
    return True


def _materialize(entries: Entries, count: int, base: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    out["content"] = entries.value()[:count]
    return {"logprobs": out}


def pending_logprobs(entries: Entries, base: dict[str, Any], count: int) -> Any:
    """What makes a snapshot's ``logprobs`` on first access (see ``models._Pending``): *base*
    (the other fields, as of now) with ``content`` the first *count* entries (``len(entries)``,
    those received so far, counted by the caller under the entries' lock; later chunks only add
    after them)."""
    return partial(_materialize, entries, count, base)
