"""Shared pytest configuration: the hypothesis profile. (The public test kit's fixtures, such as
``responses_server``, come from its pytest plugin, which the installed package registers through its
``pytest11`` entry point.)

Hypothesis' per-example deadline (200 ms by default) is a timing assertion: on a loaded 2-core CI
machine a property test then fails, or spends minutes shrinking, for reasons unrelated to behaviour.
Timing goals live in bench/, so the deadline is off for every property test.
"""

import os
from collections.abc import Iterator

import pytest
from _rawserver import RawServer, raw_server
from hypothesis import settings

_PLUGIN = "sansio_responses.testing.pytest_plugin"


def pytest_configure(config: pytest.Config) -> None:
    # An editable install made before the entry point existed has no pytest11 metadata until it
    # is reinstalled (pip install -e .): load the plugin here then, so the fixtures are there.
    # tests/test_testkit_plugin.py checks the entry point itself, in a pytest run without this file.
    if not config.pluginmanager.has_plugin(_PLUGIN):
        config.pluginmanager.import_plugin(_PLUGIN)


# In CI (.ci/run sets SANSIO_RESPONSES_CI=1) the examples are derandomized: the same ones on every
# run, so a CI result belongs to the commit. Elsewhere each run draws new ones and keeps finding.
settings.register_profile(
    "sansio-responses",
    deadline=None,
    print_blob=True,
    derandomize=os.environ.get("SANSIO_RESPONSES_CI") == "1",
)
settings.load_profile("sansio-responses")


@pytest.fixture
def raw() -> Iterator[RawServer]:
    """A raw loopback HTTP server that sends exactly the bytes a test enqueues (tests/_rawserver.py)."""
    with raw_server() as server:
        yield server
