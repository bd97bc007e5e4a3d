"""docs/architecture.md cannot go stale: its dotted names resolve, its file paths exist, every private
module is on it.

The page names modules, classes, functions and methods as dotted paths in code spans
(``sansio_responses._sse.SSEDecoder.feed_raw``). Each one is imported (the longest prefix that is a
module) and looked up attribute by attribute, so a rename or a move that forgets the page fails here.
And every private module or package under ``sansio_responses/`` (any part of its dotted name starting
with ``_``), the ``_cli`` and ``testing`` ones included, must be named on the page: a new module
gets its line in the map.
"""

from __future__ import annotations

import importlib
import os
import re
from pathlib import Path
from typing import Any

import pytest

import sansio_responses

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"
PACKAGE = Path(sansio_responses.__file__).resolve().parent
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_DOTTED = re.compile(r"`(sansio_responses(?:\.[A-Za-z_]\w*)*)`")
_PATH = re.compile(r"`((?:sansio_responses|adapters|tests|docs|bench)/[\w./]*)`")


def _dotted_names() -> list[str]:
    text = _FENCE.sub("", PAGE.read_text(encoding="utf-8"))
    return sorted(set(_DOTTED.findall(text)))


def _resolve(dotted: str) -> Any:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        name = ".".join(parts[:i])
        try:
            obj: Any = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (name + ".").startswith(exc.name + "."):
                continue  # not a module: a shorter prefix is, and the rest are attributes
            raise
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise AssertionError(f"{dotted}: no module")  # pragma: no cover - sansio_responses imports


def _private_modules() -> set[str]:
    found: set[str] = set()
    for folder, dirs, files in os.walk(PACKAGE, followlinks=True):  # adapters/ is a symlink
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        base = ["sansio_responses", *Path(folder).relative_to(PACKAGE).parts]
        for file in files:
            if file.endswith(".py") and not file.startswith("__"):
                found.add(".".join([*base, file[:-3]]))
        if "__init__.py" in files and len(base) > 1:
            found.add(".".join(base))
    return {m for m in found if any(p.startswith("_") for p in m.split(".")[1:])}


def test_the_page_names_dotted_paths() -> None:
    names = _dotted_names()
    assert len(names) > 50
    assert "sansio_responses._base.EventStreamBase.feed" in names


@pytest.mark.parametrize("dotted", _dotted_names())
def test_every_dotted_name_on_the_page_exists(dotted: str) -> None:
    obj = _resolve(dotted)
    qualname = getattr(obj, "__qualname__", None)
    if qualname is not None and getattr(obj, "__module__", None) is not None:
        # A class or function is named where it is defined, not through a re-export or a
        # subclass: after a move the page must follow the code.
        assert f"{obj.__module__}.{qualname}" == dotted, (
            f"{dotted} is defined as {qualname!r} in {obj.__module__}"
        )


def test_every_private_module_is_on_the_page() -> None:
    modules = _private_modules()
    assert {
        "sansio_responses._sse",
        "sansio_responses._cli.main",
        "sansio_responses._chat",
    } <= modules
    named = _dotted_names()
    missing = sorted(m for m in modules if not any(n == m or n.startswith(m + ".") for n in named))
    assert not missing, f"docs/architecture.md does not name {missing}"


def test_every_file_path_on_the_page_exists() -> None:
    paths = set(_PATH.findall(_FENCE.sub("", PAGE.read_text(encoding="utf-8"))))
    assert "tests/test_chat_fuzz.py" in paths
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"


def test_the_page_is_in_the_site_navigation() -> None:
    assert "architecture.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
