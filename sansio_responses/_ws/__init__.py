"""The Responses API's WebSocket mode, sans-IO: :class:`ResponsesConnection` and its events."""
