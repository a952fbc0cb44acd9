"""Turn and phase flow (N-TURN-1) and the turn limit (N-WIN-6).

A turn is movement, resources, combat, development; the active player ends each phase
with an explicit :class:`EndPhase` naming it (so a retried command cannot skip a phase).
The next seat clockwise (seat order) starts when development ends.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from nataterra_core.kernel import Command, DiceStream, Event, IllegalCommand

from .context import Context
from .state import PHASES, GameState, Phase, UnitStack

__all__ = [
    "COMMANDS",
    "EVENTS",
    "EndPhase",
    "GameEnded",
    "PhaseStarted",
    "PlayerEliminated",
    "TurnStarted",
    "decide_end_phase",
]


class EndPhase(Command, frozen=True, tag="end_phase.v1"):
    """The active player ends ``phase`` (ending development ends the turn)."""

    phase: Phase


class TurnStarted(Event, frozen=True, tag="turn_started.v1"):
    """``seat``'s turn number ``turn`` begins, in its movement phase."""

    seat: str
    turn: int


class PhaseStarted(Event, frozen=True, tag="phase_started.v1"):
    """The active player's next phase begins."""

    phase: Phase


class GameEnded(Event, frozen=True, tag="game_ended.v1"):
    """The game is over: ``winners`` (empty for a draw) and why."""

    reason: str
    winners: tuple[str, ...] = ()


class PlayerEliminated(Event, frozen=True, tag="player_eliminated.v1"):
    """N-WIN-1 (three or more players): ``seat`` lost its base; its units and structures
    leave the map and it takes no more turns."""

    seat: str


COMMANDS: tuple[type[Command], ...] = (EndPhase,)
EVENTS: tuple[type[Event], ...] = (TurnStarted, PhaseStarted, GameEnded, PlayerEliminated)

PhaseHook = Callable[[Context, GameState, Phase], tuple[Event, ...]]
"""What happens on entering a phase (resources are gathered, …), given the state before."""

TurnEndHook = Callable[[Context, GameState, DiceStream], tuple[Event, ...]]
"""What happens when a turn ends (bases are destroyed, …); a ``GameEnded`` among its events
ends the game there."""

TurnStartHook = Callable[[Context, GameState, str, DiceStream], tuple[Event, ...]]
"""What happens when a seat's turn begins (structures act, N-STR-3), after its
``TurnStarted``; given the state before the ending turn's events and the new seat."""


def decide_end_phase(
    ctx: Context,
    state: GameState,
    command: EndPhase,
    dice: DiceStream,
    on_enter: PhaseHook,
    on_turn_end: TurnEndHook,
    on_turn_start: TurnStartHook | None = None,
) -> tuple[Event, ...]:
    """End the current phase: start the next one, or the next seat's turn (N-TURN-1)."""
    if command.phase != state.phase:
        raise IllegalCommand(
            "N-TURN-1", f"it is the {state.phase} phase, not the {command.phase} phase"
        )
    index = PHASES.index(state.phase)
    if index + 1 < len(PHASES):
        phase = PHASES[index + 1]
        return (PhaseStarted(phase=phase), *on_enter(ctx, state, phase))
    ended = on_turn_end(ctx, state, dice)
    if any(isinstance(event, GameEnded) for event in ended):
        return ended
    if state.max_turns and state.turn >= state.max_turns:
        return (*ended, GameEnded(reason="turn_limit"))  # N-WIN-6: drawn at the turn limit
    out = {*state.eliminated, *(e.seat for e in ended if isinstance(e, PlayerEliminated))}
    seats = state.seats
    following = next(
        seat
        for step in range(1, len(seats) + 1)
        if (seat := seats[(state.active + step) % len(seats)]) not in out
    )
    started = TurnStarted(seat=following, turn=state.turn + 1)
    begun = on_turn_start(ctx, state, following, dice) if on_turn_start else ()
    return (*ended, started, *begun)


def evolve_turn_started(state: GameState, event: TurnStarted) -> GameState:
    """Make ``seat`` active in its movement phase; nobody has moved yet this turn."""
    units = tuple(
        UnitStack(s.owner, s.unit, s.zone, s.count) if s.moved else s for s in state.units
    )
    return msgspec.structs.replace(
        state,
        active=state.seats.index(event.seat),
        turn=event.turn,
        phase="movement",
        units=units,
        strategised=(),
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
    """Move to the next phase."""
    return msgspec.structs.replace(state, phase=event.phase)


def evolve_game_ended(state: GameState, event: GameEnded) -> GameState:
    """Record the result; no seat acts any more."""
    return msgspec.structs.replace(
        state, phase="over", result_reason=event.reason, winners=event.winners
    )
