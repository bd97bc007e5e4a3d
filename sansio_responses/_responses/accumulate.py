"""Building the Response snapshot from Responses streaming events, in time linear in the stream.

The accumulator works on wire-shaped dicts (the JSON the API would return for the response), so the
snapshot is exactly what a non-streaming call would have returned once every item is done, and unknown
fields ride along untouched. Strings that grow by deltas are held in :class:`Text` builders (a list of
pieces joined lazily and cached), never by ``+=``, so a million deltas cost a million appends, not a
quadratic amount of copying. The event-to-field mapping follows the API reference for each streaming
event ("Responses streaming events": the ``output_index`` / ``content_index`` / ``summary_index`` fields
locate the part each delta extends).

Compatible servers skip events (no ``output_item.added`` before a delta, no ``content_part.added``);
the accumulator then creates the missing item or part from the delta's type and reports it through the
``note`` callback so the stream can record a diagnostic.

Which event may touch which kind of output item is one table, :data:`ACCUMULATION_RULES` (event type,
item kind, what it does): an event aimed at an item of another kind (a ``function_call_arguments``
delta naming a message, say) leaves that item unchanged and is reported as ``wrong-item-type``.

Indices from the wire (``output_index``, ``content_index``, ``summary_index``, ``command_index``)
address sparse maps, never padded lists: an index far ahead costs one entry, not a run of holes, so
the memory held stays proportional to the bytes received whatever the numbers say, and a part index
that leaves holes (a delta for ``content_index`` 1 and no part 0) gives a snapshot of the parts that
exist, in index order.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .._json.structured import LazyJSON
from .models import copy_tree

if TYPE_CHECKING:
    from .._base import JSONValue

__all__ = [
    "ACCUMULATION_RULES",
    "DEFAULT_MAX_OUTPUT_ITEMS",
    "Accumulator",
    "Sparse",
    "Text",
    "materialize",
    "print_accumulation_rules",
]

Note = Callable[[str, str], None]

#: Text builders merge every run of this many appended deltas into one string.
_MERGE_EVERY = 64

#: Texts at least this long are joined in place (see :func:`_join`; CPython only).
_JOIN_IN_PLACE = 64 * 1024 if sys.implementation.name == "cpython" else sys.maxsize
_JOIN_GROUP = 16 * 1024

#: The delta types whose handler appends ``delta`` to the Text builder of one field, found from
#: the event's locator fields alone (see ``Accumulator._extended``).
_EXTENDERS = frozenset(
    {
        "response.function_call_arguments.delta",
        "response.mcp_call_arguments.delta",
        "response.custom_tool_call_input.delta",
        "response.code_interpreter_call_code.delta",
        "response.reasoning_summary_text.delta",
        "response.reasoning_text.delta",
        "response.refusal.delta",
    }
)

#: How deep below an item (or the response object) :meth:`Accumulator.long_strings` looks.
_LONG_DEPTH = 4

#: Default bound on the number of output items of one response (``max_output_items``).
DEFAULT_MAX_OUTPUT_ITEMS = 10_000

_STATUS_EVENTS = {
    "code_interpreter_call": ("in_progress", "interpreting", "completed"),
    "file_search_call": ("in_progress", "searching", "completed"),
    "web_search_call": ("in_progress", "searching", "completed"),
    "image_generation_call": ("in_progress", "generating", "completed"),
    "mcp_call": ("in_progress", "completed", "failed"),
    "mcp_list_tools": ("in_progress", "completed", "failed"),
}

#: What each streaming event does to the response: (event type, the output item kind it may touch,
#: the action). ``-`` means the event addresses no existing item. An event whose item (found by
#: ``output_index`` / ``item_id``) has another kind leaves it unchanged: diagnostic
#: ``wrong-item-type`` (strict mode raises). A missing item is created with the kind given here
#: (diagnostic ``missing-output-item``).
ACCUMULATION_RULES: tuple[tuple[str, str, str], ...] = (
    ("response.created/queued/in_progress", "-", "set the response object"),
    ("response.output_item.added", "-", "set item [output_index]"),
    ("response.output_item.done", "-", "set item [output_index] (authoritative)"),
    ("response.content_part.added", "message/reasoning", "set content[content_index]"),
    ("response.content_part.done", "message/reasoning", "set content[content_index]"),
    ("response.output_text.delta", "message", "append delta to content[content_index].text"),
    ("response.output_text.done", "message", "set content[content_index].text"),
    ("response.output_text.annotation.added", "message", "set annotations[annotation_index]"),
    ("response.refusal.delta", "message", "append delta to content[content_index].refusal"),
    ("response.refusal.done", "message", "set content[content_index].refusal"),
    ("response.function_call_arguments.delta", "function_call", "append delta to arguments"),
    ("response.function_call_arguments.done", "function_call", "set arguments (and name)"),
    ("response.mcp_call_arguments.delta", "mcp_call", "append delta to arguments"),
    ("response.mcp_call_arguments.done", "mcp_call", "set arguments"),
    ("response.custom_tool_call_input.delta", "custom_tool_call", "append delta to input"),
    ("response.custom_tool_call_input.done", "custom_tool_call", "set input"),
    ("response.code_interpreter_call_code.delta", "code_interpreter_call", "append delta to code"),
    ("response.code_interpreter_call_code.done", "code_interpreter_call", "set code"),
    ("response.reasoning_summary_part.added", "reasoning", "set summary[summary_index]"),
    ("response.reasoning_summary_part.done", "reasoning", "set summary[summary_index]"),
    (
        "response.reasoning_summary_text.delta",
        "reasoning",
        "append delta to summary[summary_index].text",
    ),
    ("response.reasoning_summary_text.done", "reasoning", "set summary[summary_index].text"),
    ("response.reasoning_text.delta", "reasoning", "append delta to content[content_index].text"),
    ("response.reasoning_text.done", "reasoning", "set content[content_index].text"),
    ("response.image_generation_call.partial_image", "image_generation_call", "set result"),
    ("response.shell_call_command.added", "shell_call", "set action.commands[command_index]"),
    (
        "response.shell_call_command.delta",
        "shell_call",
        "append delta to action.commands[command_index]",
    ),
    ("response.shell_call_command.done", "shell_call", "set action.commands[command_index]"),
    (
        "response.shell_call_output_content.delta",
        "shell_call_output",
        "append delta.stdout/stderr to output[command_index]",
    ),
    (
        "response.shell_call_output_content.done",
        "shell_call_output",
        "set output[command_index]",
    ),
    *(
        (f"response.{kind}.{status}", kind, f"set status {status!r}")
        for kind, statuses in _STATUS_EVENTS.items()
        for status in statuses
    ),
)


def print_accumulation_rules() -> str:
    """:data:`ACCUMULATION_RULES` as aligned text (like :func:`print_state_table`)."""
    rows = (("event", "item kind", "action"), *ACCUMULATION_RULES)
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )


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
        (:meth:`Accumulator._writable_item`, :meth:`Accumulator._part`), so that the event's
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
    """

    __slots__ = ("json", "length", "pieces", "small")

    def __init__(self, initial: str = "") -> None:
        self.pieces: list[str] = [initial] if initial else []
        self.small = 0  # pieces appended since the last merge
        self.length = len(initial)
        self.json: LazyJSON | None = None

    def append(self, piece: str) -> None:
        pieces = self.pieces
        pieces.append(piece)
        self.length += len(piece)
        small = self.small + 1
        if small == _MERGE_EVERY:
            # A short delta held as its own str costs ~50 bytes of object overhead; merging each
            # run of them keeps memory near the text's own size (every character is copied once
            # more: still linear).
            pieces[-_MERGE_EVERY:] = ["".join(pieces[-_MERGE_EVERY:])]
            small = 0
        self.small = small
        json = self.json
        if json is not None and json.source is None:
            json.push(piece)

    def set(self, value: str) -> None:
        self.pieces = [value]
        self.small = 0
        self.length = len(value)
        if self.json is not None:
            self.json.reset(value)

    def value(self) -> str:
        pieces = self.pieces
        if len(pieces) == 1:
            return pieces[0]
        if not pieces:
            return ""
        joined = _join(pieces) if self.length >= _JOIN_IN_PLACE else "".join(pieces)
        self.pieces = [joined]
        self.small = 0
        return joined

    def prefix(self, n: int) -> str:
        """The first *n* characters: the text as it was when it was *n* characters long."""
        value = self.value()
        return value if n == len(value) else value[:n]

    def since(self, start: int) -> str:
        """The characters from *start* to the end (for a :class:`LazyJSON` reading this text):
        only the pieces after *start* are joined, so reading after every delta stays linear."""
        pieces = self.pieces
        at = self.length
        i = len(pieces)
        while i and at > start:
            i -= 1
            at -= len(pieces[i])
        if i == 0:
            return self.value()[start:]
        tail = pieces[i] if i == len(pieces) - 1 else "".join(pieces[i:])
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
    return value


def _leaf_value(value: Any) -> Any:
    return value.value() if type(value) is Text else value


def _sparse_values(value: Any) -> list[Any] | None:
    return value.values() if type(value) is Sparse else None


def clone(value: Any) -> Any:
    """A deep copy of an accumulator tree (dicts, lists, :class:`Text`, :class:`Sparse`)."""
    t = type(value)  # pyright: ignore[reportUnknownVariableType]
    if t is dict:
        return {k: clone(v) for k, v in value.items()}
    if t is list:
        return [clone(v) for v in value]
    if t is Text or t is Sparse:
        return value.__deepcopy__({})
    return value


def _text_of(container: dict[str, Any], key: str, json: bool = False) -> Text:
    """The Text builder stored under *key*, replacing a plain string (or absence) by one.

    With *json*, the builder also tracks a :class:`LazyJSON` of its text.
    """
    current = container.get(key)
    if type(current) is Text:
        return current
    text = Text(current if type(current) is str else "")
    if json:
        text.json = LazyJSON(text)
    container[key] = text
    return text


def _extend(
    container: dict[str, Any] | None, key: str, event: dict[str, Any], json: bool = False
) -> Text | None:
    """Append a delta event's ``delta`` to the Text builder under *key*; return the builder.

    ``None`` (nothing applied) when there is no container: its item had the wrong kind.
    """
    if container is None:
        return None
    text = _text_of(container, key, json)
    delta = event.get("delta")
    if type(delta) is str:
        text.append(delta)
    return text


def _set_text(container: dict[str, Any], key: str, value: Any) -> bool:
    """Set the authoritative final string; return False when it disagrees with the deltas seen."""
    if type(value) is not str:
        return True
    current = container.get(key)
    agrees = True
    if type(current) is Text:
        held = current.value()
        agrees = held == value
        # Equal: keep the string already held (the event's may be a copy), so one is kept alive.
        current.set(held if agrees else value)
    else:
        container[key] = value
    return agrees


class Accumulator:
    """Applies Responses stream events (as decoded dicts) to a wire-shaped response.

    ``apply(type, event_dict)`` mutates the state and returns, for delta events, the :class:`Text`
    builder of the field the delta extended (the stream derives the events' lazy ``snapshot`` and
    ``parsed`` from it), or ``None`` when nothing was extended (an item of the wrong kind, say).
    ``version`` increases on every change, so snapshots can be cached.

    *fail* is called with a message when a limit is passed (``max_output_items``); it must raise.
    """

    def __init__(
        self,
        note: Note,
        fail: Callable[[str], None] | None = None,
        max_output_items: int | None = DEFAULT_MAX_OUTPUT_ITEMS,
    ) -> None:
        self._report = note
        #: How many diagnostics this accumulator has reported (see _extended).
        self.notes = 0
        self._fail = fail
        self.max_output_items = max_output_items
        #: The response object of the latest lifecycle event (created / queued / in_progress).
        self.response: dict[str, Any] | None = None
        #: Output items by ``output_index`` (sparse: an index never announced has no entry).
        self.items = Sparse()
        self._by_id: dict[str, dict[str, Any]] = {}
        self._index_of: dict[str, int] = {}  # item id -> its output_index
        self.version = 0
        #: Track partial JSON for output_text too (structured outputs); tool arguments always are.
        self.structured_text = False
        self._last_json_text: Text | None = None
        # The caches of the delta paths, also read by ResponsesStream's fast path (which applies
        # a delta that hits them without calling in here; see InlineFeed.feed in inline.py).
        # The locator of the last text delta (item_id, output_index, content_index; their wire
        # types only), or None, and the part and Text builder it led to.
        self.text_key: tuple[Any, Any, Any] | None = None
        self.text_cache: tuple[dict[str, Any], Text] = ({}, Text())
        # The target of the last other delta (see apply): its type and locator (wire types
        # only), or None, and its Text builder.
        self.delta_key: tuple[Any, ...] | None = None
        self.delta_text = Text()
        #: Set when an event's item_id and output_index disagreed (see ``_item``).
        self._mismatched = False
        self._handlers: dict[str, Callable[[dict[str, Any]], Text | None]] = {
            "response.created": self._lifecycle,
            "response.queued": self._lifecycle,
            "response.in_progress": self._lifecycle,
            "response.output_item.added": self._item_added,
            "response.output_item.done": self._item_done,
            "response.content_part.added": self._part_added,
            "response.content_part.done": self._part_done,
            "response.output_text.delta": self.text_delta,
            "response.output_text.done": self._output_text_done,
            "response.output_text.annotation.added": self._annotation_added,
            "response.refusal.delta": self._refusal_delta,
            "response.refusal.done": self._refusal_done,
            "response.function_call_arguments.delta": self._arguments_delta,
            "response.function_call_arguments.done": self._arguments_done,
            "response.mcp_call_arguments.delta": self._mcp_arguments_delta,
            "response.mcp_call_arguments.done": self._mcp_arguments_done,
            "response.custom_tool_call_input.delta": self._custom_input_delta,
            "response.custom_tool_call_input.done": self._custom_input_done,
            "response.code_interpreter_call_code.delta": self._code_delta,
            "response.code_interpreter_call_code.done": self._code_done,
            "response.reasoning_summary_part.added": self._summary_part,
            "response.reasoning_summary_part.done": self._summary_part,
            "response.reasoning_summary_text.delta": self._summary_text_delta,
            "response.reasoning_summary_text.done": self._summary_text_done,
            "response.reasoning_text.delta": self._reasoning_text_delta,
            "response.reasoning_text.done": self._reasoning_text_done,
            "response.image_generation_call.partial_image": self._partial_image,
            "response.shell_call_command.added": self._shell_command_added,
            "response.shell_call_command.delta": self._shell_command_delta,
            "response.shell_call_command.done": self._shell_command_done,
            "response.shell_call_output_content.delta": self._shell_output_delta,
            "response.shell_call_output_content.done": self._shell_output_done,
        }
        for item_type, names in _STATUS_EVENTS.items():
            for name in names:
                self._handlers[f"response.{item_type}.{name}"] = self._status_setter(
                    item_type, name
                )

    # -- entry point -------------------------------------------------------------------------

    def _note(self, code: str, message: str) -> None:
        self.notes += 1
        self._report(code, message)

    def apply(self, event_type: str, event: dict[str, Any]) -> Text | None:
        """Apply one event (any type); see the class docstring for what it returns."""
        handler = self._handlers.get(event_type)
        if handler is None:
            return None
        if event_type != "response.output_text.delta":
            # Anything but a text delta may replace the item or part the cached text lives in.
            self.text_key = None
        if event_type in _EXTENDERS:
            return self._extended(event_type, event, handler)
        self.delta_key = None
        result = handler(event)
        # Counted once applied: a handler notes (strict mode: raises) before it changes anything,
        # so a failed event leaves the cached snapshot valid.
        self.version += 1
        return result

    def _extended(
        self,
        event_type: str,
        event: dict[str, Any],
        handler: Callable[[dict[str, Any]], Text | None],
    ) -> Text | None:
        """Apply a delta of :data:`_EXTENDERS`: one that appends its ``delta`` to the Text of the
        field its locator fields (``item_id``, ``output_index``, ``content_index``,
        ``summary_index``) lead to.

        A delta with the same type and locator as the previous event, with nothing between them,
        leads to the same Text (only an event of another type replaces items or parts), so it is
        appended there without locating it again. The target is remembered only when locating
        it noted nothing (a note, say ``missing-output-item``, recurs on every such event in the
        general path) and the locator's values are of their wire types (``1 == True``).
        """
        get = event.get
        item_id = get("item_id")
        output_index = get("output_index")
        content_index = get("content_index")
        summary_index = get("summary_index")
        key = (event_type, item_id, output_index, content_index, summary_index)
        # The remembered key holds wire types only, but == also matches True or 1.0 against 1:
        # the incoming indices must be of their wire types too, or the general path decides.
        if (
            key == self.delta_key
            and (output_index is None or type(output_index) is int)
            and (content_index is None or type(content_index) is int)
            and (summary_index is None or type(summary_index) is int)
        ):
            text = self.delta_text
            delta = get("delta")
            if type(delta) is str:
                text.append(delta)
            self.version += 1
            return text
        notes = self.notes
        result = handler(event)
        self.version += 1
        if (
            result is not None
            and self.notes == notes
            and (item_id is None or type(item_id) is str)
            and (output_index is None or type(output_index) is int)
            and (content_index is None or type(content_index) is int)
            and (summary_index is None or type(summary_index) is int)
        ):
            self.delta_key = key
            self.delta_text = result
        else:
            self.delta_key = None
        return result

    def output(self) -> list[Any]:
        """The output items so far, materialised as fresh wire dicts, in ``output_index`` order."""
        return [materialize(item) for item in self.items.values()]

    def long_strings(self, min_length: int, budget: int) -> list[str]:
        """The strings of at least *min_length* characters the response holds so far.

        The ``.done`` and terminal events repeat them (a whole text, the instructions, tool
        arguments): the stream decodes such events so that an equal string is this very object,
        not a copy (see ``EventStreamBase._load_big``). At most *budget* nodes of the state are
        visited (the response object first, then the items, newest first), so that the cost
        stays in proportion to the event being decoded however many items came before; and no
        container deeper than :data:`_LONG_DEPTH` below an item or the response is opened: long
        strings sit near the top (a part's text, the arguments, an image's result), while deep
        lists such as logprobs hold thousands of short tokens, which walking cost about as much
        as decoding the event (issue 21).
        """
        found: dict[int, str] = {}
        stack: list[tuple[Any, int]] = [(item, 0) for item in self.items.values()]
        stack.append((self.response, 0))
        pop, push = stack.pop, stack.append
        while stack and budget > 0:
            budget -= 1
            node, depth = pop()
            t = type(node)  # pyright: ignore[reportUnknownVariableType]
            if t is str:
                if len(node) >= min_length:
                    found[id(node)] = node
            elif t is Text:
                if node.length >= min_length:
                    push((node.value(), depth))
            elif depth < _LONG_DEPTH:
                depth += 1
                if t is dict:
                    stack.extend([(child, depth) for child in node.values()])
                elif t is list:
                    stack.extend([(child, depth) for child in node])
                elif t is Sparse:
                    stack.extend([(child, depth) for child in node.slots.values()])
        return list(found.values())

    # -- locating items and parts ------------------------------------------------------------

    def _place(
        self, index: Any, item: dict[str, Any], checked: bool = False, adopt: bool = False
    ) -> None:
        """Put *item* at output_index *index*; *checked*: its diagnostics were already noted.

        *adopt*: *item* is an event's data, held as it is (see :meth:`Sparse.adopt`).
        """
        items = self.items
        if type(index) is not int or index < 0:
            # Unusable: the item of the same id keeps its place, a new one is appended. (Only a
            # string id is looked up: an item of an unknown type may carry any JSON as its id.)
            item_id: Any = item.get("id")
            known = self._index_of.get(item_id) if type(item_id) is str else None
            if index is not None:
                where = "appended" if known is None else f"placed at {known}, as its id"
                self._note("bad-output-index", f"output_index {index!r} is unusable; item {where}")
            index = known if known is not None and known in items.slots else items.top + 1
        if (
            self.max_output_items is not None
            and index not in items.slots
            and len(items.slots) >= self.max_output_items
            and self._fail is not None
            and not checked
        ):
            self._fail(
                f"more than max_output_items ({self.max_output_items}) output items in one response"
            )
        item_id = item.get("id")
        if type(item_id) is str:
            elsewhere = self._index_of.get(item_id)
            if (
                elsewhere is not None
                and elsewhere != index
                and elsewhere in items.slots
                and not checked
            ):
                # Both are kept: servers that give every item the same placeholder id would
                # otherwise lose items, and the index is what orders the output.
                self._note(
                    "duplicate-item-id",
                    f"output item {item_id!r} at output_index {index} was already announced at "
                    f"output_index {elsewhere}; both are kept",
                )
            self._by_id[item_id] = item
            self._index_of[item_id] = index
        if index in items.frozen:
            # The event's item this one replaces stays reachable by its id when the ids differ:
            # that reference becomes a private copy, so that no later event changes the event's.
            old = items.slots[index]
            old_id = old.get("id")
            if type(old_id) is str and self._by_id.get(old_id) is old:
                self._by_id[old_id] = materialize(old)
        if adopt:
            items.adopt(index, item)
        else:
            items.put(index, item)

    def _writable_item(self, item: dict[str, Any], index: Any) -> dict[str, Any]:
        """*item* (found at output_index *index* or by its id), as a tree this accumulator may
        change: an item adopted from an event is replaced by a private copy first."""
        items = self.items
        if not items.frozen:
            return item
        item_id = item.get("id")
        where: int | None = index if type(index) is int else None
        if where is None or items.slots.get(where) is not item:
            where = self._index_of.get(item_id) if type(item_id) is str else None
            if where is None or items.slots.get(where) is not item:
                where = None  # in no slot, so not an event's (see _place)
        if where is None or where not in items.frozen:
            return item
        copy: dict[str, Any] = items.thaw(where)
        if type(item_id) is str and self._by_id.get(item_id) is item:
            self._by_id[item_id] = copy
        return copy

    def _item(self, event: dict[str, Any], item_type: str) -> dict[str, Any] | None:
        """The item an event refers to (by output_index, checked against item_id), created if absent.

        ``None`` when that item has another kind than *item_type* (``ACCUMULATION_RULES``): the
        event is not applied, and a ``wrong-item-type`` diagnostic is recorded.
        """
        index = event.get("output_index")
        item_id = event.get("item_id")
        item: dict[str, Any] | None = self.items.slots.get(index) if type(index) is int else None
        if item is not None and item_id is not None and item.get("id", item_id) != item_id:
            # The id disagrees with the item at output_index: trust a known id first, then the
            # index (proxies that rewrite ids per event, e.g. Copilot's, keep the index right).
            # Either way it is noted before anything changes (strict mode raises).
            known = self._by_id.get(item_id) if type(item_id) is str else None
            if known is not None:
                where = f"applied to item {item_id!r} at output_index {self._index_of[item_id]}"
            else:
                where = "applied by output_index"
            self._note(
                "item-id-mismatch",
                f"{event.get('type')} names item {item_id!r} but output_index {index} holds "
                f"{item.get('id')!r}; {where}",
            )
            self._mismatched = True
            if known is not None:
                item = known
        elif item is None and type(item_id) is str:
            item = self._by_id.get(item_id)
            if item is not None and type(index) is int and index >= 0:
                self._note(
                    "item-id-mismatch",
                    f"{event.get('type')} names item {item_id!r} but output_index {index} holds "
                    f"no item; applied to item {item_id!r} at output_index "
                    f"{self._index_of[item_id]}",
                )
                self._mismatched = True
        if item is None:
            self._note(
                "missing-output-item",
                f"{event.get('type')} refers to output item {item_id!r} at output_index {index!r}, "
                f"which was never announced by response.output_item.added; created a {item_type!r}",
            )
            item = _new_item(item_type, item_id)
            self._place(index, item)
            return item
        kind = item.get("type")
        if kind != item_type and type(kind) is str:
            self._note(
                "wrong-item-type",
                f"{event.get('type')} applies to a {item_type!r} item, but output item "
                f"{item.get('id', item_id)!r} at output_index {index!r} is a {kind!r}; "
                "not applied",
            )
            return None
        return self._writable_item(item, index)

    def _part(
        self, item: dict[str, Any], key: str, index: Any, factory: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        """The part at *index* of ``item[key]`` (content / summary), created if absent.

        An unusable index (absent, negative, not an integer) means the last part.
        """
        parts = _sparse(item, key)
        if type(index) is not int or index < 0:
            index = max(parts.top, 0)
        part: JSONValue = parts.slots.get(index)
        if type(part) is not dict:
            part = factory()
            parts.put(index, part)
        elif index in parts.frozen:
            thawed: dict[str, Any] = parts.thaw(index)
            return thawed
        result: dict[str, Any] = part
        return result

    # -- lifecycle and items -----------------------------------------------------------------

    def _lifecycle(self, event: dict[str, Any]) -> None:
        response: JSONValue = event.get("response")
        if type(response) is not dict:
            return
        if self.response is not None and response.get("id") != self.response.get("id"):
            self._note(
                "response-id-changed",
                f"response id changed from {self.response.get('id')!r} to {response.get('id')!r}",
            )
        output: JSONValue = response.get("output")
        entries: list[tuple[int, dict[str, Any]]] = []
        if not self.items.slots and type(output) is list and output:
            entries = [(index, item) for index, item in enumerate(output) if type(item) is dict]
            self._check_entries(entries)
        self.response = response
        for index, item in entries:
            self._place(index, materialize(item), checked=True)

    def _check_entries(self, entries: list[tuple[int, dict[str, Any]]]) -> None:
        """Note (or fail) what placing *entries* into an empty output would, before any is placed.

        So that in strict mode a lifecycle event's output is placed whole or not at all.
        """
        limit = self.max_output_items
        if limit is not None and len(entries) > limit and self._fail is not None:
            self._fail(f"more than max_output_items ({limit}) output items in one response")
        index_of: dict[str, int] = {}
        for index, item in entries:
            item_id = item.get("id")
            if type(item_id) is str:
                elsewhere = index_of.get(item_id)
                if elsewhere is not None:
                    self._note(
                        "duplicate-item-id",
                        f"output item {item_id!r} at output_index {index} was already announced "
                        f"at output_index {elsewhere}; both are kept",
                    )
                index_of[item_id] = index

    def _item_added(self, event: dict[str, Any]) -> None:
        # ``item`` is an object: the event schema refuses any other (a located error) first.
        self._place(event.get("output_index"), materialize(event["item"]))

    def _item_done(self, event: dict[str, Any]) -> None:
        # The event's own item, not a copy (copied only if a later event changes it): the item
        # of a ``.done`` event is final, and copying it cost about as much as decoding it (a
        # message with logprobs, issue 21).
        self._place(event.get("output_index"), event["item"], adopt=True)
        self._forget_targets()

    def _forget_targets(self) -> None:
        """Drop the delta shortcuts' references (the caches are invalid after any event but a
        delta, see apply): a replaced item or part is then released, not kept by them."""
        self.text_cache = ({}, Text())
        self.delta_text = Text()

    def _status_setter(self, item_type: str, name: str) -> Callable[[dict[str, Any]], None]:
        # The event name is the status the item takes ("searching", "interpreting", "generating", ...).
        def set_status(event: dict[str, Any]) -> None:
            item = self._item(event, item_type)
            if item is not None:
                item["status"] = name

        return set_status

    # -- message content ---------------------------------------------------------------------

    def _message_part(
        self, event: dict[str, Any], factory: Callable[[], dict[str, Any]]
    ) -> dict[str, Any] | None:
        item = self._item(event, "message")
        if item is None:
            return None
        return self._part(item, "content", event.get("content_index"), factory)

    def _part_added(self, event: dict[str, Any], adopt: bool = False) -> None:
        part: JSONValue = event.get("part")
        if type(part) is not dict:
            return
        item_type = "reasoning" if part.get("type") == "reasoning_text" else "message"
        item = self._item(event, item_type)
        if item is None:
            return
        parts = _sparse(item, "content")
        index = event.get("content_index")
        if type(index) is not int or index < 0:
            index = parts.top + 1
        if adopt:
            parts.adopt(index, part)  # as in _item_done
            self._forget_targets()
        else:
            parts.put(index, materialize(part))

    def _part_done(self, event: dict[str, Any]) -> None:
        self._part_added(event, adopt=True)

    def find(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The item an event refers to, if it exists (never creates one)."""
        index = event.get("output_index")
        if type(index) is int and index in self.items.slots:
            found: dict[str, Any] = self.items.slots[index]
            return found
        item_id = event.get("item_id")
        return self._by_id.get(item_id) if type(item_id) is str else None

    def last_text_json(self) -> LazyJSON | None:
        """The partial JSON of the output text most recently extended, when tracked as JSON."""
        return None if self._last_json_text is None else self._last_json_text.json

    def text_delta(self, event: dict[str, Any], parsed: Any = None) -> Text | None:
        """Apply a ``response.output_text.delta`` (the hot path: called directly by the stream).

        *parsed*, if given, is the event built from *event*: its fields are the same values, read
        as slots instead of looked up in the dict.
        """
        if parsed is None:
            get = event.get
            key = (get("item_id"), get("output_index"), get("content_index"))
            delta = get("delta")
            logprobs = get("logprobs")
        else:
            key = (parsed.item_id, parsed.output_index, parsed.content_index)
            delta = parsed.delta
            logprobs = parsed.logprobs
        if key == self.text_key:
            # The common case: the same part as the previous delta (nothing replaced it since).
            part, text = self.text_cache
        else:
            self._mismatched = False
            found = self._message_part(event, _new_output_text)
            if found is None:
                return None
            part = found
            text = _text_of(part, "text", self.structured_text)
            if text.json is not None:
                self._last_json_text = text
            # An event whose item_id and output_index disagree is not cached: each such event
            # is noted (item-id-mismatch), not only the first of a run.
            self.text_key = None if self._mismatched else key
            self.text_cache = (part, text)
        self.version += 1  # after _message_part, which may raise (strict mode) before any change
        if type(delta) is str:
            text.append(delta)
        if logprobs:
            existing: JSONValue = part.get("logprobs")
            if type(existing) is list:
                existing.extend(logprobs)
            else:
                part["logprobs"] = list(logprobs)
        return text

    def _finish(
        self, container: dict[str, Any] | None, key: str, event: dict[str, Any], source: str
    ) -> None:
        """Set the authoritative final value of a ``.done`` event; note when the deltas disagree."""
        if container is None:
            return
        value = event.get(source)
        current = container.get(key)
        if type(value) is str and type(current) is Text and current.value() != value:
            # Noted before the value is set: in strict mode the event is then not applied at all.
            self._note(
                "delta-mismatch",
                f"{event.get('type')} {source} of item {event.get('item_id')!r} differs from its "
                "deltas; the done value was kept",
            )
        _set_text(container, key, value)

    def _output_text_done(self, event: dict[str, Any]) -> None:
        self._finish(self._message_part(event, _new_output_text), "text", event, "text")

    def _annotation_added(self, event: dict[str, Any]) -> None:
        annotation = event.get("annotation")
        if type(annotation) is not dict:
            # Not an annotation (the SDK types the field as any object): nothing to add, and a
            # null in the annotations would not fit the snapshot's model.
            self._note(
                "bad-annotation",
                f"{event.get('type')} for item {event.get('item_id')!r} carries no annotation "
                f"object (got {type(annotation).__name__}); not added",
            )
            return
        part = self._message_part(event, _new_output_text)
        if part is None:
            return
        annotations: JSONValue = part.get("annotations")
        if type(annotations) is not list:
            annotations = part["annotations"] = []
        index = event.get("annotation_index")
        if type(index) is int and 0 <= index < len(annotations):
            annotations[index] = annotation
        else:
            annotations.append(annotation)

    def _refusal_delta(self, event: dict[str, Any]) -> Text | None:
        return _extend(self._message_part(event, _new_refusal), "refusal", event)

    def _refusal_done(self, event: dict[str, Any]) -> None:
        self._finish(self._message_part(event, _new_refusal), "refusal", event, "refusal")

    # -- tool calls --------------------------------------------------------------------------

    def _field_delta(self, event: dict[str, Any], item_type: str, key: str) -> Text | None:
        return _extend(self._item(event, item_type), key, event, json=True)

    def _field_done(self, event: dict[str, Any], item_type: str, key: str, source: str) -> None:
        self._finish(self._item(event, item_type), key, event, source)

    def _arguments_delta(self, event: dict[str, Any]) -> Text | None:
        return self._field_delta(event, "function_call", "arguments")

    def _arguments_done(self, event: dict[str, Any]) -> None:
        item = self._item(event, "function_call")
        if item is None:
            return
        self._finish(item, "arguments", event, "arguments")
        name = event.get("name")
        if type(name) is str:
            item["name"] = name

    def _mcp_arguments_delta(self, event: dict[str, Any]) -> Text | None:
        return self._field_delta(event, "mcp_call", "arguments")

    def _mcp_arguments_done(self, event: dict[str, Any]) -> None:
        self._field_done(event, "mcp_call", "arguments", "arguments")

    def _custom_input_delta(self, event: dict[str, Any]) -> Text | None:
        return self._field_delta(event, "custom_tool_call", "input")

    def _custom_input_done(self, event: dict[str, Any]) -> None:
        self._field_done(event, "custom_tool_call", "input", "input")

    def _code_delta(self, event: dict[str, Any]) -> Text | None:
        return _extend(self._item(event, "code_interpreter_call"), "code", event)

    def _code_done(self, event: dict[str, Any]) -> None:
        self._field_done(event, "code_interpreter_call", "code", "code")

    def _partial_image(self, event: dict[str, Any]) -> None:
        # The item's ``result`` holds the newest partial image until the final one replaces it with
        # output_item.done, so a snapshot always shows the latest preview.
        image = event.get("partial_image_b64")
        if type(image) is str:
            item = self._item(event, "image_generation_call")
            if item is not None:
                item["result"] = image

    # -- reasoning ---------------------------------------------------------------------------

    def _summary_part(self, event: dict[str, Any]) -> None:
        part: JSONValue = event.get("part")
        summary = self._summary(event)
        if type(part) is dict and summary is not None:
            text = summary.get("text")
            summary.clear()
            summary.update(materialize(part))
            if type(text) is Text and type(part.get("text")) is str and not part["text"]:
                summary["text"] = text  # part.added carries "" while deltas may already be in

    def _summary(self, event: dict[str, Any]) -> dict[str, Any] | None:
        item = self._item(event, "reasoning")
        if item is None:
            return None
        return self._part(item, "summary", event.get("summary_index"), _new_summary_text)

    def _reasoning_content(self, event: dict[str, Any]) -> dict[str, Any] | None:
        item = self._item(event, "reasoning")
        if item is None:
            return None
        return self._part(item, "content", event.get("content_index"), _new_reasoning_text)

    def _summary_text_delta(self, event: dict[str, Any]) -> Text | None:
        return _extend(self._summary(event), "text", event)

    def _summary_text_done(self, event: dict[str, Any]) -> None:
        self._finish(self._summary(event), "text", event, "text")

    def _reasoning_text_delta(self, event: dict[str, Any]) -> Text | None:
        return _extend(self._reasoning_content(event), "text", event)

    def _reasoning_text_done(self, event: dict[str, Any]) -> None:
        self._finish(self._reasoning_content(event), "text", event, "text")

    # -- shell calls (no item_id on the command events: located by output_index) --------------

    def _shell_commands(self, event: dict[str, Any]) -> Sparse | None:
        item = self._item(event, "shell_call")
        if item is None:
            return None
        action: JSONValue = item.get("action")
        if type(action) is not dict:
            action = item["action"] = {}
        return _sparse(action, "commands")

    def _shell_command_added(self, event: dict[str, Any]) -> None:
        commands = self._shell_commands(event)
        if commands is None:
            return
        command = event.get("command")
        commands.put(_slot(commands, event), Text(command if type(command) is str else ""))

    def _shell_command_delta(self, event: dict[str, Any]) -> Text | None:
        commands = self._shell_commands(event)
        if commands is None:
            return None
        slot = _slot(commands, event)
        text = commands.slots.get(slot)
        if type(text) is not Text:
            text = Text(text if type(text) is str else "")
            commands.put(slot, text)
        delta = event.get("delta")
        if type(delta) is str:
            text.append(delta)
        result: Text = text
        return result

    def _shell_command_done(self, event: dict[str, Any]) -> None:
        commands = self._shell_commands(event)
        command = event.get("command")
        if commands is not None and type(command) is str:
            commands.put(_slot(commands, event), command)

    def _shell_outputs(self, event: dict[str, Any]) -> Sparse | None:
        item = self._item(event, "shell_call_output")
        return None if item is None else _sparse(item, "output")

    def _shell_output_delta(self, event: dict[str, Any]) -> None:
        output = self._shell_outputs(event)
        if output is None:
            return
        slot = _slot(output, event)
        entry: JSONValue = output.slots.get(slot)
        if type(entry) is not dict:
            entry = {"stdout": "", "stderr": ""}
            output.put(slot, entry)
        delta: JSONValue = event.get("delta")
        if type(delta) is dict:
            for stream in ("stdout", "stderr"):
                piece = delta.get(stream)
                if type(piece) is str:
                    _text_of(entry, stream).append(piece)

    def _shell_output_done(self, event: dict[str, Any]) -> None:
        # ``output`` is the final output of the command at ``command_index`` (one entry; should
        # a server send several, they fill the slots from command_index on). The other
        # commands' outputs stay as they are.
        output = self._shell_outputs(event)
        entries: JSONValue = event.get("output")
        if output is None or type(entries) is not list:
            return
        slot = _slot(output, event)
        for offset, entry in enumerate(entries):
            output.put(slot + offset, materialize(entry))


def _sparse(container: dict[str, Any], key: str) -> Sparse:
    """The :class:`Sparse` list under *key*, replacing a wire list (or absence) by one."""
    current: Sparse | JSONValue = container.get(key)
    if type(current) is Sparse:
        return current
    sparse = Sparse(current if type(current) is list else ())
    container[key] = sparse
    return sparse


def _slot(parts: Sparse, event: dict[str, Any]) -> int:
    """The ``command_index`` of a shell event; an unusable one means a new slot at the end."""
    index = event.get("command_index")
    if type(index) is not int or index < 0:
        return parts.top + 1
    return index


def _new_item(item_type: str, item_id: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"type": item_type}
    if type(item_id) is str:
        item["id"] = item_id
    if item_type == "message":
        item.update(role="assistant", status="in_progress", content=[])
    elif item_type == "reasoning":
        item["summary"] = []
    else:
        item["status"] = "in_progress"
    return item


def _new_output_text() -> dict[str, Any]:
    return {"type": "output_text", "text": "", "annotations": []}


def _new_refusal() -> dict[str, Any]:
    return {"type": "refusal", "refusal": ""}


def _new_summary_text() -> dict[str, Any]:
    return {"type": "summary_text", "text": ""}


def _new_reasoning_text() -> dict[str, Any]:
    return {"type": "reasoning_text", "text": ""}
