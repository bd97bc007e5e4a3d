"""What a stream returned, read in another thread while the stream is fed, loses nothing.

The stream appends each delta in the thread that feeds it; the events and snapshots it returned
may be read in other threads meanwhile (a queue of events to a UI thread). A read joins the
pieces; before, it then replaced the list, and a delta appended in between was lost for good
(the review of this stop; also on the commit before it). A snapshot built while an event was
applied was cached as if it showed that event.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import sansio_responses as sr
from sansio_responses._responses import builders, stream
from sansio_responses._responses.builders import Text


def _append_inline(text: Text, piece: str) -> None:
    # As the stream's inline path appends (no merge due): what another thread may do at any
    # point of a read.
    text.pieces.append(piece)
    text.length += len(piece)
    text.small += 1


@pytest.mark.parametrize("long", [False, True])
def test_a_delta_appended_during_a_read_is_kept(
    long: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another thread's append lands in the middle of a read, deterministically: right after the
    # read's join of a long text (in place, see builders._join), right after the read took its
    # slice of the pieces for a short one.
    size = builders._JOIN_IN_PLACE if long else 10  # pyright: ignore[reportPrivateUsage]
    text = Text()
    for i in range(5):
        text.append(f"{i}" * size)
    whole = "".join(f"{i}" * size for i in range(5))
    late = ["late"]

    def append_once() -> None:
        if late:
            _append_inline(text, late.pop())

    if long:
        real_join = builders._join  # pyright: ignore[reportPrivateUsage]

        def join_then_append(pieces: list[str]) -> str:
            out = real_join(pieces)
            append_once()
            return out

        monkeypatch.setattr(builders, "_join", join_then_append)
    else:

        class Pieces(list[str]):
            def __getitem__(self, index: Any) -> Any:
                got = super().__getitem__(index)
                if isinstance(index, slice):
                    append_once()
                return got

        text.pieces = Pieces(text.pieces)
    assert text.value() in (whole, whole + "late")
    assert not late  # (the append happened during the read)
    assert text.value() == whole + "late"
    assert text.length == len(whole) + 4


def test_a_snapshot_built_while_an_event_is_applied_is_not_kept_as_newer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The snapshot's cache is tagged with the version it was built from: an event applied
    # during the build (by the feeding thread) makes the next call build again.
    s = sr.ResponsesStream()
    s.feed(
        b'data: {"type":"response.created","sequence_number":0,"response":'
        b'{"id":"r","object":"response","status":"in_progress","output":[]}}\n\n'
    )
    builds: list[int] = []
    real = stream.Response.from_dict

    def build(wire: dict[str, Any]) -> sr.Response:
        builds.append(len(builds))
        if len(builds) == 1:
            s._acc.version += 1  # pyright: ignore[reportPrivateUsage]  # an event, meanwhile
        return real(wire)

    monkeypatch.setattr(stream.Response, "from_dict", build)
    first = s.snapshot()
    again = s.snapshot()
    assert len(builds) == 2 and first is not again
    assert s.snapshot() is again and len(builds) == 2


def test_a_snapshot_built_before_a_delta_lands_is_not_kept_as_showing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The version is raised after the delta is in the text: a snapshot built just before the
    # append (by another thread, here by the append itself) is cached under the old version,
    # and the next one shows the delta.
    def event(**fields: Any) -> bytes:
        return b"data: " + json.dumps(fields).encode() + b"\n\n"

    s = sr.ResponsesStream()
    s.feed(
        event(
            type="response.created",
            sequence_number=0,
            response={"id": "r", "object": "response", "status": "in_progress", "output": []},
        )
        + event(
            type="response.output_item.added",
            sequence_number=1,
            output_index=0,
            item={
                "id": "m",
                "type": "message",
                "status": "in_progress",
                "role": "assistant",
                "content": [],
            },
        )
        + event(
            type="response.content_part.added",
            sequence_number=2,
            item_id="m",
            output_index=0,
            content_index=0,
            part={"type": "output_text", "text": "", "annotations": []},
        )
    )
    real = Text.append

    def snapshot_then_append(self: Text, piece: str) -> None:
        s.snapshot()
        real(self, piece)

    monkeypatch.setattr(Text, "append", snapshot_then_append)
    s.feed(
        event(
            type="response.output_text.delta",
            sequence_number=3,
            item_id="m",
            output_index=0,
            content_index=0,
            delta="Hello",
            logprobs=[],
        )
    )
    monkeypatch.undo()
    snapshot = s.snapshot()
    assert snapshot is not None and snapshot.output_text == "Hello"
