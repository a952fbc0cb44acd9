"""The opt-in compiled build (``NATATERRA_MYPYC=1``, ``setup.py``): what it may compile.

mypyc drops msgspec's ``frozen`` and ``tag`` on a class it compiles, which would change the
log format, so no compiled module may define a msgspec class; policies and bots that pickle
into worker processes stay interpreted. The whole suite runs on both builds in CI (the golden
logs are the same bytes on both), and :data:`~nataterra_core.kernel.build.BUILD` says which
one this is.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import msgspec
import pytest

from nataterra_core.kernel.build import BUILD

ROOT = Path(__file__).resolve().parents[1]


def compiled_modules() -> list[str]:
    """The module names ``setup.py`` compiles, read without running it."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMPILED_MODULES" for t in node.targets
        ):
            paths = ast.literal_eval(node.value)
            return [path.removesuffix(".py").replace("/", ".") for path in paths]
    raise AssertionError("setup.py has no COMPILED_MODULES")


MODULES = compiled_modules()


def test_the_compiled_modules_exist() -> None:
    assert MODULES
    for name in MODULES:
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), name


@pytest.mark.parametrize("name", MODULES)
def test_no_compiled_module_defines_a_msgspec_class(name: str) -> None:
    module = importlib.import_module(name)
    defined = [
        value.__name__
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, msgspec.Struct)
        and value.__module__ == module.__name__
    ]
    assert not defined, f"{name} defines msgspec classes {defined}: move them to a message module"


def test_pickled_policies_and_bots_stay_interpreted() -> None:
    # DefaultPolicy travels to the battle calculator's workers; bots to tournament runners.
    assert "nataterra_core.games.nataterra.rules.combat.policies" not in MODULES
    assert not any(name.startswith("nataterra_core.games.nataterra.bots") for name in MODULES)


def test_build_names_what_runs() -> None:
    origins = {
        name: getattr(importlib.import_module(name), "__file__", "") or "" for name in MODULES
    }
    if BUILD == "compiled":
        assert not [n for n, origin in origins.items() if origin.endswith(".py")], origins
    else:
        assert BUILD == "pure"
        assert all(origin.endswith(".py") for origin in origins.values()), origins
