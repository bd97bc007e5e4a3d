"""Every ```python block in README.md and docs/ is executed.

Each block runs alone, in a fresh namespace, as a reader who copies that one block would run it: a
block imports what it uses and starts the server it talks to. Examples that need a server use the
test kit's loopback server; none touches the network. The ``sansio-responses``
command lines shown in ```sh blocks are run too (in-process), except ``serve`` (it runs until Ctrl-C)
and ``stream`` without ``--base-url`` (it needs the OpenAI API). The site itself is built with
``mkdocs build --strict`` when mkdocs is installed (the ``docs`` dependencies).
"""

from __future__ import annotations

import ast
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from sansio_responses._cli.main import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md")) + [p for p in [ROOT / "README.md"] if p.exists()]

_FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def blocks(page: Path, language: str) -> list[tuple[int, str]]:
    """(line number, code) of the fenced blocks of *page* whose info string is *language*."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        if match.group("info").strip() == language:
            found.append((text.count("\n", 0, match.start()) + 2, match.group("body")))
    return found


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


PYTHON_PAGES = [page for page in PAGES if blocks(page, "python")]


def test_the_docs_have_examples() -> None:
    names = {page_id(page) for page in PYTHON_PAGES}
    expected = {"index.md", "guide/concepts.md", "guide/resume.md"}
    assert {f"docs/{name}" for name in expected} | {"README.md"} <= names


PYTHON_BLOCKS = [
    (page, line, code) for page in PYTHON_PAGES for line, code in blocks(page, "python")
]


@pytest.mark.parametrize(
    ("page", "line", "code"),
    PYTHON_BLOCKS,
    ids=[f"{page_id(page)}:{line}" for page, line, _ in PYTHON_BLOCKS],
)
def test_python_example_runs_alone(
    page: Path,
    line: int,
    code: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)  # paths in the docs are relative to the repository root
    namespace: dict[str, object] = {"__name__": "__docs__"}
    # Pad with blank lines so a traceback names the line in the Markdown file.
    compiled = compile("\n" * (line - 1) + code, str(page), "exec")
    exec(compiled, namespace)
    capsys.readouterr()


def _commands() -> list[tuple[str, int, list[str]]]:
    found = []
    for page in PAGES:
        for line, code in blocks(page, "sh"):
            for offset, text in enumerate(code.splitlines()):
                if not text.startswith("sansio-responses "):
                    continue
                argv = shlex.split(text, comments=True)[1:]
                if argv[0] == "serve" or (argv[0] == "stream" and "--base-url" not in argv):
                    continue
                found.append((page_id(page), line + offset, argv))
    return found


COMMANDS = _commands()


@pytest.mark.parametrize(("page", "line", "argv"), COMMANDS, ids=lambda v: str(v))
def test_documented_commands_run(
    page: str,
    line: int,
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)  # paths in the docs are relative to the repository root
    if argv[0] == "demo" and "--delay" not in argv:
        argv = [*argv, "--delay", "0"]  # the same run, without the pauses meant for the eye
    source = (ROOT / page).read_text(encoding="utf-8").splitlines()[line - 1]
    expected = re.search(r"#\s*exits? (\d)", source)
    code = main(argv)
    capsys.readouterr()
    assert code == (int(expected.group(1)) if expected else 0), f"{page}:{line}: {source}"


def test_commands_were_found() -> None:
    assert any(argv[0] == "demo" for _, _, argv in COMMANDS)
    assert any(argv[0] == "decode" for _, _, argv in COMMANDS)


def _diagnostic_codes() -> set[str]:
    """Every diagnostic code the core can record: the first argument of its ``_note`` calls."""
    codes = set()
    for path in (ROOT / "sansio_responses").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if name == "_note" and isinstance(first, ast.Constant) and isinstance(first.value, str):
                codes.add(first.value)
    return codes


def test_every_diagnostic_code_is_documented() -> None:
    codes = _diagnostic_codes()
    assert {"sequence-gap", "missing-done-marker", "keepalive-comment"} <= codes
    guide = (DOCS / "guide" / "outcomes.md").read_text(encoding="utf-8")
    missing = sorted(code for code in codes if f"`{code}`" not in guide)
    assert not missing, f"diagnostic codes missing from docs/guide/outcomes.md: {missing}"


def test_every_page_is_in_the_nav() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w/-]+\.md)\s*$", config, re.MULTILINE))
    pages = {str(page.relative_to(DOCS)) for page in DOCS.rglob("*.md")}
    assert listed == pages


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert (tmp_path / "reference" / "streams" / "index.html").exists()
