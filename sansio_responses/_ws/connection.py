"""``ResponsesConnection``: the Responses API over one WebSocket, without I/O.

One connection carries many *lanes* (``stream_id``; ``None`` is the default lane). Each
``response.create`` (:meth:`ResponsesConnection.create`) starts a response on its lane; the server's
events come back as text messages (:meth:`ResponsesConnection.receive`), are routed by their
``stream_id`` and fed to that response's :class:`ResponsesStream`: the same machinery as over SSE
(snapshot, outcome, diagnostics, strict mode, limits). Steering (:meth:`ResponsesConnection.steer`)
queues input for a running response; the successor the server then starts becomes the lane's current
stream, and the earlier ones stay readable (:meth:`ResponsesConnection.responses`).

The rules below (the API guide's "WebSocket mode" and the SDK 3.57 types) are checked on both sides;
print them with :func:`print_connection_rules`. A caller breaking one gets
:class:`LocalProtocolError` (nothing is sent or changed); a server breaking one gets
:class:`RemoteProtocolError`, after which the connection is in an error state (as a stream is).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .._base import (
    DEFAULT_JSON_LOADS,
    DEFAULT_MAX_NESTING_DEPTH,
    JSONLoads,
    JSONValue,
    too_deep,
)
from .._errors import (
    EventTooLarge,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
    SchemaError,
    TruncatedStream,
    excerpt,
)
from .._http.requests import _serialized  # pyright: ignore[reportPrivateUsage]
from .._responses.stream import ResponsesStream
from .._sse import DEFAULT_MAX_EVENT_SIZE
from .events import (
    WS_BUILDERS,
    ResponsesServerEvent,
    ResponseSteerAcceptedEvent,
    ResponseSteerFailedEvent,
    ResponseSteerPendingEvent,
    ResponseWebSocketErrorEvent,
    _stub_key,  # pyright: ignore[reportPrivateUsage]
    parse_server_event,
)
from .reconnect import ReconnectPolicy, SendQueue

__all__ = [
    "CONNECTION_RULES",
    "HTTP_ONLY_FIELDS",
    "ResponsesConnection",
    "format_connection_rules",
    "print_connection_rules",
]

#: Create-body fields that belong to HTTP and are refused over the socket: ``stream`` is implicit,
#: ``background`` is not supported (and ``background_options`` requires it).
HTTP_ONLY_FIELDS = frozenset({"stream", "background", "background_options"})

#: The protocol's rules as (message, side, rule, violation): what :class:`ResponsesConnection`
#: checks. Print them with :func:`print_connection_rules`.
CONNECTION_RULES: tuple[tuple[str, str, str, str], ...] = (
    (
        "response.create",
        "client",
        "no HTTP-only field (stream, background, ...)",
        "LocalProtocolError",
    ),
    ("response.create", "client", "one response in flight per lane", "LocalProtocolError"),
    (
        "response.create",
        "client",
        "not while accepted steering awaits its successor",
        "LocalProtocolError",
    ),
    (
        "response.create",
        "client",
        "after steer.pending: previous_response_id and every required_input stub",
        "LocalProtocolError",
    ),
    (
        "response.steer",
        "client",
        "only while the target response runs on this connection",
        "LocalProtocolError",
    ),
    (
        "response.steer",
        "client",
        "input: text or user message / tool output items",
        "LocalProtocolError",
    ),
    (
        "response.created",
        "server",
        "answers the lane's response.create, or succeeds accepted steering",
        "RemoteProtocolError",
    ),
    (
        "response event",
        "server",
        "stream_id names a lane this client created on",
        "RemoteProtocolError",
    ),
    (
        "response event",
        "server",
        "only on a lane with a response (events after its end: diagnostics)",
        "RemoteProtocolError",
    ),
    (
        "response.steer.accepted/failed",
        "server",
        "answers a response.steer the client sent",
        "RemoteProtocolError",
    ),
    (
        "response.steer.pending",
        "server",
        "after the steered response's terminal event",
        "RemoteProtocolError",
    ),
    (
        "any message",
        "server",
        "one JSON object per text message, within max_message_size",
        "RemoteProtocolError",
    ),
)


def format_connection_rules() -> str:
    """:data:`CONNECTION_RULES` as an aligned text table."""
    header = ("message", "side", "rule", "violation")
    rows = (header, *CONNECTION_RULES)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )


def print_connection_rules() -> str:
    """Print :data:`CONNECTION_RULES` as a table and return the text."""
    table = format_connection_rules()
    print(table)
    return table


class _Steer:
    __slots__ = ("lane", "state", "target")

    def __init__(self, target: str, lane: str | None) -> None:
        self.target = target  # the steered response's id
        self.lane = lane
        self.state = "sent"  # -> accepted -> (committed | pending) ; failed: removed


class _Lane:
    __slots__ = ("history", "pending", "requested")

    def __init__(self) -> None:
        self.history: list[ResponsesStream] = []  # every response of the lane, oldest first
        self.requested = False  # a response.create was sent, its response.created not yet seen
        self.pending: ResponseSteerPendingEvent | None = None

    @property
    def current(self) -> ResponsesStream | None:
        return self.history[-1] if self.history else None

    def in_flight(self) -> bool:
        # create() appends the requested response's stream at once: it is the current one.
        current = self.current
        return current is not None and current.outcome is None


class ResponsesConnection:
    """The Responses API's WebSocket mode as a protocol object: text messages in and out.

    Args:
        max_message_size: the longest server message accepted, in characters (default 32 MiB,
            as a stream's ``max_event_size``); a longer one is :class:`EventTooLarge`.
        max_queue_bytes: bound of :attr:`queue`, the messages waiting for a socket (1 MiB).
        reconnect_policy: when to reconnect after a drop (default: the SDK's, 5 attempts).
        json_loads: the JSON decoder (as for :class:`ResponsesStream`).
        max_nesting_depth: the deepest nesting accepted in one message (default 256).
        **stream_options: passed to every lane's :class:`ResponsesStream` (``strict``,
            ``text_format``, ``max_output_items``, ...). ``tools`` defaults to the create body's.

    Attributes:
        queue: messages to send once a socket is open (see :meth:`connection_made`).
        errors: connection-level ``error`` events (no lane's response took them), oldest first.
    """

    def __init__(
        self,
        *,
        max_message_size: int | None = DEFAULT_MAX_EVENT_SIZE,
        max_queue_bytes: int = 1 << 20,
        reconnect_policy: ReconnectPolicy | None = None,
        json_loads: JSONLoads | None = None,
        max_nesting_depth: int | None = DEFAULT_MAX_NESTING_DEPTH,
        **stream_options: Any,
    ) -> None:
        for bad in ("resume_from", "starting_after", "max_event_size"):
            if bad in stream_options:
                raise TypeError(f"{bad!r} is not a WebSocket lane option")
        self.max_message_size = max_message_size
        self.max_nesting_depth = max_nesting_depth
        self.reconnect_policy = reconnect_policy or ReconnectPolicy()
        self.queue = SendQueue(max_queue_bytes)
        self.errors: list[ResponseWebSocketErrorEvent] = []
        self._loads: JSONLoads = json_loads or DEFAULT_JSON_LOADS
        self._stream_options = stream_options
        if json_loads is not None:
            stream_options["json_loads"] = json_loads
        self._lanes: dict[str | None, _Lane] = {}
        self._steers: list[_Steer] = []
        self._received = 0  # characters received: the offset in error reports
        self._error: ProtocolError | None = None
        self._attempts = 0
        self.connected = False

    # -- state -----------------------------------------------------------------------------------

    @property
    def error(self) -> ProtocolError | None:
        """The :class:`RemoteProtocolError` that put the connection in its error state, if any."""
        return self._error

    @property
    def lanes(self) -> list[str | None]:
        """The lanes used so far (``None``: the default lane), in order of first use."""
        return list(self._lanes)

    def stream(self, stream_id: str | None = None) -> ResponsesStream:
        """The lane's current response: the latest one created on it (a successor included).

        Raises:
            LocalProtocolError: nothing was created on this lane.
        """
        lane = self._lanes.get(stream_id)
        if lane is None or lane.current is None:
            raise LocalProtocolError(f"no response on lane {stream_id!r}")
        return lane.current

    def responses(self, stream_id: str | None = None) -> list[ResponsesStream]:
        """Every response of the lane, oldest first (steered ones before their successors)."""
        lane = self._lanes.get(stream_id)
        return [] if lane is None else list(lane.history)

    def in_flight(self, stream_id: str | None = None) -> bool:
        """Whether the lane has a response requested or running."""
        lane = self._lanes.get(stream_id)
        return lane is not None and lane.in_flight()

    def expecting(self) -> bool:
        """Whether the server owes an event: a lane in flight, or steering not yet answered or
        awaiting its successor. An adapter reads until this is false."""
        return any(lane.in_flight() for lane in self._lanes.values()) or any(
            s.state in ("sent", "accepted") for s in self._steers
        )

    def pending(self, stream_id: str | None = None) -> ResponseSteerPendingEvent | None:
        """The ``response.steer.pending`` the lane's next ``response.create`` must answer."""
        lane = self._lanes.get(stream_id)
        return None if lane is None else lane.pending

    # -- client messages -------------------------------------------------------------------------

    def create(self, body: Mapping[str, Any], *, stream_id: str | None = None) -> str:
        """The ``response.create`` message for *body* (the HTTP create body) on lane *stream_id*.

        The lane's new :class:`ResponsesStream` is :meth:`stream` from now on.

        Raises:
            LocalProtocolError: an HTTP-only field (:data:`HTTP_ONLY_FIELDS`), a conflicting
                ``type`` / ``stream_id`` in *body*, a response already in flight on the lane, or
                a ``response.steer.pending`` left unanswered (see :data:`CONNECTION_RULES`).
        """
        self._check_usable()
        if not isinstance(body, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise LocalProtocolError(f"body must be a mapping, got {type(body).__name__}")
        if stream_id is not None and not isinstance(stream_id, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise LocalProtocolError(f"stream_id must be a string or None, got {stream_id!r}")
        refused = sorted(HTTP_ONLY_FIELDS.intersection(body))
        if refused:
            raise LocalProtocolError(
                f"{', '.join(map(repr, refused))} cannot be sent over the WebSocket "
                "(streaming is implicit; background mode is HTTP only)"
            )
        if body.get("type", "response.create") != "response.create":
            raise LocalProtocolError(f"body type must be 'response.create', got {body['type']!r}")
        if "stream_id" in body and body["stream_id"] != stream_id:
            raise LocalProtocolError(
                f"body stream_id {body['stream_id']!r} differs from stream_id={stream_id!r}"
            )
        lane = self._lanes.get(stream_id)
        if lane is not None:
            if lane.in_flight():
                raise LocalProtocolError(
                    f"lane {stream_id!r} already has a response in flight: wait for its terminal "
                    "event, or use another stream_id"
                )
            awaiting = [s for s in self._steers if s.lane == stream_id and s.state == "accepted"]
            if awaiting:
                raise LocalProtocolError(
                    f"lane {stream_id!r}: accepted steering of {awaiting[0].target!r} awaits its "
                    "successor response"
                )
            if lane.pending is not None:
                _check_answers(lane.pending, body, stream_id)
        message = {"type": "response.create", **body}
        if stream_id is not None:
            message["stream_id"] = stream_id
        text, _ = _serialized(message, "body")  # (LocalProtocolError: nothing recorded yet)
        if lane is None:
            lane = self._lanes[stream_id] = _Lane()
        if lane.pending is not None:
            for steer in self._steers:
                if steer.state == "pending" and steer.lane == stream_id:
                    steer.state = "committed"
            self._steers = [s for s in self._steers if s.state != "committed"]
            lane.pending = None
        options = dict(self._stream_options)
        if "tools" not in options and isinstance(body.get("tools"), list):
            options["tools"] = body["tools"]
        lane.history.append(self._new_stream(options))
        lane.requested = True
        return text

    def steer(self, previous_response_id: str, input: str | Iterable[Mapping[str, Any]]) -> str:
        """The ``response.steer`` message queuing *input* for the running response.

        *input* is text or a list of items (user messages: text, images, files; or tool outputs),
        as the create ``input``. The server answers ``response.steer.accepted`` or ``.failed``.

        Raises:
            LocalProtocolError: the response is not running on this connection, or *input* is
                not text or a list of objects.
        """
        self._check_usable()
        lane_id = self._running_lane(previous_response_id)
        items: str | list[dict[str, Any]]
        if isinstance(input, str):
            items = input
        else:
            items = []
            for i, item in enumerate(input):
                if not isinstance(item, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
                    raise LocalProtocolError(f"input[{i}] must be an object, got {item!r:.60}")
                if item.get("type", "message") == "message" and item.get("role") not in (
                    None,
                    "user",
                ):
                    raise LocalProtocolError(
                        f"input[{i}]: steering takes user messages only, got role {item['role']!r}"
                    )
                items.append(dict(item))
        message = {
            "type": "response.steer",
            "previous_response_id": previous_response_id,
            "input": items,
        }
        text, _ = _serialized(message, "input")
        self._steers.append(_Steer(previous_response_id, lane_id))
        return text

    # -- server messages -------------------------------------------------------------------------

    def receive(self, message: str | bytes | bytearray) -> list[ResponsesServerEvent]:
        """Take one text message from the server; return the events it gives (usually one).

        Lane events come from the lane's :class:`ResponsesStream` (a duplicate is dropped there,
        as over SSE); steering events and connection-level errors from the connection.

        Raises:
            RemoteProtocolError: the message is not a JSON object, a field has the wrong type, or
                the server broke a rule (the connection is then in an error state).
            LocalProtocolError: called in the error state.
        """
        self._check_usable()
        if not isinstance(message, str):
            message = bytes(message).decode("utf-8", "replace")
        offset = self._received
        self._received += len(message)
        try:
            return self._receive(message, offset)
        except ProtocolError as exc:
            if isinstance(exc, RemoteProtocolError):
                self._error = exc
            raise

    def _receive(self, text: str, offset: int) -> list[ResponsesServerEvent]:
        obj = self._decode(text, offset)
        kind = obj.get("type")
        stream_id = obj.get("stream_id")
        if stream_id is not None and not isinstance(stream_id, str):
            raise self._remote("'stream_id' must be a string", obj, text, offset)
        if isinstance(kind, str) and kind.startswith("response.steer."):
            return [self._on_steer(obj, text, offset)]
        if kind != "error":
            self._attempts = 0  # progress on this socket (the SDK resets on any non-error event)
        lane = self._lanes.get(stream_id)
        if kind == "error" and (lane is None or not lane.in_flight()):
            if stream_id is not None and lane is None:
                raise self._remote(f"error for lane {stream_id!r}, never used", obj, text, offset)
            event = self._parse(obj, text, offset)
            assert isinstance(event, ResponseWebSocketErrorEvent)
            self.errors.append(event)
            return [event]
        if lane is None or lane.current is None:
            # ping, keep-alive, newer types: passed through; a type that is no string (a list
            # or an object cannot be looked up) is refused by _parse, as on a lane's stream.
            if type(kind) is not str or kind not in WS_BUILDERS:
                return [self._parse(obj, text, offset)]
            raise self._remote(
                f"{kind!r} on lane {stream_id!r}, where no response.create was sent",
                obj,
                text,
                offset,
            )
        stream = lane.current
        if kind == "response.created":
            if lane.requested:
                lane.requested = False
            elif not _repeated(stream, obj):  # (a repeat: the stream drops it, as over SSE)
                stream = self._successor(lane, stream_id, obj, text, offset)
        events = stream._feed_object(obj, text, offset)  # pyright: ignore[reportPrivateUsage]
        if stream.outcome is not None:
            lane.requested = False  # ended before its response.created (an error)
        return events

    def _successor(
        self, lane: _Lane, stream_id: str | None, obj: dict[str, Any], text: str, offset: int
    ) -> ResponsesStream:
        """A ``response.created`` nobody asked for: the successor of accepted steering."""
        previous = lane.current
        ended = previous is not None and previous.outcome is not None
        target = None if previous is None else previous.response_id
        accepted = [s for s in self._steers if s.state == "accepted" and s.target == target]
        if not ended or not accepted:
            why = "while its response runs" if not ended else "with no accepted steering"
            raise self._remote(
                f"response.created on lane {stream_id!r} {why} and no response.create",
                obj,
                text,
                offset,
            )
        for steer in accepted:
            steer.state = "committed"
        self._steers = [s for s in self._steers if s.state != "committed"]
        stream = self._new_stream(dict(self._stream_options))
        lane.history.append(stream)
        return stream

    def _on_steer(self, obj: dict[str, Any], text: str, offset: int) -> ResponsesServerEvent:
        event = self._parse(obj, text, offset)
        if not isinstance(
            event, ResponseSteerAcceptedEvent | ResponseSteerFailedEvent | ResponseSteerPendingEvent
        ):
            return event  # a newer response.steer.* type: passed through, as unknown events are
        target = event.previous_response_id
        # accepted answers a sent steer; failed and pending may also follow an accepted one.
        wanted = (
            ("sent",) if isinstance(event, ResponseSteerAcceptedEvent) else ("sent", "accepted")
        )
        steer = next((s for s in self._steers if s.target == target and s.state in wanted), None)
        if steer is None:
            raise self._remote(
                f"{event.type} for a steer of {target!r} that this client did not send",
                obj,
                text,
                offset,
            )
        if isinstance(event, ResponseSteerAcceptedEvent):
            steer.state = "accepted"
        elif isinstance(event, ResponseSteerFailedEvent):
            self._steers.remove(steer)
        else:
            lane = self._lanes[steer.lane]
            current = lane.current
            if current is None or current.response_id != target or current.outcome is None:
                raise self._remote(
                    f"response.steer.pending for {target!r} before its terminal event",
                    obj,
                    text,
                    offset,
                )
            steer.state = "pending"
            lane.pending = event
        return event

    # -- the socket ------------------------------------------------------------------------------

    def connection_made(self) -> list[str]:
        """A socket is open: return the queued messages to send on it, oldest first."""
        self.connected = True
        return self.queue.drain()

    def connection_lost(self) -> list[ResponsesStream]:
        """The socket closed or dropped: end what was in flight; return those streams.

        A response in flight cannot continue on another socket (its state lives on the
        connection), and a ``response.create`` is not sent again (it may have run): each such
        stream ends ``"truncated"`` (its ``error`` a :class:`TruncatedStream`) and its lane is free
        for a new create. Steering not yet committed is dropped. The :attr:`queue` is kept and
        flushed by the next :meth:`connection_made`.
        """
        self.connected = False
        lost: list[ResponsesStream] = []
        for lane in self._lanes.values():
            current = lane.current
            if current is not None and (lane.requested or current.outcome is None):
                try:
                    current.close()
                except TruncatedStream:
                    pass
                lost.append(current)
            lane.requested = False
            lane.pending = None
        self._steers.clear()
        self._received = 0
        return lost

    def cancel(self) -> list[ResponsesStream]:
        """The consumer stopped before what was in flight finished (the adapter's block was left
        early: a ``break``, an exception, a cancelled scope or task, or ``close()``): each
        response in flight gets the outcome ``"cancelled"`` (snapshot intact), as the stream of
        an HTTP adapter does (:meth:`Exchange.cancel <sansio_responses.Exchange.cancel>`), and
        steering not yet answered is dropped. Returns those streams; a finished response, or one
        already ended by :meth:`connection_lost`, is left as it is. Idempotent.
        """
        cancelled: list[ResponsesStream] = []
        for lane in self._lanes.values():
            current = lane.current
            if current is not None and current.outcome is None:
                current.outcome = "cancelled"
                cancelled.append(current)
            lane.requested = False
            lane.pending = None
        self._steers.clear()
        return cancelled

    def reconnect_delay(self, close_code: int | None = None) -> float | None:
        """Seconds to wait before the next reconnect attempt, or ``None`` to give up.

        Counts the attempt; a non-``error`` message received afterwards starts the count again.
        """
        delay = self.reconnect_policy.delay(close_code, self._attempts)
        if delay is not None:
            self._attempts += 1
        return delay

    # -- helpers ---------------------------------------------------------------------------------

    def _new_stream(self, options: dict[str, Any]) -> ResponsesStream:
        stream = ResponsesStream(max_event_size=None, **options)
        stream._builders = WS_BUILDERS  # pyright: ignore[reportPrivateUsage]
        return stream

    def _check_usable(self) -> None:
        if self._error is not None:
            raise LocalProtocolError(f"the connection is in an error state after: {self._error}")

    def _running_lane(self, response_id: str) -> str | None:
        for lane_id, lane in self._lanes.items():
            current = lane.current
            if current is not None and current.response_id == response_id:
                if current.outcome is None:
                    return lane_id
                raise LocalProtocolError(
                    f"cannot steer {response_id!r}: it already ended ({current.outcome})"
                )
        raise LocalProtocolError(
            f"cannot steer {response_id!r}: no running response of that id on this connection"
        )

    def _decode(self, text: str, offset: int) -> dict[str, Any]:
        limit = self.max_message_size
        if limit is not None and len(text) > limit:
            raise EventTooLarge(
                f"a {len(text)}-character message exceeds max_message_size ({limit})",
                limit=limit,
                offset=offset,
            )
        obj: JSONValue
        try:
            obj = self._loads(text)
        except (ValueError, RecursionError) as exc:
            raise RemoteProtocolError(
                f"message is not valid JSON ({exc})", offset=offset, excerpt=excerpt(text)
            ) from None
        if type(obj) is not dict:
            raise RemoteProtocolError(
                f"message is JSON but not an object (got {type(obj).__name__})",
                offset=offset,
                excerpt=excerpt(text),
            )
        depth = self.max_nesting_depth
        if depth is not None and len(text) > 2 * depth and too_deep(obj, depth):
            raise RemoteProtocolError(
                f"message nests deeper than max_nesting_depth ({depth})",
                offset=offset,
                excerpt=excerpt(text),
            )
        return obj

    def _parse(self, obj: dict[str, Any], text: str, offset: int) -> ResponsesServerEvent:
        try:
            return parse_server_event(obj)
        except SchemaError as exc:
            raise self._remote(
                f"invalid {obj.get('type')!r} event: {exc}", obj, text, offset
            ) from None

    @staticmethod
    def _remote(message: str, obj: dict[str, Any], text: str, offset: int) -> RemoteProtocolError:
        seq = obj.get("sequence_number")
        return RemoteProtocolError(
            message,
            offset=offset,
            sequence_number=seq if type(seq) is int else None,
            excerpt=excerpt(text),
        )


def _repeated(stream: ResponsesStream, obj: dict[str, Any]) -> bool:
    """Whether *obj*, a ``response.created``, repeats the one *stream* applied: the same
    response id and a sequence number already applied (a duplicate the stream drops)."""
    seq = obj.get("sequence_number")
    response: JSONValue = obj.get("response")
    rid: JSONValue = response.get("id") if type(response) is dict else None
    return (
        type(seq) is int
        and type(rid) is str
        and rid == stream.response_id
        and stream._seq.applied(seq)  # pyright: ignore[reportPrivateUsage]
    )


def _check_answers(
    pending: ResponseSteerPendingEvent, body: Mapping[str, Any], stream_id: str | None
) -> None:
    """The create that follows ``response.steer.pending``: same parent, every stub answered."""
    parent = pending.previous_response_id
    if body.get("previous_response_id") != parent:
        raise LocalProtocolError(
            f"lane {stream_id!r} waits for the input of {parent!r} (response.steer.pending): "
            f"previous_response_id must be {parent!r}, got {body.get('previous_response_id')!r}"
        )
    given: set[tuple[str, str]] = set()
    items: Any = body.get("input")
    if isinstance(items, list):
        for item in items:  # pyright: ignore[reportUnknownVariableType]
            if isinstance(item, Mapping):
                given.add(_stub_key(dict(item)))  # pyright: ignore[reportUnknownArgumentType]
    missing = [key for key in pending.required_call_ids if key not in given]
    if missing:
        shown = ", ".join(f"{kind} {key}" for kind, key in missing)
        raise LocalProtocolError(
            f"lane {stream_id!r}: the input must answer every required_input stub of "
            f"response.steer.pending; missing: {shown}"
        )
