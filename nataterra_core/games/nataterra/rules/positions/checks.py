"""A position checked against the pack and the rules' invariants: every problem, with its path.

:func:`problems` never stops at the first problem; :class:`PositionError` lists them all
(``$.units[3].zone: N-MOV-2: ...``), so one error tells a user everything that is wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Protocol

import attrs

from nataterra_core.games.nataterra.content.schema import ContentPack, UnitType

from ...state import PHASES
from ..hexmap import GameMap, build_map
from .schema import FORMAT, MARKERS, VERSION, PlayerEntry, Position

__all__ = ["PositionError", "Problem", "problems"]


class _Add(Protocol):
    def __call__(self, path: str, message: str) -> None: ...


@attrs.frozen
class Problem:
    """One thing wrong with a position: where (a JSON path) and why (citing a rule)."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class PositionError(ValueError):
    """A position the rules refuse; ``problems`` lists every problem with its path."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        count = len(self.problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"the position has {count} problem{'s' * (count != 1)}:\n{lines}")


def problems(pack: ContentPack, position: Position) -> list[Problem]:
    """Every way ``position`` breaks the format, the pack or an invariant of the rules."""
    found: list[Problem] = []

    def add(path: str, message: str) -> None:
        found.append(Problem(path, message))

    if position.format != FORMAT:
        add("$.format", f"must be {FORMAT!r}")
    if position.version != VERSION:
        add("$.version", f"this library reads version {VERSION}, not {position.version}")
    seats = position.seats
    _check_seats(pack, position, add)
    game_map = _map(pack, position.map, add)
    for civ in position.players:
        if civ not in seats:
            add(f"$.players.{civ}", "not one of the seats")
    for civ in seats:
        if civ in position.players and civ in pack.civilisations:
            found.extend(_player_problems(pack, civ, position.players[civ]))
    _check_turn(position, add)
    if game_map is not None:
        _check_units(pack, game_map, position, add)
        _check_structures(pack, game_map, position, add)
        _check_markers(game_map, position, add)
    _check_decks(pack, position, add)
    _check_victory(pack, position, add)
    return found


def _check_seats(pack: ContentPack, position: Position, add: _Add) -> None:
    seats = position.seats
    if not 2 <= len(seats) <= 4:
        add("$.seats", "N-SETUP-1: Nataterra is for 2 to 4 players")
    if len(set(seats)) != len(seats):
        add("$.seats", "each civilisation is played once")
    for i, civ in enumerate(seats):
        if civ not in pack.civilisations:
            add(f"$.seats[{i}]", f"{civ!r} is not a civilisation of the pack")
        elif civ not in position.players:
            add(f"$.players.{civ}", "missing: every seat needs its player table")
    in_teams = [s for team in position.teams for s in team]
    if position.teams and sorted(in_teams) != sorted(seats):
        add("$.teams", "N-TURN-3: the teams must hold every seat exactly once")


def _map(pack: ContentPack, map_id: str, add: _Add) -> GameMap | None:
    try:
        return build_map(pack, map_id)
    except (KeyError, ValueError) as exc:
        add("$.map", f"N-MAP-5: no such map ({exc})")
        return None


def _nonnegative(path: str, values: Mapping[str, int], add: _Add) -> None:
    for key, value in values.items():
        if value < 0:
            add(f"{path}.{key}", f"must not be negative, got {value}")


def _player_problems(pack: ContentPack, civ: str, player: PlayerEntry) -> list[Problem]:
    found: list[Problem] = []

    def add(path: str, message: str) -> None:
        found.append(Problem(path, message))

    at = f"$.players.{civ}"
    for name in ("stock", "multipliers", "structure_discount", "tech_discount"):
        amounts = getattr(player, name)
        _nonnegative(f"{at}.{name}", _amounts(amounts), add)
    for name in ("flare", "worker_supply", "tiles_unlocked"):
        if getattr(player, name) < 0:
            add(f"{at}.{name}", f"must not be negative, got {getattr(player, name)}")
    own_units = set(pack.civilisations[civ].units)
    for name in ("pool", "locked", "sides", "movement_mods", "initiative_mods", "cost_mods"):
        for unit in getattr(player, name):
            if unit not in own_units:
                add(f"{at}.{name}.{unit}", f"{unit!r} is not a unit type of {civ}")
    _nonnegative(f"{at}.pool", player.pool, add)
    _nonnegative(f"{at}.locked", player.locked, add)
    tactics = Counter(c.id for c in pack.tactic_deck(civ))
    _cards(f"{at}", ("tactic_hand", "tactic_deck", "tactic_discard"), player, tactics, add)
    techs = Counter(c.id for c in pack.tech_deck(civ))
    _cards(f"{at}", ("tech_hand", "tech_deck", "techs"), player, techs, add)
    for i, structure in enumerate(player.structures_unlocked):
        if structure not in pack.civilisations[civ].structures:
            add(f"{at}.structures_unlocked[{i}]", f"{structure!r} is not a structure of {civ}")
    return found


def _amounts(amounts: object) -> dict[str, int]:
    return {k: getattr(amounts, k) for k in ("food", "wood", "metal")}


def _cards(
    at: str, piles: tuple[str, ...], player: PlayerEntry, pack_cards: Counter[str], add: _Add
) -> None:
    """Every card of the piles is in the civilisation's deck of the pack, and no card is in
    the piles more often than the pack holds it."""
    seen: Counter[str] = Counter()
    for pile in piles:
        for i, card in enumerate(getattr(player, pile)):
            seen[card] += 1
            if card not in pack_cards:
                add(f"{at}.{pile}[{i}]", f"card {card!r} is not in this civilisation's deck")
            elif seen[card] > pack_cards[card]:
                add(
                    f"{at}.{pile}[{i}]",
                    f"card {card!r} is already placed ({pack_cards[card]} in the pack)",
                )


def _check_turn(position: Position, add: _Add) -> None:
    seats = position.seats
    if position.turn < 0:
        add("$.turn", "must not be negative")
    if position.dice_counter < 0:
        add("$.dice_counter", "must not be negative")
    if position.max_turns < 0:
        add("$.max_turns", "N-WIN-6: 0 (off) or positive")
    if position.dominance_cubes < 1:
        add("$.dominance_cubes", "N-WIN-2: at least 1")
    for name in ("first", "active"):
        seat = getattr(position, name)
        if seat is not None and seat not in seats:
            add(f"$.{name}", f"{seat!r} is not one of the seats")
    if position.turn == 0:
        if position.phase != "setup":
            add("$.phase", "turn 0 is the set-up: phase 'setup'")
    else:
        if position.phase not in PHASES:
            add("$.phase", f"turn {position.turn} is in one of the phases {list(PHASES)}")
        if position.first is None:
            add("$.first", "a game in progress has a first player")
    if position.turn_state.discarding and position.first is None:
        add("$.first", "N-SETUP-8: opening discards follow the first player's draw")
        if position.active is None:
            add("$.active", "a game in progress has an active player")
    if position.turn_state.discarding and position.turn != 0:
        add("$.turn_state.discarding", "N-SETUP-8: opening discards come before turn 1")
    for i, civ in enumerate(position.bases_destroyed):
        if civ not in seats:
            add(f"$.bases_destroyed[{i}]", f"{civ!r} is not one of the seats")
    for i, civ in enumerate(position.eliminated):
        if civ not in seats:
            add(f"$.eliminated[{i}]", f"{civ!r} is not one of the seats")


def _check_units(pack: ContentPack, game_map: GameMap, position: Position, add: _Add) -> None:
    seen: set[tuple[str, str, str]] = set()
    naga_base = game_map.bases.get("naga")
    owners: dict[str, set[str]] = {}
    for i, entry in enumerate(position.units):
        at = f"$.units[{i}]"
        key = (entry.owner, entry.unit, entry.zone)
        if key in seen:
            add(at, f"a second stack of {entry.owner}'s {entry.unit} in {entry.zone}: one per type")
        seen.add(key)
        if entry.owner not in position.seats:
            add(f"{at}.owner", f"{entry.owner!r} is not one of the seats")
        unit = pack.units.get(entry.unit)
        if unit is None:
            add(f"{at}.unit", f"{entry.unit!r} is not a unit type of the pack")
        elif unit.civ != entry.owner:
            add(f"{at}.unit", f"{entry.unit!r} is a unit of {unit.civ}, not {entry.owner}")
        if entry.count < 1:
            add(f"{at}.count", "at least 1 (leave an empty stack out)")
        if not 0 <= entry.moved <= entry.count:
            add(f"{at}.moved", f"between 0 and the count {entry.count}")
        zone = game_map.zones.get(entry.zone)
        if zone is None:
            add(f"{at}.zone", f"no zone {entry.zone!r} on map {position.map!r}")
            continue
        owners.setdefault(entry.zone, set()).add(entry.owner)
        if (
            zone.biome == "lake"
            and entry.zone != naga_base
            and unit is not None
            and not _flies(position, entry.owner, unit)
        ):
            add(f"{at}.zone", f"N-MOV-2: {entry.unit} cannot stand on the lake {entry.zone}")
    quiet = position.phase in ("setup", "development")
    for zone_id, here in sorted(owners.items()):
        armies = _armies(position, here)
        if quiet and len(armies) > 1:
            add(
                "$.units",
                f"N-COMBAT-1: {zone_id} holds the armies of {sorted(here)} in the "
                f"{position.phase} phase; contested zones are fought in the combat phase",
            )


def _armies(position: Position, owners: set[str]) -> set[tuple[str, ...]]:
    """The sides among ``owners``: a team counts once (N-TURN-3)."""
    found = set()
    for owner in owners:
        team = next((t for t in position.teams if owner in t), (owner,))
        found.add(tuple(team))
    return found


def _flies(position: Position, owner: str, unit: UnitType) -> bool:
    """N-ABL-11: the group-card side in use (N-DEV-5) decides whether the unit flies."""
    player = position.players.get(owner)
    chosen = player.sides.get(unit.id) if player is not None else None
    return unit.side(chosen or "a").ability_level("flying", with_tech=chosen is not None) > 0


def _check_structures(pack: ContentPack, game_map: GameMap, position: Position, add: _Add) -> None:
    zones: set[str] = set()
    bases = set(game_map.bases.values())
    for i, entry in enumerate(position.structures):
        at = f"$.structures[{i}]"
        structure = pack.structures.get(entry.structure)
        if structure is None:
            add(f"{at}.structure", f"{entry.structure!r} is not a structure of the pack")
        elif structure.civ != entry.owner:
            add(f"{at}.structure", f"{entry.structure!r} belongs to {structure.civ}")
        if entry.owner not in position.seats:
            add(f"{at}.owner", f"{entry.owner!r} is not one of the seats")
        if entry.zone in zones:
            add(f"{at}.zone", f"N-STR-1: {entry.zone} already holds a structure")
        zones.add(entry.zone)
        zone = game_map.zones.get(entry.zone)
        if zone is None:
            add(f"{at}.zone", f"no zone {entry.zone!r} on map {position.map!r}")
        elif zone.biome == "lake" or entry.zone in bases:
            add(f"{at}.zone", "N-STR-1: never on a lake or a base")
        if entry.cubes < 0:
            add(f"{at}.cubes", "must not be negative")


def _check_markers(game_map: GameMap, position: Position, add: _Add) -> None:
    for i, marker in enumerate(position.markers):
        at = f"$.markers[{i}]"
        if marker.marker not in MARKERS:
            add(f"{at}.marker", f"N-SCN-1: one of {list(MARKERS)}")
        if marker.zone not in game_map.zones:
            add(f"{at}.zone", f"no zone {marker.zone!r} on map {position.map!r}")
        if marker.controller is not None and marker.controller not in position.seats:
            add(f"{at}.controller", f"{marker.controller!r} is not one of the seats")
        if marker.cubes < 0:
            add(f"{at}.cubes", "must not be negative")


def _check_decks(pack: ContentPack, position: Position, add: _Add) -> None:
    biomes = {card.biome for card in pack.biome_cards.values()}
    for which in ("biome_decks", "biome_discards"):
        for biome in getattr(position, which):
            if biome not in biomes:
                add(f"$.{which}.{biome}", f"no biome deck {biome!r} in the pack")
    for biome in sorted(biomes):
        in_pack = Counter(c.id for c in pack.biome_deck(biome))
        seen: Counter[str] = Counter()
        for which in ("biome_decks", "biome_discards"):
            for i, card in enumerate(getattr(position, which).get(biome, ())):
                seen[card] += 1
                if card not in in_pack:
                    add(f"$.{which}.{biome}[{i}]", f"card {card!r} is not in the {biome} deck")
                elif seen[card] > in_pack[card]:
                    add(f"$.{which}.{biome}[{i}]", f"card {card!r} is already placed")
    if position.turn == 0 and position.first is None and position.shuffle:
        add(
            "$.shuffle",
            "N-SETUP-2: a set-up position with its first player drawn shuffles every deck",
        )
    decks = {f"tactic:{civ}" for civ in position.seats} | {f"biome:{b}" for b in biomes}
    for i, deck in enumerate(position.shuffle):
        kind, _, name = deck.partition(":")
        if deck not in decks:
            add(f"$.shuffle[{i}]", f"no deck {deck!r} (tactic:<seat> or biome:<biome>)")
        elif (kind == "biome" and position.biome_discards.get(name)) or (
            kind == "tactic" and name in position.players and position.players[name].tactic_discard
        ):  # a shuffle takes the discard pile in (N-DEV-6, N-COMBAT-8)
            add(f"$.shuffle[{i}]", "a deck shuffled at the start has an empty discard pile")


def _check_victory(pack: ContentPack, position: Position, add: _Add) -> None:
    for seat, cubes in position.cubes.items():
        if seat not in position.seats:
            add(f"$.cubes.{seat}", "not one of the seats")
        if cubes < 0:
            add(f"$.cubes.{seat}", "must not be negative")
    for i, condition in enumerate(position.conditions):
        if condition not in pack.victory_conditions:
            add(f"$.conditions[{i}]", f"{condition!r} is not a victory condition of the pack")
