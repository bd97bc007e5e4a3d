"""An event with empty data (``data:`` alone) is a keep-alive on both protocols (issue 22, item 13).

The event-stream rules dispatch ``data:`` alone as an event whose data is the empty string. The
Chat stream always tolerated it (diagnostic ``empty-data``); the Responses stream failed the whole
stream with "event data is not valid JSON". Now both note ``empty-data`` and go on, and with
``strict=True`` both raise at that event, keeping the events before it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansio_responses as sr
from sansio_responses.testing import ChatStreamBuilder, StreamBuilder

RESPONSES = StreamBuilder(response_id="resp_empty").text(["Hel", "lo"]).completed().to_sse()
CHAT = ChatStreamBuilder().content(["Hel", "lo"]).finish().to_sse()


def _blank(name: str | None, lines: int, pads: list[str], crlf: bool) -> bytes:
    """One event of *lines* ``data:`` lines, each with nothing or only blanks after the colon."""
    pads = [*pads[:lines], *[""] * (lines - len(pads[:lines]))]
    text = (f"event: {name}\n" if name else "") + "".join(f"data:{p}\n" for p in pads) + "\n"
    return text.replace("\n", "\r\n" if crlf else "\n").encode()


# Blank data in the forms a server may send it: one or more ``data:`` lines with nothing (or only
# blanks) after the colon, with or without an event name, LF or CRLF line ends.
blank_events = st.builds(
    _blank,
    st.sampled_from([None, "ping", "keepalive", "response.output_text.delta"]),
    st.integers(1, 3),
    st.lists(st.sampled_from(["", " ", "  ", " \t"]), max_size=3),
    st.booleans(),
)


def _blocks(body: bytes) -> list[bytes]:
    return [block + b"\n\n" for block in body.split(b"\n\n") if block]


def _with_blanks(body: bytes, inserts: list[tuple[int, bytes]]) -> tuple[bytes, bytes]:
    """*body* with each blank event inserted before block *at*; also what comes before the
    first blank event (where strict mode stops)."""
    blocks = _blocks(body)
    placed: list[tuple[bytes, bool]] = [(block, False) for block in blocks]
    for at, blank in sorted(inserts, key=lambda x: x[0] % (len(blocks) + 1), reverse=True):
        placed.insert(at % (len(blocks) + 1), (blank, True))
    first = next(i for i, (_, is_blank) in enumerate(placed) if is_blank)
    return b"".join(block for block, _ in placed), b"".join(block for block, _ in placed[:first])


def _stream(protocol: str, strict: bool) -> Any:
    if protocol == "responses":
        return sr.ResponsesStream(strict=strict)
    return sr.ChatCompletionsStream(strict=strict)


def _run(stream: Any, body: bytes) -> list[Any]:
    events = stream.feed(body)
    return [*events, *stream.close()]


@settings(max_examples=150, deadline=None)
@given(
    protocol=st.sampled_from(["responses", "chat"]),
    inserts=st.lists(st.tuples(st.integers(0, 50), blank_events), min_size=1, max_size=4),
)
def test_blank_data_is_a_keepalive_on_both_protocols(
    protocol: str, inserts: list[tuple[int, bytes]]
) -> None:
    clean = RESPONSES if protocol == "responses" else CHAT
    body, before = _with_blanks(clean, inserts)
    expected = _run(_stream(protocol, False), clean)
    lenient = _stream(protocol, False)
    events = _run(lenient, body)
    # The same events and outcome as without the blank events; each one noted, nothing else.
    assert [e.to_dict() for e in events] == [e.to_dict() for e in expected]
    assert lenient.outcome == "completed"
    assert lenient.diagnostic_counts == {"empty-data": len(inserts)}
    strict = _stream(protocol, True)
    with pytest.raises(sr.RemoteProtocolError, match=r"\[empty-data; strict mode\]") as info:
        _run(strict, body)
    # Located at the first blank event, the events before it kept on the error.
    assert info.value.offset == len(before)
    kept = _stream(protocol, False).feed(before)
    assert [e.to_dict() for e in info.value.events] == [e.to_dict() for e in kept]
