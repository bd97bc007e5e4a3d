"""The flat namespace by every route a user takes: ``sr.X``, ``from sansio_responses import X``, ``*``.

Each public name is written once, as a ``Name as Name`` import in the ``TYPE_CHECKING`` block of
``sansio_responses/__init__.py``; at run time the module reads its names from that block. These lines
check that both checkers see the real types through each route, and run (tests/test_typing_suite.py)
to show that run time gives the same objects.
"""

from __future__ import annotations

import sys
from typing import Literal

import sansio_responses as sr
from sansio_responses import *  # noqa: F403  # pyright: ignore[reportWildcardImportFromLibrary]
from sansio_responses import (
    DEFAULT_MAX_EVENT_SIZE,
    ChatCompletionsStream,
    ProtocolError,
    ResponsesStream,
    chat_request,
)

if sys.version_info >= (3, 11):
    from typing import assert_type
else:
    from typing_extensions import assert_type

# --- from-imports: the real classes, functions and constants ---------------------------------------

responses = ResponsesStream()
assert_type(responses.snapshot(), sr.Response | None)
chat = ChatCompletionsStream()
assert_type(chat.snapshot(), sr.ChatCompletion | None)
assert_type(DEFAULT_MAX_EVENT_SIZE, int)
request = chat_request({"model": "m", "messages": []}, api_key="sk-test")
assert_type(request, sr.Request[sr.ChatCompletionsStream])
assert issubclass(sr.RemoteProtocolError, ProtocolError)

# --- attribute access on the module is the same object, with the same type -------------------------

assert sr.ResponsesStream is ResponsesStream and sr.chat_request is chat_request
assert_type(sr.DEFAULT_MAX_EVENT_SIZE, int)
assert_type(
    sr.ResponsesStream().outcome,
    Literal["completed", "incomplete", "failed", "error", "truncated", "cancelled"] | None,
)

# --- a star-import brings the public names (and only those: `__all__` at run time) ----------------

assert_type(Response, type[sr.Response])  # noqa: F405
event = parse_event({"type": "ping"})  # noqa: F405
assert_type(event, sr.ResponseStreamEvent)
assert isinstance(event, UnknownEvent)  # noqa: F405
assert_type(ChatCompletion, type[sr.ChatCompletion])  # noqa: F405
assert Response is sr.Response and ChatCompletion is sr.ChatCompletion  # noqa: F405
assert "TYPE_CHECKING" not in globals() and "_public_names" not in globals()
