"""Turn and phase flow (N-TURN-1) and the turn limit (N-WIN-6).

A turn is movement, resources, combat, development; the active player ends each phase
with an explicit :class:`EndPhase` naming it (so a retried command cannot skip a phase).
The next seat clockwise (seat order) starts when development ends. In a team game allies
take the turn together (N-TURN-3): each ends each phase (:class:`PhaseFinished`), and the
phase moves on once all of them have; then the next team plays.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from nataterra_core.kernel import DiceStream, Event, IllegalCommand

from ..messages.turns import (
    EndPhase,
    GameEnded,
    PhaseFinished,
    PhaseStarted,
    PlayerEliminated,
    TurnStarted,
)
from ..state import PHASES, GameState, Phase, UnitStack
from . import teams
from .context import Context

__all__ = ["decide_end_phase"]


PhaseHook = Callable[[Context, GameState, Phase, DiceStream], tuple[Event, ...]]
"""What happens on entering a phase (resources are gathered, …), given the state before."""

TurnEndHook = Callable[[Context, GameState, DiceStream], tuple[Event, ...]]
"""What happens when a turn ends (bases are destroyed, …); a ``GameEnded`` among its events
ends the game there."""

TurnStartHook = Callable[[Context, GameState, str, DiceStream], tuple[Event, ...]]
"""What happens when a seat's turn begins (structures act, N-STR-3), after its
``TurnStarted``; given the state before the ending turn's events and the new seat (each
seat of a team that takes the turn)."""


def decide_end_phase(
    ctx: Context,
    state: GameState,
    command: EndPhase,
    dice: DiceStream,
    on_enter: PhaseHook,
    on_turn_end: TurnEndHook,
    on_turn_start: TurnStartHook | None = None,
    *,
    seat: str | None = None,
) -> tuple[Event, ...]:
    """End the current phase for ``seat`` (default: the active seat): start the next
    phase, or the next team's turn, once every seat of the turn has ended it (N-TURN-1,
    N-TURN-3)."""
    if command.phase != state.phase:
        raise IllegalCommand(
            "N-TURN-1", f"it is the {state.phase} phase, not the {command.phase} phase"
        )
    seat = seat or state.active_seat
    waiting = [s for s in teams.turn_seats(state) if s != seat and s not in state.phase_done]
    if waiting:  # allies still at work in this phase
        return (PhaseFinished(seat=seat, phase=state.phase),)
    index = PHASES.index(state.phase)
    if index + 1 < len(PHASES):
        phase = PHASES[index + 1]
        return (PhaseStarted(phase=phase), *on_enter(ctx, state, phase, dice))
    ended = on_turn_end(ctx, state, dice)
    if any(isinstance(event, GameEnded) for event in ended):
        return ended
    if state.max_turns and state.turn >= state.max_turns:
        return (*ended, GameEnded(reason="turn_limit"))  # N-WIN-6: drawn at the turn limit
    out = {*state.eliminated, *(e.seat for e in ended if isinstance(e, PlayerEliminated))}
    following = teams.next_turn_seat(state, out)
    started = TurnStarted(seat=following, turn=state.turn + 1)
    begun: list[Event] = []
    if on_turn_start:
        for member in teams.team_of(state, following):
            if member not in out:
                begun.extend(on_turn_start(ctx, state, member, dice))
    return (*ended, started, *begun)


def evolve_turn_started(state: GameState, event: TurnStarted) -> GameState:
    """Make ``seat`` active in its movement phase; nobody has moved yet this turn, and no
    tactic option has been played in it (N-TURN-2, N-MOV-6)."""
    units = tuple(  # a list, not a generator: resuming one per stack costs more
        [UnitStack(s.owner, s.unit, s.zone, s.count) if s.moved else s for s in state.units]
    )
    return msgspec.structs.replace(
        state,
        active=state.seats.index(event.seat),
        turn=event.turn,
        phase="movement",
        units=units,
        strategised=(),
        tactic_phases=(),
        zone_grants=(),
        phase_done=(),
        turn_cubes={},  # N-WIN-3: the per-turn caps count afresh
    )


def evolve_player_eliminated(state: GameState, event: PlayerEliminated) -> GameState:
    """The seat's units and structures leave the map; turn order skips it from now on."""
    return msgspec.structs.replace(
        state,
        eliminated=(*state.eliminated, event.seat),
        units=tuple(s for s in state.units if s.owner != event.seat),
        structures=tuple(p for p in state.structures if p.owner != event.seat),
    )


def evolve_phase_started(state: GameState, event: PhaseStarted) -> GameState:
    """Move to the next phase (nobody has ended it yet)."""
    return msgspec.structs.replace(state, phase=event.phase, phase_done=())


def evolve_phase_finished(state: GameState, event: PhaseFinished) -> GameState:
    """``seat`` waits for its allies to end the phase."""
    return msgspec.structs.replace(state, phase_done=(*state.phase_done, event.seat))


def evolve_game_ended(state: GameState, event: GameEnded) -> GameState:
    """Record the result; no seat acts any more."""
    return msgspec.structs.replace(
        state, phase="over", result_reason=event.reason, winners=event.winners
    )
