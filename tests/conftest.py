"""Shared pytest configuration: the public test kit's fixtures (a real local Responses server)."""

pytest_plugins = ["sansio_responses.testing.pytest_plugin"]
