"""What the type checkers must report (issue 18): a misspelt outcome and a misspelt fault keyword
of the testing ``Script`` are type errors under ``mypy --strict`` and pyright (strict), not only
a comparison that is silently false or a ``TypeError`` at run time.

Each snippet below is written to a folder outside the repository with the typing suite's
configuration (tests/typing/mypy.ini and pyrightconfig.json), so ``sansio_responses`` resolves
through the installed package as in a user's project. Every line marked ``# error`` must be
reported by both checkers, and no other line: the correct spelling beside each one checks clean.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TYPING = Path(__file__).resolve().parent / "typing"

SNIPPETS = {
    "misspelt_outcome.py": """\
import sansio_responses as sr

stream = sr.ResponsesStream()
done = stream.outcome == "complete"  # error
done = stream.outcome == "completed" or stream.outcome == "cancelled"
chat = sr.ChatCompletionsStream()
finished = chat.outcome in ("completed", "error")
cut = chat.outcome != "truncatd"  # error
""",
    "misspelt_fault.py": """\
from sansio_responses.testing import Faults, Script

ok = Script(b"", chunk_size=7, disconnect_after_events=2, faults=None)
bad = Script(b"", chunksize=7)  # error
also_ok = Script.error(503, "overloaded", delay=0.5, faults=Faults())
also_bad = Script.error(503, "overloaded", dealy=0.5)  # error
""",
}


def _expected() -> set[tuple[str, int]]:
    return {
        (name, number)
        for name, code in SNIPPETS.items()
        for number, line in enumerate(code.splitlines(), start=1)
        if line.endswith("# error")
    }


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    into = tmp_path_factory.mktemp("typing-negative")
    for name, code in SNIPPETS.items():
        (into / name).write_text(code, encoding="utf-8")
    shutil.copy(TYPING / "mypy.ini", into / "mypy.ini")
    shutil.copy(TYPING / "pyrightconfig.json", into / "pyrightconfig.json")
    return into


def _reported(output: str, pattern: str) -> set[tuple[str, int]]:
    return {(Path(m["file"]).name, int(m["line"])) for m in re.finditer(pattern, output, re.M)}


def test_mypy_reports_each_misspelling(folder: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=folder, capture_output=True, text=True, timeout=600
    )
    output = result.stdout + result.stderr
    found = _reported(output, r"^(?P<file>\S+\.py):(?P<line>\d+): error:")
    assert found == _expected(), output
    assert "Non-overlapping equality check" in output  # the outcome: a Literal
    assert 'Unexpected keyword argument "chunksize"' in output
    assert 'Unexpected keyword argument "dealy"' in output


def test_pyright_reports_each_misspelling(folder: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pyright", "--pythonpath", sys.executable],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    found = _reported(output, r"^\s*(?P<file>\S+\.py):(?P<line>\d+):\d+ - error:")
    assert found == _expected(), output
    assert 'No parameter named "chunksize"' in output
    assert 'No parameter named "dealy"' in output
