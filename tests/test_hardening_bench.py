"""bench/hostile.py still runs (tiny sizes; its figures are read by people, never asserted)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # ``pytest`` run without ``python -m`` does not put the root there
    sys.path.insert(0, str(ROOT))

from bench import hostile  # noqa: E402


def test_hostile_bench_cases_run() -> None:
    assert hostile.gapped(200).startswith("gapped-seq")
    assert "held" in hostile.index_jump(50)
    assert "Chat holds" in hostile.chat_2char(200)
    assert "held after the error" in hostile.event_too_large(2**18)
