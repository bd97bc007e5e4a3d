"""Type-checked only (mypy --strict, pyright strict): every adapter's ``events.stream`` and the
iterated events are typed by the request kind (issue 12 item 2). Never run."""

from __future__ import annotations

from typing import Any

import aiohttp
import httpx
from typing_extensions import assert_type

import sansio_responses as sr
from sansio_responses.adapters import aiohttp as aiohttp_adapter
from sansio_responses.adapters import httpx_async, httpx_sync
from sansio_responses.adapters import socket as socket_adapter
from sansio_responses.adapters import trio as trio_adapter

responses = sr.responses_request({"model": "m", "input": "hi"}, api_key="sk-test")
chat = sr.chat_request({"model": "m", "messages": []}, api_key="sk-test")
resume = sr.resume_request("resp_1", starting_after=3, api_key="sk-test")
assert_type(resume, sr.Request[sr.ResponsesStream])


def blocking() -> None:
    with httpx_sync.open_stream(responses, httpx.Client()) as events:
        for event in events:
            assert_type(event, sr.ResponseStreamEvent)
        assert_type(events.stream, sr.ResponsesStream)
        assert_type(events.stream.snapshot(), sr.Response | None)
        assert_type(events.retries, int)
    with socket_adapter.open_stream(chat) as chunks:
        for chunk in chunks:
            assert_type(chunk, sr.ChatCompletionChunk | sr.ChatStreamError | sr.ChatUnknownEvent)
        assert_type(chunks.stream, sr.ChatCompletionsStream)
        assert_type(chunks.stream.snapshot(), sr.ChatCompletion | None)


async def asynchronous(session: aiohttp.ClientSession) -> None:
    async with aiohttp_adapter.open_stream(chat, session) as chunks:
        async for chunk in chunks:
            assert_type(chunk, sr.ChatCompletionChunk | sr.ChatStreamError | sr.ChatUnknownEvent)
        assert_type(chunks.stream, sr.ChatCompletionsStream)
    async with trio_adapter.open_stream(responses) as events:
        async for event in events:
            assert_type(event, sr.ResponseStreamEvent)
        assert_type(events.stream, sr.ResponsesStream)
    async with httpx_async.open_stream(responses, total_timeout=60, max_retries=0) as events:
        async for event in events:
            assert_type(event, sr.ResponseStreamEvent)
        assert_type(events.stream.snapshot(), sr.Response | None)
    async with httpx_async.open_stream(chat) as chunks:
        assert_type(chunks.stream, sr.ChatCompletionsStream)


def by_hand(request: sr.Request[Any]) -> None:
    # A request built by hand (or typed loosely) gives the union: the kind decides at run time.
    handmade = sr.Request(method="GET", url="http://127.0.0.1/v1/x", headers=(), body=None)
    with socket_adapter.open_stream(handmade) as events:
        assert_type(events.stream, sr.ResponsesStream | sr.ChatCompletionsStream)
