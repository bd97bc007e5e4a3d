"""``python -m sansio_responses``: the same command line as the ``sansio-responses`` script."""

from __future__ import annotations

from ._cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
