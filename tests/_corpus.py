"""Access to the recorded real streams copied into tests/data/real (see its README for attribution)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
REAL = DATA / "real"


def names(api: str) -> list[str]:
    """Stream names (file stems) of one API: "responses" or "chat"."""
    return sorted(p.stem for p in REAL.glob(f"{api}-*.sse"))


def load(name: str) -> tuple[bytes, dict[str, Any]]:
    """The raw body bytes and the sidecar facts of one recorded stream."""
    body = (REAL / f"{name}.sse").read_bytes()
    facts = json.loads((REAL / f"{name}.json").read_text(encoding="utf-8"))
    return body, facts


def byte_chunks(body: bytes) -> Iterator[bytes]:
    """One byte per chunk."""
    return (body[i : i + 1] for i in range(len(body)))


def random_chunks(body: bytes, seed: int, max_size: int = 64) -> list[bytes]:
    """Random split points (reproducible by *seed*)."""
    rng = random.Random(seed)
    out, i = [], 0
    while i < len(body):
        n = rng.randint(1, max_size)
        out.append(body[i : i + n])
        i += n
    return out


#: One edit of a recording: (position, bytes inserted, bytes deleted), as :func:`mutated` applies.
Edit = tuple[int, bytes, int]


def mutated(body: bytes, edits: list[Edit]) -> bytes:
    """*body* with each edit applied in turn: at *position* (modulo the length so far, plus one),
    *deleted* bytes replaced by the *inserted* ones."""
    data = bytearray(body)
    for pos, insert, delete in edits:
        pos %= len(data) + 1
        data[pos : pos + delete] = insert
    return bytes(data)
