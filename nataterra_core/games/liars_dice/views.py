"""What one seat may see of a Liar's Dice position (L-HID-1).

A seat sees its own cup's faces, how many dice every cup holds, every bid of the round, who
is to act, and the last call with every cup it lifted. It never sees the faces under another
cup before a call lifts them; a spectator sees no faces at all. Two positions that differ
only in the faces under the other cups give a seat equal views. Once the log's seed is revealed
(a replay of a finished game) every cup's faces are public, as the log is.
"""

from __future__ import annotations

import msgspec

from nataterra_core.kernel.secrets import sees

from .state import BidRecord, LiarsState, Reveal

__all__ = ["CupView", "SeatView", "seat_view"]


class CupView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's cup as the viewer sees it: ``faces`` only for the viewer's own cup."""

    seat: str
    count: int
    faces: tuple[int, ...] | None = None


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """A Liar's Dice position as ``seat`` sees it (``None``: a spectator)."""

    seat: str | None
    seats: tuple[str, ...]
    dice: int
    wild_ones: bool
    spot_on: bool
    round: int
    turn: int
    active: str | None
    cups: tuple[CupView, ...]
    bids: tuple[BidRecord, ...]
    last: Reveal | None
    winner: str | None

    def cup(self, seat: str) -> CupView:
        """``seat``'s cup."""
        return self.cups[self.seats.index(seat)]

    def in_play(self) -> int:
        """The dice on the table."""
        return sum(cup.count for cup in self.cups)


def seat_view(state: LiarsState, seat: str | None, *, revealed: bool = False) -> SeatView:
    """What ``seat`` may see of ``state`` (L-HID-1): each cup's faces as ``cups`` is
    declared (its owner's), every cup's once the seed is ``revealed``."""
    return SeatView(
        seat=seat,
        seats=state.seats,
        dice=state.dice,
        wild_ones=state.wild_ones,
        spot_on=state.spot_on,
        round=state.round,
        turn=state.turn,
        active=state.seats[state.active] if state.active >= 0 else None,
        cups=tuple(
            CupView(
                seat=s,
                count=len(cup),
                faces=cup if sees(state, "cups", seat, item=i, revealed=revealed) else None,
            )
            for i, (s, cup) in enumerate(zip(state.seats, state.cups, strict=True))
        ),
        bids=state.bids,
        last=state.last,
        winner=state.winner,
    )
