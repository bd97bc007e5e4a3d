"""Adapter idioms of the README (httpx_sync), as far as they are typed today.

Checked by ``mypy --strict`` and ``pyright`` (strict) in .ci/run and run by
tests/test_typing_suite.py. Iterating an adapter's events and narrowing them by ``type`` must
type-check; the typing of ``events.stream`` by the request kind is checked where the adapters give
it.
"""

from __future__ import annotations

import sansio_responses as sr
from sansio_responses.adapters.httpx_sync import open_stream
from sansio_responses.testing import Script, recording, serve

background = recording("responses-pydantic-ai-test_background_mode_streaming_starting_after_vcr-1")

# The README's resume example: the server cuts the connection after 6 events.
with serve(Script(background, disconnect_after_events=6)) as server:
    request = sr.responses_request(
        {"model": "gpt-4o", "input": "What is 2 + 2?", "background": True},
        base_url=server.base_url,
        api_key="sk-test",
    )
    with open_stream(request) as events:
        text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
        resumes: int = events.resumes
        outcome: str | None = events.stream.outcome
assert text == "2 + 2 equals 4." and resumes == 1 and outcome == "completed"
