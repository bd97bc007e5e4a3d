"""Shared pytest configuration: the hypothesis profile. (The public test kit's fixtures, such as
``responses_server``, come from its pytest plugin, which the installed package registers through its
``pytest11`` entry point.)

Hypothesis' per-example deadline (200 ms by default) is a timing assertion: on a loaded 2-core CI
machine a property test then fails, or spends minutes shrinking, for reasons unrelated to behaviour.
Timing goals live in bench/, so the deadline is off for every property test.
"""

from hypothesis import settings

settings.register_profile("sansio-responses", deadline=None, print_blob=True)
settings.load_profile("sansio-responses")
