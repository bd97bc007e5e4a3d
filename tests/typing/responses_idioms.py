"""Responses idioms of the README and the docs, as a user writes them, with the types they get.

Checked by ``mypy --strict`` and ``pyright`` (strict) in .ci/run, from this folder, so that the
imports resolve through the installed package as in a user's project; run by
tests/test_typing_suite.py, so that what the checkers are told is also what run time does.
"""

from __future__ import annotations

import sys

import sansio_responses as sr
from sansio_responses.testing import StreamBuilder

if sys.version_info >= (3, 11):
    from typing import assert_type
else:
    from typing_extensions import assert_type

body = (
    StreamBuilder()
    .text("Hello", chunks=2)
    .function_call("multiply", '{"a": 6, "b": 7}', deltas=2)
    .completed()
    .to_sse()
)
# A type the library does not know: it comes out of feed() as an UnknownEvent.
body += b'event: ping\ndata: {"type": "ping", "sequence_number": 99}\n\n'

# --- feed() and close() are typed; `event.type == ...` narrows to the one class -----------------

stream = sr.ResponsesStream()
events = stream.feed(body[:40])
assert_type(events, list[sr.ResponseStreamEvent])
events += stream.feed(body[40:])
assert_type(stream.close(), list[sr.ResponseStreamEvent])

text: list[str] = []
seen: list[type[object]] = []
for event in events:
    if event.type == "response.output_text.delta":
        assert_type(event, sr.ResponseTextDeltaEvent)
        text.append(event.delta)
        assert_type(event.snapshot, str | None)
        seen.append(type(event))
    elif event.type == "response.function_call_arguments.done":
        assert_type(event, sr.ResponseFunctionCallArgumentsDoneEvent)
        assert_type(event.arguments, str)
    elif event.type == "response.completed":
        assert_type(event.response, sr.Response)
        assert_type(event.sequence_number, int | None)
assert "".join(text) == "Hello"
assert seen == [sr.ResponseTextDeltaEvent] * 2

# A generator expression narrows the same way (the README's resume example).
joined = "".join(e.delta for e in events if e.type == "response.output_text.delta")
assert joined == "Hello"

# --- match on the classes -------------------------------------------------------------------------

unknown_types: list[str] = []
for event in events:
    match event:
        case sr.ResponseTextDeltaEvent(delta=delta):
            assert_type(delta, str)
        case sr.ResponseOutputItemDoneEvent(item=sr.ResponseFunctionToolCall() as call):
            assert_type(call.arguments, str | None)
        case sr.UnknownEvent():
            # The wire type of an unknown event: its data (type checkers see a placeholder tag
            # for event.type, see the concepts guide, "Typing").
            unknown_types.append(event.data["type"])
            assert event.type == event.data["type"]
        case _:
            pass
assert unknown_types == ["ping"]

# --- the snapshot, its items narrowed by `type`, its typed nested objects ---------------------------

final = stream.snapshot()
assert_type(final, sr.Response | None)
assert final is not None
assert_type(final.output_text, str)
kinds: list[str] = []
for item in final.output or ():
    if item.type == "function_call":
        assert_type(item, sr.ResponseFunctionToolCall)
        assert item.name == "multiply"
    elif item.type == "message":
        assert_type(item, sr.ResponseOutputMessage)
        for part in item.content or ():
            if part.type == "output_text":
                assert_type(part, sr.ResponseOutputText)
                assert part.text == "Hello"
    kinds.append(item.type)
assert kinds == ["message", "function_call"]
usage = final.usage
assert usage is not None
assert_type(usage.output_tokens, int | None)
details = usage.output_tokens_details
assert details is not None
assert_type(details.reasoning_tokens, int | None)
assert_type(usage.input_tokens_details, sr.InputTokensDetails | None)
assert details.to_dict() == {"reasoning_tokens": 0}

incomplete = sr.ResponsesStream()
incomplete.feed(StreamBuilder().text("Hel").incomplete("max_output_tokens").to_sse())
incomplete.close()
snapshot = incomplete.snapshot()
assert snapshot is not None and snapshot.incomplete_details is not None
assert_type(snapshot.incomplete_details.reason, str | None)
assert snapshot.incomplete_details.reason == "max_output_tokens"

failed = sr.ResponsesStream()
failed.feed(StreamBuilder().text("Hel").failed("server_error", "boom").to_sse())
failed.close()
snapshot = failed.snapshot()
assert snapshot is not None and snapshot.error is not None
assert_type(snapshot.error.message, str | None)
assert (snapshot.error.code, snapshot.error.message) == ("server_error", "boom")

# --- parse_event: one event from a decoded data object ---------------------------------------------

parsed = sr.parse_event({"type": "response.output_text.delta", "delta": "Hi", "obfuscation": "x"})
if parsed.type == "response.output_text.delta":
    assert_type(parsed, sr.ResponseTextDeltaEvent)
    assert parsed.delta == "Hi" and parsed.extra == {"obfuscation": "x"}
else:
    raise AssertionError(parsed)

# --- errors keep what was decoded -------------------------------------------------------------------

broken = sr.ResponsesStream()
try:
    broken.feed(b"data: {not json}\n\n")
except sr.RemoteProtocolError as exc:
    assert_type(exc.offset, int | None)
else:
    raise AssertionError("invalid JSON must raise")

# --- a status error from your own HTTP stack: `raise sr.response_error(...)` checks as written -------

status, head = 429, [("retry-after", "2")]
if sr.needs_error_body(status, head):
    error = sr.response_error(status, head, b'{"error": {"message": "Slow down"}}')
    assert_type(error, sr.APIStatusError)  # never None: a 2xx raises LocalProtocolError instead
    assert isinstance(error, sr.RateLimitError) and error.retry_after == 2.0
try:
    sr.response_error(200, [], b"")
except sr.LocalProtocolError as exc:
    assert "no error" in str(exc)
else:
    raise AssertionError("a 2xx is no status error")

# --- an unknown event built by hand (as a test of one's own handler would) ------------------------

ping = sr.UnknownEvent("ping", None, {"type": "ping"})
assert ping.data["type"] == "ping" and ping.sequence_number is None
