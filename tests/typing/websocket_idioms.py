"""WebSocket-mode idioms (docs/guide/websocket.md), typed as a user's project sees them.

Checked by ``mypy --strict`` and ``pyright`` (strict) and run by tests/test_typing_suite.py:
``receive`` gives :data:`ResponsesServerEvent`, whose ``type`` narrows to one class (the steering
events included), and every event has ``stream_id``.
"""

from __future__ import annotations

import json

from typing_extensions import assert_type

import sansio_responses as sr
from sansio_responses.adapters.websocket_sync import connect
from sansio_responses.testing import Script, StreamBuilder, serve

conn = sr.ResponsesConnection()
message: str = conn.create({"model": "gpt-4o-mini", "input": "hi"}, stream_id="a")
assert json.loads(message)["stream_id"] == "a"
events = StreamBuilder(response_id="resp_1").text("Hi", 2).events()
seen: list[sr.ResponsesServerEvent] = []
for data in events[:4]:
    seen += conn.receive(json.dumps({**data, "stream_id": "a"}))
lane: str | None = seen[0].stream_id
assert lane == "a"
conn.steer("resp_1", "shorter")
accepted = {
    "type": "response.steer.accepted",
    "steer": {"id": "s1", "previous_response_id": "resp_1"},
}
for event in conn.receive(json.dumps(accepted)):
    if event.type == "response.steer.accepted":
        assert_type(event, sr.ResponseSteerAcceptedEvent)
        steer_id: str | None = event.steer_id
        assert steer_id == "s1"
stream: sr.ResponsesStream = conn.stream("a")
history: list[sr.ResponsesStream] = conn.responses("a")
assert history == [stream]

with serve(Script(StreamBuilder().text("Hello", 2).completed())) as server:
    with connect(base_url=server.base_url, api_key="sk-test") as socket_conn:
        turn = socket_conn.send_create({"model": "gpt-4o-mini", "input": "hi"})
        deltas = [e.delta for e in socket_conn if e.type == "response.output_text.delta"]
assert "".join(deltas) == "Hello" and turn.outcome == "completed"
