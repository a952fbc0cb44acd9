"""``nataterra new-game ID``: a new game package in the one shape, ready to register.

It writes ``DIR/<ID with - as _>/`` (by default under the installed ``nataterra_core/games/``):
a trivial, complete game (:mod:`.scaffold_files`) that registers, passes the conformance test
and plays, each file saying what to fill. Inside the library the game registers with one line
in ``DIR/__init__.py``, printed, or added there with ``--register``; outside it, the package is
a distribution of its own and ``DIR/pyproject.toml`` declares the ``nataterra.games`` entry
point the registry reads (``docs/GAME_GUIDE.md``, "The registry record").
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Template
from typing import Annotated

import typer

import nataterra_core.games
from nataterra_core.kernel.registry import ENTRY_POINT_GROUP, system_ids

from .common import console
from .scaffold_files import GAME_FILES, PYPROJECT

__all__ = ["GameFiles", "game_files", "new_game"]

GAME_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
"""A rules id the scaffold accepts: lower-case words joined by hyphens (``dice-poker``)."""
MAX_ID = 40
LINE_LENGTH = 100
"""The project's line length (``pyproject.toml``'s ``[tool.ruff]``): the code written fits it."""
LIBRARY = Path(nataterra_core.games.__file__).resolve().parent
"""The installed library's games folder: the default ``--dir``."""


class GameFiles:
    """The names a new game's files use, derived from its rules id."""

    def __init__(self, game_id: str, module: str) -> None:
        self.game_id = game_id
        self.package = game_id.replace("-", "_")
        self.module = module
        self.cls = "".join(word.capitalize() for word in game_id.split("-"))
        self.const = self.package.upper()
        self.title = " ".join(word.capitalize() for word in game_id.split("-"))

    def substitute(self, text: str) -> str:
        """``text`` with the placeholders of :mod:`.scaffold_files` filled in."""
        return Template(text).substitute(
            id=self.game_id,
            title=self.title,
            package=self.package,
            module=self.module,
            Class=self.cls,
            CONST=self.const,
            PREFIX=self.const.replace("_", "-"),
        )

    @property
    def registration(self) -> str:
        """The line that registers the game in the library's ``games/__init__.py``: one line,
        or one argument a line with a trailing comma where one line would pass the project's
        100 columns (``ruff format`` keeps either layout)."""
        game_id, target = f'"{self.game_id}"', f'"{self.module}.system:{self.const}"'
        line = f"register_lazily({game_id}, {target})"
        if len(line) <= LINE_LENGTH:
            return line
        return f"register_lazily(\n    {game_id},\n    {target},\n)"


def game_files(game_id: str, module: str) -> dict[str, str]:
    """Each file of the new package by name, for the rules id ``game_id`` imported as
    ``module``."""
    names = GameFiles(game_id, module)
    return {name: names.substitute(text) for name, text in GAME_FILES.items()}


def _check_id(game_id: str) -> None:
    if len(game_id) > MAX_ID or GAME_ID.fullmatch(game_id) is None:
        raise typer.BadParameter(
            f"{game_id!r}: lower-case letters and digits, words joined by '-', at most "
            f"{MAX_ID} characters, starting with a letter (dice-poker)",
            param_hint="ID",
        )
    if game_id in system_ids():
        raise typer.BadParameter(f"a game {game_id!r} is registered already", param_hint="ID")


def _inside_library(folder: Path) -> bool:
    return folder.resolve() == LIBRARY


def new_game(
    game_id: Annotated[str, typer.Argument(metavar="ID", help="The new game's rules id.")],
    folder: Annotated[
        Path | None,
        typer.Option(
            "--dir",
            help="Where the package goes (default: the installed nataterra_core/games/). "
            "Elsewhere it is a distribution of its own, with a pyproject.toml.",
            file_okay=False,
        ),
    ] = None,
    register: Annotated[
        bool,
        typer.Option(
            "--register", help="Add the registration line to the library's games/__init__.py."
        ),
    ] = False,
) -> None:
    """Write a new game package that registers, passes the conformance test and plays.

    The game is a trivial race (add 1 or 2, reach the target) in the one shape of every
    game; each file says what to replace. docs/GAME_GUIDE.md walks through each room.
    """
    _check_id(game_id)
    folder = LIBRARY if folder is None else folder
    inside = _inside_library(folder)
    if register and not inside:
        raise typer.BadParameter(
            "a game outside the library registers through its pyproject.toml's entry point",
            param_hint="--register",
        )
    package = folder / game_id.replace("-", "_")
    if package.exists():
        raise typer.BadParameter(f"{package} exists already", param_hint="ID")
    module = f"nataterra_core.games.{package.name}" if inside else package.name
    names = GameFiles(game_id, module)
    package.mkdir(parents=True)
    for name, text in game_files(game_id, module).items():
        (package / name).write_text(text, encoding="utf-8")
    console.print(f"wrote {package}/ ({', '.join(GAME_FILES)})", soft_wrap=True, highlight=False)
    if inside:
        _register_inside(folder / "__init__.py", names.registration, register)
    else:
        _register_outside(folder / "pyproject.toml", names)


def _register_inside(init: Path, line: str, register: bool) -> None:
    if register:
        text = init.read_text(encoding="utf-8")
        init.write_text(f"{text.rstrip()}\n{line}\n", encoding="utf-8")
        console.print(
            f"registered in {init}: {line}", soft_wrap=True, highlight=False, markup=False
        )
        return
    console.print(f"register it with this line in {init}:", soft_wrap=True, highlight=False)
    console.print(line, soft_wrap=True, highlight=False, markup=False)


def _register_outside(pyproject: Path, names: GameFiles) -> None:
    if pyproject.exists():
        console.print(
            f"{pyproject} exists: add the entry point to it:", soft_wrap=True, highlight=False
        )
        console.print(
            f'[project.entry-points."{ENTRY_POINT_GROUP}"]\n'
            f'{names.game_id} = "{names.module}.system:{names.const}"',
            soft_wrap=True,
            highlight=False,
            markup=False,
        )
        return
    pyproject.write_text(names.substitute(PYPROJECT), encoding="utf-8")
    console.print(
        f"wrote {pyproject}: `pip install -e {pyproject.parent}` registers the game "
        f"(entry point group {ENTRY_POINT_GROUP})",
        soft_wrap=True,
        highlight=False,
        markup=False,
    )
