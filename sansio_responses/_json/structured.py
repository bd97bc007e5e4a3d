"""Parsed values of structured outputs and tool arguments, final and partial, computed only if read.

A growing JSON field (function-call arguments, MCP arguments, custom tool input, and structured
output text) gets a :class:`LazyJSON` next to its text builder. Each delta is only *queued* (one list
append; runs of 64 are merged); the incremental :class:`~sansio_responses.PartialJSON` parser
consumes the queue when someone reads a ``parsed`` value, continuing from where it stopped, so
reading after every delta costs linear time over the whole stream and never reading costs nothing.
Reading an old event's value after later deltas were parsed re-parses that prefix from scratch
(correct, and only paid by that late read).

The partial value is the parser's live tree: it only grows, and callers that keep one across deltas
must copy it. Final values are parsed from the complete text with :func:`parse_json_text`; invalid
JSON there is an :class:`~sansio_responses.OutputParseError` carrying the raw text, raised when the
value is read, never from ``feed``.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from .parsing import parse_json_text
from .partial import PartialJSON

__all__ = ["PARSING", "LazyJSON", "ReaderAt", "Source", "final_parser", "reparsed"]

#: Queued deltas are merged every run of this many (as the text builders' pieces are).
_MERGE_EVERY = 64

#: Held while a :class:`LazyJSON` parses or is reset: the values of the events a stream returned
#: may be read in other threads while it goes on (docs/guide/concepts.md), and a read moves the
#: one parser every event of that text shares. One lock for all (a lock each would cost an object
#: per text; reads of parsed values are not on the stream's path). Reentrant: a text's ``set``
#: holds it around the reset of its reader. Taken before the text builders' own lock.
PARSING = threading.RLock()


class Source(Protocol):
    """A growing text a :class:`LazyJSON` reads from (the accumulators' ``Text`` builder)."""

    @property
    def length(self) -> int:
        """How many characters the text has now (it may lag by the piece being appended)."""
        ...

    def since(self, start: int) -> str:
        """The characters from *start* to the end (at least ``length`` characters in all)."""
        ...


class Prefixed(Protocol):
    """A text whose earlier states can be read back (the accumulators' ``Text`` builder)."""

    def prefix(self, n: int) -> str:
        """The first *n* characters."""
        ...


class LazyJSON:
    """The partial JSON value of a text built from deltas, parsed on demand.

    Positions are characters of the text (within one *generation*: a reset starts a new one), so
    the queue of deltas not parsed yet can be merged like the text builder's pieces: its memory
    stays near the text's own size however small the deltas are.

    With a *source* (the text builder itself), nothing is pushed: each read takes the characters
    added since the last read from the source (one call per read instead of one per delta, on a
    path that runs for every delta of every tool call). Without one, every delta is pushed
    (:meth:`push`).
    """

    __slots__ = ("_fed", "_gen", "_parser", "_pending", "_pushed", "_small", "source")

    def __init__(self, source: Source | None = None) -> None:
        #: A weak reference to the text read from (then never pushed to), or None. Weak because
        #: the text holds this object (its ``json``): a strong one would make each a reference
        #: cycle, freed only by the garbage collector. Whoever reads holds the text (an event's
        #: reader holds its prefix function, the accumulator its builder).
        self.source: weakref.ref[Source] | None = None if source is None else weakref.ref(source)
        self._parser = PartialJSON()
        self._pending: list[str] = []
        self._small = 0  # deltas queued since the last merge
        self._pushed = 0  # characters pushed (or taken from the source) in this generation
        self._fed = 0  # characters the parser has consumed
        self._gen = 0  # bumped by reset(): a new text, a new parser

    def push(self, delta: str) -> None:
        pending = self._pending
        pending.append(delta)
        self._pushed += len(delta)
        self._small += 1
        if self._small == _MERGE_EVERY:
            # One str per short delta would cost ~50 bytes each while nobody reads the value.
            pending[-_MERGE_EVERY:] = ["".join(pending[-_MERGE_EVERY:])]
            self._small = 0

    def reset(self, text: str) -> None:
        """The text was replaced by an authoritative value (a ``.done`` event)."""
        with PARSING:
            self._parser = PartialJSON()
            self._pending = [text]
            self._small = 1
            self._gen += 1
            self._fed = 0
            self._pushed = len(text)

    def value(self) -> Any:
        """The best partial value of everything pushed so far."""
        with PARSING:
            return self._value_locked(self._gen, self._length(), None)

    def _length(self) -> int:
        """The characters available now: the source's, or those pushed."""
        ref = self.source
        source = None if ref is None else ref()
        return self._pushed if source is None else source.length

    def reader(self, prefix: Callable[[], str]) -> Callable[[], Any]:
        """A function giving the partial value as of now (for an event's lazy ``parsed``)."""
        gen, position = self._gen, self._length()
        return lambda: self._value_at(gen, position, prefix)

    def at(self, position: int, prefix: Callable[[], str]) -> Any:
        """The partial value of the first *position* characters (of the current generation)."""
        with PARSING:
            return self._value_locked(self._gen, position, prefix)

    def _value_at(self, gen: int, position: int, prefix: Callable[[], str] | None) -> Any:
        with PARSING:
            return self._value_locked(gen, position, prefix)

    def _value_locked(self, gen: int, position: int, prefix: Callable[[], str] | None) -> Any:
        if gen == self._gen and position >= self._fed:
            ref = self.source
            source = None if ref is None else ref()
            if source is not None and position > self._pushed:
                # The characters the source gained since the last read (it only grows within
                # a generation: a new text is a reset), counted as they came: the source's
                # ``length`` may not count the piece it is appending in the stream's thread.
                gained = source.since(self._pushed)
                self._pending.append(gained)
                self._pushed += len(gained)
            need = position - self._fed
            if need:
                feed = self._parser.feed
                pending = self._pending
                used = 0
                while need:
                    piece = pending[used]
                    if len(piece) <= need:
                        feed(piece)
                        need -= len(piece)
                        used += 1
                    else:  # an older reader than the merged piece: split it
                        feed(piece[:need])
                        pending[used] = piece[need:]
                        need = 0
                del pending[:used]
                self._small = min(self._small, len(pending))
                self._fed = position
            return self._parser.value
        # An older value read after newer ones were parsed: parse its prefix afresh.
        assert prefix is not None
        return reparsed(prefix)()

    def __getstate__(self) -> dict[str, Any]:
        # A weak reference does not pickle: the source goes as itself (pickle's memo keeps it
        # the one text that holds this object) and is referenced weakly again on load.
        state = {name: getattr(self, name) for name in LazyJSON.__slots__}
        ref = self.source
        state["source"] = None if ref is None else ref()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        source = state["source"]
        self.source = None if source is None else weakref.ref(source)


class ReaderAt:
    """What :meth:`LazyJSON.reader` gives for the prefix function ``lambda: text.prefix(n)``,
    as one small object (issue 21): the inline delta path gives one to every delta of a text
    tracked as JSON, where the two closures and their cells cost about 590 bytes per event and
    this costs 72 (a feed of a 256 KiB chunk returns about a thousand such events at once).

    Calling it reads the same value as that reader: the partial value of the first *position*
    characters of generation *gen* (the reader's state when it was made), the prefix re-parsed
    afresh when the text moved past it. ``text`` and ``n`` are read by an event's pickling
    (``events.py``, ``_reduce_lazy``), which replaces the object by a :class:`reparsed`.
    """

    __slots__ = ("gen", "json", "n", "position", "text")

    def __init__(self, json: LazyJSON, text: Prefixed, n: int) -> None:
        self.json = json
        self.gen = json._gen  # pyright: ignore[reportPrivateUsage]
        self.position = json._length()  # pyright: ignore[reportPrivateUsage]
        self.text = text
        self.n = n

    def __call__(self) -> Any:
        return self.json._value_at(self.gen, self.position, self.prefix)  # pyright: ignore[reportPrivateUsage]

    def prefix(self) -> str:
        """The text the value is read from: its first *n* characters."""
        return self.text.prefix(self.n)


class final_parser:
    """A function parsing the complete *text* (and converting it with *parser*) when called.

    An object rather than a closure so that an event holding it pickles and copies (with a
    *parser* that pickles: a model class or a module-level function does).
    """

    __slots__ = ("parser", "text")

    def __init__(self, text: str, parser: Callable[[Any], Any] | None) -> None:
        self.text = text
        self.parser = parser

    def __call__(self) -> Any:
        return parse_json_text(self.text, self.parser)

    def __reduce__(self) -> tuple[Any, ...]:
        return (final_parser, (self.text, self.parser))


class reparsed:
    """The partial JSON value of *prefix()*, parsed afresh on each call: what an event's lazy
    ``parsed`` becomes when the event is pickled or copied (the stream's incremental reader stays
    behind; its "older value" path above gives the same value)."""

    __slots__ = ("prefix",)

    def __init__(self, prefix: Callable[[], str]) -> None:
        self.prefix = prefix

    def __call__(self) -> Any:
        parser = PartialJSON()
        parser.feed(self.prefix())
        return parser.value

    def __reduce__(self) -> tuple[Any, ...]:
        return (reparsed, (self.prefix,))
