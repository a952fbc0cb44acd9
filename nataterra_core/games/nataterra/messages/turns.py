"""The commands and events of the turn order (N-TURN-1..3): ending a phase, turns and phases
starting and finishing, players eliminated and the game's end. Their rules are in
``rules/turns.py``."""

from __future__ import annotations

from nataterra_core.kernel import Command, Event
from nataterra_core.kernel.visibility import PUBLIC

from ..state import Phase


class EndPhase(Command, frozen=True, tag="end_phase.v1"):
    """The active player ends ``phase`` (ending development ends the turn)."""

    visibility = PUBLIC

    phase: Phase


class TurnStarted(Event, frozen=True, tag="turn_started.v1"):
    """``seat``'s turn number ``turn`` begins, in its movement phase."""

    visibility = PUBLIC

    seat: str
    turn: int


class PhaseStarted(Event, frozen=True, tag="phase_started.v1"):
    """The active player's next phase begins."""

    visibility = PUBLIC

    phase: Phase


class PhaseFinished(Event, frozen=True, tag="phase_finished.v1"):
    """N-TURN-3: ``seat`` ended ``phase``; its allies in the turn have not all done so yet."""

    visibility = PUBLIC

    seat: str
    phase: Phase


class GameEnded(Event, frozen=True, tag="game_ended.v1"):
    """The game is over: ``winners`` (empty for a draw) and why."""

    visibility = PUBLIC

    reason: str
    winners: tuple[str, ...] = ()


class PlayerEliminated(Event, frozen=True, tag="player_eliminated.v1"):
    """N-WIN-1 (three or more players): ``seat`` lost its base; its units and structures
    leave the map and it takes no more turns."""

    visibility = PUBLIC

    seat: str


COMMANDS: tuple[type[Command], ...] = (EndPhase,)
EVENTS: tuple[type[Event], ...] = (
    TurnStarted,
    PhaseStarted,
    PhaseFinished,
    GameEnded,
    PlayerEliminated,
)
