"""``nataterra rules``: a game's rules for its players, the how-to-play page its package ships
(the registry's ``Hooks.how_to_play``), rendered for the terminal with rich."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markdown import Markdown

from nataterra_core.game import DEFAULT_GAME
from nataterra_core.kernel.registry import systems

from .common import GameOption, console, err_console, rule_system

__all__ = ["NO_PAGE", "rules_command"]

NO_PAGE = 2
"""Exit code when the rule system ships no how-to-play page."""


def rules_command(
    game: GameOption = DEFAULT_GAME,
    plain: Annotated[
        bool, typer.Option("--plain", help="Print the page's Markdown source as it is.")
    ] = False,
) -> None:
    """How to play a game: what you do on a turn, how to win or score, a worked example.

    The page ships with the game's package; the rules clause by clause, with their IDs, are
    in the repository's docs/rules folder.
    """
    record = rule_system(game)
    page = record.hooks.how_to_play
    if page is None:
        with_pages = [r.id for r in systems() if r.hooks.how_to_play is not None]
        err_console.print(
            f"[red]{record.id} has no how-to-play page[/] (games with one: {', '.join(with_pages)})"
        )
        raise typer.Exit(NO_PAGE)
    text = page()
    if plain:
        typer.echo(text, nl=not text.endswith("\n"))
        return
    console.print(Markdown(text))
