"""Large blocks (tens of KiB, such as a ``response.completed`` event) at any chunking, against the
line machine.

The decoder reads a chunk's line ends with a few ``find``s and copies a large payload once: a
chunk that is one whole block, a block's start left open at a chunk's end (held, or copied into
the open line once), the chunk that ends a long open line and its block, in 64 KiB pieces as
httpx reads them or 4 KiB ones. Here bodies of such blocks, with LF, CRLF and CR line ends
anywhere (also inside a large data line), comments, ``id``/``retry`` fields, several data
lines and limits near their size, are cut at every kind of size and fed through ``feed_raw`` and
``feed``; each call must return what the line machine returns for the same chunk fed one line
end at a time (the reference: a chunk of one CR or LF byte, or with none, never takes the block
path nor holds), with the same payload types (``str``, or the bytes received past
``_bytes_over``), and leave the same state.
"""

from __future__ import annotations

import itertools
import re
import sys
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_sse_blocks import _bodies
from test_sse_held import _feed, _state

from sansio_responses import EventTooLarge, SSEDecoder
from sansio_responses._sse_held import _HOLD_MAX  # pyright: ignore[reportPrivateUsage]

_EOL = st.sampled_from([b"\n", b"\r\n", b"\r"])
_SIZES = [0, 1, 100, _HOLD_MAX - 12, _HOLD_MAX + 12, 20_000, 70_000]
_TEXT = b'{"type":"response.completed","arguments":"x\\"\xe2\x82\xac\xf0\x9f\x98\x80 '


def _payload(size: int, cut: int, eol: bytes | None) -> bytes:
    """*size* bytes of JSON-like text (a multibyte character may be cut at the end), with a line
    end *eol* inserted at *cut* if given (a large data line that a CR or LF splits in two)."""
    text = (_TEXT * (size // len(_TEXT) + 1))[:size]
    if eol is not None:
        cut %= size + 1
        text = text[:cut] + eol + text[cut:]
    return text


_LARGE = st.builds(
    lambda size, cut, inner, eol: b"data: " + _payload(size, cut, inner) + eol,
    st.sampled_from(_SIZES),
    st.integers(0, 10**6),
    st.one_of(st.none(), _EOL),
    _EOL,
)
_WHOLE = st.builds(
    # The API's shape, LF only: what the block path reads straight from the chunk.
    lambda name, size: b"event: %s\ndata: %s\n\n" % (name, _payload(size, 0, None)),
    st.sampled_from([b"response.completed", b"response.output_item.done", b""]),
    st.sampled_from(_SIZES),
)
_LINE = st.builds(
    lambda line, eol: line + eol,
    st.sampled_from(
        [
            b"event: response.completed",
            b"event: x",
            b"",
            b"",
            b": keep-alive",
            b"id: 7",
            b"retry: 15",
            b"data:no-space",
            b"data: small",
        ]
    ),
    _EOL,
)
_BODY = st.lists(st.one_of(_WHOLE, _LARGE, _LINE), min_size=1, max_size=8).map(b"".join)


def _norm(events: list[Any]) -> list[Any]:
    """Events with bytearray payloads as bytes (the consumers take both alike); str kept."""
    return [
        (e[0], bytes(e[1]), *e[2:]) if isinstance(e, tuple) and type(e[1]) is bytearray else e
        for e in events
    ]


def _call(decoder: SSEDecoder, chunk: Any, full: bool) -> tuple[list[Any], Any]:
    """One chunk to the decoder under test: its events, then its state or the limit error."""
    events, state = _feed(decoder, chunk, full)
    return _norm(events), state


def _reference_call(decoder: SSEDecoder, chunk: bytes, full: bool) -> tuple[list[Any], Any]:
    """The same chunk to the reference decoder, one line end at a time (the line machine)."""
    got: list[Any] = []
    try:
        for piece in re.split(rb"([\r\n])", chunk):
            if piece:
                got += decoder.feed(piece) if full else decoder.feed_raw(piece)
                decoder.raise_pending()
    except EventTooLarge as exc:
        return _norm(got), ("too large", exc.offset, exc.limit)
    return _norm(got), _state(decoder)


def _decoder(limit: int | None, over: int, keep: bool) -> SSEDecoder:
    decoder = SSEDecoder(max_event_size=limit, report_comments=True)
    decoder._bytes_over = over  # pyright: ignore[reportPrivateUsage]
    decoder._keep_bytes = keep  # pyright: ignore[reportPrivateUsage]
    return decoder


@settings(max_examples=150, deadline=None)
@given(
    body=_BODY,
    sizes=st.lists(
        st.sampled_from([1, 5, 64, 4096, _HOLD_MAX - 1, _HOLD_MAX + 1, 65536, 10**6]),
        min_size=1,
        max_size=4,
    ),
    limit=st.sampled_from([None, None, 20_010, 70_010]),
    over=st.sampled_from([sys.maxsize, 16 * 1024, 100, 0]),
    keep=st.booleans(),
    full=st.booleans(),
    kinds=st.lists(st.sampled_from([bytes, bytes, bytearray, memoryview]), min_size=1, max_size=3),
)
def test_large_blocks_at_any_chunking_read_as_the_line_machine_reads_them(
    body: bytes,
    sizes: list[int],
    limit: int | None,
    over: int,
    keep: bool,
    full: bool,
    kinds: list[type[Any]],
) -> None:
    if min(sizes) < 64:
        sizes.append(65536)  # (bounded work: a large block in 1-byte chunks is 10^5 calls)
    chunks: list[bytes] = []
    at = 0
    while at < len(body):
        size = sizes[len(chunks) % len(sizes)]
        chunks.append(body[at : at + size])
        at += size
    _read_alike(chunks, limit, over, keep, full, kinds)


def _read_alike(
    chunks: list[bytes],
    limit: int | None,
    over: int,
    keep: bool,
    full: bool,
    kinds: list[type[Any]] | None = None,
) -> None:
    """The decoder and the reference fed *chunks* (the decoder as *kinds* in turn) agree call
    by call (events, state, limit errors), and after close()."""
    tested = _decoder(limit, over, keep)
    reference = _decoder(limit, over, keep)
    kinds = kinds or [bytes]
    for n, chunk in enumerate(chunks):
        result = _call(tested, kinds[n % len(kinds)](chunk), full)
        assert result == _reference_call(reference, chunk, full), (n, chunk[:80])
        if result[1][0] == "too large":
            return
    tested.close()
    reference.close()
    assert tested.discarded == reference.discarded
    assert _state(tested) == _state(reference)


def _every_cut_near_line_ends(body: bytes, width: int = 3) -> list[int]:
    """Offsets within *width* bytes of each line end (where the paths change), and the ends."""
    cuts = {0, len(body)}
    for match in re.finditer(rb"[\r\n]", body):
        cuts.update(range(max(0, match.start() - width), min(len(body), match.end() + width) + 1))
    return sorted(cuts)


def test_every_cut_near_the_line_ends_of_large_blocks() -> None:
    # Two large blocks the API's way, then one with CRLF, one whose data line a CR splits, a
    # comment and a block, a large data line and another, and an unterminated large one; every
    # two- and three-way split near a line end.
    big = _payload(70_000, 0, None)
    blocks = [
        b"event: response.output_item.done\ndata: " + big[:20_000] + b"\n\n",
        b": keep-alive\n\n",
        b"event: response.completed\ndata: " + big + b"\n\n",
        b"event: crlf\r\ndata: " + big[:9_000] + b"\r\n\r\n",
        b"data: " + big[:10_000] + b"\rdata: after a CR\n\n",
        b": keep-alive\ndata: after a comment\n\n",
        b"data: " + big[:12_000] + b"\ndata: second\n\n",
        b"data: " + big[:30_000],
    ]
    body = b"".join(blocks)
    at = [sum(map(len, blocks[:n])) for n in range(len(blocks))]
    reference = _decoder(None, 16 * 1024, False)
    expected = _reference_call(reference, body, False)
    reference.close()
    assert expected[0] == [
        ("response.output_item.done", big[:20_000], at[0]),
        ("", "", at[1]),
        ("response.completed", big, at[2]),
        ("crlf", big[:9_000].decode("utf-8", "replace"), at[3]),
        # (a CR ends the first data line: the second one's value follows after an LF)
        ("message", big[:10_000].decode("utf-8", "replace") + "\nafter a CR", at[4]),
        ("", "", at[5]),
        ("message", "after a comment", at[5] + 13),
        ("message", big[:12_000].decode("utf-8", "replace") + "\nsecond", at[6]),
    ]
    assert reference.discarded is not None
    assert reference.discarded.data == big[:30_000].decode("utf-8", "replace")
    cuts = _every_cut_near_line_ends(body)
    for cut in cuts:
        for cut2 in [cut, *cuts[cuts.index(cut) + 1 :: 13]]:
            decoder = _decoder(None, 16 * 1024, False)
            got: list[Any] = []
            for chunk in (body[:cut], body[cut:cut2], body[cut2:]):
                got += _call(decoder, chunk, False)[0]
            decoder.close()
            assert got == expected[0], (cut, cut2)
            assert _state(decoder) == expected[1]
            assert decoder.discarded == reference.discarded


def test_a_large_block_in_httpx_sized_chunks_is_one_event_of_its_bytes() -> None:
    # The final event of a stream as httpx reads it (64 KiB) and in 4 KiB chunks, after a block
    # that ends mid-chunk: one event, its payload the bytes received (past _bytes_over).
    payload = _payload(92_000, 0, None)
    body = b"data: 1\n\nevent: response.completed\ndata: " + payload + b"\n\n"
    for size in (len(body), 65536, 4096):
        decoder = _decoder(None, 16 * 1024, False)
        got: list[Any] = []
        for at in range(0, len(body), size):
            got += decoder.feed_raw(body[at : at + size])
        assert _norm(got) == [("message", "1", 0), ("response.completed", payload, 9)]
        assert type(got[1][1]) in (bytes, bytearray)
        assert decoder.offset == len(body)


def test_a_large_block_at_its_limit_whatever_the_cut() -> None:
    # A block counts 8 + 6 + N bytes ("event: e", then the data line); limits one under, at and
    # over it, and chunks cut where the count reaches the limit (the open line, the tail of a
    # chunk after a block, the chunk that ends the open line), as the line machine does.
    size = 20_000
    body = b"data: 1\n\nevent: e\ndata: " + _payload(size, 0, None) + b"\n\n"
    for limit in (size + 13, size + 14, size + 15, size - 1):
        # The block's count reaches the limit with its first limit + 10 bytes of the body.
        cuts = [*range(limit + 7, limit + 14), 12, 19, 10_000, len(body) - 2, len(body) - 1]
        chunkings = [[body[:cut], body[cut:]] for cut in cuts]
        chunkings += [[body[i : i + step] for i in range(0, len(body), step)] for step in (4096,)]
        for chunks in chunkings:
            tested = _decoder(limit, 16 * 1024, False)
            reference = _decoder(limit, 16 * 1024, False)
            results = []
            for chunk in chunks:
                result = _call(tested, chunk, False)
                assert result == _reference_call(reference, chunk, False), (limit, len(chunk))
                results.append(result)
                if result[1][0] == "too large":
                    break
            failed = results[-1][1][0] == "too large"
            assert failed == (limit < size + 14), (limit, [len(c) for c in chunks])


def _after_blank_lines(body: bytes) -> list[bytes]:
    """*body* cut after each blank line's LF (LF LF, CR LF LF, ...): one block per chunk, as a
    server writing whole events sends them, one per read, and the near misses around them."""
    cuts = [0, *(m.end() for m in re.finditer(rb"(?<=\n)\n", body)), len(body)]
    return [body[a:b] for a, b in itertools.pairwise(cuts) if b > a]


@settings(max_examples=150, deadline=None)
@given(
    body=st.one_of(_BODY, _bodies()),
    limit=st.sampled_from([None, None, 8, 20, 20_010, 70_010]),
    over=st.sampled_from([sys.maxsize, 16 * 1024, 100, 1, 0]),
    keep=st.booleans(),
    full=st.booleans(),
)
def test_one_block_per_chunk_reads_as_the_line_machine_reads_it(
    body: bytes, limit: int | None, over: int, keep: bool, full: bool
) -> None:
    _read_alike(_after_blank_lines(body), limit, over, keep, full)


def test_one_block_per_chunk_near_misses() -> None:
    # Each chunk ends with a blank line; only the first of each pair is one block of the API's
    # shapes. The others: two data lines, a CR inside, two blocks, a field line, a comment, a
    # block begun in the chunk before, a blank line first, a line or a comment left open by the
    # chunk before; then blocks at the limit and one byte over it.
    chunks = [
        b"event: a\ndata: 1\n\n",
        b"event: a\ndata: 1\ndata: 2\n\n",
        b"data: x\n\n",
        b"data: x\ry\n\n",
        b"event: b\ndata: 2\n\n",
        b"event: b\ndata: 2\n\ndata: 3\n\n",
        b"data: \n\n",
        b"id: 9\ndata: 4\n\n",
        b"event: c\ndata: 5\n\n",
        b": ping\ndata: 6\n\n",
        b"event: d\n",
        b"data: 7\n\n",
        b"\ndata: 8\n\n",
        b"data: open",
        b"data: 9\n\n",
        b": open",
        b"data: 10\n\n",
        b"event: e\ndata: " + b"z" * 41 + b"\n\n",  # (8 + 47 bytes: at the limit)
        b"data: " + b"z" * 49 + b"\n\n",  # (6 + 49)
        b"data: " + b"z" * 50 + b"\n\n",
    ]
    for over, keep in ((sys.maxsize, False), (1, False), (0, True)):  # ("1": 1 byte)
        tested = _decoder(55, over, keep)
        reference = _decoder(55, over, keep)
        got = []
        for chunk in chunks:
            result = _call(tested, chunk, False)
            assert result == _reference_call(reference, chunk, False), chunk
            got += result[0]
            if result[1][0] == "too large":
                break
        assert [(e[0], str(e[1], "utf-8") if type(e[1]) is bytes else e[1]) for e in got] == [
            ("a", "1"),
            ("a", "1\n2"),
            ("message", "x"),
            ("message", "x"),  # ("y" is a line of no field: ignored)
            ("b", "2"),
            ("b", "2"),
            ("message", "3"),
            ("message", ""),
            ("message", "4"),
            ("c", "5"),
            ("", ""),
            ("message", "6"),
            ("d", "7"),
            ("message", "8"),
            ("message", "opendata: 9"),
            ("", ""),  # (the comment ": opendata: 10")
            ("e", "z" * 41),
            ("message", "z" * 49),
        ]
        assert result[1] == ("too large", sum(map(len, chunks[:-1])), 55)
