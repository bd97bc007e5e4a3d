"""The typing suite (tests/typing/) runs: what it tells the type checkers is what run time does.

.ci/run checks those files with ``mypy --strict`` and ``pyright`` (strict); here each one is executed,
so that every ``assert_type`` sits next to a runtime assertion about the same value.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parent / "typing"
FILES = sorted(SUITE.glob("*.py"))


def test_the_suite_has_files() -> None:
    assert {p.name for p in FILES} >= {"responses_idioms.py", "chat_idioms.py"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_typing_suite_file_runs(path: Path) -> None:
    runpy.run_path(str(path), run_name="__typing_suite__")
