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
arguments always are; the chunk accessors (:meth:`ChatCompletionChunk.content_parsed`,
:meth:`ChatCompletionChunk.tool_arguments_parsed`), :meth:`ChatCompletionsStream.parsed` and
:meth:`ChatCompletionsStream.parsed_tool_arguments` read them as :mod:`._chat.parsed` says: the
partial value so far, or the final one once the choice ended normally (``finish_reason: "length"``
and ``"content_filter"`` give the partial value instead of an error, unlike the official SDK).
What each chunk's accessors need is a few lengths held by the chunk itself, not by the stream.
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
from .._json.parsing import function_tool_parsers
from .._responses.models import copy_json
from .._sse import DEFAULT_MAX_EVENT_SIZE, ServerSentEvent
from .accumulate import CONTENT, ChoiceAcc, Mark, View, marked
from .entries import PACK, UNPACK
from .fast import ChatFastPaths
from .models import (
    CHUNK_OBJECT,
    ChatCompletion,
    ChatCompletionChunk,
    ChatEvent,
    ChatStreamError,
    ChatUnknownEvent,
    Choice,
    CompletionUsage,
    JSONValue,
    hot_chunk,
)
from .parsed import COMPLETE_FINISH, final_value, format_parser, json_of, latest_value
from .shape import SlotTemplate, Template

__all__ = ["DEFAULT_MAX_CHOICES", "DEFAULT_MAX_TOOL_CALLS", "ChatCompletionsStream", "ChatEvent"]

#: Default bound on the choices of one completion (the API's ``n`` is at most 128).
DEFAULT_MAX_CHOICES = 128
#: Default bound on the tool calls of one choice.
DEFAULT_MAX_TOOL_CALLS = 1024

DONE = "[DONE]"


_SET_VIEW: Callable[[Any, Any], None] = ChatCompletionChunk._view.__set__  # type: ignore[union-attr]


def _text(data: str | bytes | bytearray) -> str:
    """Event data as text (it arrives as bytes on the orjson path), for messages and excerpts."""
    return data if isinstance(data, str) else data.decode("utf-8", "replace")


class ChatCompletionsStream(ChatFastPaths):
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
        events: ``False`` for the snapshot only (the official SDK's ``get_final_completion()``
            use): :meth:`feed` and :meth:`close` then return ``[]``, and the chunks of the
            common shape are applied from their decoded values (or their shape template)
            without building their :class:`ChatCompletionChunk`. Everything else is the same
            code on the same data: framing, JSON, validation (a chunk the events path would
            refuse is refused with the same error), accumulation, :attr:`diagnostics`,
            :attr:`outcome`, the limits, :meth:`snapshot`, :meth:`parsed`,
            :meth:`parsed_tool_arguments` and :attr:`error_event`. The exceptions raised carry
            ``events == []``.

    Attributes:
        outcome: ``None`` while open, then ``"completed"``, ``"error"``, ``"truncated"`` or
            ``"cancelled"`` (an adapter's events object closed before the end).
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
        events: bool = True,
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
        #: False: the snapshot only (see the class docstring); fixed at construction.
        self.events = events
        # Lengths as of the latest chunk, by choice (replaced, never mutated: chunks keep theirs).
        self._mark: Mark = {}  # the lengths as of the latest chunk (see _link)
        self._changes: list[tuple[int, int, int]] = []  # what the current chunk extended
        self.response_format = response_format
        self._structured, self._format_parser = format_parser(response_format)
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
        # The shape templates of the latest content and tool-argument chunks (see _chat/fast.py), when
        # the decoder is one of ours: a custom json_loads may build other values than the
        # standard library's.
        self._tpls: list[Template] = []
        self._lp_tpls: list[SlotTemplate] = []
        self._tpl_on = self._loads is stdlib_loads or self._loads is orjson_loads
        self._tpl_learnt = 0  # attempts to learn one (bounded, see _learn)
        # With orjson decoding, the common path keeps token entries as orjson's text of them.
        self._pack = PACK if UNPACK is not None and self._fast_loads is UNPACK else None

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
        choice that carries a non-empty ``refusal`` (both official SDKs test its truthiness: an
        empty ``refusal`` still parses the content). The partial value is the parser's live
        tree: copy it to keep it.
        """
        if not self._structured:
            return None
        ch = self._choices.get(choice_index)
        if ch is None or (ch.refusal is not None and ch.refusal.length):
            return None
        content = ch.content
        if content is None or not content.length:
            return None
        if ch.finish_reason == "stop":
            value = final_value(content, ch.content_final, self._format_parser)
            ch.content_final = (content.length, value)
            return value
        return latest_value(content)

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
        complete = ch.finish_reason in COMPLETE_FINISH
        parsers = self._tool_parsers
        out: list[Any] = []
        for call in calls:
            if call.type == "custom":
                out.append(call.custom_input())
            elif complete:
                value = final_value(
                    call.args, call.final, None if call.name is None else parsers.get(call.name)
                )
                call.final = (call.args.length, value)
                out.append(value)
            else:
                out.append(latest_value(call.args))
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
            # arguments) and padding: read those strings and skip the JSON decoder (see _chat/fast.py).
            if self._templated(
                data if isinstance(data, str) else data.decode("utf-8", "replace"), out
            ):
                return
        if self._lp_tpls and event_type == "message" and self.outcome is None:
            # The same with logprobs=True: the token entries vary too (read by the scanner).
            if isinstance(data, str) and self._logprobs_templated(data, out):
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
                # Nearly every chunk: built and applied in one go.
                if self._common(obj, out):
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
                if self.events:
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
        if self.events:
            # The chunk's accessors read the lengths as of now: held by the chunk, not the stream.
            view = View()
            view.stream = self
            view.mark = self._mark
            _SET_VIEW(chunk, view)
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
            what = f"choice(s) {unfinished} have no" if unfinished else "no choice has a"
            self._note(
                "done-without-finish-reason",
                f"[DONE] arrived but {what} finish_reason",
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
        if self.events:
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
        return json_of(text).at(length, partial(text.prefix, length))
