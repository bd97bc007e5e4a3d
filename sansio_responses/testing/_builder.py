"""Builders for correct streams: Responses API events and Chat Completions chunks.

The shapes follow the real recordings in ``tests/data/real/`` (for example
``responses-simonw-llm-test_responses_basic_streaming.sse`` for messages,
``responses-simonw-llm-test_responses_tool_use_streaming-1.sse`` for function calls,
``responses-vercel-ai-azure-gpt5-reasoning-multi-summary-with-encryption.sse`` for reasoning
summaries, ``responses-mirascope-test_refusal__openai_gpt_4o_responses.sse`` for refusals,
``responses-vercel-ai-openai-error.1.sse`` for the ``error`` event and ``response.failed``,
``responses-dd-trace-py-response_stream_incomplete.sse`` for ``response.incomplete`` and
``responses-pydantic-ai-test_background_mode_streaming_starting_after_vcr-1.sse`` for background
mode; ``chat-openai-python-test_parse_nothing.sse`` and
``chat-dd-trace-py-chat_completion_tool_call_streamed.sse`` for Chat Completions).
"""

from __future__ import annotations

import copy
import json
import sys
import uuid
from collections.abc import Sequence
from typing import Any

from .._errors import LocalProtocolError
from .._responses.models import copy_tree

__all__ = ["ChatStreamBuilder", "StreamBuilder", "encode_sse", "split_text"]

_CREATED_AT = 1_700_000_000


def split_text(text: str, chunks: int) -> list[str]:
    """Split *text* into *chunks* contiguous pieces of nearly equal length (fewer when the text is
    shorter than *chunks*; none for an empty text). The pieces always join back to *text*."""
    if chunks < 1:
        raise ValueError(f"chunks must be >= 1, got {chunks}")
    if not text:
        return []
    count = min(chunks, len(text))
    size, extra = divmod(len(text), count)
    pieces: list[str] = []
    start = 0
    for i in range(count):
        end = start + size + (1 if i < extra else 0)
        pieces.append(text[start:end])
        start = end
    return pieces


def _deltas(value: str | Sequence[str], chunks: int) -> list[str]:
    if isinstance(value, str):
        return split_text(value, chunks)
    pieces = list(value)
    if not all(isinstance(piece, str) for piece in pieces):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError("explicit deltas must be a sequence of str")
    return pieces


def _dumps(value: Any) -> str:
    # Compact separators, non-ASCII kept as UTF-8: what the live API sends.
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    except RecursionError:
        # json.dumps recurses once per level: a value passed in (annotations, usage, ...) nested
        # deeper than Python's stack allows.
        raise LocalProtocolError(
            "a value given to the builder nests arrays/objects too deeply to serialize as JSON "
            f"(Python's recursion limit is {sys.getrecursionlimit()})"
        ) from None


def _copy(value: Any) -> Any:
    """``copy.deepcopy`` of caller input, at any depth (never ``RecursionError``)."""
    try:
        return copy.deepcopy(value)
    except RecursionError:
        # Deeper than the recursive copy can go: dicts and lists copied iteratively, the rest
        # (scalars, other objects) deep-copied one by one.
        return copy_tree(value, leaf=copy.deepcopy)


def encode_sse(
    blocks: Sequence[tuple[str | None, str]],
    *,
    crlf: bool = False,
    keepalive_every: int | None = None,
    comments: bool = False,
    cut_after_events: int | None = None,
    cut_into_next: int = 0,
) -> bytes:
    """Frame ``(event_type, data)`` pairs as an event stream (WHATWG HTML "server-sent events").

    Each block is ``event: <type>\\n`` (omitted when the type is ``None``), ``data: <data>\\n``
    and a blank line. *crlf* uses CRLF line endings; *keepalive_every* inserts a ``: keep-alive``
    comment block after every N events; *comments* puts a comment line inside each event block
    (comments never dispatch an event, per the spec's line processing).

    *cut_after_events* cuts the body short, as a dropped connection does: it keeps the first N
    events, then *cut_into_next* bytes of what follows (0: a clean cut between events; more: the
    body ends mid-event, inside the next block, which must be longer than that).
    """
    if keepalive_every is not None and keepalive_every < 1:
        raise ValueError(f"keepalive_every must be >= 1, got {keepalive_every}")
    pieces: list[bytes] = []
    ends: list[int] = []  # byte offset just after each event block
    size = 0

    def add(text: str) -> None:
        nonlocal size
        if crlf:
            text = text.replace("\n", "\r\n")
        data = text.encode("utf-8")
        pieces.append(data)
        size += len(data)

    for number, (event_type, data) in enumerate(blocks, start=1):
        if "\n" in data or "\r" in data:
            raise ValueError("data must be a single line (JSON from this module always is)")
        block = f": event {number}\n" if comments else ""
        if event_type is not None:
            block += f"event: {event_type}\n"
        add(block + f"data: {data}\n\n")
        ends.append(size)
        if keepalive_every is not None and number % keepalive_every == 0:
            add(": keep-alive\n\n")
    body = b"".join(pieces)
    if cut_after_events is None:
        if cut_into_next:
            raise ValueError("cut_into_next needs cut_after_events")
        return body
    return _cut(body, ends, cut_after_events, cut_into_next)


def _cut(body: bytes, ends: list[int], after: int, into: int) -> bytes:
    if after < 0 or into < 0:
        raise ValueError("cut_after_events and cut_into_next must be >= 0")
    if after > len(ends):
        raise ValueError(f"cut_after_events={after}: the body has {len(ends)} events")
    start = ends[after - 1] if after else 0
    if into:
        if after == len(ends):
            raise ValueError(f"cut_into_next={into}: no event follows event {after}")
        if into >= ends[after] - start:
            raise ValueError(
                f"cut_into_next={into}: the next event takes {ends[after] - start} bytes; "
                "cut inside it"
            )
    return body[: start + into]


class StreamBuilder:
    """Build the events of one streamed Responses API response.

    Add output items in order (:meth:`text`, :meth:`refusal`, :meth:`function_call`,
    :meth:`reasoning_summary`), then end the stream with one of :meth:`completed`,
    :meth:`incomplete` or :meth:`failed` (or with none of them, for a truncated stream).
    :meth:`error` puts an ``error`` event anywhere: where it is called, or at a given index.
    :meth:`events` returns the event dicts with ``sequence_number`` counting up from 0;
    :meth:`to_sse` frames them as the server does. The terminal response's ``output`` equals the
    items the deltas built, and ``usage`` counts one output token per delta.

    Ids are derived from *response_id* (a fresh random one by default), so two builders with the
    same arguments and the same *response_id* produce the same bytes.
    """

    def __init__(
        self,
        *,
        model: str = "gpt-4o-mini-2024-07-18",
        response_id: str | None = None,
        background: bool = False,
        created_at: int = _CREATED_AT,
        input_tokens: int = 10,
    ) -> None:
        self.model = model
        self.response_id = response_id or f"resp_{uuid.uuid4().hex}{uuid.uuid4().hex[:16]}"
        self.background = background
        self.created_at = created_at
        self.input_tokens = input_tokens
        self._items: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        self._terminal: list[dict[str, Any]] | None = None
        self._ending: str | None = None
        # error events placed between items: (number of items before it, event)
        self._between: list[tuple[int, dict[str, Any]]] = []
        # error events placed at an absolute position of the finished stream: (position, event)
        self._at: list[tuple[int, dict[str, Any]]] = []
        self._deltas = 0
        self._reasoning_deltas = 0

    # --- items ----------------------------------------------------------------------------------

    def _item_id(self, prefix: str) -> str:
        suffix = self.response_id.split("_", 1)[-1][:40]
        return f"{prefix}_{suffix}{len(self._items):04d}"

    def _check_open(self) -> None:
        if self._ending is not None:
            raise ValueError(f"the stream already ended with {self._ending}")

    def text(
        self, text: str | Sequence[str], chunks: int = 1, *, annotations: Sequence[Any] = ()
    ) -> StreamBuilder:
        """Add an assistant message with one ``output_text`` part. *text* is split into *chunks*
        deltas, or pass a list of str to give the deltas exactly."""
        return self._message("output_text", _deltas(text, chunks), list(annotations))

    def refusal(self, text: str | Sequence[str], chunks: int = 1) -> StreamBuilder:
        """Add an assistant message with one ``refusal`` part (``response.refusal.*`` events)."""
        return self._message("refusal", _deltas(text, chunks), [])

    def _message(self, kind: str, deltas: list[str], annotations: list[Any]) -> StreamBuilder:
        self._check_open()
        index = len(self._items)
        item_id = self._item_id("msg")
        full = "".join(deltas)
        key = "text" if kind == "output_text" else "refusal"
        empty: dict[str, Any] = (
            {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
            if kind == "output_text"
            else {"type": "refusal", "refusal": ""}
        )
        done_part = dict(empty, **{key: full})
        if kind == "output_text":
            done_part["annotations"] = annotations
        item: dict[str, Any] = {
            "id": item_id,
            "type": "message",
            "status": "in_progress",
            "content": [],
        }
        item["role"] = "assistant"
        where = {"item_id": item_id, "output_index": index, "content_index": 0}
        events: list[dict[str, Any]] = [
            {
                "type": "response.output_item.added",
                "item": _copy(item),
                "output_index": index,
            },
            {"type": "response.content_part.added", **where, "part": empty},
        ]
        prefix = "response.output_text" if kind == "output_text" else "response.refusal"
        for delta in deltas:
            event: dict[str, Any] = {"type": f"{prefix}.delta", **where, "delta": delta}
            if kind == "output_text":
                event["logprobs"] = []
            events.append(event)
        done: dict[str, Any] = {"type": f"{prefix}.done", **where, key: full}
        if kind == "output_text":
            done["logprobs"] = []
        events.append(done)
        events.append({"type": "response.content_part.done", **where, "part": done_part})
        final: dict[str, Any] = dict(item, status="completed", content=[done_part])
        events.append({"type": "response.output_item.done", "item": final, "output_index": index})
        self._deltas += len(deltas)
        self._items.append((final, events))
        return self

    def function_call(
        self,
        name: str,
        arguments: str | Sequence[str],
        deltas: int = 1,
        *,
        call_id: str | None = None,
    ) -> StreamBuilder:
        """Add a ``function_call`` item whose *arguments* (a JSON string) arrive in *deltas*
        ``response.function_call_arguments.delta`` events (or pass a list of str)."""
        self._check_open()
        index = len(self._items)
        item_id = self._item_id("fc")
        pieces = _deltas(arguments, deltas)
        full = "".join(pieces)
        item = {
            "id": item_id,
            "type": "function_call",
            "status": "in_progress",
            "arguments": "",
            "call_id": call_id or f"call_{item_id[3:27]}",
            "name": name,
        }
        where = {"item_id": item_id, "output_index": index}
        events: list[dict[str, Any]] = [
            {
                "type": "response.output_item.added",
                "item": _copy(item),
                "output_index": index,
            }
        ]
        for piece in pieces:
            events.append(
                {"type": "response.function_call_arguments.delta", **where, "delta": piece}
            )
        events.append({"type": "response.function_call_arguments.done", **where, "arguments": full})
        final = dict(item, status="completed", arguments=full)
        events.append({"type": "response.output_item.done", "item": final, "output_index": index})
        self._deltas += len(pieces)
        self._items.append((final, events))
        return self

    def reasoning_summary(self, summary: str | Sequence[str], chunks: int = 1) -> StreamBuilder:
        """Add a ``reasoning`` item with one summary part per string in *summary* (a single str is
        one part), each streamed in *chunks* ``response.reasoning_summary_text.delta`` events."""
        self._check_open()
        parts = [summary] if isinstance(summary, str) else list(summary)
        index = len(self._items)
        item_id = self._item_id("rs")
        item: dict[str, Any] = {"id": item_id, "type": "reasoning", "summary": []}
        events: list[dict[str, Any]] = [
            {
                "type": "response.output_item.added",
                "item": _copy(item),
                "output_index": index,
            }
        ]
        for summary_index, text in enumerate(parts):
            where = {"item_id": item_id, "output_index": index, "summary_index": summary_index}
            events.append(
                {
                    "type": "response.reasoning_summary_part.added",
                    **where,
                    "part": {"type": "summary_text", "text": ""},
                }
            )
            pieces = split_text(text, chunks)
            for piece in pieces:
                events.append(
                    {"type": "response.reasoning_summary_text.delta", **where, "delta": piece}
                )
            events.append({"type": "response.reasoning_summary_text.done", **where, "text": text})
            events.append(
                {
                    "type": "response.reasoning_summary_part.done",
                    **where,
                    "part": {"type": "summary_text", "text": text},
                }
            )
            self._reasoning_deltas += len(pieces)
            self._deltas += len(pieces)
        final = dict(item, summary=[{"type": "summary_text", "text": text} for text in parts])
        events.append({"type": "response.output_item.done", "item": final, "output_index": index})
        self._items.append((final, events))
        return self

    # --- endings --------------------------------------------------------------------------------

    def _usage(self) -> dict[str, Any]:
        return {
            "input_tokens": self.input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": self._deltas,
            "output_tokens_details": {"reasoning_tokens": self._reasoning_deltas},
            "total_tokens": self.input_tokens + self._deltas,
        }

    def completed(self, *, usage: dict[str, Any] | None = None) -> StreamBuilder:
        """End with ``response.completed`` (status ``completed``, output and usage filled in)."""
        self._check_open()
        response = self._response("completed", output=self._output(), usage=usage or self._usage())
        response["completed_at"] = self.created_at + 1
        self._terminal = [{"type": "response.completed", "response": response}]
        self._ending = "response.completed"
        return self

    def incomplete(self, reason: str = "max_output_tokens") -> StreamBuilder:
        """End with ``response.incomplete``.

        The last message item is marked ``incomplete`` (in its ``output_item.done`` and in the final
        output), and ``incomplete_details.reason`` is *reason*.
        """
        self._check_open()
        if self._items and self._items[-1][0]["type"] == "message":
            final, events = self._items[-1]
            final["status"] = "incomplete"
            events[-1]["item"]["status"] = "incomplete"
        response = self._response("incomplete", output=self._output(), usage=self._usage())
        response["incomplete_details"] = {"reason": reason}
        self._terminal = [{"type": "response.incomplete", "response": response}]
        self._ending = "response.incomplete"
        return self

    def failed(
        self, code: str = "server_error", message: str = "The model failed."
    ) -> StreamBuilder:
        """End with ``response.failed`` carrying ``error: {code, message}``."""
        self._check_open()
        response = self._response("failed", output=self._output(), usage=None)
        response["error"] = {"code": code, "message": message}
        self._terminal = [{"type": "response.failed", "response": response}]
        self._ending = "response.failed"
        return self

    def error(
        self,
        code: str | None = "server_error",
        message: str = "An error occurred while processing your request.",
        *,
        type: str = "server_error",
        param: str | None = None,
        then_failed: bool = False,
        at: int | None = None,
    ) -> StreamBuilder:
        """Add an ``error`` event where it is called: after the items added so far.

        Its ``error`` is ``{type, code, message, param}``, the shape the live API sends. The stream
        stays open, so items and an ending may follow it (a server that reports an error and
        carries on, or a test of what a client does with events after an error); called last, it
        ends the body. With *then_failed* a ``response.failed`` follows it and ends the stream, as
        in the recorded stream. With *at*, the event is instead placed at index *at* of the
        finished stream (0: before ``response.created``; inside an item, between its deltas, ...):
        :meth:`events` and :meth:`to_sse` raise :class:`ValueError` if the stream is shorter.
        """
        error = {"type": type, "code": code, "message": message, "param": param}
        event: dict[str, Any] = {"type": "error", "error": error}
        if at is not None:  # a position in the finished stream: allowed after the ending too
            if then_failed:
                raise ValueError(
                    "at= places one error event; then_failed ends the stream: pick one"
                )
            if at < 0:
                raise ValueError(f"at must be >= 0, got {at}")
            self._at.append((at, event))
            return self
        self._check_open()
        if not then_failed:
            self._between.append((len(self._items), event))
            return self
        response = self._response("failed", output=self._output(), usage=None)
        response["error"] = {"code": code, "message": message}
        self._terminal = [event, {"type": "response.failed", "response": response}]
        self._ending = "error"
        return self

    # --- output ---------------------------------------------------------------------------------

    def _output(self) -> list[dict[str, Any]]:
        return [_copy(final) for final, _ in self._items]

    def _response(
        self, status: str, *, output: list[dict[str, Any]], usage: dict[str, Any] | None
    ) -> dict[str, Any]:
        return {
            "id": self.response_id,
            "object": "response",
            "created_at": self.created_at,
            "status": status,
            "background": self.background,
            "completed_at": None,
            "error": None,
            "incomplete_details": None,
            "instructions": None,
            "max_output_tokens": None,
            "model": self.model,
            "output": output,
            "parallel_tool_calls": True,
            "previous_response_id": None,
            "reasoning": {"effort": None, "summary": None},
            "store": True,
            "temperature": 1.0,
            "text": {"format": {"type": "text"}},
            "tool_choice": "auto",
            "tools": [],
            "top_p": 1.0,
            "truncation": "disabled",
            "usage": usage,
            "user": None,
            "metadata": {},
        }

    def _numbered(self) -> list[dict[str, Any]]:
        # Shallow copies sharing nested values with the builder: callers must copy or serialize.
        first = "queued" if self.background else "in_progress"
        head: list[dict[str, Any]] = [
            {"type": "response.created", "response": self._response(first, output=[], usage=None)}
        ]
        if self.background:
            head.append(
                {
                    "type": "response.queued",
                    "response": self._response("queued", output=[], usage=None),
                }
            )
        head.append(
            {
                "type": "response.in_progress",
                "response": self._response("in_progress", output=[], usage=None),
            }
        )
        body: list[dict[str, Any]] = []
        for index, (_, events) in enumerate(self._items):
            body += [event for before, event in self._between if before == index]
            body += events
        body += [event for before, event in self._between if before == len(self._items)]
        tail: list[dict[str, Any]] = self._terminal or []
        ordered = [*head, *body, *tail]
        # Lowest position first: each lands at its index, the later ones after it.
        for position, event in sorted(self._at, key=lambda pair: pair[0]):
            if position > len(ordered):
                raise ValueError(
                    f"error(at={position}): the stream has only {len(ordered)} events before it"
                )
            ordered.insert(position, event)
        return [{**event, "sequence_number": number} for number, event in enumerate(ordered)]

    def events(self) -> list[dict[str, Any]]:
        """All events so far, as fresh dicts with ``sequence_number`` 0, 1, 2, ..."""
        # A JSON round trip is a faster deep copy than copy.deepcopy for these plain values.
        result: list[dict[str, Any]] = json.loads(_dumps(self._numbered()))
        return result

    def to_sse(
        self,
        *,
        crlf: bool = False,
        keepalive_every: int | None = None,
        comments: bool = False,
        cut_after_events: int | None = None,
        cut_into_next: int = 0,
    ) -> bytes:
        """The events framed as ``event: <type>\\ndata: <json>\\n\\n`` blocks (see
        :func:`encode_sse` for the options: ``to_sse(cut_after_events=5)`` ends the body after
        five events, ``to_sse(cut_after_events=5, cut_into_next=30)`` 30 bytes into the sixth)."""
        return encode_sse(
            [(event["type"], _dumps(event)) for event in self._numbered()],
            crlf=crlf,
            keepalive_every=keepalive_every,
            comments=comments,
            cut_after_events=cut_after_events,
            cut_into_next=cut_into_next,
        )


class ChatStreamBuilder:
    """Build the chunks of one streamed Chat Completions response.

    The first delta of each choice carries ``role: "assistant"`` (with ``content: ""`` and
    ``refusal: null``, as the live API sends). Add :meth:`content`, :meth:`refusal` and
    :meth:`tool_call` deltas, then :meth:`finish` each choice and optionally add the :meth:`usage`
    chunk (empty ``choices``, sent with ``stream_options.include_usage``); :meth:`error` puts an
    ``{"error": ...}`` chunk anywhere. :meth:`to_sse` frames each chunk as ``data: <json>\\n\\n``
    and ends with ``data: [DONE]``.
    """

    def __init__(
        self,
        *,
        model: str = "gpt-4o-mini-2024-07-18",
        completion_id: str | None = None,
        created: int = _CREATED_AT,
        system_fingerprint: str | None = "fp_0000000000",
    ) -> None:
        self.model = model
        self.completion_id = completion_id or f"chatcmpl-{uuid.uuid4().hex[:29]}"
        self.created = created
        self.system_fingerprint = system_fingerprint
        self._chunks: list[dict[str, Any]] = []
        self._started: set[int] = set()
        self._tool_count: dict[int, int] = {}
        self._content_deltas = 0

    def _chunk(self, choices: list[dict[str, Any]], **extra: Any) -> None:
        chunk = {
            "id": self.completion_id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "system_fingerprint": self.system_fingerprint,
            "choices": choices,
            **extra,
        }
        self._chunks.append(chunk)

    def _delta(self, choice: int, delta: dict[str, Any], finish_reason: str | None = None) -> None:
        self._chunk(
            [{"index": choice, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]
        )

    def _start(self, choice: int) -> None:
        if choice not in self._started:
            self._started.add(choice)
            self._delta(choice, {"role": "assistant", "content": "", "refusal": None})

    def content(
        self, text: str | Sequence[str], chunks: int = 1, *, choice: int = 0
    ) -> ChatStreamBuilder:
        """Stream *text* as ``delta.content`` in *chunks* pieces (or the given list of str)."""
        self._start(choice)
        for piece in _deltas(text, chunks):
            self._delta(choice, {"content": piece})
            self._content_deltas += 1
        return self

    def refusal(
        self, text: str | Sequence[str], chunks: int = 1, *, choice: int = 0
    ) -> ChatStreamBuilder:
        """Stream *text* as ``delta.refusal`` in *chunks* pieces."""
        self._start(choice)
        for piece in _deltas(text, chunks):
            self._delta(choice, {"refusal": piece})
            self._content_deltas += 1
        return self

    def tool_call(
        self,
        name: str,
        arguments: str | Sequence[str],
        deltas: int = 1,
        *,
        choice: int = 0,
        call_id: str | None = None,
    ) -> ChatStreamBuilder:
        """Stream one function tool call: a first delta with its ``index``, ``id``, ``type`` and
        ``name`` (empty arguments), then the *arguments* in *deltas* pieces, each addressed by the
        tool call's ``index`` only."""
        self._start(choice)
        index = self._tool_count.get(choice, 0)
        self._tool_count[choice] = index + 1
        head = {
            "index": index,
            "id": call_id or f"call_{uuid.uuid4().hex[:24]}",
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        self._delta(choice, {"tool_calls": [head]})
        for piece in _deltas(arguments, deltas):
            self._delta(
                choice, {"tool_calls": [{"index": index, "function": {"arguments": piece}}]}
            )
            self._content_deltas += 1
        return self

    def finish(self, reason: str = "stop", *, choice: int = 0) -> ChatStreamBuilder:
        """Send the choice's last chunk: an empty delta with ``finish_reason`` set."""
        self._start(choice)
        self._delta(choice, {}, reason)
        return self

    def usage(
        self, prompt_tokens: int = 10, completion_tokens: int | None = None
    ) -> ChatStreamBuilder:
        """Send the usage chunk (``choices: []``); *completion_tokens* defaults to the number of
        deltas sent."""
        completion = self._content_deltas if completion_tokens is None else completion_tokens
        self._chunk(
            [],
            usage={
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion,
                "total_tokens": prompt_tokens + completion,
            },
        )
        return self

    def error(
        self,
        message: str = "The server had an error while processing your request.",
        *,
        type: str | None = "server_error",
        code: str | None = None,
        param: str | None = None,
    ) -> ChatStreamBuilder:
        """Send an error chunk at this place: ``data: {"error": {"message", "type", "param",
        "code"}}``, what the API streams when a completion fails midway. Chunks added after it
        follow it (``to_sse()`` still ends with ``data: [DONE]`` unless ``done=False``)."""
        self._chunks.append(
            {"error": {"message": message, "type": type, "param": param, "code": code}}
        )
        return self

    def chunks(self) -> list[dict[str, Any]]:
        """All chunks so far, as fresh dicts."""
        return _copy(self._chunks)  # type: ignore[no-any-return]

    def to_sse(
        self,
        *,
        done: bool = True,
        crlf: bool = False,
        keepalive_every: int | None = None,
        comments: bool = False,
        cut_after_events: int | None = None,
        cut_into_next: int = 0,
    ) -> bytes:
        """The chunks framed as ``data: <json>\\n\\n`` blocks, then ``data: [DONE]`` unless
        *done* is false (see :func:`encode_sse` for the other options; ``data: [DONE]`` counts as
        an event for *cut_after_events*)."""
        blocks: list[tuple[str | None, str]] = [(None, _dumps(chunk)) for chunk in self._chunks]
        if done:
            blocks.append((None, "[DONE]"))
        return encode_sse(
            blocks,
            crlf=crlf,
            keepalive_every=keepalive_every,
            comments=comments,
            cut_after_events=cut_after_events,
            cut_into_next=cut_into_next,
        )
