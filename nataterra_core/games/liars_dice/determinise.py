"""Liar's Dice's determiniser (the registry's ``determiniser`` hook): a full state sampled
from what one seat may see, for the search player.

The public part is copied from the seat view; the hidden part (L-HID-1), the faces under
the other cups, is rolled with the seed's own stream (never the game's). It samples what the
heuristic player believes: each other player's latest bid of the round shows one die of its
face, the rest are uniform. Any faces are consistent with the view (it shows only how many
dice a cup holds), so the seat's view of the sampled state is the view it came from, and so
is its decision.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import player_dice

from .state import LiarsState
from .views import SeatView

__all__ = ["determinise"]


def determinise(view: Any, pack: Any, seed: int) -> LiarsState:
    """A state whose ``view.seat`` view is ``view``, the other cups rolled with ``seed``."""
    if not isinstance(view, SeatView):
        raise TypeError(f"not a Liar's Dice view: {type(view).__name__}")
    dice = player_dice(seed, "liars-dice-determiniser")
    latest = {bid.seat: bid.face for bid in view.bids}

    def roll(seat: str, count: int) -> tuple[int, ...]:
        shown = (latest[seat],) if seat in latest and count else ()
        rolled = (dice.draw(6) + 1 for _ in range(count - len(shown)))
        return tuple(sorted((*shown, *rolled)))

    cups = tuple(
        cup.faces if cup.faces is not None else roll(cup.seat, cup.count) for cup in view.cups
    )
    return LiarsState(
        seats=view.seats,
        dice=view.dice,
        wild_ones=view.wild_ones,
        spot_on=view.spot_on,
        cups=cups,
        active=view.seats.index(view.active) if view.active is not None else -1,
        round=view.round,
        bids=view.bids,
        last=view.last,
        turn=view.turn,
        winner=view.winner,
    )
