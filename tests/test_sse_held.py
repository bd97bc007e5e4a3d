"""A block begun in one chunk and ended in a later one (``SSEDecoder._held``) decodes as whole.

The decoder keeps the start of such a block as received when it is the commonest shape (an
``event:`` line and the start of a ``data:`` line, without CR, short), and reads the chunk that
ends it as if those bytes began it. Here bodies of that shape and of every near miss (comments,
``id``/``retry`` fields, CRLF, several data lines, blocks around the holding bound and the
limit) are cut in chunks of many sizes and fed through ``feed_raw`` and ``feed`` with bytes, bytearray and
memoryview chunks; every call must return what a decoder that never holds returns for the same
chunk (the line machine's events, which the chunking tests hold to the whole body's), and leave
the same state (last event id, reconnection time, comments, offset, limit errors).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sansio_responses import EventTooLarge, SSEDecoder
from sansio_responses._sse_held import _HOLD_MAX  # pyright: ignore[reportPrivateUsage]

blocks = st.one_of(
    st.builds(
        lambda name, n: f"event: {name}\ndata: {{{'x' * n}}}\n\n".encode(),
        st.sampled_from(["response.output_text.delta", "a", ""]),
        st.sampled_from([1, 50, 600, _HOLD_MAX - 40, _HOLD_MAX, _HOLD_MAX + 30]),
    ),
    st.builds(lambda n: f"data: {'y' * n}\n\n".encode(), st.sampled_from([0, 3, _HOLD_MAX])),
    st.sampled_from(
        [
            b": keep-alive\n\n",
            b"event: a\n: comment inside\ndata: 1\n\n",
            b"id: 7\nevent: b\ndata: 2\n\n",
            b"retry: 15\ndata: 3\n\n",
            b"event: c\r\ndata: 4\r\n\r\n",
            b"event: d\ndata: 5\ndata: 6\n\n",
            b"data:no-space\n\n",
            b"event: e\ndata: 7\n\n\n",
            b"\n",
        ]
    ),
)


def _state(decoder: SSEDecoder) -> tuple[Any, ...]:
    return (
        decoder.last_event_id,
        decoder.reconnection_time,
        decoder.comments,
        decoder.offset,
    )


def _feed(decoder: SSEDecoder, chunk: Any, full: bool) -> tuple[list[Any], Any]:
    got: list[Any] = []
    try:
        got = decoder.feed(chunk) if full else decoder.feed_raw(chunk)  # type: ignore[assignment]
        decoder.raise_pending()
    except EventTooLarge as exc:
        return got, ("too large", exc.offset, exc.limit)
    return got, _state(decoder)


@settings(max_examples=400, deadline=None)
@given(
    parts=st.lists(blocks, min_size=1, max_size=6),
    sizes=st.lists(
        st.sampled_from([1, 3, 64, 500, 4096, _HOLD_MAX - 5, _HOLD_MAX + 7]),
        min_size=1,
        max_size=5,
    ),
    limit=st.sampled_from([None, 700, _HOLD_MAX + 100, 3 * _HOLD_MAX]),
    full=st.booleans(),
    kinds=st.lists(st.sampled_from([bytes, bytearray, memoryview]), min_size=1, max_size=3),
)
def test_holding_changes_nothing_call_by_call(
    parts: list[bytes],
    sizes: list[int],
    limit: int | None,
    full: bool,
    kinds: list[type[Any]],
) -> None:
    # The same chunks to a decoder that never holds (the line machine alone): every call
    # returns the same events and leaves the same state, limit errors included.
    body = b"".join(parts)
    held = SSEDecoder(max_event_size=limit, report_comments=True)
    plain = SSEDecoder(max_event_size=limit, report_comments=True)
    plain._hold_max = -1  # pyright: ignore[reportPrivateUsage]
    at = n = 0
    while at < len(body):
        size = sizes[n % len(sizes)]
        chunk = kinds[n % len(kinds)](body[at : at + size])
        at += size
        n += 1
        result = _feed(held, chunk, full)
        assert result == _feed(plain, chunk, full), (at, size)
        if result[1][0] == "too large":
            return
    held.close()
    plain.close()
    assert held.discarded == plain.discarded
    assert _state(held) == _state(plain)


def test_a_held_block_survives_close() -> None:
    decoder = SSEDecoder()
    assert decoder.feed_raw(b'event: a\ndata: 1\n\nevent: b\ndata: {"par') == [("a", "1", 0)]
    assert decoder._held is not None  # pyright: ignore[reportPrivateUsage]
    assert decoder.feed_raw(b"tial") == []
    decoder.close()
    assert decoder.discarded is not None
    assert (decoder.discarded.event, decoder.discarded.data) == ("b", '{"partial')


# A block's start after a complete block, cut into three chunks at every pair of offsets: the
# held start then meets each line end in a chunk of its own (held again, or not, by the line
# rules) before the chunk that ends the block. Near misses: a comment or a retry line among the
# held lines (reported or applied by the chunk that completes it), a third line, a blank line
# right after a held line end, the start of a comment where a field name would be, a CR (a line
# end the block path does not read) after held bytes.
_AFTER = [
    b"event: a\ndata: 1\n\n",
    b"event: a\n: note\ndata: 1\n\n",
    b"event: a\nretry: 9\ndata: 1\n\n",
    b"data: 1\ndata: 2\nevent: b\n\n",
    b"event: a\ndata: 1\n\n\n",
    b"ev: x\ndata: 1\n\n",
    b":event\ndata: 1\n\n",
    b"data: 1\n\nevent",
    b"event: a\rdata: 1\n\n",
    b"data: 1\r\n\n",
    b"event: a\ndata: 1\r\r",
]


def test_every_three_way_split_after_a_block() -> None:
    for after in _AFTER:
        body = b"event: first\ndata: 0\n\n" + after
        begin = body.index(after)
        for i in range(begin + 1, len(body)):
            for j in range(i, len(body)):
                held = SSEDecoder(report_comments=True)
                plain = SSEDecoder(report_comments=True)
                plain._hold_max = -1  # pyright: ignore[reportPrivateUsage]
                for chunk in (body[:i], body[i:j], body[j:]):
                    assert _feed(held, chunk, False) == _feed(plain, chunk, False), (after, i, j)
                held.close()
                plain.close()
                assert held.discarded == plain.discarded


def test_a_held_start_meets_the_limit_in_the_same_call() -> None:
    # Chunks without a line end extend the held bytes only up to the holding bound (here the
    # limit): the call that takes the event past the limit raises, as without holding.
    body = b"data: 0\n\nevent: a\ndata: " + b"x" * 300 + b"\n\n"
    for size in range(1, 40):
        for full in (False, True):
            held = SSEDecoder(max_event_size=100)
            plain = SSEDecoder(max_event_size=100)
            plain._hold_max = -1  # pyright: ignore[reportPrivateUsage]
            chunks = [body[:12]] + [body[at : at + size] for at in range(12, len(body), size)]
            for chunk in chunks:
                result = _feed(held, chunk, full)
                assert result == _feed(plain, chunk, full), (size, full)
                if result[1][0] == "too large":
                    break
            else:
                raise AssertionError("the limit was never reached")
