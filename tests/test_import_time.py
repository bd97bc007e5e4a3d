"""``import sansio_responses`` loads its modules lazily, with the same public names as before.

Import time itself is measured in bench/import_time.py (timing goals live in benchmarks); these
tests check the mechanism: every public name resolves to its module's object, the names type
checkers see (the ``TYPE_CHECKING`` imports) are the ones loaded at run time, and what a program
that only streams Responses never loads.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import sansio_responses as sr

INIT = Path(sr.__file__)
NAMES_33D7050 = [
    line
    for line in (Path(__file__).parent / "data" / "public_names_33d7050.txt")
    .read_text()
    .splitlines()
    if line and not line.startswith("#")
]


def test_every_public_name_resolves_to_its_module_object() -> None:
    names = set(sr.__all__) - {"__version__"}
    assert set(sr._public_names()) == names
    for name, module in sr._public_names().items():
        mod = importlib.import_module(f"sansio_responses.{module}")
        assert getattr(sr, name) is getattr(mod, name), name
    assert set(sr.__all__) <= set(dir(sr))
    assert len(sr.__all__) == len(names) + 1  # each name once


def _type_checking_imports(source: str) -> dict[str, str]:
    tree = ast.parse(source)
    (guard,) = [
        n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    ]
    assert all(isinstance(node, ast.ImportFrom) for node in guard.body)
    seen: dict[str, str] = {}
    for node in guard.body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
        for alias in node.names:
            # `Name as Name`: without the alias mypy --strict and pyright do not re-export it.
            assert alias.asname == alias.name, f"write {alias.name} as {alias.name}"
            assert alias.name not in seen, f"{alias.name} written twice"
            seen[alias.name] = node.module
    return seen


def test_the_run_time_table_is_the_type_checking_imports() -> None:
    """The line scan ``_public_names`` reads the same names and modules as the AST of the block."""
    assert sr._public_names() == _type_checking_imports(INIT.read_text(encoding="utf-8"))


def test_the_public_names_keep_the_names_of_33d7050() -> None:
    """``sr.__all__`` as of commit 33d7050 (before the layout change): every name still there."""
    assert len(NAMES_33D7050) == 199
    assert set(sr.__all__) >= set(NAMES_33D7050)
    for name in NAMES_33D7050:
        assert getattr(sr, name) is not None, name


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'NoSuchThing'"):
        sr.NoSuchThing  # noqa: B018


def _loaded_after(code: str) -> list[str]:
    script = (
        f"import sys\n{code}\nimport json\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('sansio_responses'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    return list(json.loads(out.splitlines()[-1]))


def test_import_loads_nothing_and_responses_only_what_they_need() -> None:
    assert _loaded_after("import sansio_responses") == ["sansio_responses"]
    loaded = _loaded_after("import sansio_responses as sr\nsr.ResponsesStream().feed(b'')")
    assert "sansio_responses._responses.stream" in loaded
    for module in ("_chat", "_chat_models", "_requests", "_transport", "_cli"):
        assert f"sansio_responses.{module}" not in loaded
    # from-imports and star-imports work as before.
    assert "sansio_responses._chat.stream" in _loaded_after(
        "from sansio_responses import ChatCompletionsStream"
    )
    assert "sansio_responses._http.exchange" in _loaded_after("from sansio_responses import *")
