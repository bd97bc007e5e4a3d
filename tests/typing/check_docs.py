"""Type-check every ```python block of README.md and docs/ as a user's project would.

Each block is written to its own file in a temporary folder outside the repository (so that
``sansio_responses`` resolves through the installed package, as in a user's project, and not through
the repository root), then the folder is checked by one ``mypy --strict`` and one ``pyright`` (strict)
run, both for Python 3.10. The block's file is padded with blank lines, so a reported line is the line
in the Markdown page; the report names the page, not the temporary file.

A documented idiom that needs a cast or an ignore comment to check is a typing bug (of the docs or of
the library), so such a comment in a block is an error too.

Usage (from anywhere; .ci/run runs it after the typing suite)::

    python tests/typing/check_docs.py            # exit 0 when both checkers report no error

Not a pytest module: no ``test_`` prefix, and nothing runs on import (tests/test_typing_suite.py
executes every file of this folder as a module).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The same fences tests/test_docs_examples.py runs: the info string is exactly "python".
_FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
# A documented idiom must check as written: neither silenced nor forced.
_ESCAPES = re.compile(r"#\s*(type|pyright):\s*ignore|\bcast\(|\btyping\.cast\b")

MYPY_INI = """\
[mypy]
strict = True
python_version = 3.10
warn_unreachable = True
files = .
"""

PYRIGHT_CONFIG = """\
{
  "typeCheckingMode": "strict",
  "pythonVersion": "3.10",
  "reportUnnecessaryTypeIgnoreComment": "error"
}
"""


def pages(root: Path = ROOT) -> list[Path]:
    """README.md and every Markdown page under docs/, in a stable order."""
    found = sorted((root / "docs").rglob("*.md"))
    readme = root / "README.md"
    return [readme, *found] if readme.exists() else found


def python_blocks(page: Path) -> list[tuple[int, str]]:
    """(line number of the block's first code line, code) of each ```python block of *page*."""
    text = page.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start()) + 2, match.group("body"))
        for match in _FENCE.finditer(text)
        if match.group("info").strip() == "python"
    ]


def module_name(page: Path, line: int, root: Path = ROOT) -> str:
    """A valid, unique module name for the block of *page* starting at *line*."""
    stem = re.sub(r"\W", "_", str(page.relative_to(root).with_suffix("")).lower())
    return f"{stem}_l{line}"


def extract(into: Path, root: Path = ROOT) -> dict[str, str]:
    """Write one file per block into *into*; return {file name: "page:line"} for the report."""
    names: dict[str, str] = {}
    for page in pages(root):
        for line, code in python_blocks(page):
            name = f"{module_name(page, line, root)}.py"
            # Blank lines before the code keep the Markdown line numbers in the checkers' output.
            (into / name).write_text("\n" * (line - 1) + code, encoding="utf-8")
            names[name] = str(page.relative_to(root))
    return names


def escapes(into: Path, names: dict[str, str]) -> list[str]:
    """A line per cast or ignore comment found in a block."""
    found: list[str] = []
    for name, page in names.items():
        for number, text in enumerate((into / name).read_text().splitlines(), start=1):
            if _ESCAPES.search(text):
                found.append(f"{page}:{number}: error: a cast or ignore comment: {text.strip()}")
    return found


def run(command: list[str], cwd: Path, names: dict[str, str]) -> tuple[int, str]:
    """Run a checker in *cwd*; return its exit code and its output with the pages' names."""
    result = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )
    output = result.stdout + result.stderr
    for name, page in names.items():
        # mypy prints "name.py:12:", pyright "/tmp/.../name.py:12:5" under a "/tmp/.../name.py"
        # heading; each becomes "page:12" (the heading: "page, block name").
        where = re.escape(name)
        output = re.sub(rf"^(?:\S*/)?{where}$", f"{page}, block {name}", output, flags=re.M)
        output = re.sub(rf"(?:\S*/)?{where}(?=:\d)", page, output)
    return result.returncode, output


def main() -> int:
    """Extract, check with both checkers, print their reports; 0 when neither finds an error."""
    with tempfile.TemporaryDirectory(prefix="sansio-responses-docs-") as folder:
        into = Path(folder)
        names = extract(into)
        (into / "mypy.ini").write_text(MYPY_INI, encoding="utf-8")
        (into / "pyrightconfig.json").write_text(PYRIGHT_CONFIG, encoding="utf-8")
        print(f"check_docs: {len(names)} python blocks of README.md and docs/")
        if not names:
            print("check_docs: error: no ```python block found: nothing was checked")
            return 1
        found = escapes(into, names)
        for text in found:
            print(text)
        # Each checker finds its configuration (and, through it, the files) in the folder.
        mypy_code, mypy_output = run([sys.executable, "-m", "mypy"], into, names)
        print(mypy_output, end="")
        pyright_code, pyright_output = run(
            [sys.executable, "-m", "pyright", "--pythonpath", sys.executable], into, names
        )
        print(pyright_output, end="")
    return 1 if found or mypy_code or pyright_code else 0


if __name__ == "__main__":
    sys.exit(main())
