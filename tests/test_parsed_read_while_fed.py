"""Parsed values of returned events, read in another thread while the stream is fed, stay right.

The stream appends each delta in the thread that feeds it, raising the text's ``length`` after
the piece is in its list; the events it returned may be read in other threads meanwhile (a UI
thread reading ``parsed`` or ``tool_arguments_parsed()``). The review of this stop found two
ways such a read corrupted the one incremental parser every event of a text shares, for good:
a read between the append and the raise of ``length`` took the piece as counted and cut the text
in the wrong place (Responses); and the first read of a Chat choice's JSON, started by the
reader, counted a delta appended meanwhile twice (Chat). The interleavings are made here
deterministically, as the threads of the review's reproducers made them by chance.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import sansio_responses as sr
from sansio_responses._chat import parsed as chat_parsed
from sansio_responses._json.partial import PartialJSON
from sansio_responses._json.structured import LazyJSON
from sansio_responses._responses.builders import _MERGE_EVERY, Text  # pyright: ignore[reportPrivateUsage]


def _partial(text: str) -> Any:
    parser = PartialJSON()
    parser.feed(text)
    return parser.value


def _in_flight(text: Text, piece: str) -> bool:
    # The first half of the stream's inline append (inline.py), which it takes while no merge
    # is due: the piece is in the list, the length not raised yet. Another thread may read
    # right here. Else (False) the append merges: Text.append.
    if text.small >= _MERGE_EVERY - 1:
        text.append(piece)
        return False
    text.pieces.append(piece)
    return True


def _land(text: Text, piece: str, in_flight: bool) -> None:
    if in_flight:
        text.length += len(piece)
        text.small += 1


def test_a_read_between_an_append_and_its_length_keeps_the_parser_right() -> None:
    pieces = ['{"path": "a', "bc", '", "n": [1', ", 2", "]}", " "]
    text = Text()
    lazy = text.json = LazyJSON(text)
    text.append(pieces[0])
    for n, piece in enumerate(pieces[1:], 1):
        # The event of the piece before, as the stream made it (a reader of its position).
        read = lazy.reader(partial(text.prefix, text.length))
        flying = _in_flight(text, piece)
        # Read in another thread now, while the text's length does not count the piece yet.
        assert read() == _partial("".join(pieces[:n]))
        _land(text, piece, flying)
        assert lazy.value() == _partial("".join(pieces[: n + 1]))
    assert lazy.value() == json.loads("".join(pieces))


def test_since_counts_each_piece_once_whatever_the_reads_and_merges() -> None:
    text = Text()
    whole = ""
    for i in range(300):  # past several merges (every 64 appends)
        piece = f"<{i}>"
        flying = _in_flight(text, piece)
        assert text.since(len(whole)) == piece  # the piece, though the length lags
        _land(text, piece, flying)
        whole += piece
        if i % 7 == 0:
            text.append("!")
            whole += "!"
        if i % 150 == 0:  # (a read joins the pieces: merges come between)
            assert text.value() == whole
        assert text.since(max(len(whole) - 5, 0)) == whole[max(len(whole) - 5, 0) :]
    assert text.value() == whole


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("append"), st.text(max_size=5)),
            st.tuples(st.just("inline"), st.text(min_size=1, max_size=5)),
            st.tuples(st.just("since"), st.integers(0, 400)),
            st.tuples(st.just("value"), st.none()),
            st.tuples(st.just("set"), st.text(max_size=8)),
        ),
        max_size=200,
    )
)
def test_since_against_the_text_it_holds(ops: list[tuple[str, Any]]) -> None:
    text = Text()
    whole = ""
    for op, arg in ops:
        if op == "append":
            text.append(arg)
            whole += arg
        elif op == "inline":
            flying = _in_flight(text, arg)
            whole += arg
            # read with the piece in flight, then land it
            start = max(len(whole) - 3 * len(arg), 0)
            assert text.since(start) == whole[start:]
            _land(text, arg, flying)
        elif op == "since":
            start = min(arg, len(whole))
            assert text.since(start) == whole[start:]
        elif op == "value":
            assert text.value() == whole
        else:
            text.set(arg)
            whole = arg
    assert text.value() == whole
    assert text.length == len(whole)


class _AppendingOnAttach(Text):
    """A text that lands another delta as soon as a JSON tracker is attached to it: as the
    stream's thread may while a reader's first read of the choice's JSON starts it."""

    __slots__ = ("late",)

    def __init__(self, initial: str, late: str) -> None:
        super().__init__(initial)
        self.late: str | None = late

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name == "json" and value is not None:
            late = self.late
            if late:
                self.late = None
                self.append(late)


def test_the_first_read_of_a_chat_json_does_not_count_a_late_delta_twice() -> None:
    text = _AppendingOnAttach('{"city": "Par', 'is", "days": 3}')
    assert chat_parsed.latest_value(text) == {"city": "Paris", "days": 3}
    text.append("")
    assert chat_parsed.latest_value(text) == {"city": "Paris", "days": 3}


def test_chat_tool_arguments_read_early_and_late() -> None:
    # The same values whichever chunk is read first: the tracker reads the text, it is not fed.
    body = (
        b'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":'
        b'[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t","type":"function","function":'
        b'{"name":"f","arguments":""}}]}}]}\n\n'
    )
    for piece in ('{"a', '": [1', ", 2]", "}"):
        args = json.dumps(piece)
        body += (
            b'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":'
            b'[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":'
            + args.encode()
            + b"}}]}}]}\n\n"
        )
    stream = sr.ChatCompletionsStream()
    chunks = [c for c in stream.feed(body) if isinstance(c, sr.ChatCompletionChunk)]
    late_first = [repr(chunks[i].tool_arguments_parsed(0, 0)) for i in reversed(range(len(chunks)))]
    stream2 = sr.ChatCompletionsStream()
    chunks2 = [c for c in stream2.feed(body) if isinstance(c, sr.ChatCompletionChunk)]
    in_order = [repr(chunks2[i].tool_arguments_parsed(0, 0)) for i in range(len(chunks2))]
    assert late_first[::-1] == in_order
    assert in_order[-1] == repr({"a": [1, 2]})
