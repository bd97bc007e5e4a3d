"""Python source that makes a package look uninstalled, for tests that run ``python -c``."""

from __future__ import annotations


def blocking(package: str) -> str:
    """The start of a script in which importing *package* or its submodules fails as it does when
    the package is not installed (``ModuleNotFoundError`` naming it)."""
    return f"""
import sys

class Block:
    def find_spec(self, name, path=None, target=None):
        if name == {package!r} or name.startswith({package + "."!r}):
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Block())
"""
