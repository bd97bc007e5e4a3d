"""The server events that exist only in the Responses API's WebSocket mode.

Over a WebSocket the server sends every streaming event of the SSE protocol (each may carry the
``stream_id`` of its lane, see :attr:`ResponseStreamEvent.stream_id`), plus the steering events and
another shape of ``error`` (the official SDK's ``ResponsesServerEvent`` union, SDK 3.57:
``response_steer_accepted_event.py``, ``response_steer_pending_event.py``,
``response_steer_failed_event.py`` and ``ResponseWsError`` in ``responses_server_event.py``):

* ``response.steer.accepted``: ``steer: {id, previous_response_id}``; the server owns the input,
  not yet applied (the successor's ``response.created`` is the commit point).
* ``response.steer.pending``: ``steer``, ``reason`` (known: ``waiting_for_required_input``) and
  ``required_input``: stubs of the client-owned outputs the response waits for.
* ``response.steer.failed``: ``steer: {input, previous_response_id, id?}`` (the input returned)
  and ``error: {code, message, type}``; unknown codes are kept as sent.
* ``error``: ``{error: {code?, message, param?, type, headers?, misalignment?}, status?,
  sequence_number?, stream_id?}``.

Field validation is the Responses events' own (:func:`~sansio_responses.parse_event`): a missing
or mistyped field raises ``SchemaError`` with its dotted path, unknown fields stay in ``extra``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import attrs

from .._errors import SchemaError
from .._responses.events import (
    _BUILDERS,  # pyright: ignore[reportPrivateUsage]
    ResponseErrorEvent,
    ResponseStreamEvent,
    UnknownEvent,
    _build,  # pyright: ignore[reportPrivateUsage]
    _Event,  # pyright: ignore[reportPrivateUsage]
    _event,  # pyright: ignore[reportPrivateUsage]
)
from .._responses.models import depth_safe

__all__ = [
    "WS_EVENT_TYPES",
    "ResponseSteerAcceptedEvent",
    "ResponseSteerFailedEvent",
    "ResponseSteerPendingEvent",
    "ResponseWebSocketErrorEvent",
    "ResponsesServerEvent",
    "parse_server_event",
]

WS_EVENT_TYPES: dict[str, type[Any]] = {}
"""Wire ``type`` -> class, for the events that exist only over a WebSocket."""


def _steer_str(event: _Event, key: str, required: bool) -> str | None:
    # The classes check ``steer`` when built, so reading it back cannot fail.
    steer: dict[str, Any] = getattr(event, "steer")  # noqa: B009
    value = steer.get(key)
    assert value is None or isinstance(value, str) or not required
    return value if isinstance(value, str) else None


def _check_steer(d: dict[str, Any], *required: str) -> None:
    steer = d["steer"]
    for key in ("id", "previous_response_id"):
        value = steer.get(key)
        if value is None:
            if key in required:
                raise SchemaError(f"steer.{key}", "string", value)
        elif not isinstance(value, str):
            raise SchemaError(f"steer.{key}", "string", value)


class _SteerIds:
    """Mixin: the ids of the steering submission an event is about."""

    __slots__ = ()

    @property
    def steer_id(self) -> str | None:
        """``steer.id``: the id the server gave the submission (``None`` if it gave none)."""
        return _steer_str(self, "id", False)  # type: ignore[arg-type]

    @property
    def previous_response_id(self) -> str:
        """``steer.previous_response_id``: the response the submission steers."""
        return _steer_str(self, "previous_response_id", True) or ""  # type: ignore[arg-type]


@_event("response.steer.accepted", WS_EVENT_TYPES)
@attrs.frozen
class ResponseSteerAcceptedEvent(_Event, _SteerIds):
    """``response.steer.accepted``: the server validated and queued the steering input.

    Not yet applied: the successor's ``response.created`` on the lane is the commit point.
    """

    if TYPE_CHECKING:
        type: Literal["response.steer.accepted"]

    steer: dict[str, Any]

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> ResponseSteerAcceptedEvent:
        event = _build(cls, d)
        _check_steer(d, "id", "previous_response_id")
        return event


@_event("response.steer.pending", WS_EVENT_TYPES)
@attrs.frozen
class ResponseSteerPendingEvent(_Event, _SteerIds):
    """``response.steer.pending``: steering input waits for client-owned tool output.

    Sent after the response's ``response.completed`` when it stopped for tool calls. Send one
    ``response.create`` on the same lane with ``previous_response_id`` set to
    :attr:`previous_response_id` and an input that fills every stub of :attr:`required_input`
    (e.g. ``{"type": "function_call_output", "call_id": ..., "output": ...}``); the accepted
    input is not to be sent again. :attr:`required_call_ids` lists what the stubs name.
    """

    if TYPE_CHECKING:
        type: Literal["response.steer.pending"]

    steer: dict[str, Any]
    reason: str
    required_input: list[Any]

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> ResponseSteerPendingEvent:
        event = _build(cls, d)
        _check_steer(d, "id", "previous_response_id")
        for i, stub in enumerate(event.required_input):
            if stub.__class__ is not dict:
                raise SchemaError(f"required_input[{i}]", "object", stub)
            if not isinstance(stub.get("type"), str):
                raise SchemaError(f"required_input[{i}].type", "string", stub.get("type"))
        return event

    @property
    def required_call_ids(self) -> list[tuple[str, str]]:
        """``(type, id)`` of every stub: the ``call_id`` (``approval_request_id`` for an MCP
        approval) that the next ``response.create`` must answer."""
        return [_stub_key(stub) for stub in self.required_input]


def _stub_key(stub: dict[str, Any]) -> tuple[str, str]:
    """(type, id) of a required-input stub or of an input item that answers one."""
    kind = str(stub.get("type"))
    key = stub.get("approval_request_id") if kind == "mcp_approval_response" else None
    if key is None:
        key = stub.get("call_id")
    return kind, str(key)


@_event("response.steer.failed", WS_EVENT_TYPES)
@attrs.frozen
class ResponseSteerFailedEvent(_Event, _SteerIds):
    """``response.steer.failed``: the steering input could not be committed; it is returned.

    ``code`` is kept as sent; known codes: ``response_not_found``, ``invalid_input``,
    ``steering_not_supported``, ``too_many_pending_steers``, ``response_already_completed``,
    ``response_not_active``, ``successor_creation_failed``.
    """

    if TYPE_CHECKING:
        type: Literal["response.steer.failed"]

    steer: dict[str, Any]
    error: dict[str, Any]

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> ResponseSteerFailedEvent:
        event = _build(cls, d)
        _check_steer(d, "previous_response_id")
        for key in ("code", "message"):
            value = event.error.get(key)
            if not isinstance(value, str):
                raise SchemaError(f"error.{key}", "string", value)
        return event

    @property
    def code(self) -> str:
        """``error.code``, e.g. ``"response_not_active"`` (unknown codes as sent)."""
        return str(self.error["code"])

    @property
    def message(self) -> str:
        """``error.message``."""
        return str(self.error["message"])

    @property
    def input(self) -> Any:
        """``steer.input``: the input that was not committed, to resend or drop."""
        return self.steer.get("input")


@depth_safe
@attrs.frozen
class ResponseWebSocketErrorEvent(ResponseErrorEvent):
    """``error`` over a WebSocket: the nested shape plus ``status`` and the error's extras.

    ``code``, ``message``, ``param`` and ``error_type`` read as on :class:`ResponseErrorEvent`
    (it is one); ``status`` is the HTTP-like status the server gives protocol errors,
    ``headers`` and ``misalignment`` the nested error's fields of those names (``None`` when
    absent). With a ``stream_id`` it ends that lane's response; without one it is about the
    connection.
    """

    if TYPE_CHECKING:  # redeclared: mypy's attrs plugin would give the subclass ``type: str``
        type: Literal["error"]

    status: int | None = None
    headers: dict[str, Any] | None = None
    misalignment: dict[str, Any] | None = None

    @classmethod
    def _from_wire(cls, d: dict[str, Any]) -> ResponseWebSocketErrorEvent:
        event: ResponseWebSocketErrorEvent = super()._from_wire(d)  # type: ignore[assignment]
        status = d.get("status")
        if status is not None and status.__class__ is not int:
            raise SchemaError("status", "integer", status)
        nested: dict[str, Any] = event.error or {}
        extras: dict[str, Any] = {}
        for key in ("headers", "misalignment"):
            value = nested.get(key)
            if value is not None and value.__class__ is not dict:
                raise SchemaError(f"error.{key}", "object", value)
            extras[key] = value
        object.__setattr__(event, "status", status)
        object.__setattr__(event, "headers", extras["headers"])
        object.__setattr__(event, "misalignment", extras["misalignment"])
        return event


ResponseWebSocketErrorEvent._FIELDS = frozenset(  # pyright: ignore[reportPrivateUsage]
    [*ResponseErrorEvent._FIELDS, "status"]  # pyright: ignore[reportPrivateUsage]
)

ResponsesServerEvent: TypeAlias = (
    ResponseStreamEvent
    | ResponseSteerAcceptedEvent
    | ResponseSteerPendingEvent
    | ResponseSteerFailedEvent
    | ResponseWebSocketErrorEvent
)
"""What :meth:`ResponsesConnection.receive` gives: a Responses streaming event, a steering event
or the WebSocket ``error`` (:class:`UnknownEvent` for any other type)."""

# The constructors a lane's ResponsesStream uses: the SSE ones, with the WebSocket ``error``.
WS_BUILDERS: dict[object, Callable[[dict[str, Any]], Any]] = {
    **_BUILDERS,
    "error": ResponseWebSocketErrorEvent._from_wire,  # pyright: ignore[reportPrivateUsage]
}
_CONNECTION_BUILDERS: dict[object, Callable[[dict[str, Any]], Any]] = {
    **WS_BUILDERS,
    **{t: c._from_wire for t, c in WS_EVENT_TYPES.items()},  # pyright: ignore[reportPrivateUsage]
}


def parse_server_event(data: dict[str, Any]) -> ResponsesServerEvent:
    """Build the typed event for one decoded WebSocket message of the Responses API.

    As :func:`~sansio_responses.parse_event`, with the WebSocket-only types and the WebSocket
    ``error`` shape (:class:`ResponseWebSocketErrorEvent`). *data* is taken over, not copied.

    Raises:
        SchemaError: a field is missing or has the wrong JSON type (``path`` names it).
    """
    if data.__class__ is not dict:
        raise SchemaError("(event)", "object", data)
    kind = data.get("type")
    if not isinstance(kind, str):
        raise SchemaError("type", "string", kind)
    build = _CONNECTION_BUILDERS.get(kind)
    if build is None:
        return UnknownEvent._from_wire(data)  # pyright: ignore[reportPrivateUsage]
    return build(data)  # type: ignore[no-any-return]
