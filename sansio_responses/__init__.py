"""sansio-responses: the OpenAI Responses (and Chat Completions) streaming protocol, without I/O.

Feed the bytes of a streaming response body to a :class:`ResponsesStream` in chunks split anywhere; get
typed events, an accumulated :class:`Response` snapshot, a clear ``outcome`` and a record of tolerated
anomalies in ``diagnostics``. Adapters under ``sansio_responses.adapters`` drive it over real HTTP.
"""

from __future__ import annotations

from ._diagnostics import Diagnostic
from ._errors import (
    EventTooLarge,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
    TruncatedStream,
)

__version__ = "0.1.0"

__all__ = [
    "Diagnostic",
    "EventTooLarge",
    "LocalProtocolError",
    "ProtocolError",
    "RemoteProtocolError",
    "TruncatedStream",
    "__version__",
]
