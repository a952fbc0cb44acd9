"""Bids: what a bid claims, how bids are ordered, and which bids are legal now (L-BID-1..5).

The order is the standard one (a higher quantity, or the same quantity and a higher face),
with ones placed by L-BID-4 while they are wild: ``n`` ones rank just above every bid of
``2n`` dice on another face, so ones are reached by halving the quantity (rounded up) and
left by doubling it plus one. :func:`bid_key` turns that order into plain tuple comparison.
"""

from __future__ import annotations

from nataterra_core.kernel import IllegalCommand

from ..messages import Bid, BidMade
from ..state import LiarsState

__all__ = ["FACES", "bid_key", "check_bid", "legal_bids", "make_bid"]

FACES = (1, 2, 3, 4, 5, 6)
"""A die's faces (L-BID-1)."""


def bid_key(quantity: int, face: int, wild_ones: bool) -> tuple[int, int]:
    """A key whose order is the bids' order (L-BID-2; L-BID-4 for ones while wild)."""
    if wild_ones and face == 1:
        return (2 * quantity, 7)
    return (quantity, face)


def _last_key(state: LiarsState) -> tuple[int, int] | None:
    if not state.bids:
        return None
    last = state.bids[-1]
    return bid_key(last.quantity, last.face, state.wild_ones)


def legal_bids(state: LiarsState) -> list[Bid]:
    """Every bid the player to act may make, weakest first: all bids of at most the dice in
    play (L-BID-1), each above the last bid of the round if there is one (L-BID-2, L-BID-4,
    L-BID-5). In rank order a menu reads from the least raise up, ones among the others
    where L-BID-4 places them."""
    last = _last_key(state)
    wild = state.wild_ones
    bids = [
        (bid_key(quantity, face, wild), Bid(quantity=quantity, face=face))
        for quantity in range(1, state.in_play() + 1)
        for face in FACES
    ]
    return [bid for key, bid in sorted(bids, key=lambda kb: kb[0]) if last is None or key > last]


def check_bid(state: LiarsState, bid: Bid) -> None:
    """``IllegalCommand`` naming the rule ``bid`` breaks, if any."""
    if bid.face not in FACES:
        raise IllegalCommand("L-BID-1", f"a bid names a face from 1 to 6, not {bid.face}")
    if not 1 <= bid.quantity <= state.in_play():
        raise IllegalCommand(
            "L-BID-1",
            f"a bid's quantity is 1 to the {state.in_play()} dice in play, not {bid.quantity}",
        )
    last = _last_key(state)
    if last is not None and bid_key(bid.quantity, bid.face, state.wild_ones) <= last:
        before = state.bids[-1]
        rule = "L-BID-4" if state.wild_ones and 1 in (bid.face, before.face) else "L-BID-2"
        raise IllegalCommand(
            rule,
            f"{bid.quantity} x {bid.face} does not raise {before.quantity} x {before.face}",
        )


def make_bid(state: LiarsState, seat: str, bid: Bid) -> BidMade:
    """The event of ``seat``'s bid (checked by the caller)."""
    return BidMade(seat=seat, quantity=bid.quantity, face=bid.face)
