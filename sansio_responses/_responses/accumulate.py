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

This module holds the table and the event handlers (:class:`Accumulator`); the builders the state
is made of (:class:`Text`, :class:`Sparse`, :func:`materialize`) are in ``builders.py``, and the
placing and locating of output items, with the copy-on-write of items adopted from events, in
``items.py`` (:class:`OutputItems`, the base class of :class:`Accumulator`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from .._json.structured import LazyJSON
from .builders import Sparse, Text, materialize
from .items import OutputItems, _sparse  # pyright: ignore[reportPrivateUsage]
from .logprobs import Logprobs, add_entries

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


class Accumulator(OutputItems):
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
        super().__init__(note, fail, max_output_items)
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

    # -- entry point -------------------------------------------------------------------------

    def apply(self, event_type: str, event: dict[str, Any]) -> Text | None:
        """Apply one event (any type); see the class docstring for what it returns."""
        handler = self.HANDLERS.get(event_type)
        if handler is None:
            return None
        if event_type != "response.output_text.delta":
            # Anything but a text delta may replace the item or part the cached text lives in.
            self.text_key = None
        if event_type in _EXTENDERS:
            return self._extended(event_type, event, handler)
        self.delta_key = None
        result = handler(self, event)
        # Counted once applied: a handler notes (strict mode: raises) before it changes anything,
        # so a failed event leaves the cached snapshot valid.
        self.version += 1
        return result

    def _extended(
        self,
        event_type: str,
        event: dict[str, Any],
        handler: Callable[[Accumulator, dict[str, Any]], Text | None],
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
        result = handler(self, event)
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
            new = materialize(part)
            slot: Any = parts.slots.get(index)
            old: dict[str, Any] = slot if type(slot) is dict else {}  # pyright: ignore[reportUnknownVariableType]
            # A part.added after deltas of its part (reordered: 'sequence-reordered' noted)
            # carries "" and []: what the deltas built is kept, as _summary_part keeps a
            # summary's text (replaced, the message would lose the text before it).
            text: Any = old.get("text")
            if type(text) is Text and new.get("text") == "":
                new["text"] = text
            entries: Any = old.get("logprobs")
            if (type(entries) is Logprobs or (type(entries) is list and entries)) and new.get(
                "logprobs"
            ) == []:
                new["logprobs"] = entries
            parts.put(index, new)

    def _part_done(self, event: dict[str, Any]) -> None:
        self._part_added(event, adopt=True)

    def last_text_json(self) -> LazyJSON | None:
        """The partial JSON of the output text most recently extended, when tracked as JSON."""
        return None if self._last_json_text is None else self._last_json_text.json

    #: The JSON text of the logprobs of the text delta being applied, when the stream read it
    #: apart (``logprobs.split_logprobs``): kept instead of the entries (see ``add_entries``);
    #: read by orjson if ``entries_orjson``.
    entries_text: Any = None
    entries_orjson = False

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
        if type(delta) is str:
            text.append(delta)
        if logprobs:
            add_entries(part, logprobs, self.entries_text, self.entries_orjson)
        # After _message_part, which may raise (strict mode) before any change, and after the
        # change: a snapshot built meanwhile (in another thread) is never cached as this version.
        self.version += 1
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

    #: Event type -> its handler, called as ``handler(accumulator, event)``. Kept on the class, not
    #: bound on each instance: a table of bound methods would make every accumulator (and the stream
    #: holding it) a reference cycle, freed only by the garbage collector (tests/test_no_cycles.py).
    HANDLERS: ClassVar[dict[str, Callable[..., Text | None]]] = {
        "response.created": _lifecycle,
        "response.queued": _lifecycle,
        "response.in_progress": _lifecycle,
        "response.output_item.added": _item_added,
        "response.output_item.done": _item_done,
        "response.content_part.added": _part_added,
        "response.content_part.done": _part_done,
        "response.output_text.delta": text_delta,
        "response.output_text.done": _output_text_done,
        "response.output_text.annotation.added": _annotation_added,
        "response.refusal.delta": _refusal_delta,
        "response.refusal.done": _refusal_done,
        "response.function_call_arguments.delta": _arguments_delta,
        "response.function_call_arguments.done": _arguments_done,
        "response.mcp_call_arguments.delta": _mcp_arguments_delta,
        "response.mcp_call_arguments.done": _mcp_arguments_done,
        "response.custom_tool_call_input.delta": _custom_input_delta,
        "response.custom_tool_call_input.done": _custom_input_done,
        "response.code_interpreter_call_code.delta": _code_delta,
        "response.code_interpreter_call_code.done": _code_done,
        "response.reasoning_summary_part.added": _summary_part,
        "response.reasoning_summary_part.done": _summary_part,
        "response.reasoning_summary_text.delta": _summary_text_delta,
        "response.reasoning_summary_text.done": _summary_text_done,
        "response.reasoning_text.delta": _reasoning_text_delta,
        "response.reasoning_text.done": _reasoning_text_done,
        "response.image_generation_call.partial_image": _partial_image,
        "response.shell_call_command.added": _shell_command_added,
        "response.shell_call_command.delta": _shell_command_delta,
        "response.shell_call_command.done": _shell_command_done,
        "response.shell_call_output_content.delta": _shell_output_delta,
        "response.shell_call_output_content.done": _shell_output_done,
    }


def _slot(parts: Sparse, event: dict[str, Any]) -> int:
    """The ``command_index`` of a shell event; an unusable one means a new slot at the end."""
    index = event.get("command_index")
    if type(index) is not int or index < 0:
        return parts.top + 1
    return index


def _new_output_text() -> dict[str, Any]:
    return {"type": "output_text", "text": "", "annotations": []}


def _new_refusal() -> dict[str, Any]:
    return {"type": "refusal", "refusal": ""}


def _new_summary_text() -> dict[str, Any]:
    return {"type": "summary_text", "text": ""}


def _new_reasoning_text() -> dict[str, Any]:
    return {"type": "reasoning_text", "text": ""}


def _status_setter(item_type: str, name: str) -> Callable[[Accumulator, dict[str, Any]], None]:
    # The event name is the status the item takes ("searching", "interpreting", "generating", ...).
    def set_status(acc: Accumulator, event: dict[str, Any]) -> None:
        item = acc._item(event, item_type)  # pyright: ignore[reportPrivateUsage]
        if item is not None:
            item["status"] = name

    return set_status


for _item_type, _names in _STATUS_EVENTS.items():
    for _name in _names:
        Accumulator.HANDLERS[f"response.{_item_type}.{_name}"] = _status_setter(_item_type, _name)
