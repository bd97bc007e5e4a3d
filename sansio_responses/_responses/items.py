"""The output items of an accumulated Responses response: where each event's item is, and who may
change it.

Events locate their item by ``output_index``, checked against ``item_id`` (proxies that rewrite
ids per event keep the index right; servers that give every item one placeholder id keep both);
an item never announced is created from the event's type, and one of another kind is left alone
(``ACCUMULATION_RULES`` in ``accumulate.py``). Each of these is reported through the ``note``
callback (``item-id-mismatch``, ``duplicate-item-id``, ``missing-output-item``,
``wrong-item-type``, ``bad-output-index``) before anything changes, so that in strict mode a
refused event changes nothing.

The item of an ``output_item.done`` event (and the part of a ``content_part.done``) is the event's
own decoded tree, adopted rather than copied (:meth:`Sparse.adopt`): whatever would change it later
takes a private copy first (:meth:`OutputItems._writable_item`, :meth:`OutputItems._part`), so an
event's data never change after it was returned.

:class:`OutputItems` is the base class of :class:`Accumulator` (the event handlers), split out of
it to keep each class small.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .builders import Sparse, Text, materialize

if TYPE_CHECKING:
    from .._base import JSONValue

__all__ = ["OutputItems"]

#: How deep below an item (or the response object) :meth:`OutputItems.long_strings` looks.
_LONG_DEPTH = 4
#: An adopted item of at most this many nodes has its long strings found when it is placed.
_ADOPTED_NODES = 64


class OutputItems:
    """The response object and its output items by ``output_index`` and by id: placing them,
    finding the item an event refers to, and copy-on-write of the items adopted from events.

    *note* is called with a diagnostic's code and message; *fail* with a message when a limit is
    passed (``max_output_items``), and it must raise.
    """

    def __init__(
        self,
        note: Callable[[str, str], None],
        fail: Callable[[str], None] | None,
        max_output_items: int | None,
    ) -> None:
        self._report = note
        #: How many diagnostics this accumulator has reported (see Accumulator._extended).
        self.notes = 0
        self._fail = fail
        self.max_output_items = max_output_items
        #: The response object of the latest lifecycle event (created / queued / in_progress).
        self.response: dict[str, Any] | None = None
        #: Output items by ``output_index`` (sparse: an index never announced has no entry).
        self.items = Sparse()
        self._by_id: dict[str, dict[str, Any]] = {}
        self._index_of: dict[str, int] = {}  # item id -> its output_index
        #: Set when an event's item_id and output_index disagreed (see ``_item``).
        self._mismatched = False
        # The long strings of each tree that never changes (an adopted item, the response
        # object), by the tree's id, with the tree: found once (see long_strings).
        self._long: dict[int, tuple[Any, list[str]]] = {}
        # The min_length of long_strings once it was called (0 before; see _place).
        self._long_min = 0

    def _note(self, code: str, message: str) -> None:
        self.notes += 1
        self._report(code, message)

    def output(self) -> list[Any]:
        """The output items so far, materialised as fresh wire dicts, in ``output_index`` order."""
        return [materialize(item) for item in self.items.values()]

    def find(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The item an event refers to, if it exists (never creates one)."""
        index = event.get("output_index")
        if type(index) is int and index in self.items.slots:
            found: dict[str, Any] = self.items.slots[index]
            return found
        item_id = event.get("item_id")
        return self._by_id.get(item_id) if type(item_id) is str else None

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

        The trees that never change are walked once: an item adopted from an event (copied
        before any change, see :meth:`Sparse.adopt`) and the response object (replaced by each
        lifecycle event, never changed). Their strings are kept with them for the next large
        event, which visits none of their nodes (the walk of a response object cost about a
        third of a 0.1 MB terminal event's decoding). Only the trees still held are kept.
        """
        found: dict[int, str] = {}
        self._long_min = min_length
        items = self.items
        frozen = items.frozen
        known = self._long
        kept: dict[int, tuple[Any, list[str]]] = {}
        slots = items.slots
        order = range(len(slots)) if items.top + 1 == len(slots) else sorted(slots)
        roots: list[tuple[Any, bool]] = [(self.response, True)]
        for i in reversed(order):  # (a loop: a comprehension is a call of its own before 3.12)
            roots.append((slots[i], i in frozen))
        lists: list[list[str]] = []
        for root, fixed in roots:
            if budget <= 0:
                break
            if root is None:
                continue
            if fixed:
                hit = known.get(id(root))  # the tree is kept with it: an id never reused
                if hit is not None:
                    kept[id(root)] = hit
                    lists.append(hit[1])
                    continue
            strings, budget = _long_in(root, min_length, budget)
            lists.append(strings)
            if fixed and budget > 0:  # walked whole: the same next time
                kept[id(root)] = (root, strings)
        self._long = kept
        # In document order (the response's own strings, then the items by output_index, each
        # in its tree's order): the large event is searched for them in one pass (see _cuts).
        if len(lists) > 1 and self.response is not None:
            lists[1:] = lists[:0:-1]
        else:
            lists.reverse()
        for strings in lists:
            for value in strings:
                found[id(value)] = value
        return list(found.values())

    def forget_long_strings(self) -> None:
        """Forget the strings kept by :meth:`long_strings` (the stream has ended)."""
        self._long = {}
        self._long_min = 0

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
            if self._long_min:
                # Its long strings found now, while its tree was just decoded, for the terminal
                # event (which repeats it): a walk there meets every node cold. Only a small tree
                # (a large one's walk is bounded by the event that needs it, see long_strings).
                strings, left = _long_in(item, self._long_min, _ADOPTED_NODES)
                if left > 0:
                    self._long[id(item)] = (item, strings)
        else:
            items.put(index, item)

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


def _sparse(container: dict[str, Any], key: str) -> Sparse:
    """The :class:`Sparse` list under *key*, replacing a wire list (or absence) by one."""
    current: Sparse | JSONValue = container.get(key)
    if type(current) is Sparse:
        return current
    sparse = Sparse(current if type(current) is list else ())
    container[key] = sparse
    return sparse


def _long_in(root: Any, min_length: int, budget: int) -> tuple[list[str], int]:
    """The strings of at least *min_length* characters in the tree *root* (see
    :meth:`OutputItems.long_strings`), in the tree's order, and the *budget* of nodes left."""
    found: list[str] = []
    stack: list[tuple[Any, int]] = [(root, 0)]
    pop, push = stack.pop, stack.append
    while stack and budget > 0:
        budget -= 1
        node, depth = pop()
        t = type(node)  # pyright: ignore[reportUnknownVariableType]
        if t is str:
            if len(node) >= min_length:
                found.append(node)
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
    found.reverse()  # (the stack takes the last child first)
    return found, budget
