"""A seat's view as plain text: the status line, one line per civilisation, the units by zone.

The terminal front end draws the same facts with colours; this is what any front end (or
a log reader) can print without a terminal library.
"""

from __future__ import annotations

from itertools import groupby

from nataterra_core.kernel import Outcome

from .presenter import describe_outcome
from .rules.combat.model import Combat, Group
from .rules.hexmap import GameMap
from .views import PlayerView, SeatView

__all__ = ["group_line", "player_facts", "status_line", "view_text"]


def view_text(view: SeatView, game_map: GameMap | None = None) -> str:
    """The view in lines of text; with ``game_map`` each zone shows its biome and resource."""
    lines = [status_line(view), ""]
    lines += [_player_line(view, player) for player in view.players]
    lines.append("")
    for zone, stacks in groupby(sorted(view.units, key=lambda s: s.zone), key=lambda s: s.zone):
        units = "; ".join(
            f"{s.owner} {s.count} {s.unit}" + (f" ({s.moved} moved)" if s.moved else "")
            for s in stacks
        )
        terrain = _terrain(zone, game_map)
        lines.append(f"{zone}{' (' + terrain + ')' if terrain else ''}: {units}")
    for placed in view.structures:
        lines.append(f"{placed.zone}: {placed.owner}'s {placed.structure}")
    for marker in view.markers:  # scenario markers (N-SCN-GEN-3)
        held = f" ({marker.controller}'s)" if marker.controller else ""
        cargo = f", {marker.cubes} die" if marker.cubes else ""
        lines.append(f"{marker.zone}: the {marker.marker} marker{held}{cargo}")
    if view.combat is not None:
        lines += ["", *_combat_lines(view.combat)]
    return "\n".join(lines)


def status_line(view: SeatView) -> str:
    """``turn 3 of 10: beasts, movement phase (as seen by velathi)``, with any conditions."""
    viewer = view.seat or "spectator"
    limit = f" of {view.max_turns}" if view.max_turns else ""
    if view.phase == "over":
        result = Outcome(winners=view.winners, reason=view.result_reason or "over")
        line = f"game over after turn {view.turn}: {describe_outcome(result)}"
    elif view.phase == "setup":
        line = "setting up"
    else:
        line = f"turn {view.turn}{limit}: {view.active}, {view.phase} phase"
    line += f"  (as seen by {viewer})"
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
        line += f"\nvictory conditions: {cubes}"
    elif view.cubes:
        line += "\ncubes: " + ", ".join(f"{seat} {n}" for seat, n in view.cubes.items())
    return line


def player_facts(player: PlayerView) -> list[str]:
    """A civilisation's facts as short phrases (stock, pool, hands, decks, flare)."""
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
    return facts


def _player_line(view: SeatView, player: PlayerView) -> str:
    marker = "*" if player.civ == view.active else " "
    return f"{marker}{player.civ}: " + " · ".join(player_facts(player))


def group_line(number: int, group: Group) -> str:
    """``  group 2: beasts 3 orc (melee), damage 4``."""
    return (
        f"  group {number}: {group.owner} {group.units} {group.unit} ({group.slot}), "
        f"damage {group.damage}"
    )


def _combat_lines(combat: Combat) -> list[str]:
    lines = [f"combat in {combat.zone} ({combat.biome}), round {combat.round}"]
    for number, group in enumerate(combat.groups):
        lines.append(
            group_line(number, group) + (" (acted)" if group.acted == combat.round else "")
        )
    return lines


def _amount(count: int, name: str, factor: int) -> str:
    return f"{count} {name}" + (f" (x{factor})" if factor != 1 else "")


def _hand(cards: tuple[str, ...] | None, count: int) -> str:
    if cards is None:
        return f"{count} hidden"
    return ", ".join(cards) or "none"


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
