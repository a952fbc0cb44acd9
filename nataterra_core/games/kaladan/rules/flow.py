"""The turn's flow (K-TURN-1): phases that need no decision pass by themselves, turns end,
the last round after the event deck runs out (K-END-1), scoring and the tie-break chain
(K-END-2..4).

A :class:`Play` collects the events of one command while folding them, so every rule
reads the state as it stands after the events before it; :func:`settle` then moves the
game on until someone must decide.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from nataterra_core.kernel import DiceStream, Event
from nataterra_core.kernel.chance import record_draws

from .. import messages as m
from ..board import Board
from ..content.schema import KaladanPack
from ..state import PHASES, GameState, Phase, base_of, is_upgraded
from .fold import fold

__all__ = ["Play", "Table", "end_turn", "next_phase", "score", "settle"]


@attrs.frozen
class Table:
    """What the rules consult besides the state: the pack and the built map."""

    pack: KaladanPack
    board: Board

    def die(self, unit: str, side: str) -> int:
        """A board unit's ``attack`` or ``defence`` die; an upgrade raises it one size
        (K-FIG-1: d6 -> d8 -> d10 -> d12, d12 stays)."""
        kind = self.pack.units[base_of(unit)]
        size: int = getattr(kind, side)
        return min(size + 2, 12) if is_upgraded(unit) else size


class Play:
    """The events of one command, folded as they are emitted."""

    def __init__(self, table: Table, state: GameState, dice: DiceStream) -> None:
        self.table = table
        self.state = state
        self.dice = dice
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        """Record ``events`` and fold them into :attr:`state`."""
        for event in events:
            self.events.append(event)
            self.state = fold(self.state, event)


def settle(play: Play, *, waits: Any) -> None:
    """Move on while nobody has a decision to make; ``waits(state)`` says whether the
    current phase stops for the active player (the decider's legal-command question)."""
    while True:
        state = play.state
        if state.phase in ("over", "setup") or state.pending or state.combat is not None:
            return
        if state.player(state.active).eliminated:  # its crown fell attacking (K-CAS-4)
            end_turn(play)
            continue
        if state.phase == "event" and not state.action_done:
            return  # K-EV-1: the draw is the player's command
        if state.phase != "event" and waits(state):
            return
        if state.phase == "reinforce":
            end_turn(play)
        else:
            next_phase(play)


def next_phase(play: Play) -> None:
    """The active player's next phase begins (K-TURN-1); entering income pays it (K-INC-2)."""
    phase: Phase = PHASES[PHASES.index(play.state.phase) + 1]
    play.emit(m.PhaseStarted(phase=phase))
    if phase == "income":
        seat = play.state.active
        income = play.table.board.income(play.state, seat)
        if income:
            play.emit(m.GoldChanged(seat=seat, amount=income, rule="K-INC-2"))


def start_turn(play: Play, seat: str, *, final: bool = False) -> None:
    """``seat``'s turn: the extra castles' gold (K-CAS-3), then the event phase (none in the
    last round, K-END-1)."""
    play.emit(m.TurnStarted(seat=seat, turn=play.state.turn + 1, final=final))
    extra = play.table.board.extra_castles(play.state, seat)
    if extra:
        play.emit(m.GoldChanged(seat=seat, amount=extra, rule="K-CAS-3"))
    play.emit(m.PhaseStarted(phase="recruit" if final else "event"))


def _after(order: tuple[str, ...], seat: str) -> tuple[str, ...]:
    at = order.index(seat)
    return order[at + 1 :] + order[: at + 1]


def end_turn(play: Play) -> None:
    """The turn ends: the next player's begins, or the last round (K-END-1), or scoring."""
    state = play.state
    alive = state.in_game()
    if state.deck_out_by and state.final_order is None:
        order = tuple(s for s in _after(state.seats, state.active) if s in alive)
        play.emit(m.FinalRound(order=order))
        state = play.state
    if state.final_order is not None:
        left = [s for s in state.final_order if s in alive]
        if not left:
            finish(play, "deck_used_up")
            return
        start_turn(play, left[0], final=True)
        return
    following = [s for s in _after(state.seats, state.active) if s in alive]
    start_turn(play, following[0])


def score(table: Table, state: GameState, seat: str) -> int:
    """K-END-2 of ``seat`` in ``state`` (:func:`points`)."""
    player = state.player(seat)
    tiles = state.tiles_of(seat)
    castles = sum(1 for t in tiles if t in table.board.castle_of)
    return points(
        crowns=player.crowns,
        castles=castles,
        scalps=len(player.graveyard),
        tiles=len(tiles) - castles,
        gold=player.gold,
    )


def points(*, crowns: int, castles: int, scalps: int, tiles: int, gold: int) -> int:
    """K-END-2: 5 per crown defeated, 3 per castle, 2 per scalp, 1 per other tile
    (``tiles``: those that are not castles), 1 per 2 gold. What the end scores and what a
    view shows as the running score."""
    return 5 * crowns + 3 * castles + 2 * scalps + tiles + gold // 2


def _units_on_board(state: GameState, seat: str) -> int:
    return sum(len(a.units) for a in state.board.values() if a.owner == seat)


def _units_in_reserve(state: GameState, seat: str) -> int:
    return sum(state.player(seat).reserve.values())


def finish(play: Play, reason: str) -> None:
    """Score every seat (K-END-4) and end the game; ``last_crown`` names its winner, the
    deck's end ranks by score and breaks ties (K-END-3)."""
    state = play.state
    scores = {seat: score(play.table, state, seat) for seat in state.seats}
    alive = state.in_game()
    if reason == "last_crown":
        play.emit(m.GameEnded(winners=alive, scores=scores, reason=reason))
        return
    best = max(scores[s] for s in alive)
    tied = [s for s in alive if scores[s] == best]
    for count in (_units_on_board, _units_in_reserve):  # K-END-3, in this order
        if len(tied) > 1:
            most = max(count(state, s) for s in tied)
            tied = [s for s in tied if count(state, s) == most]
    winners = tuple(tied) if len(tied) == 1 else _roll_off(play, tied)
    play.emit(m.GameEnded(winners=winners, scores=scores, reason=reason))


def _roll_off(play: Play, tied: Iterable[str]) -> tuple[str, ...]:
    """K-END-3: each tied seat rolls d6 + d8 + d10 + d12; tied sums roll again."""
    dice = play.table.pack.economy.tie_break_dice
    rolling = list(tied)
    while len(rolling) > 1:
        totals: dict[str, int] = {}
        for seat in rolling:
            drawn = record_draws(play.dice, dice)
            totals[seat] = sum(v + 1 for v in drawn["values"])
            play.emit(m.TieRolled(seat=seat, total=totals[seat], **drawn))
        top = max(totals.values())
        rolling = [s for s in rolling if totals[s] == top]
    return (rolling[0],)
