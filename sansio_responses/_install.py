"""How to install what an optional part needs, said in a way that works.

``sansio-responses`` is not on the package index, so ``pip install 'sansio-responses[extra]'``
fails. What always works: installing the extra's own requirements (they are on the index), or, from
a clone of the repository, the extra itself. Stdlib only; used by the CLI and the test kit when an
optional package is missing.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["install_hint"]

# The extras' requirements as pyproject.toml declares them; used when the installed metadata cannot
# be read (running from a source tree that was never installed).
_FALLBACK = {
    "httpx": ["httpx>=0.27"],
    "aiohttp": ["aiohttp>=3.9"],
    "trio": ["trio>=0.25", "h11>=0.14"],
    "socket": ["h11>=0.14"],
    "testing": ["aiohttp>=3.9", "PyYAML>=6"],
    "fast": ["orjson>=3.9"],
    "websocket": ["anyio>=4", "wsproto>=1.2"],
}

_EXTRA_MARKER = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


def _requirements(extra: str) -> list[str]:
    # Imported here, when a hint is needed (not at import time); stdlib, so always bound.
    from importlib.metadata import PackageNotFoundError, requires

    try:
        declared = requires("sansio-responses")
    except (ImportError, PackageNotFoundError):
        declared = None
    found: list[str] = []
    for line in declared or ():
        requirement, _, marker = line.partition(";")
        match = _EXTRA_MARKER.search(marker)
        if match and match.group(1) == extra:
            found.append(requirement.strip().replace(" ", ""))
    return found or _FALLBACK.get(extra, [])


def _source_tree() -> Path | None:
    """The repository this package runs from (an editable install or a clone), if any."""
    root = Path(__file__).resolve().parent.parent
    try:
        pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    return root if 'name = "sansio-responses"' in pyproject else None


def install_hint(extra: str) -> str:
    """The command that installs what the *extra* of ``sansio-responses`` needs, e.g.
    ``python -m pip install 'aiohttp>=3.9' (the 'testing' extra)``."""
    requirements = " ".join(f"'{r}'" for r in _requirements(extra))
    hint = f"python -m pip install {requirements} (the {extra!r} extra)"
    root = _source_tree()
    if root is not None:
        hint += f", or from the source tree: python -m pip install -e '{root}[{extra}]'"
    return hint
