"""The deprecated aliases left where a module or name moved out of the kernel (issue 28 item 2).

Each old import path still works for code outside the repository, re-exporting the new home's
objects (the same objects, not copies) with a ``DeprecationWarning``; no module of ours uses an
old path (``tests/test_architecture.py`` checks the modules, this file the registry's names).
"""

from __future__ import annotations

import ast
import importlib
import sys
import warnings
from pathlib import Path

import pytest
from test_architecture import ADAPTERS, DEPRECATED_MODULES, ROOT, core_files

from nataterra_core.kernel import registry


@pytest.mark.parametrize("old", sorted(DEPRECATED_MODULES))
def test_a_moved_module_warns_and_re_exports_its_new_home(old: str) -> None:
    new = importlib.import_module(DEPRECATED_MODULES[old])
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated: import {new.__name__}"):
        alias = importlib.import_module(old)
    assert new.__all__, new.__name__
    assert alias.__all__ == new.__all__
    for name in new.__all__:
        assert getattr(alias, name) is getattr(new, name), f"{old}.{name}"


def test_the_aliases_still_do_their_job() -> None:
    """A caller of the old paths gets working objects (a sample through each alias)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for old in DEPRECATED_MODULES:
            sys.modules.pop(old, None)
        from nataterra_core.kernel.ismcts import SearchPlayer
        from nataterra_core.kernel.stats import wilson_interval
        from nataterra_core.kernel.workers import guided_chunks

        make_player = registry.make_player
    low, high = wilson_interval(5, 10)
    assert 0.2 < low < 0.5 < high < 0.8
    assert sum(len(chunk) for chunk in guided_chunks(100, 4, largest=10)) == 100
    assert isinstance(make_player(registry.system("kaladan"), "search:2:random", 3), SearchPlayer)


@pytest.mark.parametrize("name", sorted(registry._MOVED))
def test_a_name_moved_out_of_the_registry_warns_and_is_the_new_one(name: str) -> None:
    new = importlib.import_module(registry._MOVED[name])
    with pytest.warns(DeprecationWarning, match=f"registry.{name} is deprecated"):
        assert getattr(registry, name) is getattr(new, name)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        registry.nothing_here  # noqa: B018


def test_no_module_of_ours_takes_a_moved_name_from_the_registry() -> None:
    sources = [*core_files(), *ADAPTERS.rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    sources += [*(ROOT / "examples").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")]
    found = []
    for path in sources:
        if path == Path(__file__):
            continue  # this file uses the old names on purpose
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("registry"):
                found += [f"{path}: {a.name}" for a in node.names if a.name in registry._MOVED]
            elif (
                isinstance(node, ast.Attribute)
                and node.attr in registry._MOVED
                and isinstance(node.value, ast.Name)
                and node.value.id == "registry"
            ):
                found.append(f"{path}: registry.{node.attr}")
    assert found == []
