"""Deterministic generator of realistic OpenAI streaming bodies, as raw SSE bytes.

The streams are shaped like the ones the live API sends (compare ``tests/data/real/*.sse``):

* Responses: ``event: <type>\\ndata: <json>\\n\\n`` blocks; the JSON has ``type`` first and
  the other keys in alphabetical order, compact separators, non-ASCII text as raw UTF-8;
  ``sequence_number`` counts from 0; every delta carries an ``obfuscation`` padding string (16
  characters minus the delta's length, as observed); the full lifecycle (``created``,
  ``in_progress``, ``output_item``, ``content_part`` / ``reasoning_summary_part``, deltas,
  ``*.done`` events) ends with a ``response.completed`` that carries the whole final response.
* Chat Completions: ``data: <json>\\n\\n`` chunks (the ``stream_options.include_usage`` shape:
  every chunk has ``"usage":null``), a finish chunk, a usage chunk with empty ``choices``, then
  ``data: [DONE]``.

Everything derives from ``random.Random``, so the same arguments always give the same bytes.

Scenarios (``n`` means a different thing for each, see ``SCENARIOS``):

``text``            one message with ``n`` output_text deltas of 1-8 characters
``text_logprobs``   the same with per-token ``logprobs`` carrying ``TOP_LOGPROBS`` alternatives
``text_gapped``     ``text`` with sequence numbers 0, 2, 4, ... (a hole after every event)
``text_reordered``  ``text`` with each pair of sequence numbers swapped (0, 1, 3, 2, 5, 4, ...)
``text_items``      messages of 8 output_text deltas each (``n`` deltas in all)
``index_jumps``     the same, each message's ``output_index`` 1000 after the previous one
``function_call``   one function_call item with ``n`` argument deltas that build a JSON object
``function_call_code`` the same, the object's ``content`` ASCII code: its JSON text holds escaped
                    quotes, newlines and backslashes (a coding agent's ``write_file``), which the
                    event's JSON escapes again
``reasoning``       a reasoning item whose summary arrives in 4 parts totalling ``n`` deltas, then a
                    short message
``image``           an image_generation_call with ``PARTIAL_IMAGES`` partial_image events of ``n``
                    base64 characters each and a final result of the same size, then a short message
``chat_text``       Chat Completions, ``n`` content chunks
``chat_tools``      Chat Completions, two tool calls whose arguments arrive in ``n`` chunks in total
``chat_azure``      ``chat_text`` with Azure's ``content_filter_results`` on every choice
``chat_logprobs``   ``chat_text`` with per-token ``logprobs`` (``TOP_LOGPROBS`` alternatives) on every
                    chunk

Run ``python bench/generate.py SCENARIO N [SEED] > out.sse`` to write one stream.
"""

from __future__ import annotations

import base64
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "HOSTILE",
    "JUMP",
    "JUMP_DELTAS",
    "PARTIAL_IMAGES",
    "SCENARIOS",
    "TOP_LOGPROBS",
    "GeneratedStream",
    "generate",
    "payloads",
]

#: Alternatives per token in the ``text_logprobs`` scenario (the API allows 0-20).
TOP_LOGPROBS = 5
#: Number of ``response.image_generation_call.partial_image`` events in the ``image`` scenario.
PARTIAL_IMAGES = 3

_MODEL = "gpt-5.5-2026-04-23"
_CHAT_MODEL = "gpt-5-mini-2025-08-07"
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_HEX = "0123456789abcdef"

# A vocabulary for prose. A few non-ASCII words appear because real model output contains them
# (typographic apostrophes, dashes, accented words) and they exercise UTF-8 split across chunks.
_WORDS = (
    "the of and to in is that for it as with was on be by this are or from at an which not have "
    "has but can all will one more when there their would about into than so some what its only "
    "other also them these may then two first time any like such over most each new where after "
    "should between stream event response token parser buffer network server client request data "
    "model output input function argument value result error state snapshot delta message "
    "reasoning summary image call tool item content part text sequence number index byte chunk "
    "café naïve résumé it\u2019s don\u2019t — déjà-vu"
).split()
_PUNCT = (", ", ". ", "; ", ": ", "\n\n", "\n- ", " (", ") ")


def _dumps(obj: Any) -> str:
    # The API sends compact JSON with raw UTF-8 (ensure_ascii=False), as the recordings show.
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


@dataclass
class GeneratedStream:
    """One generated stream: its bytes plus facts the runner and tests use.

    ``data`` is the whole HTTP body. ``events`` counts SSE events with a data payload (``[DONE]``
    excluded). ``largest_event`` is the size in bytes of the largest SSE block. ``texts`` maps what
    the deltas build (``"output_text"``, ``"arguments"``, ``"summary"``, ``"content"``) to the
    concatenation of those deltas, i.e. the text a snapshot has to accumulate.
    """

    scenario: str
    n: int
    api: str
    data: bytes
    events: int
    largest_event: int
    texts: dict[str, str] = field(default_factory=dict)


class _Ids:
    """Deterministic ids shaped like the API's (prefix + hex)."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def hex(self, prefix: str, length: int = 50) -> str:
        return prefix + "".join(self._rng.choices(_HEX, k=length))

    def alnum(self, prefix: str, length: int) -> str:
        return prefix + "".join(self._rng.choices(_ALNUM, k=length))


class _Obfuscator:
    """Padding strings for the ``obfuscation`` field, cut from one pre-drawn random pool.

    Drawing each string with ``random.choices`` would make generating 1M events needlessly slow.
    """

    def __init__(self, rng: random.Random) -> None:
        self._pool = "".join(rng.choices(_ALNUM, k=4096))
        self._rng = rng

    def __call__(self, delta: str) -> str:
        length = max(1, 16 - len(delta))
        start = self._rng.randrange(0, len(self._pool) - 16)
        return self._pool[start : start + length]


def _prose(rng: random.Random, length: int, *, quotes: bool = True) -> str:
    """Return exactly ``length`` characters of word-like text."""
    words = _WORDS if quotes else tuple(w for w in _WORDS if "\u2019" not in w)
    pieces: list[str] = []
    total = 0
    while total < length:
        word = rng.choice(words)
        sep = rng.choice(_PUNCT) if rng.random() < 0.12 else " "
        pieces.append(word)
        pieces.append(sep)
        total += len(word) + len(sep)
    return "".join(pieces)[:length]


def _split(rng: random.Random, n: int) -> list[int]:
    """Draw ``n`` delta lengths of 1-8 characters."""
    return [rng.randint(1, 8) for _ in range(n)]


def _cut(text: str, lengths: list[int]) -> list[str]:
    out = []
    pos = 0
    for length in lengths:
        out.append(text[pos : pos + length])
        pos += length
    return out


class _ResponsesWriter:
    """Writes Responses SSE blocks with consecutive sequence numbers."""

    def __init__(self, numbering: Callable[[int], int] | None = None) -> None:
        self.blocks: list[bytes] = []
        self.seq = 0  # events written so far
        self.largest = 0
        # Event position -> the sequence_number sent (default: the position itself).
        self._numbering = numbering

    def emit(self, type_: str, **fields: Any) -> None:
        numbering = self._numbering
        fields["sequence_number"] = self.seq if numbering is None else numbering(self.seq)
        self.seq += 1
        # ``type`` first, then the other keys alphabetically: the order the live API uses.
        body = {"type": type_}
        for key in sorted(fields):
            body[key] = fields[key]
        block = f"event: {type_}\ndata: {_dumps(body)}\n\n".encode()
        self.largest = max(self.largest, len(block))
        self.blocks.append(block)


def _response_object(
    resp_id: str,
    status: str,
    output: list[dict[str, Any]],
    usage: dict[str, Any] | None,
    *,
    top_logprobs: int = 0,
    reasoning_summary: str | None = None,
    tools: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    completed = status == "completed"
    return {
        "id": resp_id,
        "object": "response",
        "created_at": 1778037177,
        "status": status,
        "background": False,
        "completed_at": 1778037178 if completed else None,
        "error": None,
        "frequency_penalty": 0.0,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "max_tool_calls": None,
        "model": _MODEL,
        "moderation": None,
        "output": output,
        "parallel_tool_calls": True,
        "presence_penalty": 0.0,
        "previous_response_id": None,
        "prompt_cache_key": None,
        "prompt_cache_retention": "24h",
        "reasoning": {"effort": "low", "summary": reasoning_summary},
        "safety_identifier": None,
        "service_tier": "default" if completed else "auto",
        "store": False,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": "auto",
        "tools": tools or [],
        "top_logprobs": top_logprobs,
        "top_p": 0.98,
        "truncation": "disabled",
        "usage": usage,
        "user": None,
        "metadata": {},
    }


def _usage(output_tokens: int, reasoning_tokens: int = 0) -> dict[str, Any]:
    return {
        "input_tokens": 211,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": reasoning_tokens},
        "total_tokens": 211 + output_tokens,
    }


def _start(w: _ResponsesWriter, resp_id: str, **kw: Any) -> None:
    w.emit("response.created", response=_response_object(resp_id, "in_progress", [], None, **kw))
    w.emit(
        "response.in_progress", response=_response_object(resp_id, "in_progress", [], None, **kw)
    )


def _logprob(rng: random.Random, token: str, top: int) -> dict[str, Any]:
    alternatives = []
    for _ in range(top):
        alt = rng.choice(_WORDS)[: rng.randint(1, 8)]
        alternatives.append(
            {
                "bytes": list(alt.encode()),
                "logprob": -round(rng.uniform(0.5, 12.0), 6),
                "token": alt,
            }
        )
    return {
        "bytes": list(token.encode()),
        "logprob": -round(rng.expovariate(4.0), 8),
        "token": token,
        "top_logprobs": alternatives,
    }


def _message(
    w: _ResponsesWriter,
    rng: random.Random,
    ids: _Ids,
    obf: _Obfuscator,
    deltas: list[str],
    output_index: int,
    *,
    top_logprobs: int | None = None,
) -> dict[str, Any]:
    """Emit one assistant message item streamed as ``deltas``; return the completed item."""
    item_id = ids.hex("msg_")
    item = {
        "id": item_id,
        "type": "message",
        "status": "in_progress",
        "content": [],
        "phase": "final_answer",
        "role": "assistant",
    }
    w.emit("response.output_item.added", item=item, output_index=output_index)
    empty_part = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
    w.emit(
        "response.content_part.added",
        content_index=0,
        item_id=item_id,
        output_index=output_index,
        part=empty_part,
    )
    all_logprobs: list[dict[str, Any]] = []
    for delta in deltas:
        logprobs: list[dict[str, Any]] = []
        if top_logprobs is not None:
            logprobs = [_logprob(rng, delta, top_logprobs)]
            all_logprobs.extend(logprobs)
        w.emit(
            "response.output_text.delta",
            content_index=0,
            delta=delta,
            item_id=item_id,
            logprobs=logprobs,
            obfuscation=obf(delta),
            output_index=output_index,
        )
    text = "".join(deltas)
    w.emit(
        "response.output_text.done",
        content_index=0,
        item_id=item_id,
        logprobs=all_logprobs,
        output_index=output_index,
        text=text,
    )
    part = {"type": "output_text", "annotations": [], "logprobs": all_logprobs, "text": text}
    w.emit(
        "response.content_part.done",
        content_index=0,
        item_id=item_id,
        output_index=output_index,
        part=part,
    )
    done = dict(item, status="completed", content=[part])
    w.emit("response.output_item.done", item=done, output_index=output_index)
    return done


def _finish(w: _ResponsesWriter, resp_id: str, output: list[dict[str, Any]], **kw: Any) -> None:
    usage = kw.pop("usage")
    w.emit(
        "response.completed", response=_response_object(resp_id, "completed", output, usage, **kw)
    )


def _text(
    rng: random.Random,
    n: int,
    *,
    logprobs: bool,
    numbering: Callable[[int], int] | None = None,
) -> tuple[_ResponsesWriter, dict[str, str]]:
    ids = _Ids(rng)
    obf = _Obfuscator(rng)
    lengths = _split(rng, n)
    deltas = _cut(_prose(rng, sum(lengths)), lengths)
    w = _ResponsesWriter(numbering)
    resp_id = ids.hex("resp_")
    top = TOP_LOGPROBS if logprobs else 0
    _start(w, resp_id, top_logprobs=top)
    item = _message(w, rng, ids, obf, deltas, 0, top_logprobs=top if logprobs else None)
    _finish(w, resp_id, [item], usage=_usage(n), top_logprobs=top)
    return w, {"output_text": "".join(deltas)}


def _gapped(position: int) -> int:
    """Sequence numbers with a hole after each one: 0, 2, 4, ..."""
    return 2 * position


def _reordered(position: int) -> int:
    """Each pair of numbers swapped after the first two events: 0, 1, 3, 2, 5, 4, ..."""
    return position if position < 2 else position ^ 1


#: Output items of the ``index_jumps`` scenario each take this many deltas.
JUMP_DELTAS = 8
#: ... and sit this many ``output_index`` slots after the previous one (under the 1024 slots the
#: accumulator pads before it treats a jump as hostile).
JUMP = 1000


def _index_jumps(
    rng: random.Random, n: int, jump: int = JUMP
) -> tuple[_ResponsesWriter, dict[str, str]]:
    """Messages of ``JUMP_DELTAS`` deltas each whose ``output_index`` jumps by *jump*; the
    terminal response lists the items it has. With the default jump no well-behaved server sends
    this (the hostile pattern of the hardening issue, for its cost per event); with ``jump=1`` it
    is the same stream with consecutive indices (``text_items``), its baseline."""
    ids = _Ids(rng)
    obf = _Obfuscator(rng)
    lengths = _split(rng, n)
    deltas = _cut(_prose(rng, sum(lengths)), lengths)
    w = _ResponsesWriter()
    resp_id = ids.hex("resp_")
    _start(w, resp_id)
    items = [
        _message(w, rng, ids, obf, deltas[start : start + JUMP_DELTAS], k * jump)
        for k, start in enumerate(range(0, n, JUMP_DELTAS))
    ]
    _finish(w, resp_id, items, usage=_usage(n))
    return w, {"output_text": "".join(deltas)}


def _arguments_json(rng: random.Random, length: int) -> str:
    """A JSON object text of exactly ``length`` characters (``length`` >= 8)."""
    head = '{"path":"src/stream/parser.py","mode":"overwrite","content":"'
    tail = '"}'
    if length < len(head) + len(tail):
        head = '{"a":"'
    filler = _prose(rng, length - len(head) - len(tail), quotes=False)
    # The filler holds no quote or backslash, but its newlines must be escaped to stay valid JSON;
    # replace them by spaces so the length stays exact.
    return head + filler.replace("\n", " ") + tail


# Pieces of the JSON text of ASCII code, each escape whole (\n, \", \\), for function_call_code.
_CODE = (
    "def ", "return ", "self.", "value", " = ", "(", ")", ":", ", ", "x", "[i]", " + 1", "{}",
    "\\n", "\\n    ", "\\n        ", '\\"', 'print(\\"done\\")', "# a comment", 're.compile(\\"\\\\d+\\")',
)  # fmt: skip


def _code_json(rng: random.Random, length: int) -> str:
    """A JSON object text of exactly ``length`` characters whose ``content`` is ASCII code."""
    head = '{"path":"src/stream/parser.py","mode":"overwrite","content":"'
    tail = '"}'
    room = length - len(head) - len(tail)
    if room < 0:
        return _arguments_json(rng, length)
    parts: list[str] = []
    size = 0
    while True:
        token = rng.choice(_CODE)
        if size + len(token) > room:
            break
        parts.append(token)
        size += len(token)
    parts.append(" " * (room - size))
    return head + "".join(parts) + tail


def _function_call(
    rng: random.Random, n: int, code: bool = False
) -> tuple[_ResponsesWriter, dict[str, str]]:
    ids = _Ids(rng)
    obf = _Obfuscator(rng)
    lengths = _split(rng, n)
    if sum(lengths) < 8:
        lengths = [8] * n
    arguments = (_code_json if code else _arguments_json)(rng, sum(lengths))
    deltas = _cut(arguments, lengths)
    tool = {
        "type": "function",
        "description": "Write a file.",
        "name": "write_file",
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "mode": {"type": "string"},
                "content": {"type": "string"},
            },
            "required": ["path", "mode", "content"],
            "additionalProperties": False,
        },
        "strict": True,
    }
    w = _ResponsesWriter()
    resp_id = ids.hex("resp_")
    _start(w, resp_id, tools=[tool])
    item_id = ids.hex("fc_")
    item = {
        "id": item_id,
        "type": "function_call",
        "status": "in_progress",
        "arguments": "",
        "call_id": ids.alnum("call_", 24),
        "name": "write_file",
    }
    w.emit("response.output_item.added", item=item, output_index=0)
    for delta in deltas:
        w.emit(
            "response.function_call_arguments.delta",
            delta=delta,
            item_id=item_id,
            obfuscation=obf(delta),
            output_index=0,
        )
    w.emit(
        "response.function_call_arguments.done",
        arguments=arguments,
        item_id=item_id,
        output_index=0,
    )
    done = dict(item, status="completed", arguments=arguments)
    w.emit("response.output_item.done", item=done, output_index=0)
    _finish(w, resp_id, [done], usage=_usage(n), tools=[tool])
    return w, {"arguments": arguments}


def _reasoning(rng: random.Random, n: int) -> tuple[_ResponsesWriter, dict[str, str]]:
    ids = _Ids(rng)
    obf = _Obfuscator(rng)
    w = _ResponsesWriter()
    resp_id = ids.hex("resp_")
    _start(w, resp_id, reasoning_summary="auto")
    item_id = ids.hex("rs_")
    encrypted = base64.b64encode(rng.randbytes(1536)).decode()
    item: dict[str, Any] = {
        "id": item_id,
        "type": "reasoning",
        "encrypted_content": encrypted,
        "summary": [],
    }
    w.emit("response.output_item.added", item=item, output_index=0)
    parts = min(4, n)
    summaries: list[dict[str, str]] = []
    all_deltas: list[str] = []
    for index in range(parts):
        count = n // parts + (1 if index < n % parts else 0)
        lengths = _split(rng, count)
        deltas = _cut(f"**Step {index + 1}**\n\n" + _prose(rng, sum(lengths)), lengths)
        all_deltas.extend(deltas)
        empty = {"type": "summary_text", "text": ""}
        w.emit(
            "response.reasoning_summary_part.added",
            item_id=item_id,
            output_index=0,
            part=empty,
            summary_index=index,
        )
        for delta in deltas:
            w.emit(
                "response.reasoning_summary_text.delta",
                delta=delta,
                item_id=item_id,
                obfuscation=obf(delta),
                output_index=0,
                summary_index=index,
            )
        text = "".join(deltas)
        w.emit(
            "response.reasoning_summary_text.done",
            item_id=item_id,
            output_index=0,
            summary_index=index,
            text=text,
        )
        part = {"type": "summary_text", "text": text}
        summaries.append(part)
        w.emit(
            "response.reasoning_summary_part.done",
            item_id=item_id,
            output_index=0,
            part=part,
            summary_index=index,
        )
    done_reasoning = dict(item, summary=summaries)
    w.emit("response.output_item.done", item=done_reasoning, output_index=0)
    lengths = _split(rng, 40)
    answer = _cut(_prose(rng, sum(lengths)), lengths)
    message = _message(w, rng, ids, obf, answer, 1)
    _finish(
        w,
        resp_id,
        [done_reasoning, message],
        usage=_usage(n + 40, reasoning_tokens=n),
        reasoning_summary="auto",
    )
    return w, {"summary": "".join(all_deltas), "output_text": "".join(answer)}


def _image(rng: random.Random, n: int) -> tuple[_ResponsesWriter, dict[str, str]]:
    ids = _Ids(rng)
    obf = _Obfuscator(rng)
    tool = {"type": "image_generation", "output_format": "webp", "quality": "low"}
    w = _ResponsesWriter()
    resp_id = ids.hex("resp_")
    _start(w, resp_id, tools=[tool])
    item_id = ids.hex("ig_")
    item = {"id": item_id, "type": "image_generation_call", "status": "in_progress"}
    w.emit("response.output_item.added", item=item, output_index=0)
    w.emit("response.image_generation_call.in_progress", item_id=item_id, output_index=0)
    w.emit("response.image_generation_call.generating", item_id=item_id, output_index=0)
    # Base64 of random bytes: the size of real image data, and no compressible structure.
    raw = (n * 3 + 3) // 4
    image = ""
    for index in range(PARTIAL_IMAGES):
        image = base64.b64encode(rng.randbytes(raw)).decode()[:n]
        w.emit(
            "response.image_generation_call.partial_image",
            item_id=item_id,
            output_index=0,
            partial_image_b64=image,
            partial_image_index=index,
        )
    w.emit("response.image_generation_call.completed", item_id=item_id, output_index=0)
    done = dict(
        item,
        status="completed",
        background="opaque",
        output_format="webp",
        quality="low",
        result=image,
        revised_prompt="A lighthouse at dusk, watercolour.",
        size="1024x1024",
    )
    w.emit("response.output_item.done", item=done, output_index=0)
    lengths = _split(rng, 40)
    answer = _cut(_prose(rng, sum(lengths)), lengths)
    message = _message(w, rng, ids, obf, answer, 1)
    _finish(w, resp_id, [done, message], usage=_usage(1100), tools=[tool])
    return w, {"output_text": "".join(answer)}


class _ChatWriter:
    """Writes Chat Completions chunks as ``data:`` blocks."""

    def __init__(self, rng: random.Random, ids: _Ids) -> None:
        self.blocks: list[bytes] = []
        self.largest = 0
        self.count = 0
        self._obf = _Obfuscator(rng)
        self._id = ids.alnum("chatcmpl-", 29)

    def chunk(self, choices: list[dict[str, Any]], usage: dict[str, Any] | None = None) -> None:
        body = {
            "id": self._id,
            "object": "chat.completion.chunk",
            "created": 1766410466,
            "model": _CHAT_MODEL,
            "service_tier": "default",
            "system_fingerprint": None,
            "choices": choices,
            "usage": usage,
        }
        delta = choices[0]["delta"].get("content") if choices else None
        body["obfuscation"] = self._obf(delta if isinstance(delta, str) else "")
        self._add(f"data: {_dumps(body)}\n\n".encode())

    def _add(self, block: bytes) -> None:
        self.largest = max(self.largest, len(block))
        self.blocks.append(block)
        self.count += 1

    def done(self, output_tokens: int) -> None:
        self.chunk(
            [],
            {
                "prompt_tokens": 211,
                "completion_tokens": output_tokens,
                "total_tokens": 211 + output_tokens,
                "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
                "completion_tokens_details": {
                    "reasoning_tokens": 0,
                    "audio_tokens": 0,
                    "accepted_prediction_tokens": 0,
                    "rejected_prediction_tokens": 0,
                },
            },
        )
        self.blocks.append(b"data: [DONE]\n\n")


def _choice(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
    return {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}


def _chat_text(rng: random.Random, n: int) -> tuple[_ChatWriter, dict[str, str]]:
    w = _ChatWriter(rng, _Ids(rng))
    lengths = _split(rng, n)
    deltas = _cut(_prose(rng, sum(lengths)), lengths)
    w.chunk([_choice({"role": "assistant", "content": "", "refusal": None})])
    for delta in deltas:
        w.chunk([_choice({"content": delta})])
    w.chunk([_choice({}, "stop")])
    w.done(n)
    return w, {"content": "".join(deltas)}


# Azure OpenAI's per-choice filter verdicts (tests/data/real/chat-vercel-ai-azure-model-router.1.sse).
_AZURE_FILTERS = {
    name: {"filtered": False, "severity": "safe"}
    for name in ("hate", "self_harm", "sexual", "violence")
}


def _chat_azure(rng: random.Random, n: int) -> tuple[_ChatWriter, dict[str, str]]:
    """``chat_text`` as Azure OpenAI sends it: each choice carries ``content_filter_results``."""
    w = _ChatWriter(rng, _Ids(rng))
    lengths = _split(rng, n)
    deltas = _cut(_prose(rng, sum(lengths)), lengths)
    first = _choice({"role": "assistant", "content": "", "refusal": None})
    w.chunk([dict(first, content_filter_results={})])
    for delta in deltas:
        w.chunk([dict(_choice({"content": delta}), content_filter_results=_AZURE_FILTERS)])
    w.chunk([dict(_choice({}, "stop"), content_filter_results={})])
    w.done(n)
    return w, {"content": "".join(deltas)}


def _chat_logprob(rng: random.Random, token: str, top: int) -> dict[str, Any]:
    # The shape of tests/data/real/chat-openai-python-test_content_logprobs_events.sse, with
    # alternatives (top_logprobs=TOP_LOGPROBS in the request).
    def entry(text: str, logprob: float) -> dict[str, Any]:
        return {"token": text, "logprob": logprob, "bytes": list(text.encode())}

    alternatives = [
        entry(rng.choice(_WORDS), -round(rng.uniform(0.5, 12.0), 6)) for _ in range(top)
    ]
    return dict(entry(token, -round(rng.expovariate(4.0), 8)), top_logprobs=alternatives)


def _chat_logprobs(rng: random.Random, n: int) -> tuple[_ChatWriter, dict[str, str]]:
    """``chat_text`` with ``logprobs`` on every chunk (``logprobs=True, top_logprobs=5``)."""
    w = _ChatWriter(rng, _Ids(rng))
    lengths = _split(rng, n)
    deltas = _cut(_prose(rng, sum(lengths)), lengths)
    first = _choice({"role": "assistant", "content": "", "refusal": None})
    w.chunk([dict(first, logprobs={"content": [], "refusal": None})])
    for delta in deltas:
        logprobs = {"content": [_chat_logprob(rng, delta, TOP_LOGPROBS)], "refusal": None}
        w.chunk([dict(_choice({"content": delta}), logprobs=logprobs)])
    w.chunk([_choice({}, "stop")])
    w.done(n)
    return w, {"content": "".join(deltas)}


def _chat_tools(rng: random.Random, n: int) -> tuple[_ChatWriter, dict[str, str]]:
    ids = _Ids(rng)
    w = _ChatWriter(rng, ids)
    counts = [max(1, n // 2), max(1, n - n // 2)]
    texts: dict[str, str] = {}
    for index, count in enumerate(counts):
        lengths = _split(rng, count)
        if sum(lengths) < 8:
            lengths = [8] * count
        arguments = _arguments_json(rng, sum(lengths))
        texts[f"arguments[{index}]"] = arguments
        start = {
            "index": index,
            "id": ids.alnum("call_", 24),
            "type": "function",
            "function": {"name": "write_file", "arguments": ""},
        }
        if index == 0:
            first = {"role": "assistant", "content": None, "tool_calls": [start], "refusal": None}
            w.chunk([_choice(first)])
        else:
            w.chunk([_choice({"tool_calls": [start]})])
        for delta in _cut(arguments, lengths):
            w.chunk([_choice({"tool_calls": [{"index": index, "function": {"arguments": delta}}]})])
    w.chunk([_choice({}, "tool_calls")])
    w.done(n)
    return w, texts


_Builder = Callable[[random.Random, int], "tuple[_ResponsesWriter | _ChatWriter, dict[str, str]]"]

#: scenario name -> (api, meaning of ``n``, builder)
SCENARIOS: dict[str, tuple[str, str, _Builder]] = {
    "text": ("responses", "output_text deltas", lambda r, n: _text(r, n, logprobs=False)),
    "text_logprobs": (
        "responses",
        "output_text deltas with logprobs",
        lambda r, n: _text(r, n, logprobs=True),
    ),
    "text_gapped": (
        "responses",
        "output_text deltas, sequence numbers 0, 2, 4, ...",
        lambda r, n: _text(r, n, logprobs=False, numbering=_gapped),
    ),
    "text_reordered": (
        "responses",
        "output_text deltas, sequence numbers 0, 1, 3, 2, 5, 4, ...",
        lambda r, n: _text(r, n, logprobs=False, numbering=_reordered),
    ),
    "text_items": (
        "responses",
        "output_text deltas, 8 per message item",
        lambda r, n: _index_jumps(r, n, 1),
    ),
    "index_jumps": ("responses", "output_text deltas, output_index +1000 per item", _index_jumps),
    "function_call": ("responses", "argument deltas", _function_call),
    "function_call_code": (
        "responses",
        "function_call arguments deltas, the arguments ASCII code with escapes",
        lambda r, n: _function_call(r, n, code=True),
    ),
    "reasoning": ("responses", "reasoning summary deltas", _reasoning),
    "image": ("responses", "base64 characters per image event", _image),
    "chat_text": ("chat", "content chunks", _chat_text),
    "chat_tools": ("chat", "tool-call argument chunks", _chat_tools),
    "chat_azure": ("chat", "content chunks with Azure's content_filter_results", _chat_azure),
    "chat_logprobs": ("chat", "content chunks with logprobs", _chat_logprobs),
}


#: Scenarios whose sequence numbers or indices no well-behaved server sends (the hardening
#: issue's hostile patterns): the official SDK cannot apply ``index_jumps`` (it indexes its
#: output list by ``output_index``) and is not run on them.
HOSTILE = frozenset({"text_gapped", "text_reordered", "index_jumps"})


def generate(scenario: str, n: int, *, seed: int = 0) -> GeneratedStream:
    """Build the stream ``scenario`` of size ``n`` from ``random.Random(seed)``.

    Raises ``KeyError`` for an unknown scenario and ``ValueError`` when ``n < 1``.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    api, _meaning, builder = SCENARIOS[scenario]
    rng = random.Random(f"{scenario}:{n}:{seed}")
    writer, texts = builder(rng, n)
    events = writer.seq if isinstance(writer, _ResponsesWriter) else writer.count
    return GeneratedStream(
        scenario=scenario,
        n=n,
        api=api,
        data=b"".join(writer.blocks),
        events=events,
        largest_event=writer.largest,
        texts=texts,
    )


def payloads(data: bytes) -> list[bytes]:
    """Split a generated body into its ``data:`` payloads (``[DONE]`` included).

    Only for the generator's own output: one ``data:`` line per block, LF line endings.
    """
    out = []
    for block in data.split(b"\n\n"):
        for line in block.split(b"\n"):
            if line.startswith(b"data: "):
                out.append(line[6:])
    return out


def main(argv: list[str]) -> int:
    """Command line: ``generate.py SCENARIO N [SEED]`` writes the stream to stdout."""
    if len(argv) not in (2, 3) or argv[0] not in SCENARIOS:
        names = ", ".join(SCENARIOS)
        print(f"usage: generate.py SCENARIO N [SEED]   (SCENARIO: {names})", file=sys.stderr)
        return 2
    stream = generate(argv[0], int(argv[1]), seed=int(argv[2]) if len(argv) == 3 else 0)
    sys.stdout.buffer.write(stream.data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
