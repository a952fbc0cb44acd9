"""Each event's effect on the state (the decider's ``evolve``): pure, never random, never
failing on the game's own events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from .. import messages as m
from ..state import BidRecord, LiarsState, Reveal
from .rounds import next_in_game

__all__ = ["FOLDS", "fold"]


def _set_cup(state: LiarsState, seat: str, cup: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    i = state.index(seat)
    return (*state.cups[:i], cup, *state.cups[i + 1 :])


def _opener_drawn(state: LiarsState, event: m.OpenerDrawn) -> LiarsState:
    return replace(state, counter=event.counter_after)


def _round_started(state: LiarsState, event: m.RoundStarted) -> LiarsState:
    return replace(
        state,
        round=event.round,
        active=state.index(event.opener),
        bids=(),
        turn=state.turn + 1,
    )


def _cup_rolled(state: LiarsState, event: m.CupRolled) -> LiarsState:
    cups = _set_cup(state, event.seat, tuple(sorted(event.faces)))
    return replace(state, cups=cups, counter=event.counter_after)


def _bid_made(state: LiarsState, event: m.BidMade) -> LiarsState:
    bid = BidRecord(event.seat, event.quantity, event.face)
    return replace(
        state,
        bids=(*state.bids, bid),
        active=next_in_game(state, state.index(event.seat)),
        turn=state.turn + 1,
    )


def _cups_revealed(state: LiarsState, event: m.CupsRevealed) -> LiarsState:
    bid = BidRecord(event.bidder, event.quantity, event.face)
    last = Reveal(
        caller=event.caller,
        call=event.call,
        bid=bid,
        cups=dict(event.cups),
        count=event.count,
        losers=(),
    )
    return replace(state, last=last, active=-1)


def _die_lost(state: LiarsState, event: m.DieLost) -> LiarsState:
    # Which die goes does not matter: every cup is rolled again before anyone looks.
    cup = state.cups[state.index(event.seat)][: event.left]
    last = state.last
    if last is not None:
        last = replace(last, losers=(*last.losers, event.seat))
    return replace(state, cups=_set_cup(state, event.seat, cup), last=last)


def _game_won(state: LiarsState, event: m.GameWon) -> LiarsState:
    return replace(state, winner=event.seat, active=-1)


FOLDS: dict[type[Any], Callable[[LiarsState, Any], LiarsState]] = {
    m.OpenerDrawn: _opener_drawn,
    m.RoundStarted: _round_started,
    m.CupRolled: _cup_rolled,
    m.BidMade: _bid_made,
    m.CupsRevealed: _cups_revealed,
    m.DieLost: _die_lost,
    m.GameWon: _game_won,
}
"""The fold of every event type."""


def fold(state: LiarsState, event: Any) -> LiarsState:
    """The state after ``event``."""
    return FOLDS[type(event)](state, event)
