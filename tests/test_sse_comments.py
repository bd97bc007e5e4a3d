"""SSEDecoder(report_comments=True): comments come out of feed_raw in order, whatever the chunking."""

from __future__ import annotations

import pytest

import sansio_responses as sr

BODY = b": first\ndata: 1\n\n:second\r\n:third\rdata: 2\n\n: tail\n"


def raw(chunks: list[bytes]) -> list[tuple[str, str]]:
    decoder = sr.SSEDecoder(report_comments=True)
    out: list[tuple[str, str]] = []
    for chunk in chunks:
        out += [(t, d) for t, d, _ in decoder.feed_raw(chunk)]
    return out


def test_comments_inline_in_order() -> None:
    expected = [("", ""), ("message", "1"), ("", ""), ("", ""), ("message", "2"), ("", "")]
    assert raw([BODY]) == expected
    assert raw([BODY[i : i + 1] for i in range(len(BODY))]) == expected
    for cut in range(len(BODY)):
        assert raw([BODY[:cut], BODY[cut:]]) == expected


def test_feed_never_reports_comments() -> None:
    decoder = sr.SSEDecoder(report_comments=True)
    assert [e.data for e in decoder.feed(BODY)] == ["1", "2"]
    assert decoder.comments == 4


def test_default_decoder_does_not_report_comments() -> None:
    assert [d for _, d, _ in sr.SSEDecoder().feed_raw(BODY)] == ["1", "2"]


def test_stream_raises_event_too_large_in_the_call_that_passes_the_limit() -> None:
    # One chunk completes an event and then overflows the next: the error comes from this very
    # feed() call, carrying the completed event.
    event = b'data: {"type": "response.created", "sequence_number": 0, "response": {"id": "r"}}\n\n'
    stream = sr.ResponsesStream(max_event_size=200)
    with pytest.raises(sr.EventTooLarge) as info:
        stream.feed(event + b"data: " + b"x" * 500)
    assert [e.type for e in info.value.events] == ["response.created"]  # type: ignore[attr-defined]
    assert stream.snapshot() is not None
