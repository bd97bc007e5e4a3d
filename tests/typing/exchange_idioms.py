"""The sans-IO exchange as a user's own adapter drives it (issue 18): typed end to end.

Checked by ``mypy --strict`` and ``pyright`` (strict) in .ci/run and run by
tests/test_typing_suite.py, with no socket: the bytes a client would read are given by hand. The
negative side (a misspelt outcome or Script fault keyword is reported) is
tests/test_typing_negative.py.
"""

from __future__ import annotations

import sys
from typing import Literal

import sansio_responses as sr
from sansio_responses.testing import ChatStreamBuilder, Script, StreamBuilder

if sys.version_info >= (3, 11):
    from typing import assert_type
else:
    from typing_extensions import assert_type

SSE = [("content-type", "text/event-stream")]
request = sr.responses_request(
    {"model": "gpt-4o-mini", "input": "hi", "background": True},
    base_url="http://127.0.0.1:9/v1",
    api_key="sk-test",
)

# Exchange(request) is generic in the request's stream: pop() gives Responses events.
x = sr.Exchange(request, total_timeout=60.0)
assert_type(x, sr.Exchange[sr.ResponsesStream])
assert_type(x.stream, sr.ResponsesStream)
assert x.delay == 0  # state "connect": send the first request now
sent = x.begin()
assert_type(sent, sr.Request[sr.ResponsesStream])
assert_type(sr.send_headers(sent), list[tuple[str, str]])
x.on_head(200, SSE)

# Half the body, then the connection drops: a background response is resumed.
body = StreamBuilder(background=True).text("Hello there", 3).completed().to_sse()
x.on_data(body[: len(body) // 2])
x.on_error(sr.failure("dropped", sent))
events: list[sr.ResponseStreamEvent] = []
while (event := x.pop()) is not None:
    assert_type(event, sr.ResponseStreamEvent)
    events.append(event)
assert x.resumes == 1  # state "connect" again, with the resume request
resume = x.begin()
assert_type(resume, sr.Request[sr.ResponsesStream])
assert resume.method == "GET" and resume.response_id == x.stream.response_id
x.on_head(200, SSE)
x.on_data(Script(body).events_after(x.stream.last_sequence_number))
x.on_end()
while (event := x.pop()) is not None:
    events.append(event)
assert x.state == "finished"

# outcome is a Literal of the documented outcomes.
outcome = x.stream.outcome
assert_type(
    outcome, Literal["completed", "incomplete", "failed", "error", "truncated", "cancelled"] | None
)
assert outcome == "completed" and "".join(
    e.delta for e in events if e.type == "response.output_text.delta"
) == ("Hello there")

# ResumePolicy.next_request keeps the request's type.
policy = sr.ResumePolicy()
assert_type(
    policy.next_request(request, sr.ResponsesStream(), sr.TruncatedStream("cut")),
    sr.Request[sr.ResponsesStream] | None,
)

# A Chat request: ChatEvent values.
chat = sr.chat_request({"model": "gpt-4o-mini", "messages": []}, base_url="http://127.0.0.1:9/v1")
y = sr.Exchange(chat)
assert_type(y.stream, sr.ChatCompletionsStream)
y.begin()
y.on_head(200, SSE)
y.on_data(ChatStreamBuilder().content("Hi!", chunks=2).finish("stop").to_sse())
y.on_end()
text = ""
while (chunk := y.pop()) is not None:
    assert_type(chunk, sr.ChatEvent)
    if chunk.choices and chunk.choices[0].delta.content is not None:  # the SDK's loop
        text += chunk.choices[0].delta.content
assert text == "Hi!" and y.stream.outcome == "completed"

# Errors carry the stream; a consumer that stops early cancels.
z = sr.Exchange(request, max_retries=0)
z.begin()
z.on_head(200, SSE)
z.on_data(body[:200])
z.cancel()
assert z.stream.outcome == "cancelled" and z.state == "finished" and z.pop() is None
error = sr.failure("connect", request)
assert_type(error, sr.TransportError)
assert_type(error.stream, sr.ResponsesStream | sr.ChatCompletionsStream | None)

# The testing Script's fault keywords are parameters.
script = Script(body, chunk_size=7, disconnect_after_events=4, keepalive_every=2)
assert (script.faults.chunk_size, script.faults.disconnect_after_events) == (7, 4)
assert Script.error(503, "overloaded", delay=0.01).faults.delay == 0.01
