"""What happens by itself when a phase or a turn begins or ends: gathering and production,
structures falling and bases retaken at a phase's start, conditions scored and structures
acting at a turn's start, researched techs resolved and bases taken at its end, and the
scenario book's effects at each. The decider hands these hooks to
:func:`~.turns.decide_end_phase`, so the turn order itself imports none of those rules."""

from __future__ import annotations

import msgspec

from nataterra_core.kernel import DiceStream, Event

from ..messages.turns import GameEnded
from ..state import GameState, Phase
from . import conquest, development, resources, scenarios, structures, teams, victory
from .context import Context

__all__ = ["on_enter", "on_turn_end", "on_turn_start"]


def on_turn_end(ctx: Context, state: GameState, dice: DiceStream) -> tuple[Event, ...]:
    """N-DEV-4 for each seat of the turn, then N-WIN-1 (N-WIN-4: base destruction is
    checked after the techs)."""
    researched: list[Event] = []
    for seat in teams.turn_seats(state):
        researched.extend(development.resolve_researched(ctx, state, dice, seat))
    if state.scenario is not None:  # the scenario's end-of-turn effects and wins (N-SCN)
        researched.extend(scenarios.play.turn_end(ctx, state, dice))
        if any(isinstance(event, GameEnded) for event in researched):
            return tuple(researched)
    if not state.conquest:
        return (*researched, *victory.bases_taken(ctx, state))
    lost = conquest.last_turns_over(state)  # N-WIN-5: a last turn without the base back
    if any(isinstance(event, GameEnded) for event in lost):
        return (*researched, *lost)
    taken = victory.bases_in_reach(ctx, state)
    return (*researched, *lost, *conquest.conquer(ctx, state, taken))


def on_turn_start(ctx: Context, state: GameState, seat: str, dice: DiceStream) -> tuple[Event, ...]:
    """What happens by itself when ``seat``'s turn begins: the advanced conditions checked
    at the start of a turn score (N-WIN-3; a win ends the game there), then its structures
    act (N-STR-3)."""
    scored = victory.turn_start_cubes(ctx, state, seat)
    if state.scenario is not None:  # the scenario's start-of-turn effects and wins (N-SCN)
        scored = (*scored, *scenarios.play.turn_start(ctx, state, seat))
    if any(isinstance(event, GameEnded) for event in scored):
        return scored
    return (*scored, *structures.turn_start_events(ctx, state, seat, dice))


def on_enter(ctx: Context, state: GameState, phase: Phase, dice: DiceStream) -> tuple[Event, ...]:
    """What happens by itself when a phase begins: gathering, then structures' production
    (N-RES-1..3, N-STR-3); at the combat phase, enemy structures standing alone among other
    players' units fall (N-COMBAT-2); after it, conquered bases may be retaken (N-WIN-5)."""
    if state.scenario is not None:  # cargo, markers destroyed (N-SCN-GEN-5)
        marked = scenarios.play.phase_start(ctx, state, phase)
        if any(isinstance(event, GameEnded) for event in marked):
            return marked
        if marked:
            return (*marked, *on_enter(ctx, _without_scenario(state), phase, dice))
    if phase == "resources":  # each seat of the turn gathers (N-TURN-3, N-TEAM-2)
        gathered: list[Event] = []
        for seat in teams.turn_seats(state):
            if conquest.skips_resources(state, seat):
                continue
            gathered.append(resources.gather(ctx, state, seat))
            gathered.extend(structures.production(ctx, state, seat))
        return tuple(gathered)
    if phase == "combat" and state.structures:  # N-COMBAT-2: no units, no combat
        return structures.overrun(ctx, state, (p.zone for p in state.structures), "N-COMBAT-2")
    if phase == "development" and state.conquered:
        return conquest.retake(ctx, state, dice)
    return ()


def _without_scenario(state: GameState) -> GameState:
    return msgspec.structs.replace(state, scenario=None)
