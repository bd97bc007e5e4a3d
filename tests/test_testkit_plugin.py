"""The test kit's pytest plugin loads itself (``pytest11`` entry point), and its split-at-every-
offset helper runs a check over every chunking of a body and names the one that breaks it.

The plugin tests run pytest in a subprocess on a test file of the kind a user writes, so the
entry point is loaded the way it is in a user's project (with no ``pytest_plugins`` line).
"""

from __future__ import annotations

import textwrap

import pytest

import sansio_responses as sr
from sansio_responses.testing import (
    EverySplit,
    chunkings,
    for_every_split,
    recording,
    recording_facts,
)

pytest_plugins = ["pytester"]

USER_TEST = """
import sansio_responses as sr
from sansio_responses.adapters.httpx_sync import open_stream
from sansio_responses.testing import EverySplit, ResponsesServer, Script, recording

BASIC = "responses-simonw-llm-test_responses_basic_streaming"


def test_server(responses_server: ResponsesServer) -> None:
    responses_server.enqueue(Script(recording(BASIC)))
    request = sr.responses_request({"model": "m", "input": "ping"}, base_url=responses_server.base_url)
    with open_stream(request) as events:
        list(events)
    assert events.stream.outcome == "completed"


def test_splits(every_split: EverySplit) -> None:
    def text(chunks: list[bytes]) -> str:
        stream = sr.ResponsesStream()
        for chunk in chunks:
            stream.feed(chunk)
        stream.close()
        snapshot = stream.snapshot()
        assert snapshot is not None
        return snapshot.output_text

    assert every_split(recording(BASIC), text, step=50) == "pong"
"""


def test_the_fixtures_are_there_without_a_pytest_plugins_line(pytester: pytest.Pytester) -> None:
    assert (
        "pong"
        == recording_facts("responses-simonw-llm-test_responses_basic_streaming")[
            "final_output_text"
        ]
    )
    pytester.makepyfile(test_user=USER_TEST)
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


def test_an_old_pytest_plugins_line_still_works(pytester: pytest.Pytester) -> None:
    # Users enabled the plugin by hand before it registered itself; the module is then already
    # registered under its own name and the line is a no-op, not a "registered twice" error.
    pytester.makeconftest('pytest_plugins = ["sansio_responses.testing.pytest_plugin"]\n')
    pytester.makepyfile(test_user=USER_TEST)
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


def test_the_plugin_can_be_turned_off(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_user=USER_TEST)
    result = pytester.runpytest_subprocess(
        "-q", "-p", "no:cacheprovider", "-p", "no:sansio_responses.testing.pytest_plugin"
    )
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*fixture 'responses_server' not found*"])


def test_a_failing_check_names_the_chunking(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_user=textwrap.dedent(
            """
            def test_split_dependent(every_split):
                # Depends on the chunking: passes whole, fails once the body is cut.
                def count(chunks):
                    assert len(chunks) == 1 or chunks[0] == b""
                every_split(b"data: x\\n\\n", count)
            """
        )
    )
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*raised for the chunking 'byte by byte'*"])


def test_chunkings_cover_whole_bytes_and_every_offset() -> None:
    body = b"data: 1\n\n"
    seen = list(chunkings(body))
    assert seen[0] == ("whole", [body])
    assert seen[1] == ("byte by byte", [bytes([b]) for b in body])
    splits = seen[2:]
    assert [label for label, _ in splits] == [f"split at {n}" for n in range(len(body) + 1)]
    assert all(b"".join(chunks) == body for _, chunks in seen)
    # A step thins the two-way splits out but always ends at the full length.
    assert [label for label, _ in chunkings(body, step=4)][2:] == [
        "split at 0",
        "split at 4",
        "split at 8",
        "split at 9",
    ]
    with pytest.raises(ValueError, match="step must be >= 1"):
        list(chunkings(body, step=0))


def test_for_every_split_returns_the_whole_result_and_reports_a_difference() -> None:
    body = recording("chat-openai-python-test_parse_nothing")

    def content(chunks: list[bytes]) -> str | None:
        stream = sr.ChatCompletionsStream()
        for chunk in chunks:
            stream.feed(chunk)
        stream.close()
        snapshot = stream.snapshot()
        assert snapshot is not None
        return snapshot.choices[0].message.content

    expected = recording_facts("chat-openai-python-test_parse_nothing")["final_output_text"]
    check: EverySplit = for_every_split
    assert check(body, content, step=97) == expected

    with pytest.raises(AssertionError, match="the chunking 'byte by byte' gave 9, the whole body"):
        for_every_split(b"data: 1\n\n", len)
