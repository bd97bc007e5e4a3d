"""Records of tolerated anomalies.

Real servers and compatible providers bend the protocol (no ``sequence_number``, no
``response.created``, keep-alive events, ``[DONE]`` on a Responses stream, ...). By default the streams
accept these and append a :class:`Diagnostic` to ``stream.diagnostics``; with ``strict=True`` each one
is raised as a :class:`~sansio_responses.RemoteProtocolError` instead.
"""

from __future__ import annotations

import attrs

__all__ = ["Diagnostic"]


@attrs.frozen
class Diagnostic:
    """One tolerated anomaly.

    Attributes:
        code: a stable machine-readable code, e.g. ``"missing-sequence-number"``.
        message: a human-readable explanation.
        sequence_number: the ``sequence_number`` of the event concerned, or ``None``.
        offset: byte offset in the body of the event concerned, or ``None``.
    """

    code: str
    message: str
    sequence_number: int | None = None
    offset: int | None = None
