"""How the heuristic player pursues a scenario's victory conditions (``docs/SCENARIOS.md``).

Judged on the seat's view and the scenario book (public), before the standard heuristics:

* a marker it controls moves toward its goal: the carriage to the crown, the ship to the
  crown for cargo and home with it, the cyclops and the fragment to its own base;
* combat units march on the zone the scenario fights over (the crown, the carriage, the
  cyclops, the fragment; the village for the workers of "A New Home"), one unit staying on
  the base;
* it recruits on a marker whenever it may and sacrifices workers on the village for points.
"""

from __future__ import annotations

from collections.abc import Sequence

from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.messages.scenarios import (
    MoveMarker,
    RecruitOnMarker,
    SacrificeWorker,
)
from nataterra_core.games.nataterra.rules.context import Context
from nataterra_core.games.nataterra.rules.scenarios import BOOK
from nataterra_core.games.nataterra.state import Marker
from nataterra_core.games.nataterra.views import SeatView
from nataterra_core.kernel import Command

__all__ = ["guarded", "scenario_choice"]

_RALLY: dict[str, str] = {
    "fergus_grove": "crown",
    "peril_of_the_carriage": "carriage",
    "night_of_flames_and_shadows": "crown",
    "what_we_do_best": "cyclops",
    "the_found_fragment": "fragment",
    "a_new_home": "village",
}
"""The marker each scenario's armies converge on."""

_GUARDS: dict[str, str] = {
    "fergus_grove": "naga",
    "night_of_flames_and_shadows": "beasts",
}
"""Who holds the rally marker: its units there never leave it."""


def guarded(view: SeatView, seat: str, commands: Sequence[Command]) -> list[Command]:
    """``commands`` without the moves that would take a guard's units off the marker it
    holds (the crown of Fergus Grove and of the Night)."""
    scenario = view.scenario or ""
    rally = _marker(view, _RALLY.get(scenario, ""))
    if rally is None or _GUARDS.get(scenario) != seat:
        return list(commands)
    return [c for c in commands if not (isinstance(c, MoveUnits) and c.origin == rally.zone)]


def _marker(view: SeatView, kind: str) -> Marker | None:
    return next((m for m in view.markers if m.marker == kind), None)


def _marker_goal(ctx: Context, view: SeatView, seat: str, marker: Marker) -> str | None:
    """Where ``seat`` wants ``marker`` to go."""
    base = ctx.map.bases.get(seat)
    if marker.marker == "carriage":
        crown = _marker(view, "crown")
        return crown.zone if crown else None
    if marker.marker == "ship":
        crown = _marker(view, "crown")
        return base if marker.cubes or crown is None else crown.zone
    return base


_STEPS: dict[tuple[str, str, bool], dict[str, int]] = {}


def _steps(ctx: Context, goal: str, water: bool = False) -> dict[str, int]:
    """Steps from every zone to ``goal`` over passable zones (land: no lakes but the Naga
    base, N-MOV-2; water: lakes and bases), so a march goes around a lake."""
    key = (ctx.map.map_id, goal, water)
    if key not in _STEPS:
        _STEPS[key] = _walk(ctx, goal, water)
    return _STEPS[key]


def _walk(ctx: Context, goal: str, water: bool) -> dict[str, int]:
    def passable(zone: str) -> bool:
        lake = ctx.map.zones[zone].biome == "lake"
        base = zone in ctx.map.bases.values()
        return (lake or base) if water else (not lake or zone == ctx.map.bases.get("naga"))

    found = {goal: 0}
    frontier = [goal]
    while frontier:
        following = []
        for here in frontier:
            for step in ctx.map.neighbours(here):
                if step not in found and (passable(step) or step == goal):
                    found[step] = found[here] + 1
                    following.append(step)
        frontier = following
    return found


def _gain(ctx: Context, origin: str, end: str, goal: str, water: bool = False) -> int:
    steps = _steps(ctx, goal, water)
    far = len(ctx.map.zone_ids)
    return steps.get(origin, far) - steps.get(end, far)


def scenario_choice(
    ctx: Context, view: SeatView, seat: str, commands: Sequence[Command]
) -> Command | None:
    """The scenario command or march this player prefers now, or ``None`` to play as usual."""
    scenario = BOOK.get(view.scenario) if view.scenario else None
    if scenario is None:
        return None
    for command in commands:
        if isinstance(command, SacrificeWorker) and command.for_points:
            return command
        if isinstance(command, RecruitOnMarker):
            return command
    best_marker: tuple[int, MoveMarker] | None = None
    for command in commands:
        if not isinstance(command, MoveMarker):
            continue
        marker = next(
            m for m in view.markers if m.marker == command.marker and m.zone == command.origin
        )
        goal = _marker_goal(ctx, view, seat, marker)
        if goal is None:
            continue
        water = marker.marker == "ship"
        gain = _gain(ctx, command.origin, command.path[-1], goal, water)
        if gain > 0 and (best_marker is None or gain > best_marker[0]):
            best_marker = (gain, command)
    if best_marker is not None:
        return best_marker[1]
    return _march(ctx, view, seat, scenario.id, commands)


def _march(
    ctx: Context, view: SeatView, seat: str, scenario_id: str, commands: Sequence[Command]
) -> Command | None:
    rally = _marker(view, _RALLY.get(scenario_id, ""))
    if rally is None:
        return None
    workers = scenario_id == "a_new_home"
    base = ctx.map.bases.get(seat)
    unmoved = {(s.unit, s.zone): s.count - s.moved for s in view.units if s.owner == seat}
    best: tuple[tuple[int, int], MoveUnits] | None = None
    for command in commands:
        if not isinstance(command, MoveUnits):
            continue
        role = ctx.unit(command.unit).role
        if (role == "worker") != workers and not (workers and role == "combat"):
            continue
        if (
            role == "combat"
            and command.origin == base
            and command.count >= unmoved.get((command.unit, command.origin), 0)
            and not workers
        ):
            continue  # one stays home
        if role == "worker" and command.count != 1:
            continue
        gain = _gain(ctx, command.origin, command.path[-1], rally.zone)
        if gain <= 0:
            continue
        score = (gain, command.count)
        if best is None or score > best[0]:
            best = (score, command)
    return best[1] if best is not None else None
