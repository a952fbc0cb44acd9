"""``nataterra scenarios``: the scenarios every registered game offers (its ``scenarios`` hook)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from nataterra_core.kernel.registry import systems

from .common import console, rule_system

__all__ = ["scenarios_command"]


def _listed(game: str | None) -> list[dict[str, Any]]:
    records = [rule_system(game)] if game is not None else list(systems())
    found = []
    for record in records:
        for entry in (record.hooks.scenarios or {}).values():
            found.append(
                {
                    "id": entry.id,
                    "kind": entry.kind,
                    "players": len(entry.seats),
                    "goal": entry.goal,
                    "game": record.id,
                    "title": entry.title,
                    "seats": list(entry.seats),
                }
            )
    return found


def scenarios_command(
    game: Annotated[
        str | None, typer.Option("--game", help="Only this rule system's scenarios.")
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="A JSON list of objects: id, kind, players, goal (and game, title, seats).",
        ),
    ] = False,
) -> None:
    """List the scenarios of the registered games: id, kind, players and goal.

    Play one with ``nataterra demo --scenario ID`` or ``nataterra play --scenario ID``.
    """
    found = _listed(game)
    if as_json:
        typer.echo(json.dumps(found, ensure_ascii=False))
        return
    table = Table("id", "game", "kind", "players", "goal")
    for item in found:
        table.add_row(
            item["id"], item["game"], item["kind"], ", ".join(item["seats"]), item["goal"]
        )
    console.print(table)
