"""The decoder's block-level path (LF-only chunks holding blank lines) against its line machine.

Chunks with no CR and at least one blank line are cut on blank lines and the plain
``event: X\\ndata: Y`` / ``data: Y`` blocks are read whole; everything else in them takes the line
machine. These tests feed bodies made of exactly the pieces where the two paths meet (blocks begun
in one chunk and ended in another, comments, ``id:``, several ``data:`` lines, extra blank lines,
fields without their space, limits), and check that the result is the line machine's: the same as
one-byte chunks (which never take the block path), as the WHATWG transcription in test_sse.py,
with the same offsets, errors and comment order.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sse import _reference

from sansio_responses import EventTooLarge, SSEDecoder

# LF-only pieces: the block path's input, with every construct it must hand to the line machine.
_PIECES = [
    b"event: response.output_text.delta\n",
    b"event: \n",
    b"event:x\n",
    b'data: {"a": 1}\n',
    b"data: \n",
    b"data:7\n",
    b"data\n",
    b"data: x",
    b"event: e",
    b"\n",
    b"\n\n",
    b": keep-alive\n",
    b":\n",
    b"id: 7\n",
    b"id\n",
    b"retry: 10\n",
    b"x: y\n",
    b"\xe2\x82\xac",
    b"\xff",
    b"\x00",
    b"data: \xe2\x82",
    b"\xac\n\n",
]


def _bodies() -> st.SearchStrategy[bytes]:
    return st.lists(st.sampled_from(_PIECES), max_size=40).map(b"".join)


def _run(
    chunks: list[bytes], limit: int | None, *, raw: bool = True
) -> tuple[list[Any], tuple[Any, ...]]:
    """Every event (and, with *raw*, comment) fed out, and the decoder's state after close()."""
    decoder = SSEDecoder(max_event_size=limit, report_comments=True)
    got: list[Any] = []
    try:
        for chunk in chunks:
            if raw:
                got += decoder.feed_raw(chunk)
            else:
                got += [(e.event, e.data, e.id, e.retry) for e in decoder.feed(chunk)]
        decoder.close()
    except EventTooLarge as exc:
        return got, ("too large", exc.offset, exc.limit)
    return got, (
        decoder.last_event_id,
        decoder.reconnection_time,
        decoder.discarded,
        decoder.comments,
        decoder.offset,
    )


def _split(body: bytes, rng: random.Random, most: int) -> list[bytes]:
    chunks, i = [], 0
    while i < len(body):
        step = rng.randint(1, most)
        chunks.append(body[i : i + step])
        i += step
    return chunks


@settings(max_examples=400, deadline=None)
@given(body=_bodies(), seed=st.integers(0, 2**32), limit=st.sampled_from([None, 8, 20, 60]))
def test_any_chunking_gives_the_line_machines_result(
    body: bytes, seed: int, limit: int | None
) -> None:
    rng = random.Random(seed)
    bytewise = [body[i : i + 1] for i in range(len(body))]  # never the block path
    expected = _run(bytewise, limit)
    assert _run([body], limit) == expected
    assert _run(_split(body, rng, 64), limit) == expected
    assert _run(_split(body, rng, 8), limit) == expected
    assert _run([body], limit, raw=False) == _run(bytewise, limit, raw=False)


@settings(max_examples=300, deadline=None)
@given(body=_bodies(), seed=st.integers(0, 2**32))
def test_matches_the_whatwg_transcription(body: bytes, seed: int) -> None:
    rng = random.Random(seed)
    for chunks in ([body], _split(body, rng, 48)):
        events, _ = _run(chunks, None, raw=False)
        assert events == _reference(body)


def test_every_split_offset_of_a_typical_body() -> None:
    body = (
        b"event: response.created\ndata: {}\n\n"
        b": keep-alive\n\n"
        b'event: response.output_text.delta\ndata: {"delta": "\xe2\x82\xac"}\n\n'
        b"data: [DONE]\n\n"
        b"id: 5\ndata: a\ndata: b\n\n"
        b"event: tail\ndata: unterminated"
    )
    expected = _run([body], None)
    assert [e[:2] for e in expected[0]] == [
        ("response.created", "{}"),
        ("", ""),
        ("response.output_text.delta", '{"delta": "\u20ac"}'),
        ("message", "[DONE]"),
        ("message", "a\nb"),
    ]
    for cut in range(len(body) + 1):
        for cut2 in range(cut, len(body) + 1, 7):
            assert _run([body[:cut], body[cut:cut2], body[cut2:]], None) == expected


def test_events_are_dispatched_by_the_chunk_that_completes_them() -> None:
    decoder = SSEDecoder()
    assert decoder.feed_raw(b"event: a\ndata: 1\n\nevent: b\ndata: 2") == [("a", "1", 0)]
    assert decoder.feed_raw(b"\n") == []
    assert decoder.feed_raw(b"\nevent: c\ndata: 3\n\ndata: 4\n\n") == [
        ("b", "2", 18),
        ("c", "3", 36),
        ("message", "4", 54),
    ]


def test_limit_is_checked_on_a_block_read_whole() -> None:
    # The second block is over the limit: the first is returned, the error comes next call,
    # with the offset of the block's first line.
    decoder = SSEDecoder(max_event_size=30)
    big = b"event: big\ndata: " + b"x" * 40 + b"\n\n"
    assert decoder.feed_raw(b"data: small\n\n" + big) == [("message", "small", 0)]
    with pytest.raises(EventTooLarge) as info:
        decoder.feed_raw(b"data: more\n\n")
    assert info.value.offset == 13
    # Exactly at the limit is allowed (line ends do not count).
    decoder = SSEDecoder(max_event_size=20)
    assert decoder.feed_raw(b"event: e\ndata: 123456\n\n") == [("e", "123456", 0)]


def test_comments_between_blocks_keep_their_order() -> None:
    decoder = SSEDecoder(report_comments=True)
    got = decoder.feed_raw(b"data: 1\n\n: ping\n\ndata: 2\n\n:a\n:b\ndata: 3\n\n")
    assert [(t, d) for t, d, _ in got] == [
        ("message", "1"),
        ("", ""),
        ("message", "2"),
        ("", ""),
        ("", ""),
        ("message", "3"),
    ]
    assert decoder.comments == 3


def test_the_type_caches_stay_small_whatever_the_types() -> None:
    # Event types are cached by the block path (with their "event: " line) and by the line
    # machine; a server sending many long distinct types must not grow them past 256 entries of
    # 256 bytes (the types still decode, from the bytes each time).
    for tail in (b"", b"\nid: 1"):  # the block path, then the line machine
        decoder = SSEDecoder()
        body = b"".join(
            b"event: %d%s\ndata: 1%s\n\n" % (n, b"t" * (n * 7), tail) for n in range(300)
        )
        events = decoder.feed_raw(body)
        assert [e[0] for e in events] == [f"{n}{'t' * (n * 7)}" for n in range(300)]
        caches = decoder._heads, decoder._types  # pyright: ignore[reportPrivateUsage]
        assert all(len(cache) <= 256 and all(len(k) <= 263 for k in cache) for cache in caches)
        assert caches[0] or caches[1]


@settings(max_examples=60, deadline=None)
@given(
    pieces=st.lists(
        st.sampled_from(
            [*_PIECES, b"data: " + b"x" * 70_000 + b"\n", b"event: " + b"t" * 300 + b"\n"]
        ),
        max_size=12,
    ),
    cut=st.integers(0, 80_000),
)
def test_chunks_holding_large_blocks_read_as_the_whatwg_transcription(
    pieces: list[bytes], cut: int
) -> None:
    # Payloads and type lines past the block path's caches and past 64 KiB, whole or cut once.
    body = b"".join(pieces)
    for chunks in ([body], [body[:cut], body[cut:]]):
        assert _run(chunks, None, raw=False)[0] == _reference(body)
