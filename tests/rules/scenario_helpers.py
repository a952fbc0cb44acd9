"""Scenario games for tests: start a scenario, or a hand-edited position of one (the
position format makes any scenario situation one edit away)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from nataterra_core.game import GameSession, new_game
from nataterra_core.games.nataterra.messages.turns import EndPhase
from nataterra_core.games.nataterra.rules.positions import POSITIONS
from nataterra_core.games.nataterra.rules.scenarios import SCENARIOS
from nataterra_core.kernel import Event

Edit = Callable[[dict[str, Any]], None]


def scenario_game(scenario: str, seed: int = 1, **options: Any) -> GameSession:
    """A new game of ``scenario`` (its own seats)."""
    seats = SCENARIOS[scenario].seats
    return new_game(seats, seed=seed, options={"scenario": scenario, **options})


def scenario_position(scenario: str, edit: Edit, seed: int = 1) -> GameSession:
    """A game from ``scenario``'s position at the start of turn 1, after ``edit`` changed
    it (a dict in the position format)."""
    data: dict[str, Any] = json.loads(POSITIONS.export(scenario_game(scenario, seed).state))
    edit(data)
    return new_game(seed=seed, position=data)


def units(data: dict[str, Any], *stacks: tuple[str, str, str, int]) -> None:
    """Replace every combat unit on the map by ``stacks`` (zone, owner, unit, count); the
    workers stay."""
    workers = {"hunter", "woodcutter", "peasant", "gatherer"}
    kept = [u for u in data["units"] if u["unit"] in workers]
    data["units"] = kept + [{"zone": z, "owner": o, "unit": u, "count": n} for z, o, u, n in stacks]


def at(data: dict[str, Any], active: str, phase: str, turn: int = 2) -> None:
    """Make it ``active``'s ``phase`` of player turn ``turn``."""
    data.update(active=active, phase=phase, turn=turn)


def end_phase(session: GameSession) -> tuple[Event, ...]:
    """The acting seat ends its current phase."""
    seat = session.acting_seats()[0]
    return session.apply(seat, EndPhase(phase=session.state.phase))


def events_named(events: tuple[Event, ...], name: str) -> list[Event]:
    """The events of class ``name``."""
    return [e for e in events if type(e).__name__ == name]
