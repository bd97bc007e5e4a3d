"""Resuming a Responses stream: the checkpoint a resumed body is applied against, and its rollback.

A stream resumes after a dropped connection (:meth:`ResponsesStream.reconnect`, or a new stream
built with ``resume_from``) by reading ``GET /responses/{id}?stream=true&starting_after=N``. Until
that body names its response, what it applies cannot be trusted (its deltas carry no response id),
so the state is kept as the resume begins (a :class:`Checkpoint`), the body is applied to a copy,
and a body that names another response is rolled back.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from .._base import EventStreamBase, JSONValue, Outcome
from .._errors import RemoteProtocolError
from .accumulate import Accumulator
from .builders import Sparse, Text, clone
from .events import ResponseStreamEvent
from .logprobs import Logprobs

if TYPE_CHECKING:
    from .stream import _Sequence  # pyright: ignore[reportPrivateUsage]

__all__ = ["Checkpoint", "ResumableStream"]


class ResumableStream(EventStreamBase[ResponseStreamEvent]):
    """The resume machinery of :class:`ResponsesStream` (its base class): the checkpoint kept as a
    resume begins, the check that the resumed body is the same response, and the rollback; with
    the hooks through which an accumulator (the stream's own, or a copy) reports to the stream.

    The state declared here is set by :class:`ResponsesStream`'s ``__init__``.
    """

    max_output_items: int | None
    sequence_window: int
    terminal_event: ResponseStreamEvent | None
    error_event: ResponseStreamEvent | None
    _acc: Accumulator
    _seq: _Sequence
    _current_seq: int | None  # the sequence number and offset of the event being applied
    _current_offset: int | None
    _resume_id: str | None  # the id a resumed body must carry
    _checkpoint: Checkpoint | None  # the state when the resume began, until the body is trusted
    _snapshot_version: int

    def _check_resumed_id(self, obj: dict[str, Any], etype: str, seq: Any, offset: int) -> None:
        """Refuse a resumed body that belongs to another response than the one being resumed.

        Checked before the duplicate test (a replayed ``response.created`` of the other response
        would otherwise be skipped unseen) and for the terminal event. The deltas of the body that
        came before carry no response id, so the state is rolled back to where the resume began:
        nothing of the other response stays merged, and ``last_sequence_number`` is again the
        ``starting_after`` of a retry.
        """
        response: JSONValue = obj.get("response")
        rid = response.get("id") if type(response) is dict else None
        if type(rid) is not str:
            return
        if rid == self._resume_id:
            self._checkpoint = None  # the body is the right one: nothing to roll back to
            return
        if self._checkpoint is not None:
            self._roll_back(self._checkpoint)
        raise RemoteProtocolError(
            f"the resumed body belongs to response {rid!r}, not to {self._resume_id!r} being "
            f"resumed ({etype}); the resume cannot be trusted and nothing of it was kept",
            offset=offset,
            sequence_number=seq if type(seq) is int else None,
        )

    def _limit_error(self, message: str) -> None:
        raise RemoteProtocolError(
            message, offset=self._current_offset, sequence_number=self._current_seq
        )

    def _note_from_accumulator(self, code: str, message: str) -> None:
        self._note(code, message, sequence_number=self._current_seq, offset=self._current_offset)

    def _new_accumulator(self) -> Accumulator:
        """An empty accumulator reporting to this stream through a weak reference: bound methods
        would make the stream and its accumulator a reference cycle, which only the garbage
        collector frees (a dropped stream would keep its whole response until a full collection;
        tests/test_no_cycles.py)."""
        ref = weakref.ref(self)

        def note(code: str, message: str) -> None:
            stream = ref()
            if stream is not None:
                stream._note_from_accumulator(code, message)

        def fail(message: str) -> None:
            stream = ref()
            if stream is not None:
                stream._limit_error(message)
            raise RemoteProtocolError(message)

        return Accumulator(note, fail, self.max_output_items)

    def _begin_checkpoint(self, taken_over: Checkpoint | None = None) -> None:
        """Keep the state as the resume begins; the resumed body is applied to a copy of it.

        The original is what is kept, not the copy: the events already returned hold lazy
        ``snapshot`` / ``parsed`` readers over its text builders, and the resumed body could
        rewrite those (a ``.done`` event sets a text), so they must never see it. On rollback the
        original comes back untouched; once the body names the right response the copy goes on
        and the original is only read by those events.

        A resume that begins before the previous one was confirmed (the resumed body dropped
        before naming its response; *taken_over*: the one ``resume_from`` was in) keeps the
        earlier point: what that body applied is not known to be this response's either.
        """
        if self._checkpoint is not None:
            pass
        elif taken_over is not None:
            acc = self._copy_accumulator(taken_over.acc)
            acc.structured_text = self._acc.structured_text  # this stream's setting
            seq = taken_over.seq.copy()
            seq.window = self.sequence_window
            self._checkpoint = Checkpoint(acc, seq)
        else:
            self._checkpoint = Checkpoint(
                self._acc, self._seq.copy(), self.outcome, self.terminal_event, self.error_event
            )
        self._acc = self._copy_accumulator(self._acc)

    def _roll_back(self, checkpoint: Checkpoint) -> None:
        """Every accessor reads again as when the resume began (the diagnostics, a log, stay)."""
        self._acc = checkpoint.acc
        self._seq = checkpoint.seq
        self.outcome = checkpoint.outcome
        self.terminal_event = checkpoint.terminal_event
        self.error_event = checkpoint.error_event
        self._checkpoint = None
        self._snapshot_version = -1

    def _copy_accumulator(self, source: Accumulator) -> Accumulator:
        """An independent copy of *source* (any depth), reporting to this stream."""
        acc = self._new_accumulator()
        acc.response = _clone(source.response)
        acc.items = _clone(source.items)
        acc.version = source.version
        acc.structured_text = source.structured_text
        for index, item in acc.items.slots.items():
            if isinstance(item.get("id"), str):
                acc._by_id[item["id"]] = item  # pyright: ignore[reportPrivateUsage]
                acc._index_of[item["id"]] = index  # pyright: ignore[reportPrivateUsage]
        acc._last_json_text = _json_text_twin(source, acc)  # pyright: ignore[reportPrivateUsage]
        return acc


class Checkpoint:
    """What a rollback restores: the state the events of a refused resumed body may change."""

    __slots__ = ("acc", "error_event", "outcome", "seq", "terminal_event")

    def __init__(
        self,
        acc: Accumulator,
        seq: _Sequence,
        outcome: Outcome | None = None,
        terminal_event: ResponseStreamEvent | None = None,
        error_event: ResponseStreamEvent | None = None,
    ) -> None:
        self.acc = acc
        self.seq = seq
        self.outcome: Outcome | None = outcome
        self.terminal_event = terminal_event
        self.error_event = error_event


def _json_text_twin(source: Accumulator, copy: Accumulator) -> Text | None:
    """In *copy* (a clone of *source*), the text builder that ``source.last_text_json()`` reads.

    Output text is only tracked as JSON in a message's content part (see
    ``Accumulator.text_delta``), so the parts are scanned, not the whole tree.
    """
    target = source._last_json_text  # pyright: ignore[reportPrivateUsage]
    if target is None:
        return None
    part: JSONValue
    for index, item in source.items.slots.items():
        content = item.get("content")
        if type(content) is Sparse:
            for part_index, part in content.slots.items():
                if type(part) is dict and part.get("text") is target:
                    twin: Text = copy.items.slots[index]["content"].slots[part_index]["text"]
                    return twin
    # No longer in the tree (an output_item.done replaced its item): output_parsed still reads
    # it, so the copy gets its own copy of it.
    return target.__deepcopy__({})


def _clone(value: Any) -> Any:
    """A deep copy of an accumulator tree, at any depth (never ``RecursionError``).

    The recursive :func:`clone` is the fast path; with ``max_nesting_depth=None`` the data may nest
    as deep as the JSON decoder allows (about 1,000 levels), which overflows it, so such a tree is
    copied again without recursion.
    """
    try:
        return clone(value)
    except RecursionError:
        return _clone_iterative(value)


def _clone_iterative(value: Any) -> Any:
    holder: list[Any] = [None]
    # (node to copy, container receiving the copy, key in that container)
    stack: list[tuple[Any, Any, Any]] = [(value, holder, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, parent, key = pop()
        cls = type(node)  # pyright: ignore[reportUnknownVariableType]
        children: Any
        copy: Any
        target: Any
        if cls is dict:
            copy = target = dict.fromkeys(node)
            children = node.items()
        elif cls is list:
            copy = target = [None] * len(node)
            children = enumerate(node)
        elif cls is Sparse:
            copy = Sparse()
            copy.top = node.top
            copy.slots = target = dict.fromkeys(node.slots)
            children = node.slots.items()
        else:  # Text and Logprobs copy themselves without recursion; scalars are shared
            parent[key] = node.__deepcopy__({}) if cls is Text or cls is Logprobs else node
            continue
        parent[key] = copy
        for k, child in children:
            push((child, target, k))
    return holder[0]
