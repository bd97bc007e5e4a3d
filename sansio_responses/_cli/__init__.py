"""The ``sansio-responses`` command line: one module per command group (the list is in ``main.py``)."""

from .main import main

__all__ = ["main"]
