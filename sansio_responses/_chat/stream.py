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

How a chunk is applied is the general path in :mod:`._chat.accumulate` (its rules are listed
there); the fast paths in :mod:`._chat.fast` apply the chunks of nearly every stream the same way,
sooner. This module is the facade: the stream's state, its accessors and the dispatch of each event.

Structured outputs and tool arguments (as :class:`ResponsesStream` does for the Responses API):
with a ``response_format`` each choice's content is tracked as JSON, and every tool call's
arguments always are. Texts are built by the text builder ``ResponsesStream`` uses (pieces merged
every 64 deltas, so memory stays near the text's size), and what each chunk's accessors need is a
few lengths held by the chunk itself, not by the stream; the incremental :class:`PartialJSON`
parser runs only when a value is read (:meth:`ChatCompletionChunk.content_parsed`,
:meth:`ChatCompletionChunk.tool_arguments_parsed`, :meth:`ChatCompletionsStream.parsed`,
:meth:`ChatCompletionsStream.parsed_tool_arguments`), continuing from where it stopped, so reading
after every chunk is linear over the stream. Final values are parsed from the complete text with
:func:`parse_json_text` only when the choice ended normally; ``finish_reason: "length"`` (cut off)
and ``"content_filter"`` give the partial value instead of an error, unlike the official SDK.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any

from .._base import (
    BIG_EVENT_DATA,
    DEFAULT_MAX_DIAGNOSTICS,
    DEFAULT_MAX_NESTING_DEPTH,
    JSONLoads,
    orjson_loads,
    stdlib_loads,
)
from .._errors import RemoteProtocolError, SchemaError, TruncatedStream, excerpt
from .._json.parsing import function_tool_parsers, make_parser, parse_json_text
from .._json.structured import LazyJSON
from .._responses.accumulate import Text
from .._responses.models import copy_json
from .._sse import DEFAULT_MAX_EVENT_SIZE, ServerSentEvent
from .accumulate import CHAIN, CONTENT, IGNORED_TOP, ChatAccumulator, ChoiceAcc, Mark, link, marked
from .models import (
    CHUNK_OBJECT,
    ChatCompletion,
    ChatCompletionChunk,
    ChatEvent,
    ChatStreamError,
    ChatUnknownEvent,
    Choice,
    ChoiceDelta,
    ChoiceDeltaTwin,
    ChunkChoice,
    ChunkChoiceTwin,
    ChunkTwin,
    CompletionUsage,
    JSONValue,
    ToolCallDelta,
    hot_chunk,
    new_object,
    tool_call_delta,
)
from .shape import Template, learn, match

__all__ = ["DEFAULT_MAX_CHOICES", "DEFAULT_MAX_TOOL_CALLS", "ChatCompletionsStream", "ChatEvent"]

#: Default bound on the choices of one completion (the API's ``n`` is at most 128).
DEFAULT_MAX_CHOICES = 128
#: Default bound on the tool calls of one choice.
DEFAULT_MAX_TOOL_CALLS = 1024

DONE = "[DONE]"

_TOOL_KNOWN = ToolCallDelta._KNOWN  # pyright: ignore[reportPrivateUsage]
_TOP_COMMON = ChatCompletionChunk._KNOWN | IGNORED_TOP  # pyright: ignore[reportPrivateUsage]
_CHOICE_KNOWN = ChunkChoice._KNOWN  # pyright: ignore[reportPrivateUsage]
# Finish reasons after which a choice's JSON is complete, so a final parse is meaningful. "length"
# (max tokens), "content_filter", "error" (OpenRouter) and vendor reasons leave the partial value.
_COMPLETE_FINISH = frozenset({"stop", "tool_calls", "function_call"})


_SET_VIEW: Callable[[Any, Any], None] = ChatCompletionChunk._view.__set__  # type: ignore[union-attr]


def _json_of(text: Text) -> LazyJSON:
    """The partial-JSON tracker of *text*, started on first read (nothing is paid per delta
    while nobody reads a parsed value); from then on every delta is queued for it."""
    lazy = text.json
    if lazy is None:
        lazy = text.json = LazyJSON()
        if text.length:
            lazy.push(text.value())
    return lazy


def _final(text: Text, cache: tuple[int, Any] | None, parser: Callable[[Any], Any] | None) -> Any:
    """The complete *text* parsed (and converted by *parser*), unless *cache* is still valid.

    Raises :class:`OutputParseError` (with ``raw_text``) for invalid JSON or a value that
    does not fit.
    """
    if cache is not None and cache[0] == text.length:
        return cache[1]
    return parse_json_text(text.value(), parser)


def _latest(text: Text) -> Any:
    """The best partial JSON value of the whole text so far."""
    return _json_of(text).value() if text.length else None


def _text(data: str | bytes | bytearray) -> str:
    """Event data as text (it arrives as bytes on the orjson path), for messages and excerpts."""
    return data if isinstance(data, str) else data.decode("utf-8", "replace")


_SCALARS = frozenset({str, int, float, bool, type(None)})


# The most shape templates a stream keeps (one per choice and tool call being streamed, as
# with n > 1 or parallel tool calls): each chunk that no template matches tries them all.
_MAX_TEMPLATES = 4


def _raw_chunk(fields: Any, text: str, obf: str | None = None) -> dict[str, Any]:
    """The wire dict of a templated chunk (see ChatCompletionsStream._learn): the template's
    dicts, copied, with these strings (the content, or a tool call's arguments, and the
    padding). The same keys in the same order as the JSON decoder's."""
    raw_delta = fields[5].copy()
    if fields[2] is None:
        raw_delta["content"] = text
    else:
        f = fields[7].copy()
        f["arguments"] = text
        tc = fields[6].copy()
        tc["function"] = f
        raw_delta["tool_calls"] = [tc]
    c = fields[4].copy()
    c["delta"] = raw_delta
    d: dict[str, Any] = fields[3].copy()
    d["choices"] = [c]
    if obf is not None:
        d["obfuscation"] = obf
    return d


class ChatCompletionsStream(ChatAccumulator):
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
        max_nesting_depth: the deepest nesting of arrays and objects accepted in one event
            (default 256); deeper data raises a located :class:`RemoteProtocolError`.
        max_choices: the most choices one completion may have (default 128, the API's largest
            ``n``); a chunk opening one more raises :class:`RemoteProtocolError`, unapplied.
        max_tool_calls: the most tool calls one choice may have (default 1024); likewise.

    Attributes:
        outcome: ``None`` while open, then ``"completed"``, ``"error"`` or ``"truncated"``.
        error_event: the first :class:`ChatStreamError` received, else ``None``.
        done: whether ``data: [DONE]`` was received.

    Diagnostic codes: ``empty-chunk-identity``, ``unexpected-chunk-object``,
    ``prompt-filter-results``, ``choice-without-delta``, ``missing-choices``,
    ``missing-choice-index``, ``missing-tool-call-index``, ``tool-call-index-ambiguous``,
    ``tool-call-id-changed``, ``tool-call-name-changed``, ``function-name-changed``,
    ``role-changed``, ``unexpected-role``, ``reasoning-field``, ``missing-done-marker``,
    ``done-without-finish-reason``, ``data-after-done``, ``data-after-error``, ``empty-data``,
    ``unexpected-event-type``, ``unknown-event``, ``unterminated-event``, ``keepalive-comment``.
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
        max_nesting_depth: int | None = DEFAULT_MAX_NESTING_DEPTH,
        max_choices: int | None = DEFAULT_MAX_CHOICES,
        max_tool_calls: int | None = DEFAULT_MAX_TOOL_CALLS,
    ) -> None:
        super().__init__(
            max_event_size=max_event_size,
            strict=strict,
            max_diagnostics=max_diagnostics,
            json_loads=json_loads,
            max_nesting_depth=max_nesting_depth,
        )
        self.max_choices = max_choices
        self.max_tool_calls = max_tool_calls
        # Lengths as of the latest chunk, by choice (replaced, never mutated: chunks keep theirs).
        self._mark: Mark = {}  # the lengths as of the latest chunk (see _link)
        self._changes: list[tuple[int, int, int]] = []  # what the current chunk extended
        self.response_format = response_format
        self._structured, self._format_parser = _format_parser(response_format)
        self._tool_parsers = function_tool_parsers(tools or ())
        self.error_event: ChatStreamError | None = None
        self.done = False
        self._choices: dict[int, ChoiceAcc] = {}
        self._seq = 0  # number of chunks accumulated
        self._id: str | None = None
        self._created: int | None = None
        self._model: str | None = None
        self._usage: CompletionUsage | None = None
        self._fingerprint: str | None = None
        self._service_tier: str | None = None
        self._extra: dict[str, JSONValue] = {}
        self._reasoning_noted: set[str] = set()
        self._snap: ChatCompletion | None = None
        self._view_of = self._view  # bound once: every chunk holds a partial of it
        # The shape templates of the latest content and tool-argument chunks (see _shape), when
        # the decoder is one of ours: a custom json_loads may build other values than the
        # standard library's.
        self._tpls: list[Template] = []
        self._tpl_on = self._loads is stdlib_loads or self._loads is orjson_loads
        self._tpl_learnt = 0  # attempts to learn one (bounded, see _learn)

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
        choices: list[Choice] = []
        for i in sorted(self._choices):
            ch = self._choices[i]
            if ch.cache is None:
                ch.cache = ch.build()
            choices.append(ch.cache)
        extra = {k: copy_json(v) for k, v in self._extra.items()}  # (the chunks' own values)
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
        ``response_format``, for an unknown choice, for a choice without content and for a
        choice that carries a ``refusal`` (as both official SDKs do). The partial value is the
        parser's live tree: copy it to keep it.
        """
        if not self._structured:
            return None
        ch = self._choices.get(choice_index)
        if ch is None or ch.refusal is not None:
            return None
        content = ch.content
        if content is None or not content.length:
            return None
        if ch.finish_reason == "stop":
            value = _final(content, ch.content_final, self._format_parser)
            ch.content_final = (content.length, value)
            return value
        return _latest(content)

    def parsed_tool_arguments(self, choice_index: int = 0) -> list[Any]:
        """The arguments of each tool call of a choice, in tool-call ``index`` order.

        Final once the choice finished normally (``finish_reason`` ``"tool_calls"``, ``"stop"``
        or ``"function_call"``): parsed as JSON and, for a strict function tool or a
        :class:`FunctionTool` given in ``tools``, converted by its parser (invalid JSON or a
        value that does not fit raises :class:`OutputParseError` with the raw text, on read).
        Before that, or after ``"length"`` / ``"content_filter"`` / an error, each is the partial
        value so far (``None`` when nothing has been parsed yet). Empty for an unknown choice.
        A custom tool call (``type: "custom"``) gives its ``input`` text as it is: custom tool
        input is free text, not JSON.
        """
        ch = self._choices.get(choice_index)
        if ch is None:
            return []
        calls = [ch.tool_calls[i] for i in sorted(ch.tool_calls)]
        complete = ch.finish_reason in _COMPLETE_FINISH
        parsers = self._tool_parsers
        out: list[Any] = []
        for call in calls:
            if call.type == "custom":
                out.append(call.custom_input())
            elif complete:
                value = _final(
                    call.args, call.final, None if call.name is None else parsers.get(call.name)
                )
                call.final = (call.args.length, value)
                out.append(value)
            else:
                out.append(_latest(call.args))
        return out

    # -- EventStreamBase hooks -----------------------------------------------------------------

    # With orjson, the data arrive as the bytes received (see EventStreamBase._BYTES_DATA).
    _BYTES_DATA = True
    # Whether the hot paths (_common, hot_chunk, the shape templates) are used; the tests turn
    # them off to check that they change nothing.
    _HOT = True

    def _on_message(
        self, event_type: str, data: str | bytes | bytearray, offset: int, out: list[ChatEvent]
    ) -> None:
        if self._tpls and event_type == "message" and self.outcome is None:
            # Nearly every chunk repeats an earlier one but for its content (or a tool call's
            # arguments) and padding: read those strings and skip the JSON decoder (see _shape).
            chunk = self._templated(
                data if isinstance(data, str) else data.decode("utf-8", "replace")
            )
            if chunk is not None:
                out.append(chunk)
                return
        try:
            if len(data) <= BIG_EVENT_DATA:
                obj: Any = self._fast_loads(data)  # type: ignore[arg-type]
            else:
                obj = self._load_big(data)
        except (ValueError, RecursionError):
            obj = None
        if obj.__class__ is not dict:
            # [DONE], empty data, invalid JSON, not an object: checked here, off the hot path.
            data = _text(data)
            if data == DONE:
                self._on_done(offset)
                return
            if not data.strip():
                self._note("empty-data", "an event with empty data", offset=offset)
                return
            if self.done:
                self._note("data-after-done", "data after [DONE]", offset=offset)
            obj = self._load_object(data, offset)  # the full decoder, or a located error
        else:
            if self.done:
                self._note("data-after-done", "data after [DONE]", offset=offset)
            if len(data) > self._deep_len:  # only long data can nest deeper than the limit
                self._check_depth(obj, data, offset)
            if event_type == "message" and self.outcome is None and self._HOT:
                chunk = self._common(obj)  # nearly every chunk: built and applied in one go
                if chunk is not None:
                    out.append(chunk)
                    if self._tpl_on and self._tpl_learnt <= 8 + (self._seq >> 6):
                        self._learn(data, obj)
                    return
        get = obj.get
        kind = get("object")
        if event_type != "message" or kind != CHUNK_OBJECT or get("error") is not None:
            # Not the plain chunk of nearly every event: classify it.
            if (
                event_type == "error"
                or (get("error") is not None and "choices" not in obj)
                or kind == "error"
            ):
                self._on_error(obj, _text(data), offset, out)
                return
            if not (
                "choices" in obj
                or "id" in obj
                or "usage" in obj
                or "model" in obj
                or kind == CHUNK_OBJECT
            ):
                text = _text(data)
                self._note(
                    "unknown-event",
                    f"a JSON object that is not a chat.completion.chunk (event {event_type!r}): "
                    + excerpt(text),
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
            chunk = hot_chunk(obj) if self._HOT else None
            if chunk is None:
                chunk = ChatCompletionChunk._build(obj)  # pyright: ignore[reportPrivateUsage]
            self._apply(chunk, obj, offset)
        except SchemaError as exc:
            raise RemoteProtocolError(
                f"invalid chat.completion.chunk: {exc}", offset=offset, excerpt=excerpt(_text(data))
            ) from None
        # The chunk's accessors read the lengths as of now: held by the chunk, not the stream.
        _SET_VIEW(chunk, partial(self._view_of, self._mark))
        out.append(chunk)
        if obj.get("error") is not None:
            # OpenRouter reports a mid-stream failure as a chunk that has both ``choices``
            # (``finish_reason: "error"``) and an ``error`` object: the chunk is accumulated and
            # the error is yielded after it, so the outcome is "error" as for ``{"error": ...}``.
            self._on_error(obj, _text(data), offset, out)

    def _on_unterminated(self, event: ServerSentEvent, out: list[ChatEvent]) -> None:
        offset = self.bytes_fed
        if event.data.strip() == DONE:
            # A final "data: [DONE]" without its blank line: the intent is unambiguous.
            self._note(
                "unterminated-event", "[DONE] not followed by a blank line; accepted", offset=offset
            )
            self._on_done(offset)
            return
        # WHATWG event-stream parsing: at end of file, pending data is discarded.
        self._note(
            "unterminated-event",
            "the body ended inside an event, which was discarded: " + excerpt(event.data),
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

    def _view(self, mark: Mark, what: str, index: int, tool_index: int) -> Any:
        """What a chunk's accessors ask: the state of choice *index* right after that chunk.

        *mark* holds the lengths recorded when the chunk was applied (no length for the content:
        the choice had none yet).
        """
        ch = self._choices.get(index)
        if ch is None:
            return None
        if what == "content" or what == "content_parsed":
            text = ch.content
            length = marked(mark, index, CONTENT)
            if text is None or length is None:
                return None
            if what == "content":
                return text.prefix(length)
            if not self._structured or not length:
                return None
        else:
            call = ch.tool_calls.get(tool_index)
            length = marked(mark, index, tool_index)
            if call is None or not length:
                return None
            text = call.args
        return _json_of(text).at(length, partial(text.prefix, length))

    def _common(self, d: dict[str, Any]) -> ChatCompletionChunk | None:
        """Build and accumulate the chunk *d* if it has the common shape; else None, unchanged.

        The common shape: one choice already open, whose delta only extends its content and/or
        the arguments of tool calls already open (an identical repeat of its role, or of a tool
        call's id, type or name, is allowed); a complete identity (``id``, ``model``, ``object``
        ``chat.completion.chunk``); at the top level and in the delta, no other field than the
        modelled ones and ``obfuscation`` (the choice may have unmodelled fields, such as Azure's
        ``content_filter_results``: kept as :meth:`_accumulate` keeps them); no usage, logprobs,
        refusal, reasoning or legacy function call. Such a chunk can neither
        fail nor record a diagnostic. Everything is checked before anything is changed; then the
        chunk is applied as :meth:`_accumulate` would (same order, same results) and built as
        :func:`hot_chunk` would. Anything else returns None and goes the general way.
        """
        # One function, not hot_chunk + a check + _accumulate: each value is read and
        # type-checked once, and no call is made per nested object.
        get = d.get
        raw_choices: Any = get("choices")
        if raw_choices.__class__ is not list or len(raw_choices) != 1:
            return None
        c = raw_choices[0]
        if c.__class__ is not dict:
            return None
        cget = c.get
        index = cget("index")
        if index.__class__ is not int:
            return None
        ch = self._choices.get(index)
        raw_delta = cget("delta")
        finish = cget("finish_reason")
        cid = get("id")
        kind = get("object")
        created = get("created")
        model = get("model")
        fingerprint = get("system_fingerprint")
        tier = get("service_tier")
        if (
            ch is None
            or raw_delta.__class__ is not dict
            or (finish is not None and finish.__class__ is not str)
            or cget("logprobs") is not None
            or not cid
            or cid.__class__ is not str
            or not model
            or model.__class__ is not str
            or kind != CHUNK_OBJECT
            or get("usage") is not None
            or (created is not None and created.__class__ is not int)
            or (fingerprint is not None and fingerprint.__class__ is not str)
            or (tier is not None and tier.__class__ is not str)
            or not d.keys() <= _TOP_COMMON
        ):
            return None
        extras = None
        if not c.keys() <= _CHOICE_KNOWN:
            # Unmodelled choice fields (Azure's content_filter_results): kept as they come.
            extras = [(k, v) for k, v in c.items() if k not in _CHOICE_KNOWN and v is not None]
        role = content = None
        tool_calls: list[ToolCallDelta] | None
        raw_calls = tool_calls = None
        for k, v in raw_delta.items():
            if v is None:
                continue  # a null field, modelled or not, adds nothing
            if k == "content":
                if v.__class__ is not str:
                    return None
                content = v
            elif k == "tool_calls":
                if v.__class__ is not list:
                    return None
                raw_calls = v
            elif k == "role":
                if v != ch.role:  # also rejects a non-string
                    return None
                role = v
            else:
                return None
        if raw_calls is not None:
            calls = ch.tool_calls
            tool_calls = []
            for tc in raw_calls:
                if tc.__class__ is not dict:
                    return None
                tget = tc.get
                t = tget("index")
                if t.__class__ is not int:
                    return None
                acc = calls.get(t)
                tc_id = tget("id")
                tc_type = tget("type")
                f = tget("function")
                # An id, type or name may only repeat what the call has (or be empty).
                if (
                    acc is None
                    or not tc.keys() <= _TOOL_KNOWN
                    or (
                        tc_id is not None
                        and (tc_id.__class__ is not str or (tc_id and tc_id != acc.id))
                    )
                    or (
                        tc_type is not None
                        and (tc_type.__class__ is not str or (tc_type and acc.type is None))
                    )
                ):
                    return None
                name = arguments = None
                if f is not None:
                    if f.__class__ is not dict:
                        return None
                    name = f.get("name")
                    arguments = f.get("arguments")
                    if (
                        name is not None
                        and (name.__class__ is not str or (name and name != acc.name))
                    ) or (arguments is not None and arguments.__class__ is not str):
                        return None
                call = tool_call_delta(t, tc_id, tc_type, f, name, arguments, tc)
                tool_calls.append(call)
        chunk = self._grow(
            d, c, raw_delta, ch, index, role, content, tool_calls, finish, cid, kind, created,
            model, fingerprint, tier,
        )  # fmt: skip
        if extras:
            for k, v in extras:
                ch.extra[k] = v
        return chunk

    def _grow(
        self,
        d: dict[str, Any],
        c: dict[str, Any],
        raw_delta: dict[str, Any],
        ch: ChoiceAcc,
        index: int,
        role: str | None,
        content: str | None,
        tool_calls: list[ToolCallDelta] | None,
        finish: str | None,
        cid: str,
        kind: str,
        created: int | None,
        model: str,
        fingerprint: str | None,
        tier: str | None,
    ) -> ChatCompletionChunk:
        """Apply and build a chunk of the common shape, checked by :meth:`_common` or matched by
        a template (:meth:`_templated`): what :meth:`_accumulate` and :func:`hot_chunk` do for
        it, in the same order, with the values already read."""
        delta = new_object(ChoiceDeltaTwin)
        delta.role = role
        delta.content = content
        delta.refusal = None
        delta.tool_calls = tool_calls
        delta.function_call = None
        delta.reasoning_content = None
        delta.reasoning = None
        delta.reasoning_details = None
        delta._raw = raw_delta
        delta.__class__ = ChoiceDelta
        choice = new_object(ChunkChoiceTwin)
        choice.index = index
        choice.delta = delta
        choice.logprobs = None
        choice.finish_reason = finish
        choice._raw = c
        choice.__class__ = ChunkChoice
        # Applied from here on: what _accumulate does for this shape, in the same order.
        self._seq += 1
        self._snap = None
        if self._id is None:
            self._id = cid
        if self._model is None:
            self._model = model
        if created and self._created is None:
            self._created = created
        if fingerprint is not None:
            self._fingerprint = fingerprint
        if tier is not None:
            self._service_tier = tier
        ch.cache = None
        mark = self._mark
        changes = None
        if content is not None:
            text = ch.content
            if text is None:
                text = ch.content = Text(content)
            else:
                text.append(content)
            changes = [(index, CONTENT, text.length)]
        if tool_calls:
            for call in tool_calls:
                t: int = call.index  # type: ignore[assignment]  # an int: _common checked it
                ch.last_tool = t
                f = call.function
                if f is not None and f.arguments:
                    args = ch.tool_calls[t].args
                    args.append(f.arguments)
                    if changes is None:
                        changes = []
                    changes.append((index, t, args.length))
        if finish is not None:
            ch.finish_reason = finish
        if changes is not None:
            if type(mark) is tuple and mark[2] < CHAIN - 1:  # _link's common case, inline
                mark = self._mark = (mark, changes, mark[2] + 1)
            else:
                mark = self._mark = link(mark, changes)
        chunk = new_object(ChunkTwin)
        chunk.id = cid
        chunk.object = kind
        chunk.created = created
        chunk.model = model
        chunk.choices = [choice]
        chunk.usage = None
        chunk.system_fingerprint = fingerprint
        chunk.service_tier = tier
        chunk._raw = d
        # The chunk's accessors read the lengths as of now: held by the chunk, not the stream.
        chunk._view = partial(self._view_of, mark)
        chunk.__class__ = ChatCompletionChunk
        return chunk  # type: ignore[no-any-return]

    def _templated(self, text: str) -> ChatCompletionChunk | None:
        """Apply and build the chunk *text* if a template matches it (and the state is one in
        which :meth:`_common` would take it); else None, unchanged.

        What :meth:`_common` checks, the template stands for: the same fields with the same
        values around the strings, and a state that cannot have changed since (a choice or a
        tool call, once open, is never removed; a choice's role is set once).
        """
        for tpl in self._tpls:
            found = match(tpl, text)
            if found is not None:
                break
        else:
            return None
        fields = tpl.fields
        index, role, t, _, _, _, _, _, cid, kind, created, model, fingerprint, tier, extras = fields
        ch = self._choices[index]
        value = found[0]
        d = _raw_chunk(fields, value, found[1])
        c = d["choices"][0]
        raw_delta = c["delta"]
        if t is None:
            chunk = self._grow(
                d, c, raw_delta, ch, index, role, value, None, None, cid, kind, created, model,
                fingerprint, tier,
            )  # fmt: skip
        else:
            tc = raw_delta["tool_calls"][0]
            calls = [tool_call_delta(t, None, None, tc["function"], None, value, tc)]
            chunk = self._grow(
                d, c, raw_delta, ch, index, role, None, calls, None, cid, kind, created, model,
                fingerprint, tier,
            )  # fmt: skip
        if extras:
            # The template's own values, shared by its chunks: nothing ever changes them (every
            # accessor hands out copies).
            for k in extras:
                ch.extra[k] = c[k]
        return chunk

    def _learn(self, data: str | bytes | bytearray, d: dict[str, Any]) -> None:
        """Make the template of the chunk *d* just applied by :meth:`_common`, if it has a shape
        one can describe (see :mod:`._shape`): its content, or the arguments of its one tool call
        (which names no id, type or function name), and its ``obfuscation`` vary; every other
        value is a constant scalar, or the value of an unmodelled choice field (Azure's
        ``content_filter_results``), which chunks can share since no accessor hands it out
        uncopied; the choice has no finish reason.

        Attempts are bounded: 8, then one per 64 chunks, so a stream whose chunks never repeat
        pays nearly nothing for them.
        """
        c = d["choices"][0]
        raw_delta = c["delta"]
        if c.get("finish_reason") is not None or len(data) > BIG_EVENT_DATA:
            return  # (a template holds the text: only small ones are kept)
        tc = f = t = None
        text = raw_delta.get("content")
        key = "content"
        if text.__class__ is not str:
            calls = raw_delta.get("tool_calls")
            if calls.__class__ is not list or len(calls) != 1:
                return
            tc = calls[0]
            f = tc.get("function")
            if f.__class__ is not dict:
                return
            text = f.get("arguments")
            if text.__class__ is not str:
                return
            t = tc["index"]
            key = "arguments"
            for k, v in tc.items():
                if k != "function" and k != "index" and v is not None:
                    return  # an id or a type: _common compares it with the call's
            for k, v in f.items():
                if k != "arguments" and v is not None:
                    return  # a name: likewise
        for k, v in raw_delta.items():
            if k != key and v is not None and k != "role" and (tc is None or k != "tool_calls"):
                return  # (a role is a string equal to the choice's: _common checked it)
        extras: list[str] = []
        for k, v in c.items():
            if k in _CHOICE_KNOWN:
                if k != "delta" and v.__class__ not in _SCALARS:
                    return
            elif v is not None:
                extras.append(k)  # an unmodelled field: its value is shared, never changed
        for k, v in d.items():
            if k != "choices" and v.__class__ not in _SCALARS:
                return
        self._tpl_learnt += 1
        index = c["index"]
        fields = (
            index,
            raw_delta.get("role"),
            t,
            dict(d),
            dict(c),
            dict(raw_delta),
            None if tc is None else dict(tc),
            None if f is None else dict(f),
            d["id"],
            d["object"],
            d.get("created"),
            d["model"],
            d.get("system_fingerprint"),
            d.get("service_tier"),
            tuple(extras),
        )
        obf: Any = d.get("obfuscation")
        if obf.__class__ is str:
            keys: tuple[str, ...] = (key, "obfuscation")
            values: tuple[str, ...] = (text, obf)
        else:
            keys, values = (key,), (text,)
        tpl = learn(_text(data), keys, values, partial(_raw_chunk, fields), self._loads)
        if tpl is not None:
            tpl.fields = fields
            # One template per choice and tool call: the newest first, the oldest dropped.
            kept = [x for x in self._tpls if x.fields[0] != index or x.fields[2] != t]
            self._tpls = [tpl, *kept[: _MAX_TEMPLATES - 1]]


def _format_parser(response_format: object | None) -> tuple[bool, Callable[[Any], Any] | None]:
    """Whether content is tracked as JSON, and the parser of the final value (None: plain JSON)."""
    if response_format is None:
        return False, None
    if isinstance(response_format, Mapping):
        # The API's response_format parameter ("Create chat completion", response_format).
        # (isinstance narrows an object to Mapping[Unknown, Unknown]; any key type will do here)
        kind = response_format.get("type")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        if kind in ("json_schema", "json_object"):
            return True, None
        if kind == "text":
            return False, None
        raise ValueError(
            "response_format as a dict must have type 'json_schema', 'json_object' or 'text', "
            f"not {kind!r}"
        )
    return True, make_parser(response_format)
