"""Tests of the event-stream decoder against the WHATWG conformance cases and the real corpus."""

from __future__ import annotations

import json
import random
import re
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansio_responses._errors import EventTooLarge, LocalProtocolError
from sansio_responses._sse import DEFAULT_MAX_EVENT_SIZE, ServerSentEvent, SSEDecoder

DATA = Path(__file__).parent / "data"
CASES: list[dict[str, Any]] = json.loads((DATA / "sse-cases.json").read_text(encoding="utf-8"))
REAL = sorted((DATA / "real").glob("*.sse"))


def _chunks(case: dict[str, Any]) -> list[bytes]:
    return [c.encode(case["chunks_encoding"]) for c in case["chunks"]]


def _expected(case: dict[str, Any]) -> list[ServerSentEvent]:
    return [ServerSentEvent(**e) for e in case["expected"]]


def _run(chunks: list[bytes], **kwargs: Any) -> tuple[list[ServerSentEvent], SSEDecoder]:
    decoder = SSEDecoder(**kwargs)
    events: list[ServerSentEvent] = []
    for chunk in chunks:
        events += decoder.feed(chunk)
    assert decoder.close() == []
    return events, decoder


def _bytewise(data: bytes) -> list[bytes]:
    return [data[i : i + 1] for i in range(len(data))]


# -- conformance cases (tests/data/sse-cases.json) ---------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case_given_chunks_and_dispatch_timing(case: dict[str, Any]) -> None:
    decoder = SSEDecoder()
    events: list[ServerSentEvent] = []
    dispatched_by: list[int] = []
    for index, chunk in enumerate(_chunks(case), start=1):
        new = decoder.feed(chunk)
        events += new
        dispatched_by += [index] * len(new)
    assert decoder.close() == []
    assert events == _expected(case)
    assert dispatched_by == case["expected_dispatch_chunk"]
    assert decoder.reconnection_time == case["expected_reconnection_time"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case_one_byte_chunks(case: dict[str, Any]) -> None:
    events, decoder = _run(_bytewise(b"".join(_chunks(case))))
    assert events == _expected(case)
    assert decoder.reconnection_time == case["expected_reconnection_time"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case_every_two_way_split(case: dict[str, Any]) -> None:
    whole = b"".join(_chunks(case))
    expected = _expected(case)
    for cut in range(len(whole) + 1):
        events, decoder = _run([whole[:cut], whole[cut:]])
        assert events == expected, f"split at {cut}"
        assert decoder.reconnection_time == case["expected_reconnection_time"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case_feed_raw_matches_feed(case: dict[str, Any]) -> None:
    decoder = SSEDecoder()
    raw: list[tuple[str, str, int]] = []
    for chunk in _chunks(case):
        raw += decoder.feed_raw(chunk)
    assert [(t, d) for t, d, _ in raw] == [(e.event, e.data) for e in _expected(case)]


# -- specific rules ----------------------------------------------------------------------------


def test_bom_split_over_three_chunks_then_second_bom_is_text() -> None:
    events, _ = _run([b"\xef", b"\xbb", b"\xbf", b"\xef\xbb\xbfdata: a\n\ndata: b\n\n"])
    # The second BOM makes the field name "\ufeffdata": ignored.
    assert events == [ServerSentEvent(data="b")]


def test_bom_prefix_that_is_not_a_bom_is_kept() -> None:
    events, _ = _run([b"\xef", b"\xbbdata: x\n\ndata: y\n\n"])
    assert [e.data for e in events] == ["y"]
    events, _ = _run([b"\xef"])
    assert events == []


def test_cr_at_chunk_end_dispatches_without_waiting() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: x\r") == []
    assert decoder.feed(b"\r") == [ServerSentEvent(data="x")]
    # The LF of a CRLF split over chunks is swallowed, not taken as another blank line.
    assert decoder.feed(b"data: y\r") == []
    assert decoder.feed(b"\n") == []
    assert decoder.feed(b"\n") == [ServerSentEvent(data="y")]


def test_only_three_line_endings() -> None:
    others = "\u2028\u2029\u0085\x0b\x0c\x1c\x1d\x1e"
    events, _ = _run([f"data: a{others}b\n\n".encode()])
    assert events == [ServerSentEvent(data=f"a{others}b")]


def test_invalid_utf8_is_replaced_per_maximal_subpart() -> None:
    events, _ = _run([b"data: a\xffb\xe2\x82c\n\n"])
    assert events == [ServerSentEvent(data="a\ufffdb\ufffdc")]
    # A multi-byte sequence split over chunks is reassembled, not replaced.
    events, _ = _run([b"data: \xe2", b"\x82", b"\xac\n\n"])
    assert events == [ServerSentEvent(data="\u20ac")]


def test_invalid_utf8_in_event_type_and_id() -> None:
    events, decoder = _run([b"event: t\xff\nid: i\xfe\ndata: d\n\n"])
    assert events == [ServerSentEvent(event="t\ufffd", data="d", id="i\ufffd")]
    assert decoder.last_event_id == "i\ufffd"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("02000", 2000),
        ("0", 0),
        ("0000000000000000000000000005", 5),
        ("9999999999", 9999999999),
        ("", None),
        ("+5", None),
        ("-5", None),
        (" 5", None),
        ("5 ", None),
        ("1_000", None),
        ("5.0", None),
        ("1e3", None),
        ("\u0661\u0662\u0663", None),
        ("12345678901", None),
        ("9" * 5000, None),
    ],
)
def test_retry_only_ascii_digits(value: str, expected: int | None) -> None:
    events, decoder = _run([f"retry: {value}\ndata: x\n\n".encode()])
    assert decoder.reconnection_time == expected
    assert events == [ServerSentEvent(data="x", retry=expected)]


def test_retry_is_per_block_and_reconnection_time_stream_wide() -> None:
    events, decoder = _run([b"retry: 10\ndata: a\n\ndata: b\n\nretry: 20\n\n"])
    assert events == [ServerSentEvent(data="a", retry=10), ServerSentEvent(data="b")]
    assert decoder.reconnection_time == 20


def test_last_event_id_set_by_id_only_block() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"id: 7\n") == []
    # The ID buffer becomes the last event ID string only on the blank line.
    assert decoder.last_event_id == ""
    assert decoder.feed(b"\n") == []
    assert decoder.last_event_id == "7"
    assert decoder.feed(b"data: x\n\n") == [ServerSentEvent(data="x", id="7")]


def test_comments_are_counted_and_not_buffered() -> None:
    decoder = SSEDecoder(max_event_size=16)
    decoder.feed(b": keep-alive\n:\r\n")
    assert decoder.comments == 2
    # A comment longer than the limit, fed in pieces, is neither buffered nor limited.
    decoder.feed(b":" + b"x" * 100)
    for _ in range(50):
        decoder.feed(b"y" * 100)
        assert len(decoder._line) == 0
    assert decoder.feed(b"\ndata: ok\n\n") == [ServerSentEvent(data="ok")]
    assert decoder.comments == 3


def test_blocks_without_data_dispatch_nothing_and_reset_type() -> None:
    events, _ = _run([b"event: a\n\nid: 1\n\nretry: 5\n\n\n\ndata: x\n\n"])
    assert events == [ServerSentEvent(data="x", id="1", retry=None)]


# -- close() -----------------------------------------------------------------------------------


def test_close_discards_unterminated_event_and_records_it() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: a\n\nretry: 5\nid: 9\nevent: t\ndata: b\ndata: c") == [
        ServerSentEvent(data="a")
    ]
    assert decoder.close() == []
    assert decoder.closed
    assert decoder.discarded == ServerSentEvent(event="t", data="b\nc", id="9", retry=5)
    # The discarded lines change no stream state except what was parsed from complete lines.
    assert decoder.last_event_id == ""
    assert decoder.reconnection_time == 5


def test_close_unterminated_line_does_not_change_state() -> None:
    decoder = SSEDecoder()
    decoder.feed(b"data: a\nretry: 99")
    decoder.close()
    assert decoder.reconnection_time is None
    assert decoder.discarded == ServerSentEvent(data="a", retry=99)


@pytest.mark.parametrize(
    ("body", "discarded"),
    [
        (b"", None),
        (b"data: x\n\n", None),
        (b"id: 3\nevent: e\n", None),
        (b": comment", None),
        (b"data: x\r", ServerSentEvent(data="x")),
        (b"data", ServerSentEvent(data="")),
        (b"\xef\xbb", None),
    ],
)
def test_close_discarded(body: bytes, discarded: ServerSentEvent | None) -> None:
    _, decoder = _run([body])
    assert decoder.discarded == discarded


def test_cr_as_last_byte_is_not_a_blank_line() -> None:
    assert _run([b"data: x\r"])[0] == []
    assert _run([b"data: x\n\r"])[0] == [ServerSentEvent(data="x")]
    assert _run([b"data: x\r\r"])[0] == [ServerSentEvent(data="x")]


def test_feed_after_close_raises() -> None:
    decoder = SSEDecoder()
    decoder.close()
    with pytest.raises(LocalProtocolError, match="after close"):
        decoder.feed(b"data: x\n\n")
    assert decoder.close() == []


# -- offsets -----------------------------------------------------------------------------------


def test_feed_raw_offsets_point_at_first_line_of_event() -> None:
    body = (
        b"\xef\xbb\xbf: hi\n\nevent: a\ndata: 1\n\n\r\n: ping\r\n"
        b"id: 5\rdata: \xe2\x82\xac\n\ndata: z\n\n"
    )
    expected = [
        ("a", "1", body.index(b"event: a")),
        ("message", "\u20ac", body.index(b"id: 5")),
        ("message", "z", body.index(b"data: z")),
    ]
    decoder = SSEDecoder()
    assert decoder.feed_raw(body) == expected
    for chunking in (_bytewise(body), [body[:7], body[7:30], body[30:]]):
        decoder = SSEDecoder()
        got: list[tuple[str, str, int]] = []
        for chunk in chunking:
            got += decoder.feed_raw(chunk)
        assert got == expected
        assert decoder.offset == len(body)


def test_feed_and_feed_raw_mix_on_one_state() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"id: 1\nevent: t\ndata: a") == []
    assert decoder.feed_raw(b"b\n\ndata: c\n") == [("t", "ab", 0)]
    assert decoder.feed(b"\n") == [ServerSentEvent(data="c", id="1")]


def test_accepts_bytearray_and_memoryview() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(bytearray(b"data: a\n")) == []
    assert decoder.feed(memoryview(b"xxdata: b\n\n")[2:]) == [ServerSentEvent(data="a\nb")]


# -- max_event_size ----------------------------------------------------------------------------


def test_default_limit() -> None:
    assert DEFAULT_MAX_EVENT_SIZE == 32 * 1024 * 1024
    assert SSEDecoder().max_event_size == DEFAULT_MAX_EVENT_SIZE


def test_huge_line_in_pieces_raises_early_with_bounded_buffer() -> None:
    limit = 1 << 20
    piece = b"x" * (64 * 1024)
    decoder = SSEDecoder(max_event_size=limit)
    decoder.feed(b"data: ok\n\n")
    head = b"event: big\ndata: "
    decoder.feed(head)
    fed = len(head)
    with pytest.raises(EventTooLarge) as info:
        for _ in range(100 * 16):  # a 100 MiB line, never reached
            decoder.feed(piece)
            fed += len(piece)
            assert len(decoder._line) + decoder._block_size <= limit
    assert fed <= limit
    assert info.value.limit == limit
    assert info.value.offset == len(b"data: ok\n\n")
    with pytest.raises(LocalProtocolError, match="failed"):
        decoder.feed(b"\n\n")
    with pytest.raises(LocalProtocolError):
        decoder.close()


def _peak_memory_while(action: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_huge_line_memory_stays_near_limit() -> None:
    limit = 4 << 20
    piece = b"x" * (1 << 20)
    decoder = SSEDecoder(max_event_size=limit)

    def feed_100_mib_line() -> None:
        decoder.feed(b"data: ")
        with pytest.raises(EventTooLarge):
            for _ in range(100):
                decoder.feed(piece)

    # bytearray over-allocates by up to 1/8 when growing.
    assert _peak_memory_while(feed_100_mib_line) < limit + limit // 8 + 2 * len(piece)
    assert decoder.offset <= limit + len(piece)


def test_limit_checked_before_joining_open_line_with_a_terminated_chunk() -> None:
    limit = 1 << 20
    decoder = SSEDecoder(max_event_size=limit)
    decoder.feed(b"data: " + b"x" * (limit - 100 * 1024))
    chunk = b"y" * (512 * 1024) + b"\n\n"

    def feed_the_line_end() -> None:
        with pytest.raises(EventTooLarge):
            decoder.feed(chunk)

    # Only the chunk's own split pieces are allocated: no joined copy of the oversized line.
    assert _peak_memory_while(feed_the_line_end) < 2 * len(chunk)


def test_many_small_data_lines_memory_stays_near_limit() -> None:
    limit = 1 << 20
    chunk = b"data: xy\n" * 2048  # 18 KiB
    decoder = SSEDecoder(max_event_size=limit)

    def feed_until_too_large() -> None:
        with pytest.raises(EventTooLarge):
            for _ in range(1000):
                decoder.feed(chunk)

    # Without compaction the ~117k values would cost ~40 bytes each (about 4.5 MiB).
    assert _peak_memory_while(feed_until_too_large) < 2 * limit


def test_event_of_many_small_data_lines_is_joined_correctly() -> None:
    values = [f"v{n}" for n in range(60_000)]
    body = "".join(f"data: {v}\n" for v in values).encode() + b"\n"
    rng = random.Random(7)
    chunks, i = [], 0
    while i < len(body):
        step = rng.randint(1, 50_000)
        chunks.append(body[i : i + step])
        i += step
    for chunking in ([body], chunks):
        events, _ = _run(chunking)
        assert events == [ServerSentEvent(data="\n".join(values))]


def test_limit_counts_all_lines_of_the_block() -> None:
    # 9 bytes per line; the limit is reached by the sum over lines, not by any one line.
    decoder = SSEDecoder(max_event_size=30)
    assert decoder.feed(b"data: 123\ndata: 456\ndata: 789\n\n") == [
        ServerSentEvent(data="123\n456\n789")
    ]
    with pytest.raises(EventTooLarge):
        decoder.feed(b"data: 123\ndata: 456\ndata: 789\ndata: 0\n\n")


def test_limit_exactly_reached_is_allowed_and_comments_do_not_count() -> None:
    body = b"data: 12345\n: a long comment that does not count\n\n"
    assert _run([body], max_event_size=11)[0] == [ServerSentEvent(data="12345")]
    with pytest.raises(EventTooLarge):
        _run([body], max_event_size=10)


def test_limit_error_after_completed_events_is_raised_next_call() -> None:
    decoder = SSEDecoder(max_event_size=20)
    body = b"data: a\n\n" + b"data: " + b"x" * 40 + b"\n\n"
    assert decoder.feed(body) == [ServerSentEvent(data="a")]
    with pytest.raises(EventTooLarge) as info:
        decoder.feed(b"data: b\n\n")
    assert info.value.offset == 9
    with pytest.raises(LocalProtocolError):
        decoder.feed(b"")


def test_limit_error_pending_at_close_is_raised_by_close() -> None:
    decoder = SSEDecoder(max_event_size=10)
    assert decoder.feed(b"data: a\n\ndata: 0123456789\n") == [ServerSentEvent(data="a")]
    with pytest.raises(EventTooLarge) as info:
        decoder.close()
    assert (info.value.limit, info.value.offset) == (10, 9)
    with pytest.raises(LocalProtocolError, match="failed"):
        decoder.close()


def test_unlimited() -> None:
    big = b"x" * (3 * 1024 * 1024)
    events, _ = _run([b"data: ", big, b"\n\n"], max_event_size=None)
    assert events == [ServerSentEvent(data=big.decode())]


def test_negative_limit_rejected() -> None:
    with pytest.raises(ValueError, match="max_event_size"):
        SSEDecoder(max_event_size=-1)


# -- property: chunking never matters ----------------------------------------------------------

_ALPHABET = [b"data", b"event", b"id", b"retry", b":", b" ", b"\r", b"\n", b"x", b"7", b"\x00"]
_ALPHABET += [b"\xef\xbb\xbf", b"\xe2\x82\xac", b"\xff", b"\xe2"]


def _mixed(chunks: list[bytes], limit: int | None) -> tuple[list[tuple[str, str]], Any]:
    """Alternate feed() and feed_raw() over *chunks*: one state, so the same events."""
    decoder = SSEDecoder(max_event_size=limit)
    got: list[tuple[str, str]] = []
    try:
        for n, chunk in enumerate(chunks):
            if n % 2:
                got += [(event, data) for event, data, _ in decoder.feed_raw(chunk)]
            else:
                got += [(e.event, e.data) for e in decoder.feed(chunk)]
        decoder.close()
    except EventTooLarge as exc:
        return got, ("too large", exc.offset)
    return got, (
        decoder.last_event_id,
        decoder.reconnection_time,
        decoder.discarded,
        decoder.comments,
    )


def _events(chunks: list[bytes], limit: int | None) -> tuple[list[tuple[str, str, int]], Any]:
    decoder = SSEDecoder(max_event_size=limit)
    got: list[tuple[str, str, int]] = []
    try:
        for chunk in chunks:
            got += decoder.feed_raw(chunk)
        decoder.close()
    except EventTooLarge as exc:
        return got, ("too large", exc.offset)
    return got, (
        decoder.last_event_id,
        decoder.reconnection_time,
        decoder.discarded,
        decoder.comments,
    )


@settings(max_examples=300, deadline=None)
@given(
    body=st.one_of(
        st.binary(max_size=200),
        st.lists(st.sampled_from(_ALPHABET), max_size=80).map(b"".join),
    ),
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=12),
    limit=st.sampled_from([None, 5, 12, 40]),
)
def test_random_chunking_gives_same_result(body: bytes, cuts: list[int], limit: int | None) -> None:
    points = sorted({c for c in cuts if c <= len(body)})
    chunks = [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]
    assert _events(chunks, limit) == _events([body], limit)
    assert _events(_bytewise(body), limit) == _events([body], limit)
    # feed and feed_raw interleaved see one state.
    whole, state = _events([body], limit)
    assert _mixed(chunks, limit) == ([(event, data) for event, data, _ in whole], state)


def _reference(body: bytes) -> list[tuple[str, str, str, int | None]]:
    """A direct transcription of WHATWG §9.2.5/§9.2.6 over the whole body, for comparison."""
    if body.startswith(b"\xef\xbb\xbf"):
        body = body[3:]
    text = body.decode("utf-8", "replace")
    lines = re.split("\r\n|\r|\n", text)[:-1]
    out: list[tuple[str, str, str, int | None]] = []
    data, etype, id_buf, retry = "", "", "", None
    for line in lines:
        if line == "":
            if data:
                out.append((etype or "message", data[:-1], id_buf, retry))
            data = etype = ""
            retry = None
        elif line.startswith(":"):
            continue
        else:
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                data += value + "\n"
            elif name == "event":
                etype = value
            elif name == "id" and "\x00" not in value:
                id_buf = value
            elif name == "retry" and re.fullmatch("[0-9]+", value):
                # Documented policy: more than 10 significant digits is ignored.
                if len(value.lstrip("0")) <= 10:
                    retry = int(value)
    return out


@settings(max_examples=300, deadline=None)
@given(
    body=st.lists(st.sampled_from(_ALPHABET), max_size=80).map(b"".join),
    seed=st.integers(0, 2**32),
)
def test_matches_reference_transcription(body: bytes, seed: int) -> None:
    rng = random.Random(seed)
    chunks, i = [], 0
    while i < len(body):
        step = rng.randint(1, 8)
        chunks.append(body[i : i + step])
        i += step
    events, _ = _run(chunks, max_event_size=None)
    assert [(e.event, e.data, e.id, e.retry) for e in events] == _reference(body)


# -- real recorded streams ---------------------------------------------------------------------


def _real_data_events(events: list[tuple[str, str, int]]) -> int:
    return sum(1 for _, data, _ in events if data != "[DONE]")


@pytest.mark.parametrize("path", REAL, ids=[p.stem for p in REAL])
def test_real_stream_chunking_independent(path: Path) -> None:
    body = path.read_bytes()
    facts = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    whole, whole_state = _events([body], None)
    assert _events(_bytewise(body), None) == (whole, whole_state)
    rng = random.Random(path.name)
    for _ in range(5):
        cuts = sorted(rng.sample(range(len(body) + 1), min(len(body), rng.randint(1, 40))))
        chunks = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
        assert _events(chunks, None) == (whole, whole_state)
    assert _real_data_events(whole) == facts["event_count"]
    # Offsets point at each event's first line, in increasing order.
    offsets = [offset for _, _, offset in whole]
    assert offsets == sorted(offsets)
    for _, _, offset in whole:
        assert body[offset : offset + 5] in (b"event", b"data:", b"id: ", b"data ", b"retry")


@pytest.mark.parametrize("path", REAL, ids=[p.stem for p in REAL])
def test_real_stream_line_endings_do_not_matter(path: Path) -> None:
    body = path.read_bytes()
    whole, _ = _events([body], None)
    expected = [(event, data) for event, data, _ in whole]
    for ending in (b"\r\n", b"\r"):
        converted = body.replace(b"\n", ending)
        for chunking in (
            [converted],
            [converted[i : i + 4096] for i in range(0, len(converted), 4096)],
        ):
            got, _ = _events(chunking, None)
            assert [(event, data) for event, data, _ in got] == expected
            for _, _, offset in got:
                assert converted[offset : offset + 4] in (b"even", b"data", b"id: ", b"retr")
