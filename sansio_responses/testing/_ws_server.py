"""The test server's WebSocket mode: ``/v1/responses`` upgraded, one :class:`Script` per create.

Each ``response.create`` takes the server's next script (the same queue as the POSTs, then the
default) and plays it on the lane the create names: the script's events, one text message each,
each given the create's ``stream_id``. Lanes play concurrently; creates on one lane play in order
(first in, first out, as the API documents). The script's faults apply per message:
``disconnect_after_events`` drops the socket without a close frame after that many events,
``stall_after_events`` holds the lane for ``stall_seconds`` (a steer ends the wait), ``delay``
waits between events. A script with an HTTP error status is sent as the WebSocket ``error``
(``status`` and the script's ``error`` object).

Steering (``response.steer``) is scripted by the scripts themselves:

* for a response not playing on this socket: ``response.steer.failed`` (``response_not_found``,
  or ``response_already_completed`` for one that ended here);
* otherwise ``response.steer.accepted``; then, when the script ends with tool calls
  (``function_call`` items) it plays on to ``response.completed`` and sends
  ``response.steer.pending`` with one ``function_call_output`` stub per call; else it stops
  where it is with ``response.incomplete`` (``incomplete_details.reason: "steered"``) and plays
  the next script as the successor on the same lane (``response.steer.failed``,
  ``successor_creation_failed``, when none is queued).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._script import Script, _data  # pyright: ignore[reportPrivateUsage]

if TYPE_CHECKING:
    import aiohttp.web

    from .._base import JSONValue

__all__ = ["websocket_handler"]

_TERMINAL = frozenset({"response.completed", "response.incomplete", "response.failed", "error"})


class _Lane:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[Script] = asyncio.Queue()
        self.running: str | None = None  # the id of the response being played
        self.steered = asyncio.Event()
        self.task: asyncio.Task[None] | None = None


class _Socket:
    """One upgraded connection: its lanes and the steering state."""

    def __init__(
        self,
        ws: aiohttp.web.WebSocketResponse,
        request: aiohttp.web.Request,
        take_script: Callable[[], Script | None],
    ) -> None:
        self.ws = ws
        self.request = request
        self.take_script = take_script
        self.lanes: dict[str | None, _Lane] = {}
        self.ended: set[str] = set()
        self.steers = 0
        self.send_lock = asyncio.Lock()

    async def send(self, event: dict[str, Any], lane: str | None) -> None:
        if lane is not None:
            event = {**event, "stream_id": lane}
        async with self.send_lock:
            await self.ws.send_str(json.dumps(event))

    def drop(self) -> None:
        """Close the TCP connection without a close frame (the client sees code 1006)."""
        transport = self.request.transport
        if transport is not None:
            transport.close()

    async def on_create(self, message: dict[str, Any]) -> None:
        lane_id = message.get("stream_id")
        lane = self.lanes.get(lane_id)
        if lane is None:
            lane = self.lanes[lane_id] = _Lane()
            lane.task = asyncio.create_task(self.play_lane(lane, lane_id))
        script = self.take_script()
        if script is None:
            script = Script.error(500, "ResponsesServer: no script enqueued for response.create")
        lane.queue.put_nowait(script)

    async def on_steer(self, message: dict[str, Any]) -> None:
        target = message.get("previous_response_id")
        steer_input = message.get("input")
        lane_id, lane = next(
            (
                (k, v)
                for k, v in self.lanes.items()
                if v.running is not None and v.running == target
            ),
            (None, None),
        )
        if lane is None or lane.steered.is_set():
            code = "response_already_completed" if target in self.ended else "response_not_found"
            if lane is not None:
                code = "too_many_pending_steers"
            await self.send(
                {
                    "type": "response.steer.failed",
                    "sequence_number": 0,
                    "steer": {"input": steer_input, "previous_response_id": target},
                    "error": {
                        "code": code,
                        "message": f"Cannot steer response {target!r}.",
                        "type": "invalid_request_error",
                    },
                },
                None if lane is None else lane_id,
            )
            return
        self.steers += 1
        accepted = {"id": f"steer_{self.steers}", "previous_response_id": target}
        await self.send(
            {"type": "response.steer.accepted", "sequence_number": 0, "steer": accepted}, lane_id
        )
        lane.steered.set()

    async def play_lane(self, lane: _Lane, lane_id: str | None) -> None:
        successor: Script | None = None
        while True:
            script = successor or await lane.queue.get()
            successor = None
            if script.status >= 300:
                await self.send(_ws_error(script), lane_id)
                continue
            events = [e for e in (_data(b) for b in script.blocks()) if isinstance(e, dict)]
            lane.steered.clear()
            ended = await self.play(lane, lane_id, script, events)
            if ended == "dropped":
                return
            if ended == "steered":
                successor = self.take_script()
                if successor is None:
                    await self.send(_steer_failed(lane, "successor_creation_failed"), lane_id)
            lane.running = None

    async def play(
        self, lane: _Lane, lane_id: str | None, script: Script, events: list[dict[str, Any]]
    ) -> str:
        faults = script.faults
        calls = _function_calls(events)
        response: dict[str, Any] = {}
        sequence = 0
        for number, event in enumerate(events, 1):
            if (
                lane.steered.is_set()
                and not calls
                and event.get("type") not in ("response.created",)
            ):
                await self.send(_steered(response, sequence + 1), lane_id)
                self.ended.add(str(response.get("id")))
                return "steered"
            if number > 1 and faults.delay:
                await asyncio.sleep(faults.delay)
            if isinstance(event.get("response"), dict):
                response = event["response"]
                if event.get("type") == "response.created":
                    lane.running = str(response.get("id"))
            if isinstance(event.get("sequence_number"), int):
                sequence = event["sequence_number"]
            await self.send(event, lane_id)
            if number == faults.disconnect_after_events:
                self.drop()
                return "dropped"
            if number == faults.stall_after_events:
                with contextlib.suppress(asyncio.TimeoutError):  # TimeoutError from 3.11 on
                    await asyncio.wait_for(lane.steered.wait(), faults.stall_seconds)
            if event.get("type") in _TERMINAL:
                self.ended.add(str(response.get("id")))
                lane.running = None  # a steer from now on is too late: response_already_completed
        if lane.steered.is_set() and calls:
            await self.send(_pending(response, calls, self.steers, sequence + 1), lane_id)
        return "done"


def _function_calls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for event in reversed(events):
        if event.get("type") in _TERMINAL and isinstance(event.get("response"), dict):
            output: list[Any] = event["response"].get("output") or []
            items: list[dict[str, Any]] = [i for i in output if isinstance(i, dict)]
            return [i for i in items if i.get("type") == "function_call"]
    return []


def _steered(response: dict[str, Any], sequence: int) -> dict[str, Any]:
    ended = copy.deepcopy(response)
    ended["status"] = "incomplete"
    ended["incomplete_details"] = {"reason": "steered"}
    return {"type": "response.incomplete", "sequence_number": sequence, "response": ended}


def _pending(
    response: dict[str, Any], calls: list[dict[str, Any]], steers: int, sequence: int
) -> dict[str, Any]:
    stubs = [
        {"type": "function_call_output", "call_id": c.get("call_id"), "name": c.get("name")}
        for c in calls
    ]
    return {
        "type": "response.steer.pending",
        "sequence_number": sequence,
        "steer": {"id": f"steer_{steers}", "previous_response_id": response.get("id")},
        "reason": "waiting_for_required_input",
        "required_input": stubs,
    }


def _steer_failed(lane: _Lane, code: str) -> dict[str, Any]:
    return {
        "type": "response.steer.failed",
        "sequence_number": 0,
        "steer": {"input": None, "previous_response_id": lane.running},
        "error": {"code": code, "message": "No successor.", "type": "invalid_request_error"},
    }


def _ws_error(script: Script) -> dict[str, Any]:
    body: JSONValue
    try:
        body = json.loads(script.body)
    except ValueError:
        body = None
    error: JSONValue = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        error = {"type": "server_error", "message": script.body.decode("utf-8", "replace")}
    return {"type": "error", "status": script.status, "error": error}


async def websocket_handler(
    request: aiohttp.web.Request, take_script: Callable[[], Script | None]
) -> aiohttp.web.StreamResponse:
    """Answer a WebSocket upgrade at ``/responses``: play a script per ``response.create``."""
    import aiohttp.web

    ws = aiohttp.web.WebSocketResponse(max_msg_size=64 << 20, autoping=True)
    await ws.prepare(request)
    socket = _Socket(ws, request, take_script)
    try:
        async for message in ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data: JSONValue
            try:
                data = json.loads(message.data)
            except ValueError:
                data = None
            kind: JSONValue = data.get("type") if isinstance(data, dict) else None
            if kind == "response.create" and isinstance(data, dict):
                await socket.on_create(data)
            elif kind == "response.steer" and isinstance(data, dict):
                await socket.on_steer(data)
            else:
                error = {
                    "type": "invalid_request_error",
                    "code": "unknown_event",
                    "message": f"Unsupported client event type {kind!r}.",
                }
                await socket.send({"type": "error", "status": 400, "error": error}, None)
    finally:
        tasks = [lane.task for lane in socket.lanes.values() if lane.task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)
    return ws
