"""The test kit's pytest plugin: the ``responses_server`` and ``every_split`` fixtures.

It loads itself wherever ``sansio-responses`` is installed (a ``pytest11`` entry point), so no
``pytest_plugins`` line is needed; ``pytest -p no:sansio_responses`` turns it off.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ._server import ResponsesServer, serve
from ._splits import EverySplit, for_every_split

__all__ = ["every_split", "responses_server"]


@pytest.fixture
def responses_server() -> Iterator[ResponsesServer]:
    """A running :class:`~sansio_responses.testing.ResponsesServer` on an ephemeral loopback port,
    stopped after the test. Script it with ``responses_server.enqueue(Script(...))``."""
    with serve() as server:
        yield server


@pytest.fixture
def every_split() -> EverySplit:
    """:func:`~sansio_responses.testing.for_every_split`: ``every_split(body, check)`` runs
    ``check(chunks)`` over every chunking of *body* (whole, byte by byte, split at every offset)
    and fails naming the chunking that broke it."""
    return for_every_split
