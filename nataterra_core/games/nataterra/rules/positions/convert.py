"""Between a game state and its position (``nataterra-position`` v1), both ways, losslessly
for every state outside combat and map structuring: ``state_of(position_of(s)) == s``."""

from __future__ import annotations

from ...state import GameState, PlacedStructure, PlayerState, UnitStack, ZoneGrant
from .schema import (
    PlayerEntry,
    Position,
    ResearchEntry,
    StrategisedEntry,
    StructureEntry,
    TurnState,
    UnitEntry,
    ZoneGrantEntry,
)

__all__ = ["position_of", "state_of"]

_PLAYER_FIELDS = tuple(f for f in PlayerEntry.__struct_fields__)


def position_of(state: GameState) -> Position:
    """The position of ``state``; ``ValueError`` inside a combat or while the map is built
    (positions of those are not part of format v1)."""
    if state.combat is not None:
        raise ValueError("a position inside a combat is not part of nataterra-position v1")
    if state.structuring is not None:
        raise ValueError("a position while the map is structured (N-MAP-4) is not supported")
    if state.phase == "over":
        raise ValueError("the game is over: there is no position to play on")
    players = {
        p.civ: PlayerEntry(**{f: getattr(p, f) for f in _PLAYER_FIELDS}) for p in state.players
    }
    return Position(
        map=state.map_id,
        seats=state.seats,
        players=players,
        mode="advanced" if state.mode == "advanced" else "learning",
        scenario=state.scenario,
        turn=state.turn,
        phase=state.phase,
        first=state.seats[state.first] if state.first >= 0 else None,
        active=state.seats[state.active] if state.active >= 0 else None,
        dice_counter=state.counter,
        max_turns=state.max_turns,
        dominance_cubes=state.dominance_cubes,
        conquest=state.conquest,
        teams=state.teams,
        units=tuple(
            UnitEntry(zone=s.zone, owner=s.owner, unit=s.unit, count=s.count, moved=s.moved)
            for s in state.units
        ),
        structures=tuple(
            StructureEntry(zone=s.zone, owner=s.owner, structure=s.structure, cubes=s.cubes)
            for s in state.structures
        ),
        markers=state.markers,
        biome_decks=dict(state.biome_decks),
        biome_discards=dict(state.biome_discards),
        cubes=dict(state.cubes),
        conditions=state.conditions,
        condition_cubes={k: dict(v) for k, v in state.condition_cubes.items()},
        scenario_counts=dict(state.scenario_counts),
        bases_destroyed=state.bases_destroyed,
        eliminated=state.eliminated,
        conquered=dict(state.conquered),
        turn_state=TurnState(
            entered=dict(state.entered),
            tactic_phases=state.tactic_phases,
            zone_grants=tuple(
                ZoneGrantEntry(seat=g.seat, zone=g.zone, movement=g.movement, stealth=g.stealth)
                for g in state.zone_grants
            ),
            phase_done=state.phase_done,
            researching=tuple(
                ResearchEntry(seat=p.civ, tech=tech, option=option)
                for p in state.players
                for tech, option in p.researching
            ),
            strategised=tuple(
                StrategisedEntry(owner=o, unit=u, zone=z, count=n)
                for o, u, z, n in state.strategised
            ),
            turn_cubes={k: dict(v) for k, v in state.turn_cubes.items()},
            discarding=state.discarding,
        ),
    )


def state_of(position: Position) -> GameState:
    """The game state of a position already checked against the pack (``checks.problems``)."""
    seats = position.seats
    turn = position.turn_state
    players = tuple(
        PlayerState(
            civ=civ,
            researching=tuple((r.tech, r.option) for r in turn.researching if r.seat == civ),
            **{f: getattr(position.players[civ], f) for f in _PLAYER_FIELDS},
        )
        for civ in seats
    )
    return GameState(
        seats=seats,
        map_id=position.map,
        mode=position.mode,
        max_turns=position.max_turns,
        players=players,
        units=tuple(
            sorted(UnitStack(u.owner, u.unit, u.zone, u.count, u.moved) for u in position.units)
        ),
        biome_decks=dict(position.biome_decks),
        biome_discards=dict(position.biome_discards),
        first=seats.index(position.first) if position.first is not None else -1,
        active=seats.index(position.active) if position.active is not None else -1,
        turn=position.turn,
        phase=position.phase,
        counter=position.dice_counter,
        strategised=tuple((s.owner, s.unit, s.zone, s.count) for s in turn.strategised),
        dominance_cubes=position.dominance_cubes,
        cubes=dict(position.cubes),
        bases_destroyed=position.bases_destroyed,
        eliminated=position.eliminated,
        entered=dict(turn.entered),
        structures=tuple(
            PlacedStructure(s.owner, s.structure, s.zone, s.cubes) for s in position.structures
        ),
        tactic_phases=turn.tactic_phases,
        zone_grants=tuple(
            ZoneGrant(g.seat, g.zone, g.movement, g.stealth) for g in turn.zone_grants
        ),
        teams=position.teams,
        phase_done=turn.phase_done,
        conquest=position.conquest,
        conquered=dict(position.conquered),
        conditions=position.conditions,
        condition_cubes={k: dict(v) for k, v in position.condition_cubes.items()},
        turn_cubes={k: dict(v) for k, v in turn.turn_cubes.items()},
        discarding=turn.discarding,
        scenario=position.scenario,
        markers=tuple(sorted(position.markers)),
        scenario_counts=dict(position.scenario_counts),
    )
