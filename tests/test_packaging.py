"""Packaging: the wheel and the editable install, built by the project's own build backend.

The build must print no warning (the TOML-table ``license`` is refused by setuptools from 2027-02-18),
ship the adapters as ``sansio_responses.adapters`` with the recordings and the license file, and the
editable install must be a static path entry: type checkers (mypy, pyright) follow ``.pth`` paths but
not setuptools' import hook, so with the hook ``import sansio_responses`` is invisible to them in
another project.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Build the backend from a copy of what the sdist holds, so the checkout is not written to.
_SOURCES = ["pyproject.toml", "README.md", "LICENSE", "sansio_responses", "adapters"]


def _setuptools_version() -> tuple[int, ...]:
    try:
        import setuptools
    except ImportError:
        return (0,)
    return tuple(int(p) for p in setuptools.__version__.split(".")[:2] if p.isdigit())


needs_backend = pytest.mark.skipif(
    _setuptools_version() < (77,), reason="the build backend (setuptools>=77, test extra) is absent"
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """(folder with the wheel and the editable wheel, everything the backend printed)."""
    src = tmp_path_factory.mktemp("src")
    for name in _SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(
                path,
                src / name,
                symlinks=True,
                ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
            )
        else:
            shutil.copy2(path, src / name)
    out = src / "dist"
    code = (
        "from setuptools import build_meta as b\n"
        f"b.build_wheel({str(out)!r})\n"
        f"b.build_editable({str(out)!r})\n"
    )
    # PYTHONDONTWRITEBYTECODE makes distutils print "byte-compiling is disabled" warnings that say
    # nothing about the project; a user's build does not have it.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=src,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    return out, output


def test_the_adapters_folder_is_the_installed_subpackage() -> None:
    # sansio_responses/adapters is a symlink to the top-level adapters/ folder (the design card's
    # layout); the package then sits at its natural path, which the static editable install needs.
    assert (ROOT / "sansio_responses" / "adapters").resolve() == (ROOT / "adapters").resolve()
    import sansio_responses.adapters.httpx_sync as httpx_sync

    assert Path(httpx_sync.__file__).resolve() == (ROOT / "adapters" / "httpx_sync.py").resolve()


@needs_backend
def test_the_build_prints_no_warning(built: tuple[Path, str]) -> None:
    _, output = built
    assert "warning" not in output.lower(), output


@needs_backend
def test_the_wheel_ships_adapters_recordings_and_license(built: tuple[Path, str]) -> None:
    out, _ = built
    (wheel,) = [p for p in out.glob("sansio_responses-*.whl") if "editable" not in p.name]
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = z.read(f"{dist_info}/METADATA").decode()
    assert "sansio_responses/adapters/httpx_sync.py" in names
    assert "sansio_responses/py.typed" in names
    # Every real recording installs with the kit, with its sidecar and the attribution README.
    corpus = ROOT / "sansio_responses" / "testing" / "recordings"
    shipped = {
        n.rsplit("/", 1)[1] for n in names if n.startswith("sansio_responses/testing/recordings/")
    }
    assert shipped == {p.name for p in corpus.iterdir()}
    assert len([n for n in shipped if n.endswith(".sse")]) == 69 and "README.md" in shipped
    assert not any(n.startswith(("adapters/", "tests/", "bench/")) for n in names)
    assert f"{dist_info}/licenses/LICENSE" in names
    assert "License-Expression: Apache-2.0" in metadata.splitlines()
    # The pytest plugin registers itself, under its module's name (so an old pytest_plugins line
    # naming the module finds it already loaded).
    with zipfile.ZipFile(wheel) as z:
        entry_points = z.read(f"{dist_info}/entry_points.txt").decode()
    plugin = "sansio_responses.testing.pytest_plugin"
    assert f"[pytest11]\n{plugin} = {plugin}" in entry_points


@needs_backend
def test_the_editable_install_is_a_static_path(built: tuple[Path, str]) -> None:
    out, _ = built
    (editable,) = [p for p in out.glob("sansio_responses-*.whl") if "editable" in p.name]
    with zipfile.ZipFile(editable) as z:
        names = z.namelist()
        pths = [n for n in names if n.endswith(".pth")]
        assert len(pths) == 1, names
        lines = z.read(pths[0]).decode().split()
    # No import hook (a line starting with "import"), only the folder holding sansio_responses/.
    assert not any(n.endswith("_finder.py") for n in names), names
    assert len(lines) == 1 and not lines[0].startswith("import"), lines
    assert Path(lines[0]).resolve() == out.parent.resolve()  # the source root, absolute
