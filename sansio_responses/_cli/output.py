"""How a stream is shown: live text (or JSON lines) on stdout, then the report on stderr.

Every command that decodes a stream prints through a :class:`Printer`; a change to what the command
line writes (text, report lines, escaping) belongs here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from .._chat.models import ChatCompletion, ChatCompletionChunk
from .._chat.stream import ChatCompletionsStream
from .._diagnostics import Diagnostic
from .._responses.models import Response, ResponseFunctionToolCall, ResponseOutputMessage
from .._responses.stream import ResponsesStream

if TYPE_CHECKING:
    from .._base import JSONValue

#: How many diagnostic codes the report lists (all anomalies are always counted).
_LISTED_DIAGNOSTICS = 20


# Server-controlled text that is not model output (error messages, a failed response's message,
# ids, diagnostics) goes to the terminal with its control characters escaped: an ESC sequence
# could set the title or clear the screen, a CR or LF could forge a line such as "check: ok", and
# bidirectional overrides could reorder what is shown. C0 (but tab), DEL and C1 controls, the
# Unicode bidi controls and line/paragraph separators, and lone surrogates become backslash
# escapes. The answer's live text (model output) is written as is.
_UNSAFE = [
    *[c for c in range(0x20) if c != 0x09],
    *range(0x7F, 0xA0),
    0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029,
    *range(0xD800, 0xE000),
]  # fmt: skip
_ESCAPE = {c: (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in _UNSAFE}
_JSON_ESCAPE = {c: f"\\u{c:04x}" for c in _UNSAFE if c >= 0x7F}  # json.dumps escapes C0 itself


def neutral(text: str) -> str:
    """*text* with the characters a terminal would act on escapes (``\\x1b``, ``\\u202e``)."""
    return text.translate(_ESCAPE)


class Printer:
    """Prints a stream as it decodes: live text (or JSON lines) to *out*, the report to *err*.

    Both streams are flushed after every write that a person waits for, so text appears as it
    arrives even when stdout is a pipe.
    """

    def __init__(self, out: IO[str], err: IO[str], *, events_json: bool = False) -> None:
        self.out = out
        self.err = err
        self.events_json = events_json
        self.events = 0
        self._text_open = False  # printed text that does not end with a newline
        self._text_key: tuple[Any, ...] | None = None

    # live part

    def event(self, event: Any) -> None:
        """Show one decoded event."""
        self.events += 1
        if self.events_json:
            # Valid JSON either way: C1, bidi controls and lone surrogates as \u escapes.
            line = json.dumps(event_json(event), ensure_ascii=False).translate(_JSON_ESCAPE)
            self.out.write(line + "\n")
            self.out.flush()
            return
        for piece, key in _live_text(event):
            if key != self._text_key:
                if self._text_key is not None:
                    # A new message or content part starts: keep them apart.
                    self.out.write("\n\n" if self._text_open else "\n")
                if key[-1] == "refusal":
                    self.out.write("[refusal] ")
                self._text_key = key
            self.out.write(piece)
            self._text_open = not piece.endswith("\n")
        self.out.flush()

    def end_text(self) -> None:
        """End the live text with a newline, if any text was printed."""
        if self._text_open and not self.events_json:
            self.out.write("\n")
            self.out.flush()
        self._text_open = False

    def note(self, line: str) -> None:
        """A progress line on stderr (control characters escaped)."""
        self.err.write(neutral(line) + "\n")
        self.err.flush()

    # report

    def report(
        self,
        stream: ResponsesStream | ChatCompletionsStream | None,
        *,
        error: BaseException | None = None,
        elapsed: float | None = None,
        extra: Sequence[str] = (),
        resumed: bool = False,
    ) -> None:
        """Print the summary: tool calls, outcome, usage, diagnostics, and the error if any."""
        self.end_text()
        lines: list[str] = ["---"]
        if stream is not None:
            if isinstance(stream, ResponsesStream):
                lines += _responses_report(stream)
            else:
                lines += _chat_report(stream)
        if error is not None:
            lines.append(f"error: {describe_error(error)}")
        timing = f"events: {self.events}"
        if stream is not None:
            label = "bytes of the last body" if resumed else "bytes"
            timing += f", {label}: {stream.bytes_fed}"
        if elapsed is not None:
            timing += f", time: {elapsed:.3f} s"
        lines.append(timing)
        lines += extra
        if stream is not None:
            lines += _diagnostics_report(stream)
        self.err.write("\n".join(neutral(line) for line in lines) + "\n")
        self.err.flush()


def event_json(event: Any) -> dict[str, Any]:
    """One event as the JSON object ``--events`` prints: ``{"class": ..., "data": <wire dict>}``."""
    to_dict = getattr(event, "to_dict", None)
    data = to_dict() if callable(to_dict) else getattr(event, "data", None)
    out: dict[str, Any] = {"class": type(event).__name__, "data": data}
    if type(event).__name__ == "ChatUnknownEvent":
        out["event"] = event.event  # the SSE event name is all that tells these apart
    return out


def _live_text(event: Any) -> list[tuple[str, tuple[Any, ...]]]:
    """The answer text this event adds: pieces with a key naming the part each belongs to
    (position, then ``"text"`` or ``"refusal"``)."""
    if isinstance(event, ChatCompletionChunk):
        pieces: list[tuple[str, tuple[Any, ...]]] = []
        for choice in event.choices or ():
            # Live text follows choice 0; other choices are shown whole in the report.
            if (choice.index or 0) != 0:
                continue
            if choice.delta.content:
                pieces.append((choice.delta.content, (0, "text")))
            if choice.delta.refusal:
                pieces.append((choice.delta.refusal, (0, "refusal")))
        return pieces
    etype = getattr(event, "type", None)
    if etype in ("response.output_text.delta", "response.refusal.delta"):
        delta = getattr(event, "delta", None)
        if isinstance(delta, str) and delta:
            # Positions, not item ids: some proxies send a new item_id with every delta.
            where = (getattr(event, "output_index", None), getattr(event, "content_index", None))
            return [(delta, (*where, "refusal" if etype == "response.refusal.delta" else "text"))]
    return []


def _usage_line(usage: Any) -> str | None:
    if usage is None:
        return None
    if hasattr(usage, "input_tokens"):
        # The details are typed models (InputTokensDetails / OutputTokensDetails) or None.
        reasoning = getattr(usage.output_tokens_details, "reasoning_tokens", None)
        cached = getattr(usage.input_tokens_details, "cached_tokens", None)
        line = f"usage: input {usage.input_tokens}"
        if cached:
            line += f" ({cached} cached)"
        line += f", output {usage.output_tokens}"
        if reasoning is not None:
            line += f" ({reasoning} reasoning)"
        return line + f", total {usage.total_tokens} tokens"
    return (
        f"usage: prompt {usage.prompt_tokens}, completion {usage.completion_tokens}, "
        f"total {usage.total_tokens} tokens"
    )


def _responses_report(stream: ResponsesStream) -> list[str]:
    lines: list[str] = []
    snapshot: Response | None = stream.snapshot()
    tool_lines: list[str] = []
    other: list[str] = []
    for item in (snapshot.output or ()) if snapshot is not None else ():
        if isinstance(item, ResponseFunctionToolCall):
            tool_lines.append(f"  {item.name}({item.arguments or ''})  call_id={item.call_id}")
        elif not isinstance(item, ResponseOutputMessage):
            status = getattr(item, "status", None)
            other.append(f"  {item.type}" + (f" ({status})" if status else ""))
    if tool_lines:
        lines.append("tool calls:")
        lines += tool_lines
    if other:
        lines.append("other output items:")
        lines += other
    outcome = stream.outcome or "open (no terminal event yet)"
    detail = ""
    if snapshot is not None:
        if stream.outcome == "incomplete" and snapshot.incomplete_details is not None:
            detail = f" (reason: {snapshot.incomplete_details.reason})"
        elif stream.outcome == "failed" and snapshot.error is not None:
            detail = f" ({snapshot.error.code}: {snapshot.error.message})"
    if stream.outcome == "error" and stream.error_event is not None:
        wire = stream.error_event.to_dict()
        nested: JSONValue = wire.get("error")
        error: dict[str, Any] = nested if isinstance(nested, dict) else wire
        detail = f" ({error.get('code')}: {error.get('message')})"
    lines.append(f"outcome: {outcome}{detail}")
    if stream.response_id is not None:
        model = snapshot.model if snapshot is not None else None
        lines.append(
            f"response: {stream.response_id}"
            + (f", model {model}" if model else "")
            + (" (background)" if stream.background else "")
        )
    usage = _usage_line(snapshot.usage if snapshot is not None else None)
    if usage:
        lines.append(usage)
    return lines


def _chat_report(stream: ChatCompletionsStream) -> list[str]:
    lines: list[str] = []
    snapshot: ChatCompletion | None = stream.snapshot()
    choices = snapshot.choices if snapshot is not None else []
    for choice in choices:
        message = choice.message
        if choice.index != 0 and message.content:
            lines.append(f"choice {choice.index}: {message.content}")
        calls = list(message.tool_calls)
        if message.function_call is not None:
            calls_text = [f"  {message.function_call.name}({message.function_call.arguments})"]
        else:
            calls_text = []
        calls_text += [f"  {c.function.name}({c.function.arguments})  id={c.id}" for c in calls]
        if calls_text:
            lines.append("tool calls" + (f" (choice {choice.index}):" if len(choices) > 1 else ":"))
            lines += calls_text
    finishes = ", ".join(f"{c.index}: {c.finish_reason}" for c in choices)
    outcome = stream.outcome or "open (no [DONE] yet)"
    detail = f" (finish_reason {finishes})" if finishes else ""
    if stream.outcome == "error" and stream.error_event is not None:
        detail = f" ({stream.error_event.code}: {stream.error_event.message})"
    lines.append(f"outcome: {outcome}{detail}")
    if snapshot is not None and snapshot.id:
        lines.append(
            f"completion: {snapshot.id}" + (f", model {snapshot.model}" if snapshot.model else "")
        )
    usage = _usage_line(snapshot.usage if snapshot is not None else None)
    if usage:
        lines.append(usage)
    return lines


def _diagnostics_report(stream: ResponsesStream | ChatCompletionsStream) -> list[str]:
    """One line per diagnostic code: its count and its first occurrence."""
    counts = stream.diagnostic_counts
    total = sum(counts.values())
    if not total:
        return ["diagnostics: none"]
    lines = [f"diagnostics: {total}"]
    first: dict[str, Diagnostic] = {}
    for diagnostic in stream.diagnostics:
        first.setdefault(diagnostic.code, diagnostic)
    for code in [*first, *sorted(set(counts) - set(first))][:_LISTED_DIAGNOSTICS]:
        line = f"  {code} x{counts.get(code, 0)}"
        diagnostic_ = first.get(code)
        if diagnostic_ is not None:
            where: list[str] = []
            if diagnostic_.sequence_number is not None:
                where.append(f"sequence_number {diagnostic_.sequence_number}")
            if diagnostic_.offset is not None:
                where.append(f"byte {diagnostic_.offset}")
            line += f": {diagnostic_.message}"
            if where:
                line += f" [first at {', '.join(where)}]"
        lines.append(line)
    if len(counts) > _LISTED_DIAGNOSTICS:
        lines.append(f"  ... {len(counts) - _LISTED_DIAGNOSTICS} more codes")
    return lines


def describe_error(error: BaseException) -> str:
    kind = type(error).__name__
    return f"{kind}: {error}"
