"""Chat Completions accumulation, the general path: how one chunk changes the completion so far.

This is the readable specification of Chat accumulation. Every chunk may go this way; the fast
paths (:mod:`._chat.fast`: the common shape and the shape templates) are an optimisation for the
chunks of nearly every stream and must give exactly what this path gives (the property tests in
tests/test_hot_paths.py, tests/test_shape.py and tests/test_chat_fuzz.py run both and compare).

The rules, field by field, are one table, :data:`CHAT_ACCUMULATION_RULES` (printed by
:func:`format_chat_accumulation_rules`, shown in docs/guide/chat.md), the counterpart of the
Responses API's ``ACCUMULATION_RULES``. In short, unlike the official SDK's ``accumulate_delta``
(which concatenates every string, so a repeated ``role`` becomes ``"assistantassistant"``, and
appends out-of-order indices): choices and tool calls are matched by ``index``, in any order and
with gaps; a choice's ``role`` and a tool call's ``id``, ``type`` and name are set once (a
different role, id or name is noted and ignored); texts are concatenated and lists extended; the
completion's ``id``, ``model`` and ``created`` keep the first non-empty value, other values the
last non-null one; unmodelled delta fields merge generically; ``obfuscation`` is ignored.

Accumulation is linear: strings are kept in the :class:`Text` builder ``ResponsesStream`` uses
(pieces merged every 64 deltas, so memory stays near the text's size, and joined only when a
snapshot is built), and what each chunk's accessors need is a *mark* (see :func:`link`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, TypeAlias

from .._base import EventStreamBase
from .._errors import SchemaError
from .._responses.accumulate import Text
from .._responses.models import copy_json, copy_tree
from .entries import Entries, pack_entries, pending_logprobs
from .models import (
    CHUNK_OBJECT,
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionMessage,
    ChatEvent,
    ChatToolCall,
    Choice,
    ChoiceDelta,
    ChunkChoice,
    CompletionUsage,
    FunctionCall,
    JSONValue,
    ToolCallDelta,
    pending_choice,
)

__all__ = [
    "CHAIN",
    "CHAT_ACCUMULATION_RULES",
    "CONTENT",
    "IGNORED_TOP",
    "ChatAccumulator",
    "ChoiceAcc",
    "Mark",
    "ToolCallAcc",
    "View",
    "format_chat_accumulation_rules",
    "link",
    "marked",
]

# Keys that name or identify a thing rather than stream text: the generic merge never concatenates.
_SET_ONCE = frozenset({"id", "type", "role", "name", "index", "format", "expires_at", "signature"})
# Top-level keys that are not accumulated (``obfuscation`` is random padding against side channels).
IGNORED_TOP = frozenset({"obfuscation"})
_FILTER_LISTS = frozenset({"prompt_filter_results", "prompt_annotations"})
_TOOL_KNOWN = ToolCallDelta._KNOWN  # pyright: ignore[reportPrivateUsage]
_DELTA_KNOWN = ChoiceDelta._KNOWN  # pyright: ignore[reportPrivateUsage]
_CHOICE_KNOWN = ChunkChoice._KNOWN  # pyright: ignore[reportPrivateUsage]
_CHUNK_KNOWN = ChatCompletionChunk._KNOWN  # pyright: ignore[reportPrivateUsage]

_SET_ONCE_NOTED = "set once; a different value is noted and ignored"
_NOTED_FIELD = " (noted: not an OpenAI field)"

#: Where each field of a streamed chunk goes in the accumulated completion: (the field in the
#: chunk, the field of :class:`ChatCompletion` it goes to, in ``to_dict()`` form, the action).
#: ``[]`` is the element of the same ``index``; ``*`` any other field at that level; ``-``: not
#: kept. This table is what :class:`ChatAccumulator` does (a test applies every row); the fast
#: paths (:mod:`._chat.fast`) do the same for the chunks they take.
CHAT_ACCUMULATION_RULES: tuple[tuple[str, str, str], ...] = (
    ("id", "id", "keep the first non-empty value"),
    ("object", "-", "not kept (the snapshot's is chat.completion); another value is noted"),
    ("created", "created", "keep the first non-empty value"),
    ("model", "model", "keep the first non-empty value"),
    ("usage", "usage", "keep the last non-null value"),
    ("system_fingerprint", "system_fingerprint", "keep the last non-null value"),
    ("service_tier", "service_tier", "keep the last non-null value"),
    ("prompt_filter_results", "prompt_filter_results", "extend the list (Azure; noted)"),
    ("prompt_annotations", "prompt_annotations", "extend the list (Azure; noted)"),
    ("obfuscation", "-", "ignored (it stays on the chunk)"),
    ("*", "*", "keep the last non-null value"),
    (
        "choices[].index",
        "choices[]",
        "select the choice: any order, gaps allowed; missing: 0 (noted)",
    ),
    ("choices[].*", "choices[].*", "keep the last non-null value"),
    ("choices[].delta.role", "choices[].message.role", _SET_ONCE_NOTED),
    ("choices[].delta.content", "choices[].message.content", "append to the text"),
    ("choices[].delta.refusal", "choices[].message.refusal", "append to the text"),
    (
        "choices[].delta.reasoning_content",
        "choices[].message.reasoning_content",
        "append to the text" + _NOTED_FIELD,
    ),
    (
        "choices[].delta.reasoning",
        "choices[].message.reasoning",
        "append to the text" + _NOTED_FIELD,
    ),
    (
        "choices[].delta.reasoning_details",
        "choices[].message.reasoning_details",
        "extend the list" + _NOTED_FIELD,
    ),
    (
        "choices[].delta.tool_calls[].index",
        "choices[].message.tool_calls[]",
        "select the tool call: any order, gaps allowed; missing: inferred from id or name (noted)",
    ),
    ("choices[].delta.tool_calls[].id", "choices[].message.tool_calls[].id", _SET_ONCE_NOTED),
    ("choices[].delta.tool_calls[].type", "choices[].message.tool_calls[].type", "set once"),
    (
        "choices[].delta.tool_calls[].function.name",
        "choices[].message.tool_calls[].function.name",
        _SET_ONCE_NOTED,
    ),
    (
        "choices[].delta.tool_calls[].function.arguments",
        "choices[].message.tool_calls[].function.arguments",
        "append to the text",
    ),
    (
        "choices[].delta.tool_calls[].function.*",
        "-",
        "not kept (it stays on the chunk)",
    ),
    (
        "choices[].delta.tool_calls[].*",
        "choices[].message.tool_calls[].*",
        "merge (as choices[].delta.*)",
    ),
    (
        "choices[].delta.function_call.name",
        "choices[].message.function_call.name",
        _SET_ONCE_NOTED,
    ),
    (
        "choices[].delta.function_call.arguments",
        "choices[].message.function_call.arguments",
        "append to the text",
    ),
    ("choices[].delta.function_call.*", "-", "not kept (it stays on the chunk)"),
    (
        "choices[].delta.*",
        "choices[].message.*",
        f"merge: strings appended ({', '.join(sorted(_SET_ONCE))}: set once), lists extended, "
        "objects merged key by key, other values replaced",
    ),
    ("choices[].logprobs.content", "choices[].logprobs.content", "extend the list"),
    ("choices[].logprobs.refusal", "choices[].logprobs.refusal", "extend the list"),
    ("choices[].logprobs.*", "choices[].logprobs.*", "keep the last non-null value"),
    ("choices[].finish_reason", "choices[].finish_reason", "keep the last non-null value"),
)

# What ChoiceAcc.build holds when the choice keeps no entries as text.
_NO_LOCK = contextlib.nullcontext()


def format_chat_accumulation_rules() -> str:
    """:data:`CHAT_ACCUMULATION_RULES` as aligned text (``print`` it to read it).

    One row per chunk field: the field of the accumulated :class:`ChatCompletion` it goes to
    (``[]``: the element of the same ``index``; ``*``: any other field at that level; ``-``: not
    kept) and what each chunk's value does to it. The counterpart of
    :func:`format_accumulation_rules` for the Responses API.
    """
    rows = (("chunk field", "snapshot field", "action"), *CHAT_ACCUMULATION_RULES)
    widths = [max(len(r[i]) for r in rows) for i in range(2)]
    return "\n".join(
        f"{r[0].ljust(widths[0])}  {r[1].ljust(widths[1])}  {r[2]}".rstrip() for r in rows
    )


# What each chunk's accessors need: the lengths, right after that chunk, of the texts they read.
# A *mark* is either a dict {(choice index, tool call index or -1 for content): length} or a link
# (parent mark, depth, choice, tool or -1, length): one text's length. Applying a chunk adds one
# link per text it extended (nearly always one: a flat tuple is the only object a chunk's mark
# costs); every CHAIN links are folded into a fresh dict, so a lookup walks at most CHAIN links
# and the stream holds no history: each chunk keeps its own mark alive, nothing more.
CHAIN = 32
CONTENT = -1
# A mark as a type (for the checkers; marks are exactly these dicts and tuples).
Mark: TypeAlias = "dict[tuple[int, int], int] | tuple[Mark, int, int, int, int]"
# A value in an accumulated tree (see _merge_into): its strings are Text builders.
_TreeValue: TypeAlias = "Text | dict[str, Any] | list[Any] | int | float | bool | None"


def marked(mark: Mark, choice: int, tool: int) -> int | None:
    """The length a mark records for the content (*tool* -1) or a tool call of *choice*."""
    # isinstance rather than type() is: the checkers then know that the mark after the loop is
    # the dict (a mark is never a tuple subclass, so the test gives the same answer).
    while isinstance(mark, tuple):
        if mark[2] == choice and mark[3] == tool:
            found: int = mark[4]
            return found
        mark = mark[0]
    result: int | None = mark.get((choice, tool))
    return result


def link(mark: Mark, choice: int, tool: int, length: int) -> Mark:
    """*mark* with the length of one more text (the newest link: found first by :func:`marked`).

    The callers write its common case inline: ``(mark, mark[1] + 1, choice, tool, length)``
    while ``mark[1] < CHAIN - 1``."""
    depth = mark[1] + 1 if type(mark) is tuple else 1
    if depth < CHAIN:
        return (mark, depth, choice, tool, length)
    links: list[tuple[Mark, int, int, int, int]] = []
    while isinstance(mark, tuple):
        links.append(mark)
        mark = mark[0]
    full = dict(mark)
    for _, _, c, t, n in reversed(links):
        full[(c, t)] = n
    full[(choice, tool)] = length
    return full


class View:
    """What a chunk's accessors call (its ``_view``): the stream's ``_view`` with the chunk's
    mark, ``view(what, index, tool_index)``. Made per chunk as ``new_view(View)`` and two
    stores: one object, where ``partial(stream._view, mark)`` makes four (the bound method, the
    partial, its argument tuple and its keyword dict). It holds the stream; the stream never
    holds it (no reference cycle)."""

    __slots__ = ("mark", "stream")

    stream: Any
    mark: Mark

    def __call__(self, what: str, index: int, tool_index: int) -> Any:
        return self.stream._view(self.mark, what, index, tool_index)


class _LimitExceeded(SchemaError):
    """Internal: a chunk would pass ``max_choices`` / ``max_tool_calls`` (reported like a schema
    error, with the chunk's offset and an excerpt)."""

    def __init__(self, message: str) -> None:
        ValueError.__init__(self, message)


def _grown(text: Text | None, piece: str) -> Text:
    """*text* with *piece* appended, or a new builder holding *piece* if there was none."""
    if text is None:
        return Text(piece)
    text.append(piece)
    return text


def _merge_into(tree: dict[str, Any], d: dict[str, Any]) -> None:
    """Merge one delta object into an accumulated tree (rules in the module docstring).

    Iterative, so no nesting depth can overflow the stack halfway through a chunk.
    """
    stack = [(tree, d)]
    while stack:
        tree, d = stack.pop()
        for k, v in d.items():
            if v is None:
                continue
            old: _TreeValue = tree.get(k)
            t = type(v)  # pyright: ignore[reportUnknownVariableType]  (v is Any: tested by t)
            if t is str and type(old) is Text:
                if k not in _SET_ONCE:
                    old.append(v)
                elif old.length == 0:
                    tree[k] = Text(v)
            elif t is list and type(old) is list:
                old.extend(v)
            elif t is dict:
                if type(old) is not dict:
                    old = tree[k] = {}  # a new node (strings in it become Text builders)
                stack.append((old, v))
            elif t is str:
                tree[k] = Text(v)
            elif t is list:
                tree[k] = list(v)
            else:
                tree[k] = v


def _materialize(node: Any) -> Any:
    try:
        return _materialize_rec(node)
    except RecursionError:
        return copy_tree(node, _leaf_value, _shallow_list)


def _materialize_rec(node: Any) -> Any:
    t = type(node)  # pyright: ignore[reportUnknownVariableType]  (node is Any: tested by t)
    if t is Text:
        return node.value()
    if t is dict:
        return {k: _materialize_rec(v) for k, v in node.items()}
    if t is list:
        return copy_json(node)  # a list is replaced, never merged: no Text inside
    return node


def _leaf_value(node: Any) -> Any:
    return node.value() if type(node) is Text else node


def _shallow_list(node: Any) -> None:
    return None


class ToolCallAcc:
    __slots__ = ("args", "extra", "final", "id", "index", "name", "type")

    def __init__(self, index: int) -> None:
        self.index = index
        self.id: str | None = None
        self.type: str | None = None
        self.name: str | None = None
        self.args = Text("")
        self.final: tuple[int, Any] | None = None  # (arguments length, parsed value)
        self.extra: dict[str, Any] = {}

    def stand_in(self) -> ToolCallAcc:
        """A copy of what diagnostics depend on (id, type, name), with nothing shared."""
        copy = ToolCallAcc(self.index)
        copy.id = self.id
        copy.type = self.type
        copy.name = self.name
        return copy

    def custom_input(self) -> str | None:
        """The ``custom.input`` text of a custom tool call (``type: "custom"``), else ``None``."""
        custom: _TreeValue = self.extra.get("custom")
        text = custom.get("input") if type(custom) is dict else None
        return text.value() if type(text) is Text else None

    def build(self) -> ChatToolCall:
        return ChatToolCall(
            self.index,
            self.id,
            self.type,
            FunctionCall(self.name, self.args.value()),
            _materialize(self.extra),
        )


class ChoiceAcc:
    __slots__ = (
        "cache",
        "content",
        "content_final",
        "entries",
        "extra",
        "finish_reason",
        "function_args",
        "function_name",
        "has_function_call",
        "index",
        "last_tool",
        "logprobs",
        "msg_extra",
        "next_tool",
        "reasoning",
        "reasoning_content",
        "reasoning_details",
        "refusal",
        "role",
        "tool_calls",
        "tool_ids",
    )

    def __init__(self, index: int) -> None:
        self.index = index
        self.role: str | None = None
        self.content: Text | None = None
        self.content_final: tuple[int, Any] | None = None  # (content length, parsed value)
        self.refusal: Text | None = None
        self.reasoning_content: Text | None = None
        self.reasoning: Text | None = None
        self.reasoning_details: list[dict[str, Any]] | None = None
        self.tool_calls: dict[int, ToolCallAcc] = {}
        self.last_tool: int | None = None
        # For inferring missing tool-call indices in O(1): id -> index, and 1 + the highest index.
        self.tool_ids: dict[str, int] = {}
        self.next_tool = 0
        self.has_function_call = False
        self.function_name: str | None = None
        self.function_args = Text("")
        self.msg_extra: dict[str, Any] = {}
        self.logprobs: dict[str, Any] | None = None
        # logprobs["content"] and the token entries kept as text after it (see _chat/entries.py).
        self.entries: Entries | None = None
        self.finish_reason: str | None = None
        self.extra: dict[str, Any] = {}
        self.cache: Choice | None = None

    def extend_logprobs(
        self, lp: dict[str, Any], pack: Callable[[Any], bytes] | None = None
    ) -> None:
        """Apply a chunk's ``logprobs`` object (its wire dict): the token lists ``content`` and
        ``refusal`` extended, every other non-null field the last one (``CHAT_ACCUMULATION_RULES``).
        The general path and the common-shape path both apply it here. With *pack* (orjson's
        ``dumps``, for entries orjson decoded: see _chat/entries.py), ``content`` entries are kept
        as their JSON text."""
        acc = self.logprobs
        if acc is None:
            acc = self.logprobs = {"content": None, "refusal": None}
        for k, v in lp.items():
            if v is None:
                continue
            if v.__class__ is list and (k == "content" or k == "refusal"):
                old = acc.get(k)
                if old is None:
                    acc[k] = list(v)
                elif v and k == "content":
                    entries = self.entries
                    if pack is not None and pack_entries(self, old, v, pack):
                        continue
                    if entries is not None:
                        entries.value()  # (the entries kept as text come first)
                    old.extend(v)
                else:
                    old.extend(v)
            else:
                acc[k] = v

    def stand_in(self) -> ChoiceAcc:
        """A copy for :meth:`ChatAccumulator._rehearse`: what diagnostics depend on (role,
        names, ids, tool-call indices), and for the rest empty texts and containers of the same
        presence, so that a rehearsal touches nothing of this choice."""
        copy = ChoiceAcc(self.index)
        copy.role = self.role
        copy.content = None if self.content is None else Text("")
        copy.refusal = None if self.refusal is None else Text("")
        copy.reasoning_content = None if self.reasoning_content is None else Text("")
        copy.reasoning = None if self.reasoning is None else Text("")
        copy.reasoning_details = None if self.reasoning_details is None else []
        copy.tool_calls = {i: call.stand_in() for i, call in self.tool_calls.items()}
        copy.last_tool = self.last_tool
        copy.tool_ids = dict(self.tool_ids)
        copy.next_tool = self.next_tool
        copy.has_function_call = self.has_function_call
        copy.function_name = self.function_name
        copy.logprobs = None if self.logprobs is None else {"content": None, "refusal": None}
        copy.finish_reason = self.finish_reason
        return copy

    def build(self) -> Choice:
        message = ChatCompletionMessage(
            self.role,
            None if self.content is None else self.content.value(),
            None if self.refusal is None else self.refusal.value(),
            [self.tool_calls[i].build() for i in sorted(self.tool_calls)],
            FunctionCall(self.function_name, self.function_args.value())
            if self.has_function_call
            else None,
            None if self.reasoning_content is None else self.reasoning_content.value(),
            None if self.reasoning is None else self.reasoning.value(),
            None if self.reasoning_details is None else list(self.reasoning_details),
            _materialize(self.msg_extra),
        )
        # Copies: the values are the chunks' own (shared, not copied, as each chunk arrives).
        extra = {k: copy_json(v) for k, v in self.extra.items()}
        entries = self.entries
        # The entries' lock: an older snapshot read in another thread may be moving the texts
        # into the decoded list meanwhile (the copy and the check must see one state).
        with _NO_LOCK if entries is None else entries.lock:
            logprobs: dict[str, Any] | None = None
            if self.logprobs is not None:
                # (type(v) is list narrows an Any to list[Unknown] for pyright)
                logprobs = {k: list(v) if type(v) is list else v for k, v in self.logprobs.items()}  # pyright: ignore[reportUnknownArgumentType]
            if logprobs is not None and entries is not None and entries.raw:
                # Entries kept as text: decoded when the snapshot's logprobs is first read.
                count = len(entries.items) + entries.pending  # (len(entries) takes the lock)
                pending = pending_logprobs(entries, logprobs, count)
                return pending_choice(self.index, message, pending, self.finish_reason, extra)
        return Choice(self.index, message, logprobs, self.finish_reason, extra)


class ChatAccumulator(EventStreamBase[ChatEvent]):
    """The general path: how a chunk is checked and applied to the completion accumulated so far.

    :class:`ChatCompletionsStream` is this class, its fast paths (:class:`ChatFastPaths`) and its
    facade (state, accessors, dispatch); the state declared here is set by its ``__init__``.
    """

    max_choices: int | None
    max_tool_calls: int | None
    _choices: dict[int, ChoiceAcc]  # by choice index
    _seq: int  # number of chunks accumulated
    _id: str | None
    _created: int | None
    _model: str | None
    _usage: CompletionUsage | None
    _fingerprint: str | None
    _service_tier: str | None
    _extra: dict[str, JSONValue]  # unmodelled chunk-level fields
    _reasoning_noted: set[str]  # the reasoning field names already noted
    _snap: ChatCompletion | None  # the cached snapshot, None after each chunk
    _mark: Mark  # the lengths as of the latest chunk (see link)
    _changes: list[tuple[int, int, int]]  # what the current chunk extended

    def _apply(self, chunk: ChatCompletionChunk, raw: dict[str, Any], offset: int) -> None:
        """Accumulate *chunk*, or raise before anything of it is applied.

        Everything that can fail is checked first: indices and limits (:meth:`_check_chunk`),
        and, in strict mode, every diagnostic the chunk would record, by rehearsing it on a
        stand-in of the state it touches (:meth:`_rehearse`): a strict-mode error then leaves the
        snapshot as it was before the chunk.
        """
        self._check_chunk(chunk)
        if self.strict:
            self._rehearse(chunk, raw, offset)
        self._accumulate(chunk, raw, offset)

    def _rehearse(self, chunk: ChatCompletionChunk, raw: dict[str, Any], offset: int) -> None:
        """Run :meth:`_accumulate` on a stand-in stream, so that a strict-mode diagnostic raises
        before the real state is touched.

        The stand-in shares no mutable state with this stream: each choice the chunk names is a
        :meth:`ChoiceAcc.stand_in` (what the diagnostics depend on: roles, names, ids, tool-call
        indices; fresh texts and containers), and the chunk-level containers are fresh.
        """
        rehearsal = object.__new__(type(self))
        rehearsal.__dict__.update(self.__dict__)
        rehearsal._extra = {}
        rehearsal._changes = []
        rehearsal._reasoning_noted = set(self._reasoning_noted)
        choices: dict[int, ChoiceAcc] = {}
        for choice in chunk.choices:
            index = 0 if choice.index is None else choice.index
            ch = self._choices.get(index)
            if ch is not None and index not in choices:
                choices[index] = ch.stand_in()
        rehearsal._choices = choices
        rehearsal._accumulate(chunk, raw, offset)

    def _check_chunk(self, chunk: ChatCompletionChunk) -> None:
        """Raise for what would fail halfway through applying *chunk*: negative indices, limits.

        Run before anything is applied, so a refused chunk leaves no trace in the snapshot.
        """
        # The common case first: every choice and tool call the chunk names exists already.
        choices = self._choices
        known = True
        for choice in chunk.choices:
            ch = choices.get(choice.index)  # type: ignore[arg-type]
            if ch is None:
                known = False
                break
            delta = choice.delta
            if delta.tool_calls:
                calls = ch.tool_calls
                for tc in delta.tool_calls:
                    if tc.index not in calls:
                        known = False
                        break
        if known:
            return
        new_choices: set[int] = set()
        for n, choice in enumerate(chunk.choices):
            index = 0 if choice.index is None else choice.index
            if index < 0:
                raise SchemaError(f"chunk.choices[{n}].index", "a non-negative integer", index)
            ch = self._choices.get(index)
            if ch is None:
                new_choices.add(index)
            delta = choice.delta
            if not delta.tool_calls:
                continue
            new_calls: set[Any] = set()
            for t, tc in enumerate(delta.tool_calls):
                if tc.index is None:
                    # Inferred later: a new id, or a name without an id, may start a new call.
                    known = ch is not None and tc.id is not None and tc.id in ch.tool_ids
                    if not known and (tc.id or (tc.function is not None and tc.function.name)):
                        new_calls.add(("inferred", t))
                elif tc.index < 0:
                    raise SchemaError(
                        f"chunk.choices[{n}].delta.tool_calls[{t}].index",
                        "a non-negative integer",
                        tc.index,
                    )
                elif ch is None or tc.index not in ch.tool_calls:
                    new_calls.add(tc.index)
            existing = 0 if ch is None else len(ch.tool_calls)
            limit = self.max_tool_calls
            if limit is not None and existing + len(new_calls) > limit:
                raise _LimitExceeded(
                    f"choice {index} has more than max_tool_calls ({limit}) tool calls"
                )
        limit = self.max_choices
        if limit is not None and new_choices and len(self._choices) + len(new_choices) > limit:
            raise _LimitExceeded(f"more than max_choices ({limit}) choices")

    def _accumulate(self, chunk: ChatCompletionChunk, raw: dict[str, Any], offset: int) -> None:
        self._seq += 1
        self._snap = None
        empty = [k for k in ("id", "model", "object") if not raw.get(k)]
        if empty:
            self._note(
                "empty-chunk-identity",
                f"chunk with empty or missing {', '.join(empty)}",
                offset=offset,
            )
        if chunk.object and chunk.object != CHUNK_OBJECT:
            self._note(
                "unexpected-chunk-object", f"chunk with object {chunk.object!r}", offset=offset
            )
        if chunk.id and self._id is None:
            self._id = chunk.id
        if chunk.model and self._model is None:
            self._model = chunk.model
        if chunk.created and self._created is None:
            self._created = chunk.created
        if chunk.usage is not None:
            self._usage = chunk.usage
        if chunk.system_fingerprint is not None:
            self._fingerprint = chunk.system_fingerprint
        if chunk.service_tier is not None:
            self._service_tier = chunk.service_tier
        if raw.get("choices") is None:
            self._note("missing-choices", "chunk without a choices key", offset=offset)
        v: JSONValue
        for k, v in raw.items():
            if k in _CHUNK_KNOWN or k in IGNORED_TOP or v is None:
                continue
            if k in _FILTER_LISTS:
                self._note("prompt-filter-results", f"Azure {k} in a chunk", offset=offset)
                if type(v) is list:
                    old = self._extra.get(k)
                    if type(old) is list:
                        old.extend(v)
                    else:
                        self._extra[k] = list(v)
                    continue
            self._extra[k] = v
        seq = self._seq
        for n, choice in enumerate(chunk.choices):
            self._accumulate_choice(choice, n, seq, offset)
        changes = self._changes
        if changes:
            # One link per text the chunk extended; earlier chunks keep the marks of their time.
            mark = self._mark
            for c, t, length in changes:
                mark = link(mark, c, t, length)
            self._mark = mark
            self._changes = []

    def _accumulate_choice(self, choice: ChunkChoice, n: int, seq: int, offset: int) -> None:
        index = choice.index
        if index is None:
            self._note(
                "missing-choice-index", f"choices[{n}] has no index; 0 assumed", offset=offset
            )
            index = 0
        ch = self._choices.get(index)
        if ch is None:
            ch = self._choices[index] = ChoiceAcc(index)
        ch.cache = None
        raw = choice._raw  # pyright: ignore[reportPrivateUsage]
        v: JSONValue
        for k, v in raw.items():
            if k not in _CHOICE_KNOWN and v is not None:
                ch.extra[k] = v
        if raw.get("delta") is None:  # sent without one: its delta is empty
            filt = [k for k in raw if k.startswith("content_filter")]
            self._note(
                "choice-without-delta",
                f"choice {index} has no delta" + (f" (only {', '.join(filt)})" if filt else ""),
                offset=offset,
            )
        else:
            self._accumulate_delta(ch, choice.delta, n, seq, offset)
        lp = choice.logprobs
        if lp is not None:
            ch.extend_logprobs(lp._raw)  # pyright: ignore[reportPrivateUsage]
        if choice.finish_reason is not None:
            ch.finish_reason = choice.finish_reason

    def _accumulate_delta(
        self, ch: ChoiceAcc, delta: ChoiceDelta, n: int, seq: int, offset: int
    ) -> None:
        if delta.role is not None:
            if ch.role is None:
                ch.role = delta.role
                if delta.role != "assistant":
                    self._note(
                        "unexpected-role",
                        f"choice {ch.index}: streamed role {delta.role!r}, not 'assistant'; kept",
                        offset=offset,
                    )
            elif delta.role != ch.role:
                self._note(
                    "role-changed",
                    f"choice {ch.index}: role {delta.role!r} after {ch.role!r}; first kept",
                    offset=offset,
                )
        if delta.content is not None:
            if ch.content is None:
                ch.content = Text(delta.content)
            else:
                ch.content.append(delta.content)
            self._changes.append((ch.index, CONTENT, ch.content.length))
        if delta.refusal is not None:
            ch.refusal = _grown(ch.refusal, delta.refusal)
        if delta.reasoning_content is not None:
            self._note_reasoning("reasoning_content", offset)
            ch.reasoning_content = _grown(ch.reasoning_content, delta.reasoning_content)
        if delta.reasoning is not None:
            self._note_reasoning("reasoning", offset)
            ch.reasoning = _grown(ch.reasoning, delta.reasoning)
        if delta.reasoning_details is not None:
            self._note_reasoning("reasoning_details", offset)
            if ch.reasoning_details is None:
                ch.reasoning_details = list(delta.reasoning_details)
            else:
                ch.reasoning_details.extend(delta.reasoning_details)
        if delta.tool_calls:
            for t, tc in enumerate(delta.tool_calls):
                self._accumulate_tool_call(ch, tc, n, t, seq, offset)
        fc = delta.function_call
        if fc is not None:
            ch.has_function_call = True
            if fc.name:
                if not ch.function_name:
                    ch.function_name = fc.name
                elif fc.name != ch.function_name:
                    self._note(
                        "function-name-changed",
                        f"choice {ch.index}: function_call.name {fc.name!r} after "
                        f"{ch.function_name!r}; first kept",
                        offset=offset,
                    )
            if fc.arguments:
                ch.function_args.append(fc.arguments)
        raw = delta._raw  # pyright: ignore[reportPrivateUsage]
        for k in raw:
            if k not in _DELTA_KNOWN:
                _merge_into(ch.msg_extra, {k: v for k, v in raw.items() if k not in _DELTA_KNOWN})
                break

    def _note_reasoning(self, name: str, offset: int) -> None:
        if name not in self._reasoning_noted:
            self._reasoning_noted.add(name)
            self._note(
                "reasoning-field",
                f"reasoning sent as delta.{name} (not an OpenAI field); kept under that name",
                offset=offset,
            )

    def _accumulate_tool_call(
        self, ch: ChoiceAcc, tc: ToolCallDelta, n: int, t: int, seq: int, offset: int
    ) -> None:
        index = tc.index
        if index is None:
            index = self._infer_tool_index(ch, tc, n, t, offset)
        acc = ch.tool_calls.get(index)
        if acc is None:
            acc = ch.tool_calls[index] = ToolCallAcc(index)
            if index >= ch.next_tool:
                ch.next_tool = index + 1
        ch.last_tool = index
        if tc.id:
            if not acc.id:
                acc.id = tc.id
                ch.tool_ids.setdefault(tc.id, index)
            elif tc.id != acc.id:
                self._note(
                    "tool-call-id-changed",
                    f"choice {ch.index} tool call {index}: id {tc.id!r} after {acc.id!r}; "
                    "first kept",
                    offset=offset,
                )
        if tc.type and acc.type is None:
            acc.type = tc.type
        f = tc.function
        if f is not None:
            if f.name:
                if not acc.name:
                    acc.name = f.name
                elif f.name != acc.name:
                    self._note(
                        "tool-call-name-changed",
                        f"choice {ch.index} tool call {index}: name {f.name!r} after "
                        f"{acc.name!r}; first kept",
                        offset=offset,
                    )
            if f.arguments:
                acc.args.append(f.arguments)
                self._changes.append((ch.index, index, acc.args.length))
        raw = tc._raw  # pyright: ignore[reportPrivateUsage]
        for k in raw:
            if k not in _TOOL_KNOWN:
                _merge_into(acc.extra, {k: v for k, v in raw.items() if k not in _TOOL_KNOWN})
                break

    def _infer_tool_index(
        self, ch: ChoiceAcc, tc: ToolCallDelta, n: int, t: int, offset: int
    ) -> int:
        """Infer a missing tool-call ``index`` (Gemini's compatible endpoint omits it)."""
        where = f"choice {ch.index}: tool_calls[{t}] has no index"
        calls = ch.tool_calls
        following = ch.next_tool
        if tc.id:
            known = ch.tool_ids.get(tc.id)
            if known is not None:
                self._note(
                    "missing-tool-call-index",
                    f"{where}; its id continues tool call {known}",
                    offset=offset,
                )
                return known
            self._note(
                "missing-tool-call-index",
                f"{where}; a new id starts tool call {following}",
                offset=offset,
            )
            return following
        last = None if ch.last_tool is None else calls[ch.last_tool]
        name = tc.function.name if tc.function is not None else None
        if last is None:
            self._note(
                "missing-tool-call-index", f"{where}; first tool call, 0 assumed", offset=offset
            )
            return following
        if not name or not last.name:
            self._note(
                "missing-tool-call-index",
                f"{where}; no new id or name, so it continues tool call {last.index}",
                offset=offset,
            )
            return last.index
        if name != last.name:
            self._note(
                "missing-tool-call-index",
                f"{where}; a new name starts tool call {following}",
                offset=offset,
            )
            return following
        self._note(
            "tool-call-index-ambiguous",
            f"{where}; same name {name!r} and no id: taken as continuing tool call {last.index}",
            offset=offset,
        )
        return last.index
