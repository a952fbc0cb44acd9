"""Liar's Dice's determiniser (the registry's ``determiniser`` hook): a full state sampled
from what one seat may see, for the search player.

The public part is copied from the seat view; the hidden part (L-HID-1), the faces under
the other cups, is rolled with the seed's own stream (never the game's), each die uniform.
So the seat's view of the sampled state is the view it came from, and so is its decision.
(The bids say something about the hidden dice; the search weighs that in its playouts, the
sample does not.)
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
    cups = tuple(
        cup.faces
        if cup.faces is not None
        else tuple(sorted(dice.draw(6) + 1 for _ in range(cup.count)))
        for cup in view.cups
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
