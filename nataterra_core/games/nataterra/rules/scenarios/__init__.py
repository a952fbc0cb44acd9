"""The scenario book (N-SCN-1, ``docs/SCENARIOS.md``): each scenario is a starting position
plus its rules.

A game plays a scenario through the header option ``scenario`` (its id): the decider builds
the scenario's position (:func:`scenario_position`) and starts from it like from any
position (``docs/POSITIONS.md``), and :mod:`.play` adds the scenario's commands, effects and
victory conditions. :data:`SCENARIOS` is the registry's ``scenarios`` hook.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs
import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack

from ...state import Marker, UnitStack, add_units
from ..context import Context
from ..hexmap import build_map
from ..positions import Position, position_of
from ..setup import GameOptions, initial_state
from ..stock import Resources
from . import play
from .book import BOOK
from .model import Scenario

__all__ = ["BOOK", "SCENARIOS", "Scenario", "ScenarioEntry", "play", "scenario_position"]


@functools.lru_cache(maxsize=32)
def scenario_position(pack: ContentPack, scenario_id: str) -> Position:
    """The starting position of a scenario on ``pack`` (N-SCN-GEN-8): the standard set-up
    (N-SETUP-3..7) of its seats on its map, its units (taken from the pool, then the locked
    supply), markers and stocks, its first player (or one drawn at the start), every deck
    shuffled at the start. ``KeyError`` for an unknown scenario."""
    scenario = BOOK[scenario_id]
    ctx = Context(pack, build_map(pack, scenario.map))
    state = initial_state(
        ctx, scenario.seats, GameOptions(mode=scenario.mode, max_turns=scenario.max_turns)
    )
    units: tuple[UnitStack, ...] = state.units
    for zone, owner, unit, count in scenario.setup.units:
        player = state.player(owner)
        from_pool = min(count, player.pool.get(unit, 0))
        from_locked = count - from_pool
        if player.locked.get(unit, 0) < from_locked:
            raise ValueError(f"{scenario_id}: {owner} has not {count} {unit} tokens")
        state = state.with_player(
            msgspec.structs.replace(
                player,
                pool={**player.pool, unit: player.pool.get(unit, 0) - from_pool},
                locked={**player.locked, unit: player.locked.get(unit, 0) - from_locked}
                if from_locked
                else player.locked,
            )
        )
        units = add_units(units, owner, unit, zone, count)
    for civ, (food, wood, metal) in scenario.setup.stocks.items():
        player = state.player(civ)
        state = state.with_player(
            msgspec.structs.replace(player, stock=Resources(food, wood, metal))
        )
    counts = {"rounds": 1} if scenario.effects.round_die is not None else {}
    state = msgspec.structs.replace(
        state,
        units=units,
        scenario=scenario.id,
        markers=tuple(sorted(Marker(k, z, c) for k, z, c in scenario.setup.markers)),
        scenario_counts=counts,
        first=-1 if scenario.first is None else scenario.seats.index(scenario.first),
    )
    position = position_of(state)
    if scenario.first is None:  # a standard start: first player drawn, every deck shuffled
        return position
    decks = [f"tactic:{seat}" for seat in scenario.seats]
    decks += [f"biome:{biome}" for biome, cards in sorted(state.biome_decks.items()) if cards]
    return msgspec.structs.replace(position, shuffle=tuple(decks))


@attrs.frozen
class ScenarioEntry:
    """A scenario as generic front ends list it (the registry's ``scenarios`` hook)."""

    id: str
    title: str
    kind: str
    seats: tuple[str, ...]
    goal: str

    @property
    def players(self) -> int:
        """How many players it is for."""
        return len(self.seats)

    @property
    def options(self) -> dict[str, Any]:
        """The header options that start it."""
        return {"scenario": self.id}


SCENARIOS: dict[str, ScenarioEntry] = {
    s.id: ScenarioEntry(id=s.id, title=s.title, kind=s.kind, seats=s.seats, goal=s.goal)
    for s in BOOK.values()
}
"""Every scenario of the book by id (the registry's ``scenarios`` hook)."""
