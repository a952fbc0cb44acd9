"""The calls that end a round: "liar" (L-CALL-1..2) and "spot on" (L-SPOT-1..2)."""

from __future__ import annotations

from nataterra_core.kernel import IllegalCommand

from ..messages import Call, CupsRevealed, DieLost
from ..state import LiarsState

__all__ = ["check_call", "count_for", "resolve"]


def count_for(cups: tuple[tuple[int, ...], ...], face: int, wild_ones: bool) -> int:
    """How many dice count for a bid on ``face`` (L-CALL-2): those showing it, and the ones
    too while they are wild and the face is not one (L-BID-3, L-BID-4)."""
    wild = wild_ones and face != 1
    return sum(1 for cup in cups for die in cup if die == face or (wild and die == 1))


def check_call(state: LiarsState, call: Call) -> None:
    """``IllegalCommand`` if ``call`` may not be made now."""
    if call == "spot_on" and not state.spot_on:
        raise IllegalCommand("L-SPOT-1", "this game is played without spot on (option spot_on)")
    if not state.bids:
        rule = "L-CALL-1" if call == "liar" else "L-SPOT-1"
        raise IllegalCommand(rule, "the opener must bid: there is no bid to call yet")


def resolve(state: LiarsState, caller: str, call: Call) -> tuple[CupsRevealed, list[DieLost]]:
    """Every cup lifted, and who loses a die: for "liar", the bidder if the count falls
    short of the bid, else the caller (L-CALL-2); for "spot on", every other player with
    dice if the count is exactly the bid, else the caller (L-SPOT-2)."""
    last = state.bids[-1]
    count = count_for(state.cups, last.face, state.wild_ones)
    revealed = CupsRevealed(
        caller=caller,
        call=call,
        bidder=last.seat,
        quantity=last.quantity,
        face=last.face,
        cups={seat: cup for seat, cup in zip(state.seats, state.cups, strict=True) if cup},
        count=count,
    )
    if call == "liar":
        losers: tuple[str, ...] = (last.seat,) if count < last.quantity else (caller,)
    elif count == last.quantity:
        losers = tuple(seat for seat in state.in_game() if seat != caller)
    else:
        losers = (caller,)
    cups = dict(zip(state.seats, state.cups, strict=True))
    return revealed, [DieLost(seat=seat, left=len(cups[seat]) - 1) for seat in losers]
