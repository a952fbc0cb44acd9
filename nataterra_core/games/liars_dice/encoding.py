"""Liar's Dice for research environments: an observation encoder and a stable action codec
(the registry's ``observation`` and ``action_codec`` hooks, ``kernel.encoding``).

The observation is a seat view (never the state) as features; the action space is every bid
(quantity 1 to the dice of a full table, face 1 to 6) and the calls the options allow, so an
index names the same command in every state of a game with the same set-up.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import Setup
from nataterra_core.kernel.encoding import Block, FactoredCodec, Layout, Segment

from . import messages as m
from .decider import MAX_DICE
from .rules.bidding import FACES
from .views import SeatView

__all__ = ["LiarsEncoder", "liars_codec", "liars_observation"]


def _dice(setup: Setup) -> int:
    return int(setup.options.get("dice", MAX_DICE))


class LiarsEncoder:
    """A Liar's Dice seat view as features (the layout documents each segment)."""

    def __init__(self, seats: tuple[str, ...], dice: int) -> None:
        self.seats = seats
        self.dice = dice
        n = len(seats)
        self.layout = Layout(
            (
                Segment("me", n, "one-hot: the observing seat (all zero for a spectator)"),
                Segment("active", n, "one-hot: the seat to act"),
                Segment("counts", n, "per seat: dice in its cup / the starting dice"),
                Segment("own", 6, "per face 1..6: how many of the observer's dice show it"),
                Segment("bid", 2, "the last bid's quantity / dice in play; 1 if there is one"),
                Segment("bid_face", 6, "one-hot: the last bid's face"),
                Segment("bidder", n, "one-hot: who made the last bid"),
                Segment("round", 4, "round, bids this round, wild ones, spot on"),
            )
        )

    def encode(self, view: Any) -> list[float]:
        """The features of ``view``."""
        if not isinstance(view, SeatView):
            raise TypeError(f"not a Liar's Dice view: {type(view).__name__}")
        f = self.layout.features()
        if view.seat in self.seats:
            f.set("me", self.seats.index(view.seat), 1)
        if view.active in self.seats:
            f.set("active", self.seats.index(view.active), 1)
        f.put("counts", [cup.count / self.dice for cup in view.cups])
        mine = view.cup(view.seat).faces if view.seat in view.seats else None
        if mine is not None:
            f.put("own", [float(mine.count(face)) for face in FACES])
        if view.bids:
            bid = view.bids[-1]
            f.put("bid", (bid.quantity / max(1, view.in_play()), 1.0))
            f.set("bid_face", bid.face - 1, 1)
            f.set("bidder", self.seats.index(bid.seat), 1)
        f.put("round", (view.round, len(view.bids), view.wild_ones, view.spot_on))
        return f.values


def liars_observation(decider: Any, setup: Setup) -> LiarsEncoder:
    """The ``observation`` hook."""
    return LiarsEncoder(tuple(setup.seats), _dice(setup))


def liars_codec(decider: Any, setup: Setup) -> FactoredCodec:
    """The ``action_codec`` hook: every bid of a full table, "liar", and "spot on" when the
    game plays it."""
    quantities = tuple(range(1, len(setup.seats) * _dice(setup) + 1))
    blocks = [
        Block(m.Bid, (), (("quantity", quantities), ("face", FACES))),
        Block(m.CallLiar, (), ()),
    ]
    if setup.options.get("spot_on", False):
        blocks.append(Block(m.CallSpotOn, (), ()))
    return FactoredCodec(blocks)
