"""A compact rich rendering of a position as one seat sees it (``play`` and ``show``).

Only a :class:`~nataterra_core.games.nataterra.views.SeatView` is rendered, never the full state, so
the terminal shows exactly what that seat may know: its own hands, counts of everything else.
"""

from __future__ import annotations

from itertools import groupby

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from nataterra_core.games.nataterra.presenter import describe_outcome
from nataterra_core.games.nataterra.rules.hexmap import GameMap
from nataterra_core.games.nataterra.views import SeatView
from nataterra_core.kernel import Outcome

__all__ = ["render_view"]


def render_view(view: SeatView, game_map: GameMap | None = None) -> RenderableType:
    """The status line, one row per civilisation and one per occupied zone.

    With ``game_map`` each zone also shows its biome and resource.
    """
    return Group(_status(view), _players(view), _units(view, game_map))


def _status(view: SeatView) -> Text:
    viewer = view.seat or "spectator"
    limit = f" of {view.max_turns}" if view.max_turns else ""
    if view.phase == "over":
        result = Outcome(winners=view.winners, reason=view.result_reason or "over")
        line = f"game over after turn {view.turn}: {describe_outcome(result)}"
    elif view.phase == "setup":
        line = "setting up"
    else:
        line = f"turn {view.turn}{limit}: {view.active}, {view.phase} phase"
    status = Text.assemble((line, "bold"), f"  (as seen by {viewer})")
    if view.conditions:  # advanced mode (N-WIN-3): the conditions and the cubes on them
        cubes = "; ".join(
            f"{condition}: "
            + (
                ", ".join(
                    f"{seat} {by[condition]}"
                    for seat, by in view.condition_cubes.items()
                    if by.get(condition)
                )
                or "no cubes"
            )
            for condition in view.conditions
        )
        status.append(f"\nvictory conditions: {cubes}")
    return status


def _amount(count: int, name: str, factor: int) -> str:
    return f"{count} {name}" + (f" (x{factor})" if factor != 1 else "")


def _hand(cards: tuple[str, ...] | None, count: int) -> str:
    if cards is None:
        return f"{count} hidden"
    return ", ".join(cards) or "none"


def _players(view: SeatView) -> Table:
    """One row per civilisation: its name, then its facts as wrapping text."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    for player in view.players:
        stock, mult = player.stock, player.multipliers
        facts = [
            ", ".join(
                (
                    _amount(stock.food, "food", mult.food),
                    _amount(stock.wood, "wood", mult.wood),
                    _amount(stock.metal, "metal", mult.metal),
                )
            ),
            "pool " + (", ".join(f"{n} {unit}" for unit, n in player.pool.items() if n) or "-"),
            f"tech hand {_hand(player.tech_hand, player.tech_hand_count)}",
            f"tactic hand {_hand(player.tactic_hand, player.tactic_hand_count)}",
            f"decks: tech {player.tech_deck_count}, tactic {player.tactic_deck_count}",
        ]
        if player.flare:
            facts.append(f"flare {player.flare}")
        name = Text(player.civ, style="bold cyan" if player.civ == view.active else "bold")
        grid.add_row(name, " · ".join(facts))
    return grid


def _units(view: SeatView, game_map: GameMap | None) -> Table:
    table = Table("zone", "terrain", "units", box=box.SIMPLE_HEAD, pad_edge=False)
    for zone, stacks in groupby(sorted(view.units, key=lambda s: s.zone), key=lambda s: s.zone):
        units = "; ".join(
            f"{s.owner} {s.count} {s.unit}" + (f" ({s.moved} moved)" if s.moved else "")
            for s in stacks
        )
        table.add_row(zone, _terrain(zone, game_map), units)
    return table


def _terrain(zone_id: str, game_map: GameMap | None) -> str:
    if game_map is None or zone_id not in game_map.zones:
        return ""
    zone = game_map.zones[zone_id]
    text = str(zone.biome)
    if zone.resource is not None:
        text += f", {zone.resource}"
    if zone.base_owner is not None:
        text += f", {zone.base_owner} base"
    return text
