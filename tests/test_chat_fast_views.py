"""The Chat fast paths at every chunking, and what each chunk's accessors read.

The templated path (``_chat/fast.py``: ``ChatFastPaths._templated``) writes out the template
match and the chunk's construction, and each chunk's accessors read the lengths recorded in its
*mark* (``_chat/accumulate.py``: ``link``, ``marked``; one flat link per text a chunk extends)
through a ``View``. Here the stream with its fast paths must give what the general path gives
(``_HOT = False``: events by ``==``, ``repr`` and ``to_dict()``, the snapshot, diagnostics,
outcome and errors) on the real recordings and on generated streams, fed whole, one byte at a
time and split at every offset; and every chunk's accessors must give what the chunks' own
deltas say, computed here without the stream's marks: ``content_snapshot`` the concatenation of
the content deltas so far, ``tool_arguments_parsed`` / ``content_parsed`` a fresh
:class:`PartialJSON` of those texts.
"""

from __future__ import annotations

import copy
import json
import random
from functools import partial
from typing import Any

import pytest
from _corpus import byte_chunks, load, names, random_chunks
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hot_paths import CHAT_BASE, _GenericChat

import sansio_responses as sr
from sansio_responses._chat.accumulate import CHAIN, Mark, link, marked

_DUMPS = partial(json.dumps, separators=(",", ":"))

# -- marks ---------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(
    chunks=st.lists(
        st.lists(st.tuples(st.integers(0, 2), st.integers(-1, 2), st.integers(0, 5)), max_size=4),
        max_size=3 * CHAIN,
    )
)
def test_each_mark_holds_the_lengths_of_its_time(
    chunks: list[list[tuple[int, int, int]]],
) -> None:
    # A chunk extends any texts by any amounts (several changes to one text included, the last
    # one counting); its mark must give every text's length as of that chunk, across the folds
    # every CHAIN links, however many chunks later it is read.
    mark: Mark = {}
    state: dict[tuple[int, int], int] = {}
    kept: list[tuple[Mark, dict[tuple[int, int], int]]] = []
    for changes in chunks:
        for c, t, grow in changes:
            length = state.get((c, t), 0) + grow
            state[(c, t)] = length
            mark = link(mark, c, t, length)
        kept.append((mark, dict(state)))
    for mark, expected in kept:
        for c in range(3):
            for t in range(-1, 3):
                assert marked(mark, c, t) == expected.get((c, t))


# -- streams -------------------------------------------------------------------------------------


def _body(chunks: list[str]) -> bytes:
    data = b"".join(b"data: " + c.encode("utf-8", "surrogatepass") + b"\n\n" for c in chunks)
    return data + b"data: [DONE]\n\n"


def _content_stream(pieces: list[str], choices: int = 1) -> list[str]:
    """Content chunks of *choices* choices, interleaved (n > 1), each piece to each choice."""
    out = []
    for c in range(choices):
        first = {"index": c, "delta": {"role": "assistant", "content": ""}}
        out.append(_DUMPS(dict(CHAT_BASE, choices=[first])))
    for i, piece in enumerate(pieces):
        for c in range(choices):
            choice = {"index": c, "delta": {"content": piece}, "logprobs": None}
            out.append(_DUMPS(dict(CHAT_BASE, choices=[choice], obfuscation=f"p{i}")))
    for c in range(choices):
        last = {"index": c, "delta": {}, "logprobs": None, "finish_reason": "stop"}
        out.append(_DUMPS(dict(CHAT_BASE, choices=[last])))
    return out


def _tool_stream(pieces: list[str], calls: int = 2, choices: int = 1, both: int = -1) -> list[str]:
    """Tool calls opened in each choice, then each piece to each call, interleaved; the chunk
    *both* (if any) carries a piece for every call of the choice at once (a chunk that extends
    several texts: the general path's links)."""
    out = []
    for c in range(choices):
        opening: dict[str, Any] = {"index": c, "delta": {"role": "assistant", "content": None}}
        out.append(_DUMPS(dict(CHAT_BASE, choices=[opening])))
        for t in range(calls):
            call = {"index": t, "id": f"call_{c}{t}", "type": "function"}
            call["function"] = {"name": "f", "arguments": ""}
            out.append(
                _DUMPS(dict(CHAT_BASE, choices=[{"index": c, "delta": {"tool_calls": [call]}}]))
            )
    for i, piece in enumerate(pieces):
        for c in range(choices):
            if i == both:
                tcs = [{"index": t, "function": {"arguments": piece}} for t in range(calls)]
                choice = {"index": c, "delta": {"tool_calls": tcs}}
                out.append(_DUMPS(dict(CHAT_BASE, choices=[choice], obfuscation=f"p{i}")))
                continue
            for t in range(calls):
                tc = {"index": t, "function": {"arguments": piece}}
                choice = {"index": c, "delta": {"tool_calls": [tc]}}
                out.append(_DUMPS(dict(CHAT_BASE, choices=[choice], obfuscation=f"p{i}")))
    for c in range(choices):
        last = {"index": c, "delta": {}, "finish_reason": "tool_calls"}
        out.append(_DUMPS(dict(CHAT_BASE, choices=[last])))
    return out


def _json_pieces(n: int) -> list[str]:
    """A JSON document cut into *n* + 2 pieces (escapes and non-ASCII text included)."""
    return ['{"a": [', *[f'"{i}é\\n\\"", ' for i in range(n)], "1]}"]


def _partial(text: str) -> Any:
    parser = sr.PartialJSON()
    parser.feed(text)
    return copy.deepcopy(parser.value)


def _read(stream: sr.ChatCompletionsStream, pieces: list[bytes]) -> dict[str, Any]:
    """Everything observable after feeding *pieces*; every chunk's accessors read right away
    (their values are live trees: copied), for every choice and tool call the body names."""
    events: list[Any] = []
    error = None
    try:
        for piece in pieces:
            events += stream.feed(piece)
        events += stream.close()
    except sr.ProtocolError as exc:
        events += exc.events  # type: ignore[attr-defined]
        error = (type(exc), str(exc), exc.offset)
    chunks = [e for e in events if isinstance(e, sr.ChatCompletionChunk)]
    indices = {c.index for e in chunks for c in e.choices if c.index is not None} | {0}
    tools = {
        tc.index
        for e in chunks
        for c in e.choices
        for tc in c.delta.tool_calls or ()
        if tc.index is not None
    } | {0}
    views = []
    for chunk in chunks:
        row = []
        for i in sorted(indices):
            row.append(chunk.content_snapshot(i))
            row.append(copy.deepcopy(chunk.content_parsed(i)))
            for t in sorted(tools):
                row.append(copy.deepcopy(chunk.tool_arguments_parsed(i, t)))
        views.append(row)
    snapshot = stream.snapshot()
    return {
        "events": events,
        "types": [type(e) for e in events],
        "reprs": [repr(e) for e in events],
        "wire": [e.to_dict() for e in events],
        "views": views,
        "snapshot": None if snapshot is None else snapshot.to_dict(),
        "diagnostics": stream.diagnostics,
        "outcome": stream.outcome,
        "error": error,
    }


def _expected_views(seen: dict[str, Any], structured: bool) -> list[list[Any]]:
    """What every chunk's accessors must give, from the chunks' own deltas (no marks)."""
    chunks = [e for e in seen["events"] if isinstance(e, sr.ChatCompletionChunk)]
    indices = {c.index for e in chunks for c in e.choices if c.index is not None} | {0}
    tools = {
        tc.index
        for e in chunks
        for c in e.choices
        for tc in c.delta.tool_calls or ()
        if tc.index is not None
    } | {0}
    content: dict[int, str] = {}
    args: dict[tuple[int, int], str] = {}
    rows = []
    for chunk in chunks:
        for c in chunk.choices:
            if c.delta.content is not None:
                content[c.index] = content.get(c.index, "") + c.delta.content  # type: ignore[index]
            for tc in c.delta.tool_calls or ():
                if tc.function is not None and tc.function.arguments:
                    key = (c.index, tc.index)
                    args[key] = args.get(key, "") + tc.function.arguments  # type: ignore[index]
        row = []
        for i in sorted(indices):
            text = content.get(i)
            row.append(text)
            row.append(_partial(text) if structured and text else None)
            for t in sorted(tools):
                a = args.get((i, t))
                row.append(_partial(a) if a else None)
        rows.append(row)
    return rows


def _check(body: bytes, *, every_offset: bool = False, **kw: Any) -> None:
    """The fast paths equal the general path, whole; and at every chunking tried, the same
    as whole; and the accessors agree with the deltas."""
    for loads in (json.loads, None):
        whole = _read(sr.ChatCompletionsStream(json_loads=loads, **kw), [body])
        assert whole == _read(_GenericChat(json_loads=loads, **kw), [body])
        assert whole == _read(
            sr.ChatCompletionsStream(json_loads=loads, **kw), [*byte_chunks(body)]
        )
        assert whole == _read(
            sr.ChatCompletionsStream(json_loads=loads, **kw), random_chunks(body, len(body))
        )
        if every_offset and loads is json.loads:  # (the chunking is the decoders' common part)
            for cut in range(1, len(body)):
                pieces = [body[:cut], body[cut:]]
                assert whole == _read(sr.ChatCompletionsStream(json_loads=loads, **kw), pieces)
        structured = kw.get("response_format") is not None
        if whole["error"] is None:
            assert whole["views"] == _expected_views(whole, structured)


@pytest.mark.parametrize("name", names("chat"))
def test_recorded_streams_at_every_chunking(name: str) -> None:
    body, _ = load(name)
    _check(body)
    _check(body, response_format={"type": "json_object"})


@pytest.mark.parametrize("name", sorted(names("chat"), key=lambda n: len(load(n)[0]))[:3])
def test_small_recorded_streams_split_at_every_offset(name: str) -> None:
    body, _ = load(name)
    _check(body, every_offset=True)


def test_a_content_stream_split_at_every_offset() -> None:
    pieces = ["a", "é", "\\", '"', "😀", ""] * 2
    _check(_body(_content_stream(pieces)), every_offset=True)


def test_a_tool_stream_split_at_every_offset() -> None:
    _check(_body(_tool_stream(_json_pieces(1), calls=2, choices=2, both=1)), every_offset=True)


@pytest.mark.parametrize("choices", [1, 2, 3])
def test_structured_content_over_several_folds(choices: int) -> None:
    body = _body(_content_stream(_json_pieces(3 * CHAIN), choices))
    _check(body, response_format={"type": "json_object"})
    _check(body, response_format={"type": "json_object"}, strict=True)


@pytest.mark.parametrize(("calls", "choices", "both"), [(1, 1, -1), (2, 1, 5), (3, 2, 40)])
def test_tool_arguments_over_several_folds(calls: int, choices: int, both: int) -> None:
    _check(_body(_tool_stream(_json_pieces(2 * CHAIN), calls, choices, both)))


def test_the_templated_chunks_were_read_by_templates() -> None:
    # Not a property to rely on, but what gives the tests above their point: nearly every chunk
    # of these streams is read by a template, not decoded.
    for chunks in (_content_stream(["x"] * 100), _tool_stream(["1"] * 100, calls=1)):
        stream = sr.ChatCompletionsStream(json_loads=json.loads)
        decoded = 0
        loads = stream._fast_loads  # pyright: ignore[reportPrivateUsage]

        def counting(data: Any, loads: Any = loads) -> Any:
            nonlocal decoded
            decoded += 1
            return loads(data)

        stream._fast_loads = counting  # pyright: ignore[reportPrivateUsage]
        stream.feed(_body(chunks))
        assert decoded < 10


# -- hypothesis: generated streams, random splits -----------------------------------------------

PIECES = st.text(
    st.sampled_from(["a", " ", '"', "\\", "\n", "é", "😀", "\u2028", "\x00", "{", "[", "1"]),
    max_size=5,
)


@settings(max_examples=60, deadline=None)
@given(
    pieces=st.lists(PIECES, min_size=1, max_size=40),
    kind=st.sampled_from(["content", "tools"]),
    choices=st.integers(1, 2),
    calls=st.integers(1, 2),
    both=st.integers(-1, 39),
    structured=st.booleans(),
    strict=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_generated_streams_at_random_chunkings(
    pieces: list[str],
    kind: str,
    choices: int,
    calls: int,
    both: int,
    structured: bool,
    strict: bool,
    seed: int,
) -> None:
    if kind == "content":
        chunks = _content_stream(pieces, choices)
    else:
        chunks = _tool_stream(pieces, calls, choices, both)
    body = _body(chunks)
    kw: dict[str, Any] = {"strict": strict}
    if structured:
        kw["response_format"] = {"type": "json_object"}
    whole = _read(sr.ChatCompletionsStream(json_loads=json.loads, **kw), [body])
    assert whole == _read(_GenericChat(json_loads=json.loads, **kw), [body])
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(body)), min(5, len(body) - 1)))
    pieces_b = [body[i:j] for i, j in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    assert whole == _read(sr.ChatCompletionsStream(json_loads=json.loads, **kw), pieces_b)
    if whole["error"] is None:
        assert whole["views"] == _expected_views(whole, structured)


@pytest.mark.parametrize("events", [True, False])
def test_a_stream_holds_at_most_chain_links(events: bool) -> None:
    # The marks are folded every CHAIN links: a chunk's accessors walk at most that many, and
    # the stream holds no history.
    for chunks in (
        _content_stream(["x"] * 200, choices=2),
        _tool_stream(["1"] * 100, calls=2, choices=2, both=7),
    ):
        stream = sr.ChatCompletionsStream(json_loads=json.loads, events=events)
        longest = 0
        for block in _body(chunks).split(b"\n\n"):
            stream.feed(block + b"\n\n")
            mark = stream._mark  # pyright: ignore[reportPrivateUsage]
            links = 0
            while isinstance(mark, tuple):
                links += 1
                mark = mark[0]
            longest = max(longest, links)
        # (without events, only the general path's chunks link: the openings, the last ones)
        assert longest == CHAIN - 1 if events else longest < 8


def test_a_chunk_that_extends_one_text_twice() -> None:
    # Two entries for one choice in one chunk (the general path applies both, in order): the
    # chunk's accessors read the text as of its last entry, and the chunks after it build on it.
    chunks = _content_stream(["a", "b", "c"])
    twice = {"index": 0, "delta": {"content": "X"}}
    chunks.insert(2, _DUMPS(dict(CHAT_BASE, choices=[twice, dict(twice, delta={"content": "Y"})])))
    body = _body(chunks)
    _check(body)
    seen = _read(sr.ChatCompletionsStream(json_loads=json.loads), [body])
    assert [row[0] for row in seen["views"]][:5] == ["", "a", "aXY", "aXYb", "aXYbc"]
