"""The command line's layout: one module per command group under ``sansio_responses/_cli/``.

A new command is a module with ``add_parsers(sub)`` listed in ``main.COMMAND_GROUPS``; these tests
catch a module written but not listed, and a command whose handler lives in another group's module.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import pkgutil

import sansio_responses._cli as cli_package

# By module name: the package's attribute ``main`` is the entry point function, not the module.
cli_main = importlib.import_module("sansio_responses._cli.main")


def _modules_with_commands() -> set[str]:
    names = {info.name for info in pkgutil.iter_modules(cli_package.__path__)}
    modules = {name: importlib.import_module(f"{cli_package.__name__}.{name}") for name in names}
    return {name for name, module in modules.items() if hasattr(module, "add_parsers")}


def test_every_command_module_is_listed() -> None:
    listed = {module.__name__.rsplit(".", 1)[1] for module in cli_main.COMMAND_GROUPS}
    assert listed == _modules_with_commands()
    assert {"decode", "stream", "testkit", "tables"} <= listed


def test_each_command_is_handled_in_the_module_that_adds_it() -> None:
    added: dict[str, str] = {}
    for group in cli_main.COMMAND_GROUPS:
        sub = argparse.ArgumentParser().add_subparsers()
        group.add_parsers(sub)
        for name, parser in sub.choices.items():
            func = parser.get_default("func")
            assert func.__module__ == group.__name__ and func.__name__ == f"cmd_{name}", name
            assert name not in added, f"{name} added twice"
            added[name] = group.__name__
    (sub,) = [
        a for a in cli_main.build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    ]
    assert list(sub.choices) == list(added)  # main adds exactly these, in this order
    assert {"decode", "demo", "serve", "recordings", "stream", "states", "rules"} <= set(added)


def test_the_console_script_is_the_packages_main() -> None:
    (script,) = [
        ep
        for ep in importlib.metadata.entry_points(group="console_scripts")
        if ep.name == "sansio-responses"
    ]
    assert script.value == "sansio_responses._cli:main"
    assert script.load() is cli_main.main
