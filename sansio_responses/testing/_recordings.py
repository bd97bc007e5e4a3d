"""The real recorded streams installed with the test kit: every stream of the project's corpus, with
its facts sidecar (see ``recordings/README.md`` for sources, licenses and what each fact means)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["recording", "recording_facts", "recordings"]

_DIR = Path(__file__).parent / "recordings"


def recordings() -> list[str]:
    """The names of the installed ``.sse`` recordings, sorted (every real stream of the corpus)."""
    return sorted(path.name for path in _DIR.glob("*.sse"))


def _name(name: str) -> str:
    if not name.endswith(".sse"):
        name += ".sse"
    if name not in recordings():
        raise KeyError(f"no recording named {name!r}; available: {', '.join(recordings())}")
    return name


def recording(name: str) -> bytes:
    """The bytes of recording *name* (with or without the ``.sse`` suffix)."""
    return (_DIR / _name(name)).read_bytes()


def recording_facts(name: str) -> dict[str, Any]:
    """The facts sidecar of recording *name*: where it comes from (``source_repo``, ``license``, ...)
    and what it holds (``event_count``, ``final_output_text``, ``usage``, ``features``, ...), as
    described in the recordings' README."""
    path = _DIR / _name(name)
    facts: dict[str, Any] = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    return facts
