"""Scenario rules in play: marker movement and control, markers destroyed as enemy
structures, per-turn effects and the special victory conditions (``docs/SCENARIOS.md``).

The decider calls in at four points: the legal commands of a phase (:func:`legal`), a
scenario command (:func:`decide`), the start and end of a turn (:func:`turn_start`,
:func:`turn_end`) and the start of a phase (:func:`phase_start`). A game without a
scenario (``state.scenario`` is ``None``) is untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations_with_replacement
from typing import Any

import msgspec

from nataterra_core.kernel import Command, DiceStream, Event, IllegalCommand

from ...messages.development import Build
from ...messages.scenarios import (
    MarkerControlled,
    MarkerDestroyed,
    MarkerLoaded,
    MarkerMoved,
    MoveMarker,
    RecruitedOnMarker,
    RecruitOnMarker,
    SacrificeWorker,
    ScenarioCounted,
    WorkerSacrificed,
)
from ...messages.tactics import ResourcesGained
from ...messages.turns import GameEnded
from ...state import GameState, Marker, Resources, add_units, remove_units
from .. import teams
from ..context import Context
from ..tactics import draw_tactic_events
from .book import BOOK
from .model import (
    HoldToTheEnd,
    MarkerDestroyedWins,
    MarkerInBase,
    MarkerReaches,
    MarkerRule,
    PointsLead,
    RoundsHeld,
    Scenario,
    UnitsOnMarker,
)

__all__ = [
    "EVOLVE",
    "check_build",
    "decide",
    "legal",
    "phase_start",
    "points",
    "turn_end",
    "turn_start",
]


SACRIFICE_GAIN = 2  # N-SCN-HOME-2: 2 resources of the owner's choice
POINTS_PER_TURN = 2  # N-SCN-HOME-3: up to 2 workers a turn


def _scenario(state: GameState) -> Scenario | None:
    return BOOK.get(state.scenario) if state.scenario is not None else None


def points(state: GameState, seat: str) -> int:
    """``seat``'s scenario points (N-SCN-HOME-3)."""
    return state.scenario_counts.get(f"points:{seat}", 0)


def _won(rule: str, *seats: str) -> GameEnded:
    return GameEnded(reason=rule, winners=tuple(seats))


def _marker(state: GameState, kind: str) -> Marker | None:
    return next((m for m in state.markers if m.marker == kind), None)


def _combat_units(ctx: Context, state: GameState, seat: str, zone: str) -> int:
    return sum(
        s.count
        for s in state.stacks_in(zone)
        if s.owner == seat and ctx.unit(s.unit).role == "combat"
    )


# -- marker movement (N-SCN-GEN-4) -----------------------------------------------------------


def _movement(scenario: Scenario, rule: MarkerRule, state: GameState, seat: str, at: str) -> int:
    moves = rule.moves.get(seat, 0)
    if moves and rule.marker in ("carriage", "ship"):  # N-SCN-GEN-6: tactic movement helps
        moves += sum(g.movement for g in state.zone_grants if g.seat == seat and g.zone == at)
    return moves


def _passable(
    ctx: Context, state: GameState, scenario: Scenario, rule: MarkerRule, seat: str, zone: str
) -> bool:
    """N-SCN-GEN-4: a marker moves like a unit without abilities (no lakes, never into
    enemy units); the ship only through lakes, its controller's base and its dock."""
    if any(not teams.allied(state, s.owner, seat) for s in state.stacks_in(zone)):
        return False
    biome = ctx.map.zones[zone].biome
    if rule.water:
        dock = _marker(state, rule.dock) if rule.dock else None
        return (
            biome == "lake"
            or zone == ctx.map.bases.get(seat)
            or (dock is not None and zone == dock.zone)
        )
    return biome != "lake" or zone == ctx.map.bases.get("naga")


def _destinations(
    ctx: Context, state: GameState, scenario: Scenario, rule: MarkerRule, seat: str, origin: str
) -> dict[str, tuple[str, ...]]:
    """Every zone the marker can reach, with its canonical path (breadth first, neighbours
    in zone order; a mountain ends a land marker's move, N-MOV-2)."""
    budget = _movement(scenario, rule, state, seat, origin)
    found: dict[str, tuple[str, ...]] = {}
    frontier: list[tuple[str, tuple[str, ...]]] = [(origin, ())]
    seen = {origin}
    for _ in range(budget):
        following: list[tuple[str, tuple[str, ...]]] = []
        for here, path in frontier:
            if path and not rule.water and ctx.map.zones[here].biome == "mountain":
                continue
            for step in ctx.map.neighbours(here):
                if step in seen or not _passable(ctx, state, scenario, rule, seat, step):
                    continue
                seen.add(step)
                found[step] = (*path, step)
                following.append((step, (*path, step)))
        frontier = following
    return found


def _controls(rule: MarkerRule, marker: Marker, seat: str) -> bool:
    return marker.controller == seat and seat in rule.moves


def _marker_moves(ctx: Context, state: GameState, scenario: Scenario, seat: str) -> list[Command]:
    moves: list[Command] = []
    for marker in state.markers:
        rule = scenario.marker_rule(marker.marker)
        if rule is None or not _controls(rule, marker, seat):
            continue
        if state.scenario_counts.get(f"moved:{marker.marker}", 0) == state.turn:
            continue  # once per turn
        for _, path in sorted(_destinations(ctx, state, scenario, rule, seat, marker.zone).items()):
            moves.append(MoveMarker(marker=marker.marker, origin=marker.zone, path=path))
    return moves


# -- recruiting on markers and sacrifices ------------------------------------------------------


def _recruits(ctx: Context, state: GameState, scenario: Scenario, seat: str) -> list[Command]:
    effect = scenario.effects.marker_recruit
    if effect is None or effect[0] != seat:
        return []
    _, kind, unit, flare, _ = effect
    if state.scenario_counts.get(f"recruited:{seat}", 0) == state.turn:
        return []
    player = state.player(seat)
    zones = sorted(m.zone for m in state.markers if m.marker == kind)
    zones = [z for z in zones if not any(s.owner != seat for s in state.stacks_in(z))]
    if unit is not None:  # a given unit for flare (N-SCN-FERGUS-5)
        available = player.pool.get(unit, 0) + player.locked.get(unit, 0)
        if not available or player.flare < flare:
            return []
        return [RecruitOnMarker(unit=unit, zone=z) for z in zones]
    from ..development import unit_cost  # development imports the state module too

    return [
        RecruitOnMarker(unit=u, zone=z)
        for u, tokens in sorted(player.pool.items())
        if tokens and player.stock.covers(unit_cost(ctx, player, u))
        for z in zones
    ]


_GAINS: tuple[Resources, ...] = tuple(
    Resources(food=picked.count("food"), wood=picked.count("wood"), metal=picked.count("metal"))
    for picked in combinations_with_replacement(("food", "wood", "metal"), SACRIFICE_GAIN)
)


def _sacrifices(ctx: Context, state: GameState, scenario: Scenario, seat: str) -> list[Command]:
    effect = scenario.effects.sacrifice
    if effect is None:
        return []
    village = _marker(state, effect[0])
    if village is None or not any(
        s.owner == seat and s.unit in ctx.workers for s in state.stacks_in(village.zone)
    ):
        return []
    found: list[Command] = [SacrificeWorker(zone=village.zone, gain=g) for g in _GAINS]
    if _sacrificed_this_turn(state, seat) < POINTS_PER_TURN:
        found.append(SacrificeWorker(zone=village.zone, for_points=True))
    return found


def _sacrificed_this_turn(state: GameState, seat: str) -> int:
    if state.scenario_counts.get(f"sacrifice_turn:{seat}", 0) != state.turn:
        return 0
    return state.scenario_counts.get(f"sacrificed:{seat}", 0)


def legal(ctx: Context, state: GameState, seat: str) -> list[Command]:
    """The scenario commands ``seat`` may send in the current phase."""
    scenario = _scenario(state)
    if scenario is None:
        return []
    if state.phase == "movement":
        return _marker_moves(ctx, state, scenario, seat)
    if state.phase == "development":
        return [*_recruits(ctx, state, scenario, seat), *_sacrifices(ctx, state, scenario, seat)]
    return []


def check_build(state: GameState, command: Build) -> None:
    """N-SCN-FERGUS-4: at most one of a structure on the map (``IllegalCommand``)."""
    scenario = _scenario(state)
    if scenario is None or scenario.effects.single_structure is None:
        return
    structure, rule = scenario.effects.single_structure
    if command.structure == structure and any(p.structure == structure for p in state.structures):
        raise IllegalCommand(rule, f"only one {structure} may stand on the map")


def decide(ctx: Context, state: GameState, seat: str, command: Command) -> tuple[Event, ...]:
    """The events of a scenario command; ``IllegalCommand`` when it is not allowed now."""
    scenario = _scenario(state)
    if scenario is None:
        raise IllegalCommand("N-SCN-GEN-1", "this game plays no scenario")
    if command not in legal(ctx, state, seat):
        rule = _rule_of(scenario, command)
        raise IllegalCommand(rule, f"{type(command).__name__} is not allowed now")
    if isinstance(command, MoveMarker):
        moved = MarkerMoved(
            seat=seat, marker=command.marker, origin=command.origin, path=command.path
        )
        return (moved, *_reached(scenario, state, command))
    if isinstance(command, RecruitOnMarker):
        return (_recruited(ctx, state, scenario, seat, command),)
    assert isinstance(command, SacrificeWorker)
    unit = next(
        s.unit for s in state.stacks_in(command.zone) if s.owner == seat and s.unit in ctx.workers
    )
    return (
        WorkerSacrificed(
            seat=seat,
            unit=unit,
            zone=command.zone,
            gain=command.gain,
            points=1 if command.for_points else 0,
        ),
    )


def _rule_of(scenario: Scenario, command: Command) -> str:
    if isinstance(command, MoveMarker):
        rule = scenario.marker_rule(command.marker)
        return rule.rule if rule is not None else "N-SCN-GEN-4"
    if isinstance(command, RecruitOnMarker) and scenario.effects.marker_recruit:
        return scenario.effects.marker_recruit[4]
    if isinstance(command, SacrificeWorker) and scenario.effects.sacrifice:
        return scenario.effects.sacrifice[2 if command.for_points else 1]
    return "N-SCN-GEN-1"


def _reached(scenario: Scenario, state: GameState, command: MoveMarker) -> tuple[Event, ...]:
    for win in scenario.wins:
        if isinstance(win, MarkerReaches) and win.marker == command.marker:
            target = _marker(state, win.target)
            if target is not None and command.path[-1] == target.zone:
                return (_won(win.rule, win.seat),)
    return ()


def _recruited(
    ctx: Context, state: GameState, scenario: Scenario, seat: str, command: RecruitOnMarker
) -> RecruitedOnMarker:
    effect = scenario.effects.marker_recruit
    assert effect is not None
    player = state.player(seat)
    if effect[2] is not None:  # the given unit for flare, from the pool or the locked supply
        return RecruitedOnMarker(
            seat=seat,
            unit=command.unit,
            zone=command.zone,
            flare=effect[3],
            from_locked=not player.pool.get(command.unit, 0),
        )
    from ..development import unit_cost

    return RecruitedOnMarker(
        seat=seat, unit=command.unit, zone=command.zone, cost=unit_cost(ctx, player, command.unit)
    )


# -- the turn ----------------------------------------------------------------------------------


def turn_start(ctx: Context, state: GameState, seat: str) -> tuple[Event, ...]:
    """At the start of ``seat``'s turn: flare topped up, markers taken under control, and
    the victory conditions checked then (a win ends the game there)."""
    scenario = _scenario(state)
    if scenario is None:
        return ()
    events: list[Event] = []
    for win in scenario.wins:
        if isinstance(win, UnitsOnMarker) and win.seat == seat:
            marker = _marker(state, win.marker)
            if marker and _combat_units(ctx, state, seat, marker.zone) >= win.count:
                return (_won(win.rule, seat),)
        if isinstance(win, MarkerInBase) and seat in win.seats:
            marker = _marker(state, win.marker)
            if marker and marker.zone == ctx.map.bases.get(seat):
                return (_won(win.rule, seat),)
    flare = scenario.effects.flare_at_start
    if flare is not None and flare[0] == seat and state.player(seat).flare < flare[1]:
        events.append(ResourcesGained(seat=seat, flare=flare[1] - state.player(seat).flare))
    for marker in state.markers:
        rule = scenario.marker_rule(marker.marker)
        if rule is None or rule.control != "occupy":
            continue
        holder = seat if _combat_units(ctx, state, seat, marker.zone) else None
        if holder != marker.controller:
            events.append(MarkerControlled(marker=marker.marker, zone=marker.zone, seat=holder))
    return tuple(events)


def turn_end(ctx: Context, state: GameState, dice: DiceStream) -> tuple[Event, ...]:
    """At the end of the active seat's turn: its tactic draw, the round die, and the
    victory conditions checked then."""
    scenario = _scenario(state)
    if scenario is None:
        return ()
    seat = state.active_seat
    events: list[Event] = []
    effects = scenario.effects
    if effects.draw_at_end is not None and effects.draw_at_end[0] == seat:
        events.extend(draw_tactic_events(state, seat, dice))
    rounds = state.scenario_counts.get("rounds", 1)
    if effects.round_die is not None and effects.round_die[0] == seat:
        rounds += 1
        events.append(ScenarioCounted(name="rounds", value=rounds))
    for win in scenario.wins:
        held = isinstance(win, RoundsHeld) and win.seat == seat and rounds > win.rounds
        if held and isinstance(win, RoundsHeld) and _marker(state, win.marker) is not None:
            return (*events, _won(win.rule, seat))
        if isinstance(win, PointsLead):
            mine = points(state, seat)
            others = [points(state, s) for s in state.seats if s != seat]
            if mine and all(mine >= other + win.lead for other in others):
                return (*events, _won(win.rule, seat))
        if isinstance(win, HoldToTheEnd) and state.max_turns and state.turn >= state.max_turns:
            return (*events, _won(win.rule, win.seat))
    return tuple(events)


def phase_start(ctx: Context, state: GameState, phase: str) -> tuple[Event, ...]:
    """When a phase of the active seat begins: the ship's cargo at the end of its movement
    phase (N-SCN-BEST-4); enemy-structure markers destroyed at the start of its combat and
    development phases (N-SCN-GEN-5)."""
    scenario = _scenario(state)
    if scenario is None:
        return ()
    seat = state.active_seat
    if phase == "resources":
        return _cargo(ctx, state, scenario, seat)
    if phase not in ("combat", "development"):
        return ()
    events: list[Event] = []
    for marker in state.markers:
        rule = scenario.marker_rule(marker.marker)
        if rule is None or rule.enemy_of is None or not teams.allied(state, rule.enemy_of, seat):
            continue
        owners = state.owners_in(marker.zone)
        if owners and all(teams.allied(state, owner, seat) for owner in owners):
            events.append(
                MarkerDestroyed(
                    marker=marker.marker,
                    zone=marker.zone,
                    by=seat,
                    rule=rule.destroy_rule or rule.rule,
                )
            )
            events.extend(_destroyed_wins(scenario, marker.marker))
            if any(isinstance(e, GameEnded) for e in events):
                return tuple(events)
    return tuple(events)


def _destroyed_wins(scenario: Scenario, marker: str) -> Iterable[Event]:
    for win in scenario.wins:
        if isinstance(win, MarkerDestroyedWins) and win.marker == marker:
            yield _won(win.rule, win.seat)
            return


def _cargo(ctx: Context, state: GameState, scenario: Scenario, seat: str) -> tuple[Event, ...]:
    effect = scenario.effects.cargo
    if effect is None or effect[0] != seat:
        return ()
    _, dock_kind, wood, _ = effect
    ship = next(
        (
            m
            for m in state.markers
            if m.controller == seat and (r := scenario.marker_rule(m.marker)) and r.water
        ),
        None,
    )
    dock = _marker(state, dock_kind)
    if ship is None:
        return ()
    if dock is not None and ship.zone == dock.zone and not ship.cubes:
        return (MarkerLoaded(marker=ship.marker, zone=ship.zone, cubes=1),)
    if ship.zone == ctx.map.bases.get(seat) and ship.cubes:
        gain = Resources(wood=wood * state.player(seat).multipliers.wood)
        return (
            MarkerLoaded(marker=ship.marker, zone=ship.zone, cubes=0),
            ResourcesGained(seat=seat, resources=gain),
        )
    return ()


# -- evolve ------------------------------------------------------------------------------------


def _replace_marker(state: GameState, old: Marker, new: Marker | None) -> GameState:
    kept = [m for m in state.markers if m != old]
    if new is not None:
        kept.append(new)
    return msgspec.structs.replace(state, markers=tuple(sorted(kept)))


def _find(state: GameState, kind: str, zone: str) -> Marker:
    return next(m for m in state.markers if m.marker == kind and m.zone == zone)


def _count(state: GameState, **values: int) -> GameState:
    return msgspec.structs.replace(state, scenario_counts={**state.scenario_counts, **values})


def evolve_marker_moved(state: GameState, event: MarkerMoved) -> GameState:
    """The marker stands at the end of its path; it has moved this turn."""
    old = _find(state, event.marker, event.origin)
    state = _replace_marker(state, old, msgspec.structs.replace(old, zone=event.path[-1]))
    return _count(state, **{f"moved:{event.marker}": state.turn})


def evolve_marker_controlled(state: GameState, event: MarkerControlled) -> GameState:
    """The marker's controller changes."""
    old = _find(state, event.marker, event.zone)
    return _replace_marker(state, old, msgspec.structs.replace(old, controller=event.seat))


def evolve_marker_destroyed(state: GameState, event: MarkerDestroyed) -> GameState:
    """The marker leaves the map."""
    return _replace_marker(state, _find(state, event.marker, event.zone), None)


def evolve_marker_loaded(state: GameState, event: MarkerLoaded) -> GameState:
    """The marker's dice change."""
    old = _find(state, event.marker, event.zone)
    return _replace_marker(state, old, msgspec.structs.replace(old, cubes=event.cubes))


def evolve_scenario_counted(state: GameState, event: ScenarioCounted) -> GameState:
    """A count takes its new value."""
    return _count(state, **{event.name: event.value})


def evolve_recruited_on_marker(state: GameState, event: RecruitedOnMarker) -> GameState:
    """Pay, take the token (from the pool, or the locked supply), stand it on the marker."""
    player = state.player(event.seat)
    supply = "locked" if event.from_locked else "pool"
    tokens = getattr(player, supply)
    player = msgspec.structs.replace(
        player,
        stock=player.stock - event.cost,
        flare=player.flare - event.flare,
        **{supply: {**tokens, event.unit: tokens[event.unit] - 1}},
    )
    state = state.with_player(player)
    state = msgspec.structs.replace(
        state, units=add_units(state.units, event.seat, event.unit, event.zone, 1)
    )
    return _count(state, **{f"recruited:{event.seat}": state.turn})


def evolve_worker_sacrificed(state: GameState, event: WorkerSacrificed) -> GameState:
    """The worker leaves the map for the worker supply; the gain and points are counted."""
    units = remove_units(state.units, event.seat, event.unit, event.zone, 1)
    player = state.player(event.seat)
    player = msgspec.structs.replace(
        player, stock=player.stock + event.gain, worker_supply=player.worker_supply + 1
    )
    state = msgspec.structs.replace(state.with_player(player), units=units)
    if not event.points:
        return state
    done = _sacrificed_this_turn(state, event.seat) + 1
    return _count(
        state,
        **{
            f"points:{event.seat}": points(state, event.seat) + event.points,
            f"sacrifice_turn:{event.seat}": state.turn,
            f"sacrificed:{event.seat}": done,
        },
    )


EVOLVE: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    MarkerMoved: evolve_marker_moved,
    MarkerControlled: evolve_marker_controlled,
    MarkerDestroyed: evolve_marker_destroyed,
    MarkerLoaded: evolve_marker_loaded,
    ScenarioCounted: evolve_scenario_counted,
    RecruitedOnMarker: evolve_recruited_on_marker,
    WorkerSacrificed: evolve_worker_sacrificed,
}
