"""A request sent through one of the adapters, every event printed: ``demo`` and ``stream`` share it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from .._errors import ProtocolError
from .._http.requests import APIStatusError, Request
from .common import UsageError, exit_code, import_optional
from .output import Printer

ADAPTERS = ("httpx", "httpx_async", "aiohttp", "trio", "socket")

#: Which extra provides each adapter's dependencies (for the "missing package" message). httpx
#: itself depends on anyio, so the async httpx adapter needs nothing beyond the httpx extra.
_ADAPTER_EXTRA = {
    "httpx": "httpx",
    "httpx_async": "httpx",
    "aiohttp": "aiohttp",
    "trio": "trio",
    "socket": "socket",
}


def run_adapter(
    adapter: str,
    request: Request,
    printer: Printer,
    *,
    stream_options: dict[str, Any] | None = None,
    connect_timeout: float | None = 10.0,
    idle_timeout: float | None = 600.0,
) -> tuple[Any, BaseException | None]:
    """Send *request* through *adapter*, print every event; return the adapter's events object
    (``None`` if the request failed before the body) and the error that ended it, if any."""
    if adapter not in ADAPTERS:
        raise UsageError(f"unknown adapter {adapter!r}; choose one of {', '.join(ADAPTERS)}")
    module_name = {"httpx": "httpx_sync"}.get(adapter, adapter)
    module = import_optional(f"sansio_responses.adapters.{module_name}", _ADAPTER_EXTRA[adapter])
    options: dict[str, Any] = {
        "stream_options": stream_options,
        "connect_timeout": connect_timeout,
        "idle_timeout": idle_timeout,
    }
    holder: list[Any] = []
    errors = (ProtocolError, APIStatusError, OSError, _transport_error())
    if adapter in ("httpx", "socket"):
        try:
            with module.open_stream(request, **options) as events:
                holder.append(events)
                for event in events:
                    printer.event(event)
        except errors as exc:
            return (holder[0] if holder else None), exc
        return holder[0], None

    async def consume() -> BaseException | None:
        try:
            async with module.open_stream(request, **options) as events:
                holder.append(events)
                async for event in events:
                    printer.event(event)
        except errors as exc:
            return exc
        return None

    if adapter == "trio":
        trio = import_optional("trio", "trio")
        error = trio.run(consume)
    else:  # aiohttp, and httpx_async (anyio: asyncio here, trio in a trio program)
        error = asyncio.run(consume())
    return (holder[0] if holder else None), error


class WebSocketHandle:
    """What :func:`finish` reads of a WebSocket turn: its stream (no resumes over a socket)."""

    resumes = 0

    def __init__(self, stream: Any) -> None:
        self.stream = stream


def run_websocket(
    base_url: str,
    api_key: str | None,
    body: dict[str, Any],
    printer: Printer,
    *,
    stream_id: str | None = None,
    stream_options: dict[str, Any] | None = None,
    connect_timeout: float | None = 10.0,
    idle_timeout: float | None = 600.0,
) -> tuple[WebSocketHandle | None, BaseException | None]:
    """Send *body* as one ``response.create`` over the Responses WebSocket (the blocking
    adapter), print every event; return the turn (``None`` if the socket never opened) and the
    error that ended it, if any. A drop is not reconnected: the one response would be lost."""
    module = import_optional("sansio_responses.adapters.websocket_sync", "websocket")
    from .._ws.reconnect import ReconnectPolicy

    holder: list[WebSocketHandle] = []
    errors = (ProtocolError, OSError, _transport_error())
    try:
        with module.connect(
            base_url=base_url,
            api_key=api_key,
            connect_timeout=connect_timeout,
            idle_timeout=idle_timeout,
            reconnect_policy=ReconnectPolicy(0),
            **(stream_options or {}),
        ) as conn:
            holder.append(WebSocketHandle(conn.send_create(body, stream_id=stream_id)))
            for event in conn:
                printer.event(event)
    except errors as exc:
        return (holder[0] if holder else None), exc
    return holder[0], None


def _transport_error() -> type[Exception]:
    from .._http.errors import TransportError

    return TransportError


def finish(
    printer: Printer,
    handle: Any,
    error: BaseException | None,
    elapsed: float,
    extra: Sequence[str] = (),
) -> int:
    """Print the report of a streamed request (*handle* from :func:`run_adapter`); its exit code."""
    stream = handle.stream if handle is not None else None
    lines = list(extra)
    if handle is not None and handle.resumes:
        lines.append(f"resumes: {handle.resumes}")
    resumed = handle is not None and bool(handle.resumes)
    printer.report(stream, error=error, elapsed=elapsed, extra=lines, resumed=resumed)
    return exit_code(stream, error)
