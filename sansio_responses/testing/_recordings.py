"""Recorded real streams shipped with the test kit (see ``recordings/README.md`` for sources and
licenses)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["recording", "recordings"]

_DIR = Path(__file__).parent / "recordings"


def recordings() -> list[str]:
    """The names of the shipped ``.sse`` recordings, sorted."""
    return sorted(path.name for path in _DIR.glob("*.sse"))


def recording(name: str) -> bytes:
    """The bytes of recording *name* (with or without the ``.sse`` suffix)."""
    if not name.endswith(".sse"):
        name += ".sse"
    if name not in recordings():
        raise KeyError(f"no recording named {name!r}; available: {', '.join(recordings())}")
    return (_DIR / name).read_bytes()
