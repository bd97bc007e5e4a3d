"""Shared pytest configuration: the public test kit's fixtures (a real local Responses server), and
the hypothesis profile.

Hypothesis' per-example deadline (200 ms by default) is a timing assertion: on a loaded 2-core CI
machine a property test then fails, or spends minutes shrinking, for reasons unrelated to behaviour.
Timing goals live in bench/, so the deadline is off for every property test.
"""

from hypothesis import settings

pytest_plugins = ["sansio_responses.testing.pytest_plugin"]

settings.register_profile("sansio-responses", deadline=None, print_blob=True)
settings.load_profile("sansio-responses")
