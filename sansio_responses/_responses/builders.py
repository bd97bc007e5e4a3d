"""The mutable pieces of an accumulated Responses response, and how they become JSON again.

Strings that grow by deltas are held in :class:`Text` builders (a list of pieces joined lazily
and cached), never by ``+=``, so a million deltas cost a million appends, not a quadratic amount
of copying; a long text is joined in place (:func:`_join`) so that it is held about once, not
twice. Lists addressed by wire indices (``content_index``, ``summary_index``, ``command_index``,
``output_index``) are :class:`Sparse` maps, never padded lists, so an index far ahead costs one
entry. A :class:`Sparse` slot may hold a tree an event also returned to the caller (adopted, not
copied: copying it cost about as much as decoding it, issue 21), copied on first write.
:func:`materialize` turns a tree of these into plain JSON, :func:`clone` copies one.

Split out of ``accumulate.py`` (the event handlers), which re-exports :class:`Text`,
:class:`Sparse` and :func:`materialize`.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable
from typing import Any

from .._json.structured import PARSING, LazyJSON
from .logprobs import Logprobs
from .models import copy_tree

__all__ = ["Sparse", "Text", "clone", "materialize"]

#: Text builders merge every run of this many appended deltas into one string.
_MERGE_EVERY = 64

#: Texts at least this long are joined in place (see :func:`_join`; CPython only).
_JOIN_IN_PLACE = 64 * 1024 if sys.implementation.name == "cpython" else sys.maxsize
_JOIN_GROUP = 16 * 1024

#: Held while a :class:`Text`'s pieces are rearranged (joined by a read, merged by an append),
#: so that a read in another thread (a delta event's ``snapshot``, a snapshot's text, while the
#: stream goes on) never loses a delta the stream appends meanwhile. One for every builder: a
#: lock each would cost an object per text, and these sections are short (see Text).
_REARRANGING = threading.Lock()


class Sparse:
    """A list addressed by wire indices that may leave holes: only the slots present are stored.

    Materialised as the list of the present values in index order. ``top`` is the highest index
    used (``-1`` when empty), so "the last part" and "append" stay O(1).
    """

    __slots__ = ("frozen", "slots", "top")

    def __init__(self, values: Iterable[Any] = ()) -> None:
        self.slots: dict[int, Any] = dict(enumerate(values))
        self.top = len(self.slots) - 1
        #: The indices whose value is shared with an event's data (see :meth:`adopt`).
        self.frozen: set[int] = set()

    def put(self, index: int, value: Any) -> None:
        self.slots[index] = value
        if index > self.top:
            self.top = index
        if self.frozen:
            self.frozen.discard(index)

    def adopt(self, index: int, value: Any) -> None:
        """Put *value*, a tree an event returned to the caller also holds, without copying it.

        The slot is frozen: whoever would change the value must first replace it by a copy
        (:meth:`OutputItems._writable_item`, :meth:`OutputItems._part`), so that the event's
        data never change after it was returned.
        """
        self.put(index, value)
        self.frozen.add(index)

    def thaw(self, index: int) -> Any:
        """The value at *index*, replaced by a private copy first when it is frozen."""
        value = self.slots[index]
        if index in self.frozen:
            value = materialize(value)
            self.put(index, value)
        return value

    def values(self) -> list[Any]:
        slots = self.slots
        if self.top + 1 == len(slots):  # no holes: already in index order when filled in order
            return [slots[i] for i in range(len(slots))]
        return [slots[i] for i in sorted(slots)]

    def __deepcopy__(self, memo: dict[int, Any]) -> Sparse:
        copy = Sparse()
        copy.slots = {i: clone(v) for i, v in self.slots.items()}
        copy.top = self.top
        return copy


class Text:
    """A string built by appending deltas: amortised O(1) append, joined lazily once per read.

    ``json`` optionally holds a :class:`LazyJSON` that is told about every delta, for fields whose
    text is a JSON document (tool arguments, structured output).

    ``pieces`` (the text, in order), ``small`` (pieces appended since the last merge) and
    ``length`` are read and written by :class:`ResponsesStream`'s fast path, which appends a
    delta inline the way :meth:`append` does when no merge is due and ``json`` is ``None``.

    The stream appends in its thread while the events and snapshots it returned may be read in
    others. Appending a piece is one ``list.append`` (atomic under the GIL, and a list's own
    lock without it); everything that rearranges the pieces (a read's join, an append's merge)
    holds :data:`_REARRANGING` and replaces only the pieces it read, in place: a piece appended
    meanwhile stays after them (a read that replaced the list, as before, lost it for good).
    """

    # __weakref__: a LazyJSON reading from this text refers to it weakly (see LazyJSON.source).
    __slots__ = ("__weakref__", "json", "length", "pieces", "sealed", "small")

    def __init__(self, initial: str = "") -> None:
        self.pieces: list[str] = [initial] if initial else []
        self.small = 0  # pieces appended since the last merge
        self.length = len(initial)
        self.json: LazyJSON | None = None
        #: ``(n, size)``: the first *n* pieces hold *size* characters. Written only under
        #: :data:`_REARRANGING`, by whatever rearranges those pieces, so that :meth:`since` knows
        #: where each piece starts without ``length``, which an append in the stream's thread
        #: raises only after it appended the piece (a read in another thread between the two
        #: took the last piece as already counted and cut the text in the wrong place).
        self.sealed = (len(self.pieces), self.length)

    def append(self, piece: str) -> None:
        pieces = self.pieces
        pieces.append(piece)
        self.length += len(piece)
        small = self.small + 1
        if small == _MERGE_EVERY:
            # A short delta held as its own str costs ~50 bytes of object overhead; merging each
            # run of them keeps memory near the text's own size (every character is copied once
            # more: still linear).
            with _REARRANGING:
                start = max(len(pieces) - _MERGE_EVERY, 0)
                sealed, size = self.sealed
                if sealed > start:  # the merged run starts a piece that since() counted
                    self.sealed = (start, size - sum(map(len, pieces[start:sealed])))
                pieces[start:] = ["".join(pieces[start:])]
            small = 0
        self.small = small
        json = self.json
        if json is not None and json.source is None:
            json.push(piece)

    def set(self, value: str) -> None:
        json = self.json
        # The reader of the text as JSON is told under its own lock, so that a read in another
        # thread sees the old text and generation or the new ones, never a mix.
        with PARSING:
            with _REARRANGING:
                self.pieces = [value]
                self.small = 0
                self.length = len(value)
                self.sealed = (1, len(value))
            if json is not None:
                json.reset(value)

    def value(self) -> str:
        with _REARRANGING:
            return self._joined()

    def _joined(self) -> str:
        """The whole text, its pieces joined into one (under :data:`_REARRANGING`)."""
        pieces = self.pieces
        n = len(pieces)  # pieces appended from here on (in the stream's thread) stay after
        if n == 1:
            return pieces[0]
        if not n:
            return ""
        if self.length < _JOIN_IN_PLACE:
            joined = "".join(pieces[:n])
            pieces[:n] = [joined]
        else:
            # Out of the list first, so that _join frees each piece as it copies it.
            head = pieces[:n]
            del pieces[:n]
            joined = _join(head)
            pieces.insert(0, joined)
        self.small = 0
        self.sealed = (1, len(joined))
        return joined

    def prefix(self, n: int) -> str:
        """The first *n* characters: the text as it was when it was *n* characters long."""
        value = self.value()
        return value if n == len(value) else value[:n]

    def since(self, start: int) -> str:
        """The characters from *start* to the end (for a :class:`LazyJSON` reading this text):
        only the pieces after *start* are joined, so reading after every delta stays linear.

        Safe in any thread while the stream appends in its own: where the pieces start is
        counted from :attr:`sealed` (the pieces appended since are measured here, each once),
        not from ``length``, which may not count the last piece yet.
        """
        with _REARRANGING:
            pieces = self.pieces
            n = len(pieces)
            sealed, at = self.sealed
            for i in range(sealed, n):
                at += len(pieces[i])
            self.sealed = (n, at)
            i = n
            while i and at > start:
                i -= 1
                at -= len(pieces[i])
            if i == 0:
                return self._joined()[start:]
            tail = pieces[i] if i == n - 1 else "".join(pieces[i:n])
            return tail[start - at :]

    def __deepcopy__(self, memo: dict[int, Any]) -> Text:
        copy = Text(self.value())
        json = self.json
        if json is not None:
            if json.source is not None:
                copy.json = LazyJSON(copy)
            else:
                copy.json = LazyJSON()
                copy.json.push(copy.value())
        return copy


# The header of a non-ASCII compact str (PEP 393): its size minus (length + 1) characters.
_HEADER = sys.getsizeof("\xe9") - 2 if _JOIN_IN_PLACE < sys.maxsize else 0


def _kind(piece: str) -> int:
    """Bytes per character of *piece* in CPython's compact representation (PEP 393), read off
    its size (``max(piece)`` would walk its characters)."""
    if piece.isascii():
        return 1
    return (sys.getsizeof(piece) - _HEADER) // (len(piece) + 1)


def _join(pieces: list[str]) -> str:
    """``"".join(pieces)``, emptying *pieces*, with the text held about once rather than twice.

    ``"".join`` holds every piece and the result at the same time: for a long text, twice its
    size. Appending the pieces one by one to a string nothing else refers to lets CPython grow it
    in place, and each piece is released as soon as it is copied. The result is the same string;
    only the peak memory differs (on another interpreter, or when a piece is shared, it is a
    plain, linear, concatenation). The characters before the first of the widest kind are joined
    first, so that growing never has to widen (copy) the whole string.
    """
    if not pieces:
        return ""
    kinds = [_kind(piece) for piece in pieces]
    first_widest = kinds.index(max(kinds))
    head = "".join(pieces[: first_widest + 1])
    del pieces[: first_widest + 1]
    pieces.reverse()
    pop = pieces.pop
    # Appended in groups of about _JOIN_GROUP characters: each append may be a realloc (a few
    # µs), and a group costs only its own size. A for loop, not `while pieces`: CPython 3.11
    # specialises this form's `+=` to the in-place append (measured), not the other.
    group: list[str] = []
    size = 0
    for _ in range(len(pieces)):
        piece = pop()
        group.append(piece)
        size += len(piece)
        if size >= _JOIN_GROUP:
            head += "".join(group)
            group.clear()
            size = 0
    head += "".join(group)
    return head


def materialize(value: Any) -> Any:
    """A fresh JSON tree with every :class:`Text` builder turned into its string.

    Any depth is safe: a tree too deep for the recursive walk is copied iteratively.
    """
    try:
        return _materialize(value)
    except RecursionError:
        return copy_tree(value, _leaf_value, _sparse_values)


def _materialize(value: Any) -> Any:
    t = type(value)  # pyright: ignore[reportUnknownVariableType]
    if t is dict:
        return {k: _materialize(v) for k, v in value.items()}
    if t is list:
        return [_materialize(v) for v in value]
    if t is Text:
        return value.value()
    if t is Sparse:
        return [_materialize(v) for v in value.values()]
    if t is Logprobs:  # a text part's logprobs, as the deltas brought them (logprobs.py)
        return [_materialize(v) for v in value.value()]
    return value


def _leaf_value(value: Any) -> Any:
    return value.value() if type(value) is Text else value


def _sparse_values(value: Any) -> list[Any] | None:
    t = type(value)  # pyright: ignore[reportUnknownVariableType]
    if t is Sparse:
        return value.values()  # type: ignore[no-any-return]
    return value.value() if t is Logprobs else None


def clone(value: Any) -> Any:
    """A deep copy of an accumulator tree (dicts, lists, :class:`Text`, :class:`Sparse`)."""
    t = type(value)  # pyright: ignore[reportUnknownVariableType]
    if t is dict:
        return {k: clone(v) for k, v in value.items()}
    if t is list:
        return [clone(v) for v in value]
    if t is Text or t is Sparse or t is Logprobs:
        return value.__deepcopy__({})
    return value
