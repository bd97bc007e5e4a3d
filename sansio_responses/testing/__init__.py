"""A public test kit: stream builders, recorded streams, cassettes and a real local streaming server.

Only the server (:func:`serve`, :class:`ResponsesServer`) needs ``aiohttp`` and only YAML
cassettes (:func:`load_cassette`) need PyYAML (both in the ``testing`` extra); :func:`recording`,
:class:`StreamBuilder`, :class:`ChatStreamBuilder` and :class:`Script` work without either. The
pytest plugin (``responses_server``, ``every_split``) registers itself. Never imported by the core
package::

    from sansio_responses.testing import Script, StreamBuilder, serve

    body = StreamBuilder().text("Hello world", chunks=3).completed().to_sse()
    with serve(Script(body, chunk_size=5)) as server:
        ...  # send requests to server.base_url
"""

from __future__ import annotations

from ._builder import ChatStreamBuilder, StreamBuilder, encode_sse, split_text
from ._cassette import CASSETTE_BODY_LIMIT, CassetteError, load_cassette, save_cassette
from ._recorded import RecordedExchange
from ._recordings import recording, recording_facts, recordings
from ._script import Faults, Script, split_events
from ._server import ReceivedRequest, ResponsesServer, serve
from ._splits import EverySplit, chunkings, for_every_split

__all__ = [
    "CASSETTE_BODY_LIMIT",
    "CassetteError",
    "ChatStreamBuilder",
    "EverySplit",
    "Faults",
    "ReceivedRequest",
    "RecordedExchange",
    "ResponsesServer",
    "Script",
    "StreamBuilder",
    "chunkings",
    "encode_sse",
    "for_every_split",
    "load_cassette",
    "recording",
    "recording_facts",
    "recordings",
    "save_cassette",
    "serve",
    "split_events",
    "split_text",
]
