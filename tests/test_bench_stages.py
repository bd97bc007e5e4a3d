"""``bench/stages.py`` and ``bench/ab.py`` run (timing itself is never asserted)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

pytest.importorskip("orjson")


def test_stages_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import stages

    assert stages.main(["--n", "30", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    for stage in ("floor", "frame", "+json", "+typed", "final", "events"):
        assert f"\n{stage} " in out


def test_stages_deltas_only_renumbers() -> None:
    import json

    from bench import generate as gen
    from bench.stages import deltas_only

    data = deltas_only(gen.generate("function_call", 20).data)
    kinds = []
    numbers = []
    for block in data.split(b"\n\n")[:-1]:  # the body ends with a blank line
        event = json.loads(block.partition(b"data: ")[2])
        kinds.append(event["type"])
        numbers.append(event["sequence_number"])
    assert numbers == list(range(len(numbers)))
    assert not any(k.endswith(".done") or k == "response.completed" for k in kinds)
    assert kinds.count("response.function_call_arguments.delta") == 20


def test_ab_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import ab

    assert ab.main([str(ROOT), "--n", "30", "--rounds", "2"]) == 0
    assert "B / A: median of the rounds' ratios" in capsys.readouterr().out
