"""Events and chunks pickle and copy: the same data, and the same lazy helpers' values.

The streams attach ``snapshot`` / ``parsed`` to delta events, and the stream's view to Chat
chunks, as closures over their live state (the cheapest form per delta). Pickling or copying an
event must still work and give an equal event whose helpers answer as the original's did
(``_reduce_lazy`` in ``_responses/events.py``, ``ChatCompletionChunk.__reduce_ex__``); pickling a
whole stream's events stays linear in its size (the builders are shared, not one prefix per event).
"""

from __future__ import annotations

import copy
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import pytest

import sansio_responses as sr

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import generate as gen


def _helpers(event: Any) -> tuple[Any, Any]:
    return getattr(event, "snapshot", None), getattr(event, "parsed", None)


@pytest.mark.parametrize("json_loads", [None, json.loads])
@pytest.mark.parametrize("shape", ["text", "function_call", "reasoning", "text_logprobs"])
def test_responses_events_pickle_and_copy(shape: str, json_loads: Any) -> None:
    data = gen.generate(shape, 400).data
    stream = sr.ResponsesStream(json_loads=json_loads)
    events = stream.feed(data) + stream.close()
    expected = [(e.to_dict(), *_helpers(e)) for e in events]
    pickled = pickle.dumps(events)
    # the builders are shared by the events of a part: not one prefix per event
    assert len(pickled) < 8 * len(data)
    for copied in (pickle.loads(pickled), copy.deepcopy(events), [copy.copy(e) for e in events]):
        assert copied == events
        assert [(e.to_dict(), *_helpers(e)) for e in copied] == expected


def test_lazy_parsed_values_survive_pickling() -> None:
    stream = sr.ResponsesStream()
    events = stream.feed(gen.generate("function_call", 300).data) + stream.close()
    deltas = [e for e in events if e.type == "response.function_call_arguments.delta"]
    done = [e for e in events if e.type == "response.function_call_arguments.done"]
    assert deltas and done
    # Read some values first (the incremental reader moves on), leave others unread.
    read = [copy.deepcopy(e.parsed) for e in deltas[::7]]
    back = pickle.loads(pickle.dumps(events))
    back_deltas = [e for e in back if e.type == "response.function_call_arguments.delta"]
    assert [e.parsed for e in back_deltas[::7]] == read
    assert [e.parsed for e in back_deltas] == [e.parsed for e in deltas]
    assert [e.snapshot for e in back_deltas] == [e.snapshot for e in deltas]
    back_done = [e for e in back if e.type == "response.function_call_arguments.done"]
    assert [e.parsed for e in back_done] == [e.parsed for e in done]
    assert done[0].parsed is not None


@pytest.mark.parametrize("json_loads", [None, json.loads])
@pytest.mark.parametrize("shape", ["chat_text", "chat_tools", "chat_azure", "chat_logprobs"])
def test_chat_chunks_pickle_and_copy(shape: str, json_loads: Any) -> None:
    data = gen.generate(shape, 300).data
    stream = sr.ChatCompletionsStream(json_loads=json_loads)
    chunks = stream.feed(data) + stream.close()
    expected = [c.to_dict() for c in chunks]
    snapshots = [c.content_snapshot() for c in chunks]
    pickled = pickle.dumps(chunks)
    assert len(pickled) < 20 * len(data)
    back = pickle.loads(pickled)
    assert back == chunks
    assert [c.to_dict() for c in back] == expected
    # a pickle carries the data, not the stream: the helpers say so
    with pytest.raises(sr.LocalProtocolError, match="unpickled"):
        back[-1].content_snapshot()
    # a copy shares the stream's view: its helpers answer as the original's
    for copied in (copy.deepcopy(chunks), [copy.copy(c) for c in chunks]):
        assert copied == chunks
        assert [c.to_dict() for c in copied] == expected
        assert [c.content_snapshot() for c in copied] == snapshots
    snap = stream.snapshot()
    assert pickle.loads(pickle.dumps(snap)) == snap


def _errors() -> list[BaseException]:
    """One of each error the library raises or caches, every attribute set."""
    from sansio_responses._errors import SchemaError

    remote = sr.RemoteProtocolError("bad", offset=3, sequence_number=4, excerpt="'x'")
    remote.events = [1, 2]
    return [
        remote,
        sr.LocalProtocolError("misuse", offset=1),
        sr.TruncatedStream("cut", offset=9, sequence_number=2),
        sr.EventTooLarge("too big", limit=10, offset=5),
        SchemaError("response.output", "list", 3),
        sr.PartialJSONError("unexpected '}'", 7, "'{\"a\":}'"),
        sr.OutputParseError("not JSON", raw_text="{", path="$.a", position=1),
    ]


@pytest.mark.parametrize("error", _errors(), ids=lambda e: type(e).__name__)
def test_errors_pickle_and_copy(error: BaseException) -> None:
    """An error crosses a process (pickle) or is copied with its class, message and attributes:
    an event caching a raised ``parsed`` error pickles with it. ``BaseException`` rebuilds as
    ``cls(*args)``, which fails on load for keyword-only or several required arguments."""
    for clone in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(clone) is type(error)
        assert str(clone) == str(error)
        assert clone.args == error.args
        assert vars(clone) == vars(error)


def test_an_event_that_holds_a_parse_error_pickles() -> None:
    """Custom tool input is free text: the partial JSON reader of its builder, which the events
    share, keeps the error it met, and pickles with the events."""
    path = (
        Path(__file__).parent
        / "data"
        / "real"
        / "responses-vercel-ai-openai-custom-text-tool.1.sse"
    )
    events = sr.ResponsesStream().feed(path.read_bytes())
    expected = [(e.to_dict(), *_helpers(e)) for e in events]
    pickled = pickle.dumps(events)
    assert b"PartialJSONError" in pickled  # the case this test is about
    assert [(e.to_dict(), *_helpers(e)) for e in pickle.loads(pickled)] == expected


@pytest.mark.parametrize("make", [sr.ResponsesStream, sr.ChatCompletionsStream])
def test_a_stream_says_it_is_not_copied(make: Any) -> None:
    """A copied stream would share its builders with the original (its copies of events went
    wrong silently, 29 of 67 recordings): copying or pickling one is a LocalProtocolError."""
    stream = make()
    stream.feed(b'data: {"type":"response.created"')  # mid-event: state worth copying
    for attempt in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(sr.LocalProtocolError, match="is not copied or pickled"):
            attempt(stream)
