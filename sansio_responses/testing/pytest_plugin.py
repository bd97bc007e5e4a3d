"""pytest plugin providing the ``responses_server`` fixture.

Enable it in a ``conftest.py`` with::

    pytest_plugins = ["sansio_responses.testing.pytest_plugin"]
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ._server import ResponsesServer, serve

__all__ = ["responses_server"]


@pytest.fixture
def responses_server() -> Iterator[ResponsesServer]:
    """A running :class:`~sansio_responses.testing.ResponsesServer` on an ephemeral loopback port,
    stopped after the test. Script it with ``responses_server.enqueue(Script(...))``."""
    with serve() as server:
        yield server
