"""One shape for every game package (issue 28): the same rooms with the same roles.

Every registered system's package (the package whose ``system`` module holds its registry
record; the combat sandbox shares Nataterra's; a system registered from outside the library,
such as the tests' toy game, is not the library's to shape) has the six required rooms, no top-level
module outside the list of rooms unless its docstring names it, and a docstring naming each
room it has. The registry is iterated, so a new game is checked with no edit here. The README's
layout section lists the same rooms.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from nataterra_core.kernel.registry import RuleSystem, systems

REQUIRED: tuple[tuple[str, ...], ...] = (
    ("system",),
    ("messages",),
    ("state",),
    ("decider",),
    ("views",),
    ("presenter", "words"),
)
"""The six rooms every game has (either name of a tuple will do)."""

ROOMS = frozenset(
    {
        "system",
        "messages",
        "state",
        "decider",
        "rules",
        "views",
        "words",
        "presenter",
        "geometry",
        "panels",
        "board",
        "encoding",
        "determinise",
        "bots",
        "content",
        "coverage",
    }
)
"""Every room a game package may have at its top level without saying why."""


def _home(record: RuleSystem) -> ModuleType | None:
    """The library module that holds ``record``; ``None`` for a system registered from
    outside the library (the tests' toy game)."""
    found = [
        module
        for name, module in list(sys.modules.items())
        if name.startswith("nataterra_core.")
        and module is not None
        and any(value is record for value in vars(module).values())
    ]
    if not found:
        return None
    homes = [module for module in found if module.__name__.endswith(".system")]
    assert len(homes) == 1, f"{record.id}: its record is not in one `system` module: {found}"
    return homes[0]


def _packages() -> dict[str, tuple[str, ...]]:
    """Each registered system's package, with the ids of the systems it holds."""
    packages: dict[str, list[str]] = {}
    for record in systems():
        home = _home(record)
        if home is not None:
            packages.setdefault(home.__name__.rsplit(".", 1)[0], []).append(record.id)
    return {package: tuple(ids) for package, ids in sorted(packages.items())}


PACKAGES = _packages()


def _folder(package: str) -> Path:
    module = sys.modules[package]
    assert module.__file__ is not None
    return Path(module.__file__).parent


def _rooms(package: str) -> set[str]:
    """The modules and packages at the top level of ``package``."""
    folder = _folder(package)
    modules = {p.stem for p in folder.glob("*.py") if p.name != "__init__.py"}
    packages = {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}
    return modules | packages


def _docstring(package: str) -> str:
    source = (_folder(package) / "__init__.py").read_text(encoding="utf-8")
    return ast.get_docstring(ast.parse(source)) or ""


def _names(docstring: str, room: str) -> bool:
    """Whether ``docstring`` names ``room`` as code: ``room``, ``room.py``, ``room/`` or
    :mod:`.room`."""
    escaped = re.escape(room)
    return re.search(rf"``{escaped}(\.py|/)?``|:mod:`\.{escaped}`", docstring) is not None


def test_every_system_the_library_ships_is_checked() -> None:
    shipped = {"nataterra", "nataterra-combat-sandbox", "kaladan", "battlelore", "liars-dice"}
    checked = {rules_id for ids in PACKAGES.values() for rules_id in ids}
    assert shipped <= checked
    assert all(package.startswith("nataterra_core.games.") for package in PACKAGES)


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_a_game_package_has_the_six_required_rooms(package: str) -> None:
    rooms = _rooms(package)
    missing = [" or ".join(names) for names in REQUIRED if not rooms.intersection(names)]
    assert not missing, f"{package} lacks {missing}"


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_a_module_outside_the_rooms_is_named_in_the_package_docstring(package: str) -> None:
    docstring = _docstring(package)
    unexplained = sorted(r for r in _rooms(package) - ROOMS if not _names(docstring, r))
    assert not unexplained, f"{package}: {unexplained} are no room; its docstring names none"


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_the_package_docstring_describes_each_room(package: str) -> None:
    docstring = _docstring(package)
    unnamed = sorted(r for r in _rooms(package) & ROOMS if not _names(docstring, r))
    assert not unnamed, f"{package}'s docstring does not name its rooms {unnamed}"


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_system_holds_only_the_registry_records(package: str) -> None:
    module = sys.modules[f"{package}.system"]
    exported = getattr(module, "__all__", ())
    others = [name for name in exported if not isinstance(getattr(module, name), RuleSystem)]
    assert exported and not others, f"{package}.system exports more than records: {others}"
