"""Chat Completions streaming: bytes -> :class:`ChatCompletionChunk` -> :class:`ChatCompletion`.

:class:`ChatCompletionsStream` has the shape of :class:`ResponsesStream` (``feed``/``close``/
``snapshot()``/``outcome``/``diagnostics``) and shares its event-stream decoder and error discipline
(:class:`EventStreamBase`). What is specific to Chat Completions:

* The stream ends with ``data: [DONE]`` (API reference, "Create chat completion", ``stream``): the
  outcome becomes ``"completed"``. Without it, a body whose every choice has a ``finish_reason`` is
  still ``"completed"`` (diagnostic ``missing-done-marker``); otherwise ``close()`` raises
  :class:`TruncatedStream`. ``finish_reason: "length"`` is an ordinary completion, read per choice.
* ``data: {"error": {...}}`` is yielded as a :class:`ChatStreamError` and sets the outcome
  ``"error"``; so is the ``error`` of a chunk that also has ``choices`` (OpenRouter), after the chunk.
* Accumulation is linear: strings are kept as lists of pieces and joined only when a snapshot is
  built; a snapshot is cached until the next chunk, and only choices a chunk touched are rebuilt.

Accumulation rules (unlike the official SDK's ``accumulate_delta``, which concatenates every string,
so a repeated ``role`` becomes ``"assistantassistant"``, and appends out-of-order indices):

* choices by ``index`` and tool calls by ``index``, in any order and with gaps;
* ``role``, tool-call ``id``/``type``/``function.name`` and legacy ``function_call.name`` are set
  once: an identical repeat is ignored, a different one is noted and ignored;
* ``content``, ``refusal``, ``reasoning_content``, ``reasoning``, tool and legacy function
  ``arguments`` are concatenated; ``logprobs.content``/``.refusal`` and ``reasoning_details`` are
  extended; ``finish_reason`` keeps the last non-null value;
* ``usage``, ``system_fingerprint``, ``service_tier`` keep the last non-null value (a later
  ``usage: null`` does not wipe an earlier usage); ``id``/``model``/``created`` the first non-empty;
* other delta fields (``annotations``, ``audio``, vendor fields) merge generically: strings are
  concatenated (except identity keys such as ``id``/``type``/``name``, set once), arrays extended,
  objects merged key by key, other values replaced; other choice- and chunk-level fields keep their
  last non-null value, except Azure ``prompt_filter_results``/``prompt_annotations`` (concatenated);
* ``obfuscation`` is ignored (it stays on the chunk).

Structured outputs and tool arguments (as :class:`ResponsesStream` does for the Responses API):
with a ``response_format`` each choice's content is tracked as JSON, and every tool call's
arguments always are. Tracking costs one list append per delta (the chunk sequence number of each
piece, which is kept rather than compacted); the incremental :class:`PartialJSON` parser runs only
when a value is read (:meth:`ChatCompletionChunk.content_parsed`,
:meth:`ChatCompletionChunk.tool_arguments_parsed`, :meth:`ChatCompletionsStream.parsed`,
:meth:`ChatCompletionsStream.parsed_tool_arguments`), continuing from where it stopped, so reading
after every chunk is linear over the stream. Final values are parsed from the complete text with
:func:`parse_json_text` only when the choice ended normally; ``finish_reason: "length"`` (cut off)
and ``"content_filter"`` give the partial value instead of an error, unlike the official SDK.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any

from ._base import DEFAULT_MAX_DIAGNOSTICS, EventStreamBase, JSONLoads
from ._chat_models import (
    CHUNK_OBJECT,
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionMessage,
    ChatStreamError,
    ChatToolCall,
    ChatUnknownEvent,
    Choice,
    ChoiceDelta,
    ChunkChoice,
    CompletionUsage,
    FunctionCall,
    ToolCallDelta,
)
from ._errors import RemoteProtocolError, SchemaError, TruncatedStream, excerpt
from ._parsing import function_tool_parsers, make_parser, parse_json_text
from ._partial_json import PartialJSON
from ._sse import DEFAULT_MAX_EVENT_SIZE, ServerSentEvent

__all__ = ["ChatCompletionsStream", "ChatEvent"]

#: What :meth:`ChatCompletionsStream.feed` returns items of.
ChatEvent = ChatCompletionChunk | ChatStreamError | ChatUnknownEvent

DONE = "[DONE]"

# Keys that name or identify a thing rather than stream text: the generic merge never concatenates.
_SET_ONCE = frozenset({"id", "type", "role", "name", "index", "format", "expires_at", "signature"})
# Top-level keys that are not accumulated (``obfuscation`` is random padding against side channels).
_IGNORED_TOP = frozenset({"obfuscation"})
_FILTER_LISTS = frozenset({"prompt_filter_results", "prompt_annotations"})
_REASONING_NAMES = ("reasoning_content", "reasoning", "reasoning_details")
_TOOL_KNOWN = ToolCallDelta._KNOWN
_DELTA_KNOWN = ChoiceDelta._KNOWN
_CHOICE_KNOWN = ChunkChoice._KNOWN
_CHUNK_KNOWN = ChatCompletionChunk._KNOWN
# Finish reasons after which a choice's JSON is complete, so a final parse is meaningful. "length"
# (max tokens), "content_filter", "error" (OpenRouter) and vendor reasons leave the partial value.
_COMPLETE_FINISH = frozenset({"stop", "tool_calls", "function_call"})


class _Text:
    """A string built from pieces; joined (and compacted) only when read."""

    __slots__ = ("length", "pieces")

    def __init__(self, first: str) -> None:
        self.pieces = [first]
        self.length = len(first)

    def add(self, piece: str, seq: int = 0) -> None:
        self.pieces.append(piece)
        self.length += len(piece)

    def value(self) -> str:
        pieces = self.pieces
        if len(pieces) == 1:
            return pieces[0]
        joined = "".join(pieces)
        self.pieces = [joined]
        return joined


def _grown(text: _Text | None, piece: str) -> _Text:
    """*text* with *piece* appended, or a new builder holding *piece* if there was none."""
    if text is None:
        return _Text(piece)
    text.add(piece)
    return text


class _JSONText(_Text):
    """A :class:`_Text` holding a JSON document, with its partial value parsed only when read.

    The pieces are kept (not compacted) together with the chunk sequence number of each, so the
    text as of any chunk is ``pieces[:bisect_right(seqs, seq)]``. One :class:`PartialJSON` is fed
    the pieces up to the latest count read, continuing from where it stopped: reading the value of
    every chunk in order costs linear time. Reading an older chunk after a newer one re-parses that
    prefix from scratch (correct, and only paid by that late read).
    """

    __slots__ = ("cache", "fed", "joined", "joined_n", "parser", "seqs")

    def __init__(self, first: str, seq: int) -> None:
        super().__init__(first)
        self.seqs = [seq]
        self.joined = first  # "".join(pieces[:joined_n]), extended on read
        self.joined_n = 1
        self.parser: PartialJSON | None = None
        self.fed = 0  # pieces the parser has consumed
        self.cache: tuple[int, Any] | None = None  # (length, final value)

    def add(self, piece: str, seq: int = 0) -> None:
        self.pieces.append(piece)
        self.length += len(piece)
        self.seqs.append(seq)

    def value(self) -> str:
        n = len(self.pieces)
        if self.joined_n != n:
            self.joined += "".join(self.pieces[self.joined_n :])
            self.joined_n = n
        return self.joined

    def count_at(self, seq: int) -> int:
        """How many pieces the text had right after chunk *seq*."""
        return bisect_right(self.seqs, seq)

    def partial(self, count: int) -> Any:
        """The best partial value of the first *count* pieces (the parser's live tree)."""
        if count >= self.fed:
            parser = self.parser
            if parser is None:
                parser = self.parser = PartialJSON()
            if count > self.fed:
                feed = parser.feed
                for piece in self.pieces[self.fed : count]:
                    feed(piece)
                self.fed = count
            return parser.value
        fresh = PartialJSON()
        fresh.feed("".join(self.pieces[:count]))
        return fresh.value

    def latest(self) -> Any:
        """The best partial value of the whole text so far."""
        return self.partial(len(self.pieces))

    def final(self, parser: Callable[[Any], Any] | None) -> Any:
        """The complete text parsed (and converted by *parser*); cached until the text grows.

        Raises :class:`OutputParseError` (with ``raw_text``) for invalid JSON or a value that
        does not fit.
        """
        cached = self.cache
        if cached is not None and cached[0] == self.length:
            return cached[1]
        value = parse_json_text(self.value(), parser)
        self.cache = (self.length, value)
        return value


def _node(value: Any) -> Any:
    """Turn a decoded JSON value into a merge-tree node (strings become :class:`_Text`)."""
    t = type(value)
    if t is str:
        return _Text(value)
    if t is dict:
        tree: dict[str, Any] = {}
        _merge_into(tree, value)
        return tree
    if t is list:
        return list(value)
    return value


def _merge_into(tree: dict[str, Any], d: dict[str, Any]) -> None:
    """Merge one delta object into an accumulated tree (rules in the module docstring)."""
    for k, v in d.items():
        if v is None:
            continue
        old = tree.get(k)
        if old is None:
            tree[k] = _node(v)
        elif type(v) is str and type(old) is _Text:
            if k not in _SET_ONCE:
                old.add(v)
            elif old.length == 0:
                tree[k] = _Text(v)
        elif type(v) is list and type(old) is list:
            old.extend(v)
        elif type(v) is dict and type(old) is dict:
            _merge_into(old, v)
        else:
            tree[k] = _node(v)


def _materialize(node: Any) -> Any:
    t = type(node)
    if t is _Text:
        return node.value()
    if t is dict:
        return {k: _materialize(v) for k, v in node.items()}
    if t is list:
        return list(node)
    return node


class _ToolCallAcc:
    __slots__ = ("args", "extra", "id", "index", "name", "type")

    def __init__(self, index: int, seq: int) -> None:
        self.index = index
        self.id: str | None = None
        self.type: str | None = None
        self.name: str | None = None
        self.args = _JSONText("", seq)
        self.extra: dict[str, Any] = {}

    def build(self) -> ChatToolCall:
        return ChatToolCall(
            self.index,
            self.id,
            self.type,
            FunctionCall(self.name, self.args.value()),
            _materialize(self.extra),
        )


class _ChoiceAcc:
    __slots__ = (
        "cache",
        "content",
        "extra",
        "finish_reason",
        "function_args",
        "function_name",
        "has_function_call",
        "index",
        "last_tool",
        "logprobs",
        "marks_len",
        "marks_seq",
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
        self.content: _Text | None = None
        self.refusal: _Text | None = None
        self.reasoning_content: _Text | None = None
        self.reasoning: _Text | None = None
        self.reasoning_details: list[dict[str, Any]] | None = None
        self.tool_calls: dict[int, _ToolCallAcc] = {}
        self.last_tool: int | None = None
        # For inferring missing tool-call indices in O(1): id -> index, and 1 + the highest index.
        self.tool_ids: dict[str, int] = {}
        self.next_tool = 0
        self.has_function_call = False
        self.function_name: str | None = None
        self.function_args = _Text("")
        self.msg_extra: dict[str, Any] = {}
        self.logprobs: dict[str, Any] | None = None
        self.finish_reason: str | None = None
        self.extra: dict[str, Any] = {}
        # Content length after each chunk (by sequence) that added content, for content_snapshot.
        self.marks_seq: list[int] = []
        self.marks_len: list[int] = []
        self.cache: Choice | None = None

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
        logprobs = None
        if self.logprobs is not None:
            logprobs = {k: list(v) if type(v) is list else v for k, v in self.logprobs.items()}
        return Choice(self.index, message, logprobs, self.finish_reason, dict(self.extra))


class ChatCompletionsStream(EventStreamBase[ChatEvent]):
    """Sans-IO decoder and accumulator for one streamed Chat Completions response body.

    Feed it the body bytes; it returns :class:`ChatCompletionChunk` events (plus
    :class:`ChatStreamError` for an in-stream error object and :class:`ChatUnknownEvent` for JSON
    objects that are neither) and accumulates a :class:`ChatCompletion`.

    Args:
        max_event_size: bound on the bytes buffered for one event; ``None`` disables it.
        strict: raise :class:`RemoteProtocolError` for each tolerated anomaly instead of recording a
            diagnostic.
        max_diagnostics: how many diagnostics to keep (``diagnostic_counts`` is always complete).
        json_loads: JSON decoder for event data (default: orjson when importable, else the
            standard library).
        response_format: the request's structured output: a type (an attrs class, dataclass,
            TypedDict, pydantic model, or any callable taking the decoded JSON, as
            ``text_format`` in :class:`ResponsesStream`), or the API's ``{"type":
            "json_schema", ...}`` / ``{"type": "json_object"}`` dict for plain JSON values
            (``{"type": "text"}`` tracks nothing). Each choice's content is then tracked as JSON:
            :meth:`ChatCompletionChunk.content_parsed` gives partial values and :meth:`parsed`
            the final one.
        tools: the request's tools (Chat or Responses shape, or :class:`FunctionTool`): the final
            arguments of strict function tools are converted (by the tool's model for a
            :class:`FunctionTool`), as the official SDK does; other arguments are plain JSON.

    Attributes:
        outcome: ``None`` while open, then ``"completed"``, ``"error"`` or ``"truncated"``.
        error_event: the first :class:`ChatStreamError` received, else ``None``.
        done: whether ``data: [DONE]`` was received.

    Diagnostic codes: ``empty-chunk-identity``, ``unexpected-chunk-object``,
    ``prompt-filter-results``, ``choice-without-delta``, ``missing-choices``,
    ``missing-choice-index``, ``missing-tool-call-index``, ``tool-call-index-ambiguous``,
    ``tool-call-id-changed``, ``tool-call-name-changed``, ``function-name-changed``,
    ``role-changed``, ``reasoning-field``, ``missing-done-marker``, ``done-without-finish-reason``,
    ``data-after-done``, ``data-after-error``, ``empty-data``, ``unexpected-event-type``,
    ``unknown-event``, ``unterminated-event``, ``keepalive-comment``.
    """

    def __init__(
        self,
        *,
        max_event_size: int | None = DEFAULT_MAX_EVENT_SIZE,
        strict: bool = False,
        max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS,
        json_loads: JSONLoads | None = None,
        response_format: object | None = None,
        tools: Iterable[Mapping[str, Any] | object] | None = None,
    ) -> None:
        super().__init__(
            max_event_size=max_event_size,
            strict=strict,
            max_diagnostics=max_diagnostics,
            json_loads=json_loads,
        )
        self.response_format = response_format
        self._structured, self._format_parser = _format_parser(response_format)
        self._tool_parsers = function_tool_parsers(tools or ())
        self.error_event: ChatStreamError | None = None
        self.done = False
        self._choices: dict[int, _ChoiceAcc] = {}
        self._seq = 0  # number of chunks accumulated
        self._id: str | None = None
        self._created: int | None = None
        self._model: str | None = None
        self._usage: CompletionUsage | None = None
        self._fingerprint: str | None = None
        self._service_tier: str | None = None
        self._extra: dict[str, Any] = {}
        self._reasoning_noted: set[str] = set()
        self._snap: ChatCompletion | None = None

    # -- public ------------------------------------------------------------------------------

    def snapshot(self) -> ChatCompletion | None:
        """The completion accumulated so far, or ``None`` before the first chunk.

        Cached: calling it again before the next chunk returns the same object, and a new chunk
        rebuilds only the choices it touched.
        """
        if self._snap is not None:
            return self._snap
        if self._seq == 0:
            return None
        choices = []
        for i in sorted(self._choices):
            ch = self._choices[i]
            if ch.cache is None:
                ch.cache = ch.build()
            choices.append(ch.cache)
        extra = {
            k: list(v) if k in _FILTER_LISTS and type(v) is list else v
            for k, v in self._extra.items()
        }
        self._snap = ChatCompletion(
            self._id,
            self._created,
            self._model,
            choices,
            self._usage,
            self._fingerprint,
            self._service_tier,
            extra,
        )
        return self._snap

    def parsed(self, choice_index: int = 0) -> Any:
        """The structured output of a choice: final once it finished with ``"stop"``, else partial.

        Final: the content parsed as JSON and converted to ``response_format`` (an invalid
        document, or a value that does not fit, raises :class:`OutputParseError` with the raw
        text, here on read and never from ``feed``). While the choice streams, or when it ended
        with ``finish_reason`` ``"length"`` / ``"content_filter"``, or the stream ended with an
        error or truncated, it is the partial value so far (never a parse attempted as if
        complete): ``finish_reason`` and ``outcome`` say why. ``None`` without a
        ``response_format``, for an unknown choice and for a choice without content (a refusal).
        The partial value is the parser's live tree: copy it to keep it.
        """
        if not self._structured:
            return None
        ch = self._choices.get(choice_index)
        if ch is None:
            return None
        content = ch.content
        if type(content) is not _JSONText or not content.length:
            return None
        if ch.finish_reason == "stop":
            return content.final(self._format_parser)
        return content.latest()

    def parsed_tool_arguments(self, choice_index: int = 0) -> list[Any]:
        """The arguments of each tool call of a choice, in tool-call ``index`` order.

        Final once the choice finished normally (``finish_reason`` ``"tool_calls"``, ``"stop"``
        or ``"function_call"``): parsed as JSON and, for a strict function tool or a
        :class:`FunctionTool` given in ``tools``, converted by its parser (invalid JSON or a
        value that does not fit raises :class:`OutputParseError` with the raw text, on read).
        Before that, or after ``"length"`` / ``"content_filter"`` / an error, each is the partial
        value so far (``None`` when nothing has been parsed yet). Empty for an unknown choice.
        """
        ch = self._choices.get(choice_index)
        if ch is None:
            return []
        calls = [ch.tool_calls[i] for i in sorted(ch.tool_calls)]
        if ch.finish_reason in _COMPLETE_FINISH:
            parsers = self._tool_parsers
            return [
                call.args.final(None if call.name is None else parsers.get(call.name))
                for call in calls
            ]
        return [call.args.latest() for call in calls]

    # -- EventStreamBase hooks -----------------------------------------------------------------

    def _on_message(self, event_type: str, data: str, offset: int, out: list[ChatEvent]) -> None:
        if data == DONE:
            self._on_done(offset)
            return
        if not data.strip():
            self._note("empty-data", "an event with empty data", offset=offset)
            return
        if self.done:
            self._note("data-after-done", "data after [DONE]", offset=offset)
        obj = self._load_object(data, offset)
        if (
            event_type == "error"
            or (obj.get("error") is not None and "choices" not in obj)
            or obj.get("object") == "error"
        ):
            self._on_error(obj, data, offset, out)
            return
        if not (
            "choices" in obj
            or "id" in obj
            or "usage" in obj
            or "model" in obj
            or obj.get("object") == CHUNK_OBJECT
        ):
            self._note(
                "unknown-event",
                f"a JSON object that is not a chat.completion.chunk (event {event_type!r}): "
                + excerpt(data),
                offset=offset,
            )
            out.append(ChatUnknownEvent(event_type, obj))
            return
        if event_type != "message":
            self._note(
                "unexpected-event-type", f"a chunk in an {event_type!r} event", offset=offset
            )
        if self.outcome == "error":
            self._note("data-after-error", "a chunk after an error object", offset=offset)
        try:
            chunk = ChatCompletionChunk.from_dict(obj, partial(self._view, self._seq + 1))
            self._accumulate(chunk, obj, offset)
        except SchemaError as exc:
            raise RemoteProtocolError(
                f"invalid chat.completion.chunk: {exc}", offset=offset, excerpt=excerpt(data)
            ) from None
        out.append(chunk)
        if obj.get("error") is not None:
            # OpenRouter reports a mid-stream failure as a chunk that has both ``choices``
            # (``finish_reason: "error"``) and an ``error`` object: the chunk is accumulated and
            # the error is yielded after it, so the outcome is "error" as for ``{"error": ...}``.
            self._on_error(obj, data, offset, out)

    def _on_unterminated(self, sse_event: ServerSentEvent, out: list[ChatEvent]) -> None:
        offset = self.bytes_fed
        if sse_event.data.strip() == DONE:
            # A final "data: [DONE]" without its blank line: the intent is unambiguous.
            self._note(
                "unterminated-event", "[DONE] not followed by a blank line; accepted", offset=offset
            )
            self._on_done(offset)
            return
        # WHATWG event-stream parsing: at end of file, pending data is discarded.
        self._note(
            "unterminated-event",
            "the body ended inside an event, which was discarded: " + excerpt(sse_event.data),
            offset=offset,
        )

    def _on_end(self, out: list[ChatEvent]) -> None:
        if self.outcome is not None:
            return
        unfinished = [i for i, c in self._choices.items() if c.finish_reason is None]
        if self._choices and not unfinished:
            self.outcome = "completed"
            self._note(
                "missing-done-marker",
                "the body ended without data: [DONE] (every choice had a finish_reason)",
                offset=self.bytes_fed,
            )
            return
        self.outcome = "truncated"
        what = (
            f"choice(s) {sorted(unfinished)} have no finish_reason"
            if unfinished
            else "no choice was received"
        )
        raise TruncatedStream(
            f"the body ended without data: [DONE] and {what}", offset=self.bytes_fed
        )

    # -- internals -----------------------------------------------------------------------------

    def _on_done(self, offset: int) -> None:
        if self.done:
            self._note("data-after-done", "a second [DONE]", offset=offset)
            return
        self.done = True
        if self.outcome is not None:
            return
        self.outcome = "completed"
        unfinished = sorted(i for i, c in self._choices.items() if c.finish_reason is None)
        if unfinished or not self._choices:
            what = f"choice(s) {unfinished} have" if unfinished else "no choice has"
            self._note(
                "done-without-finish-reason",
                f"[DONE] arrived but {what} a finish_reason",
                offset=offset,
            )

    def _on_error(self, obj: dict[str, Any], data: str, offset: int, out: list[ChatEvent]) -> None:
        try:
            event = ChatStreamError.from_dict(obj)
        except SchemaError as exc:
            raise RemoteProtocolError(
                f"invalid error object: {exc}", offset=offset, excerpt=excerpt(data)
            ) from None
        if self.error_event is None:
            self.error_event = event
        # As in ResponsesStream: the first terminal signal decides the outcome (an error object
        # after [DONE] is still yielded and kept in error_event, and noted as data after [DONE]).
        if self.outcome is None:
            self.outcome = "error"
        out.append(event)

    def _view(self, seq: int, what: str, index: int, tool_index: int) -> Any:
        """What a chunk's accessors ask: the state of choice *index* right after chunk *seq*."""
        ch = self._choices.get(index)
        if ch is None:
            return None
        if what == "content":
            if ch.content is None:
                return None
            pos = bisect_right(ch.marks_seq, seq) - 1
            if pos < 0:
                return None
            return ch.content.value()[: ch.marks_len[pos]]
        if what == "content_parsed":
            text = ch.content
            if type(text) is not _JSONText:
                return None
        else:
            call = ch.tool_calls.get(tool_index)
            if call is None:
                return None
            text = call.args
        count = text.count_at(seq)
        return text.partial(count) if count else None

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
        for k, v in raw.items():
            if k in _CHUNK_KNOWN or k in _IGNORED_TOP or v is None:
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

    def _accumulate_choice(self, choice: ChunkChoice, n: int, seq: int, offset: int) -> None:
        index = choice.index
        if index is None:
            self._note(
                "missing-choice-index", f"choices[{n}] has no index; 0 assumed", offset=offset
            )
            index = 0
        elif index < 0:
            raise SchemaError(f"chunk.choices[{n}].index", "a non-negative integer", index)
        ch = self._choices.get(index)
        if ch is None:
            ch = self._choices[index] = _ChoiceAcc(index)
        ch.cache = None
        raw = choice._raw
        for k, v in raw.items():
            if k not in _CHOICE_KNOWN and v is not None:
                ch.extra[k] = v
        delta = choice.delta
        if delta is None:
            filt = [k for k in raw if k.startswith("content_filter")]
            self._note(
                "choice-without-delta",
                f"choice {index} has no delta" + (f" (only {', '.join(filt)})" if filt else ""),
                offset=offset,
            )
        else:
            self._accumulate_delta(ch, delta, n, seq, offset)
        lp = choice.logprobs
        if lp is not None:
            acc = ch.logprobs
            if acc is None:
                acc = ch.logprobs = {"content": None, "refusal": None}
            for k, v in lp._raw.items():
                if v is None:
                    continue
                if type(v) is list and k in ("content", "refusal"):
                    old = acc.get(k)
                    if old is None:
                        acc[k] = list(v)
                    else:
                        old.extend(v)
                else:
                    acc[k] = v
        if choice.finish_reason is not None:
            ch.finish_reason = choice.finish_reason

    def _accumulate_delta(
        self, ch: _ChoiceAcc, delta: ChoiceDelta, n: int, seq: int, offset: int
    ) -> None:
        if delta.role is not None:
            if ch.role is None:
                ch.role = delta.role
            elif delta.role != ch.role:
                self._note(
                    "role-changed",
                    f"choice {ch.index}: role {delta.role!r} after {ch.role!r}; first kept",
                    offset=offset,
                )
        if delta.content is not None:
            if ch.content is None:
                ch.content = (
                    _JSONText(delta.content, seq) if self._structured else _Text(delta.content)
                )
            else:
                ch.content.add(delta.content, seq)
            if ch.marks_seq and ch.marks_seq[-1] == seq:
                ch.marks_len[-1] = ch.content.length
            else:
                ch.marks_seq.append(seq)
                ch.marks_len.append(ch.content.length)
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
                ch.function_args.add(fc.arguments)
        raw = delta._raw
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
        self, ch: _ChoiceAcc, tc: ToolCallDelta, n: int, t: int, seq: int, offset: int
    ) -> None:
        index = tc.index
        if index is None:
            index = self._infer_tool_index(ch, tc, n, t, offset)
        elif index < 0:
            raise SchemaError(
                f"chunk.choices[{n}].delta.tool_calls[{t}].index", "a non-negative integer", index
            )
        acc = ch.tool_calls.get(index)
        if acc is None:
            acc = ch.tool_calls[index] = _ToolCallAcc(index, seq)
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
                acc.args.add(f.arguments, seq)
        raw = tc._raw
        for k in raw:
            if k not in _TOOL_KNOWN:
                _merge_into(acc.extra, {k: v for k, v in raw.items() if k not in _TOOL_KNOWN})
                break

    def _infer_tool_index(
        self, ch: _ChoiceAcc, tc: ToolCallDelta, n: int, t: int, offset: int
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


def _format_parser(response_format: object | None) -> tuple[bool, Callable[[Any], Any] | None]:
    """Whether content is tracked as JSON, and the parser of the final value (None: plain JSON)."""
    if response_format is None:
        return False, None
    if isinstance(response_format, Mapping):
        # The API's response_format parameter ("Create chat completion", response_format).
        kind = response_format.get("type")
        if kind in ("json_schema", "json_object"):
            return True, None
        if kind == "text":
            return False, None
        raise ValueError(
            "response_format as a dict must have type 'json_schema', 'json_object' or 'text', "
            f"not {kind!r}"
        )
    return True, make_parser(response_format)
