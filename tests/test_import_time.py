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


def test_every_public_name_resolves_to_its_module_object() -> None:
    names = set(sr.__all__) - {"__version__"}
    assert set(sr._MODULE_OF) == names
    for module, exported in sr._LAZY.items():
        mod = importlib.import_module(f"sansio_responses.{module}")
        for name in exported:
            assert getattr(sr, name) is getattr(mod, name), name
    assert set(sr.__all__) <= set(dir(sr))


def test_type_checking_imports_match_the_lazy_table() -> None:
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    (guard,) = [
        n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    ]
    seen = {
        node.module: tuple(alias.name for alias in node.names)
        for node in guard.body
        if isinstance(node, ast.ImportFrom)
    }
    assert seen == sr._LAZY


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
