"""A seat's view as plain text: the status, the hex map with every zone, one panel per
player and, while a combat runs, the combat panel.

What ``show`` and ``play`` print (and what the RPC's ``text`` holds): everything the seat may
see, nothing it may not (other seats' hands are counts). The terminal front end adds colour;
any front end or log reader can print this without a terminal library.
"""

from __future__ import annotations

from nataterra_core.kernel import Outcome

from ..content import load_pack
from ..geometry import seated, slot_names
from ..rules.combat.model import Combat, Group
from ..rules.hexmap import GameMap
from ..views import PlayerView, SandboxView, SeatView
from .base import possessive, structure_title, tactic_title, tech_title, units_text
from .combat import biome_card_text
from .text_board import map_drawing, zone_lines
from .turns import condition_title, describe_outcome

__all__ = [
    "combat_lines",
    "group_line",
    "player_lines",
    "sandbox_text",
    "status_line",
    "view_text",
]


LEGEND = (
    "(D desert, F forest, H hills, S swamp, M mountain, L lake; * a structure; "
    "b2: two of the Beasts' units)"
)
"""What the letters of the map drawing mean."""


def view_text(view: SeatView, game_map: GameMap | None = None) -> str:
    """The view in lines of text; with ``game_map`` the map is drawn, every zone listed."""
    lines = [status_line(view), ""]
    if game_map is not None:
        occupants = _occupants(view)
        built = {placed.zone for placed in view.structures}
        lines += [map_drawing(game_map, occupants, built), LEGEND, ""]
        lines += zone_lines(game_map, view.units, view.structures)
    else:  # a map still being built (N-MAP-4): the units where they stand
        lines += [f"{s.zone}: {s.owner} {units_text(s.count, s.unit)}" for s in view.units]
    lines.append("")
    for player in view.players:
        lines += player_lines(view, player)
    for marker in view.markers:  # scenario markers (N-SCN-GEN-3)
        held = f" ({marker.controller}'s)" if marker.controller else ""
        cargo = f", {marker.cubes} die" if marker.cubes else ""
        lines.append(f"{marker.zone}: the {marker.marker} marker{held}{cargo}")
    if view.combat is not None:
        lines += ["", *combat_lines(view.combat, view.pack)]
    return "\n".join(lines)


def _occupants(view: SeatView) -> dict[str, str]:
    """Zone -> ``v3 b2``: each owner's initial and unit count there."""
    counts: dict[str, dict[str, int]] = {}
    for stack in view.units:
        by_owner = counts.setdefault(stack.zone, {})
        by_owner[stack.owner] = by_owner.get(stack.owner, 0) + stack.count
    return {
        zone: " ".join(f"{owner[0]}{n}" for owner, n in sorted(by_owner.items()))
        for zone, by_owner in counts.items()
    }


def status_line(view: SeatView) -> str:
    """``turn 3 of 10: beasts, movement phase (as seen by velathi)``, with any conditions."""
    viewer = view.seat or "spectator"
    limit = f" of {view.max_turns}" if view.max_turns else ""
    if view.phase == "over":
        result = Outcome(
            winners=view.winners, draw=not view.winners, reason=view.result_reason or "over"
        )
        line = f"game over after turn {view.turn}: {describe_outcome(result)}"
    elif view.phase == "setup":
        line = "setting up"
    else:
        line = f"turn {view.turn}{limit}: {view.active}, {view.phase} phase"
    line += f"  (as seen by {viewer})"
    if view.conditions:  # advanced mode (N-WIN-3): the conditions and the cubes on them
        cubes = "; ".join(
            f"{condition_title(condition)}: "
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


def player_lines(view: SeatView, player: PlayerView) -> list[str]:
    """A player's panel: stock and multipliers, flare and cubes, pool, structures on the map,
    techs, and hands (the viewing seat's own by title, the others' as counts)."""
    marker = "*" if player.civ == view.active else " "
    stock, mult = player.stock, player.multipliers
    head = ", ".join(
        (
            _amount(stock.food, "food", mult.food),
            _amount(stock.wood, "wood", mult.wood),
            _amount(stock.metal, "metal", mult.metal),
        )
    )
    if player.flare:
        head += f" · flare {player.flare}"
    if view.cubes.get(player.civ):
        head += f" · cubes {view.cubes[player.civ]}"
    if player.civ in view.bases_destroyed:
        head += " · base destroyed"
    pool = ", ".join(units_text(n, unit) for unit, n in player.pool.items() if n) or "-"
    built = [
        f"{structure_title(p.structure)} ({p.zone})"
        for p in view.structures
        if p.owner == player.civ
    ]
    lines = [f"{marker}{player.civ}: {head}", f"    pool: {pool}"]
    if built:
        lines.append(f"    structures: {', '.join(built)}")
    if player.techs:
        lines.append(f"    techs: {', '.join(map(tech_title, player.techs))}")
    lines.append(
        f"    tech hand: {_hand(player.tech_hand, player.tech_hand_count, tech_title)}"
        f" · tactic hand: {_hand(player.tactic_hand, player.tactic_hand_count, tactic_title)}"
        f" · decks: tech {player.tech_deck_count}, tactic {player.tactic_deck_count}"
    )
    return lines


def group_line(number: int, group: Group, slot: str | None = None) -> str:
    """``  group 2: beasts 3 Orcs in melee1, damage 4, +2 attack, initiative 7``."""
    tokens = [f"damage {group.damage}"]
    tokens += [f"+{group.attack_bonus} attack"] if group.attack_bonus else []
    tokens += [f"+{group.armor_bonus} armor"] if group.armor_bonus else []
    tokens += [f"initiative {group.initiative}"] if group.initiative else []
    state = "" if group.alive else " (destroyed)"
    return (
        f"  group {number}: {group.owner} {units_text(group.units, group.unit)}{state} "
        f"in {slot or group.slot + ' slot'}, {', '.join(tokens)}"
    )


def combat_lines(combat: Combat, pack_sha256: str = "") -> list[str]:
    """The combat panel: where and which round, the biome card, each player's slots with
    the groups in them, and the units in reserve (the boards of the pack in play, by its
    SHA-256)."""
    head = f"combat in {combat.zone} ({combat.biome}), round {combat.round}: "
    lines = [head + f"{combat.attacker} attacks {combat.defender}"]
    if combat.biome_card is not None and combat.revealed:
        lines.append(f"  biome card: {biome_card_text(combat.biome_card)}")
    pack = load_pack.in_play(pack_sha256)
    for owner in combat.seats:
        groups = [g for g in combat.groups if g.owner == owner]
        rows = slot_names(owner, groups, pack)
        slots = {g.id: slot for g, slot in seated(groups)}
        free = [s for row in rows.values() for s in row if s not in slots.values()]
        lines.append(f"  {possessive(owner)} board: free slots {', '.join(free) or 'none'}")
        for group in groups:
            acted = " (acted)" if group.acted == combat.round and combat.round else ""
            lines.append(group_line(group.id, group, slots[group.id]) + acted)
        reserve = ", ".join(units_text(f.count, f.unit) for f in combat.reserve_of(owner))
        if reserve:
            lines.append(f"  {possessive(owner)} reserve: {reserve}")
    return lines


def sandbox_text(view: SandboxView) -> str:
    """A sandbox battle: who fights whom, the result, and the combat panel."""
    head = f"battle: {view.attacker} attacks {view.defender}"
    if view.winner:
        head += f"; won by {view.winner}"
    if view.combat is None:
        return head + " (not started)"
    return "\n".join([head, *combat_lines(view.combat)])


def _amount(count: int, name: str, factor: int) -> str:
    return f"{count} {name}" + (f" (x{factor})" if factor != 1 else "")


def _hand(cards: tuple[str, ...] | None, count: int, title: object) -> str:
    if cards is None:
        return f"{count} hidden"
    name = title if callable(title) else str
    return ", ".join(name(card) for card in cards) or "none"
