"""Chat Completions idioms of the README and docs/guide/chat.md, with the types they get.

Checked by ``mypy --strict`` and ``pyright`` (strict) in .ci/run and run by
tests/test_typing_suite.py (see responses_idioms.py).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import sansio_responses as sr
from sansio_responses.testing import ChatStreamBuilder

if sys.version_info >= (3, 11):
    from typing import assert_type
else:
    from typing_extensions import assert_type

body = (
    ChatStreamBuilder()
    .content("Let me check.", chunks=3)
    .tool_call("get_weather", '{"city": "Paris"}', deltas=3)
    .finish("tool_calls")
    .to_sse()
)
usage_chunk: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion.chunk",
    "choices": [],
    "usage": {
        "prompt_tokens": 10,
        "completion_tokens": 6,
        "total_tokens": 16,
        "completion_tokens_details": {"reasoning_tokens": 2, "new_counter": 1},
    },
}
body += f"data: {json.dumps(usage_chunk)}\n\n".encode()
# Compatible servers send keep-alive objects and in-stream errors: other members of ChatEvent.
body += b'data: {"type": "ping"}\n\ndata: [DONE]\n\n'

stream = sr.ChatCompletionsStream()
chunks = stream.feed(body)
assert_type(chunks, list[sr.ChatEvent])
assert_type(stream.close(), list[sr.ChatEvent])

# The SDK idiom reads `chunk.choices` on every event: error and unknown events have none.
text: list[str] = []
for chunk in chunks:
    for choice in chunk.choices:
        assert_type(choice, sr.ChunkChoice)
        assert_type(choice.delta, sr.ChoiceDelta)  # never None, as in the official SDK
        if choice.delta.content:
            text.append(choice.delta.content)
    if chunk.usage is not None and chunk.usage.completion_tokens_details is not None:
        assert_type(chunk.usage.completion_tokens_details.reasoning_tokens, int | None)
assert "".join(text) == "Let me check."

# The official SDK's standard Chat loop, as written there.
sdk_text = ""
for chunk in chunks:
    if chunk.choices and chunk.choices[0].delta.content is not None:
        sdk_text += chunk.choices[0].delta.content
assert sdk_text == "Let me check."

# match on the classes
kinds: list[str] = []
for chunk in chunks:
    match chunk:
        case sr.ChatCompletionChunk(usage=sr.CompletionUsage() as chunk_usage):
            assert_type(chunk_usage.total_tokens, int | None)
            kinds.append("usage")
        case sr.ChatCompletionChunk():
            kinds.append("chunk")
        case sr.ChatStreamError(message=message):
            assert_type(message, str | None)
            kinds.append("error")
        case sr.ChatUnknownEvent(data=data):
            assert_type(data, dict[str, Any])
            kinds.append("unknown")
assert kinds[-2:] == ["usage", "unknown"] and set(kinds[:-2]) == {"chunk"}

# The accumulated completion.
completion = stream.snapshot()
assert_type(completion, sr.ChatCompletion | None)
assert completion is not None
first = completion.choice(0)
assert first is not None
assert_type(first.message.content, str | None)
call = first.message.tool_calls[0]
assert_type(call.function.arguments, str)
assert json.loads(call.function.arguments) == {"city": "Paris"}
usage = completion.usage
assert usage is not None and usage.completion_tokens_details is not None
assert_type(usage.completion_tokens_details, sr.CompletionTokensDetails)
assert usage.completion_tokens_details.reasoning_tokens == 2
assert usage.completion_tokens_details.extra == {"new_counter": 1}
assert usage.to_dict() == usage_chunk["usage"]
