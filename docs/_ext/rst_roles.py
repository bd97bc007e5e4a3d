"""A griffe extension for the docs build: render the reST roles used in the docstrings as code.

The docstrings follow the Google style but name other objects with Sphinx roles
(``:class:`ResponsesStream```, ``:meth:`~ResponsesStream.feed```), which Markdown would show
verbatim. This rewrites each role as inline code with the displayed name (the last dotted part
when the name starts with ``~``, as Sphinx does). Only the rendered site changes.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|data|exc|mod|obj|const):`(~?)([^`]+)`")


def _render(match: re.Match[str]) -> str:
    name = match.group(2)
    if match.group(1):
        name = name.rsplit(".", 1)[-1]
    return f"`{name}`"


class RstRoles(griffe.Extension):
    """Rewrite reST roles in every docstring of a loaded package."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Walk the package once it is loaded."""
        self._fix(pkg, set())

    def _fix(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        if obj.docstring is not None:
            obj.docstring.value = _ROLE.sub(_render, obj.docstring.value)
        for member in obj.members.values():
            if not member.is_alias:
                self._fix(member, seen)  # type: ignore[arg-type]
