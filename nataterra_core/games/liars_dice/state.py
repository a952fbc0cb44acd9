"""The Liar's Dice state: immutable msgspec Structs, replaced (never mutated) by ``evolve``.

The state is the whole truth, every cup's faces included; what a seat may see is cut out by
:mod:`.views` (L-HID-1). It holds the dice counter, never the seed. Seats are in table order
(L-SET-1): "the next player" is the next seat, in a circle, that still has dice.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from nataterra_core.kernel.secrets import PUBLIC, owned

__all__ = ["BidRecord", "LiarsState", "Reveal"]


class BidRecord(msgspec.Struct, frozen=True):
    """One bid of the round: ``seat`` says at least ``quantity`` dice show ``face``."""

    seat: Annotated[str, PUBLIC]
    quantity: Annotated[int, PUBLIC]
    face: Annotated[int, PUBLIC]


class Reveal(msgspec.Struct, frozen=True, kw_only=True):
    """The last call and what the lifted cups showed (public once made)."""

    caller: Annotated[str, PUBLIC]
    call: Annotated[str, PUBLIC]
    bid: Annotated[BidRecord, PUBLIC]
    cups: Annotated[dict[str, tuple[int, ...]], PUBLIC]
    count: Annotated[int, PUBLIC]
    losers: Annotated[tuple[str, ...], PUBLIC]


class LiarsState(msgspec.Struct, frozen=True, kw_only=True):
    """A Liar's Dice position.

    ``cups[i]`` is seat ``i``'s dice, sorted faces (hidden from the others, L-HID-1), empty
    once it is out; ``active`` the index of the seat to act (``-1`` before the start and
    after the end); ``bids`` this round's bids in order; ``turn`` counts bids and rounds
    (every command ends a turn: nothing is undone at the table).
    """

    seats: Annotated[tuple[str, ...], PUBLIC]
    dice: Annotated[int, PUBLIC] = 5
    wild_ones: Annotated[bool, PUBLIC] = True
    spot_on: Annotated[bool, PUBLIC] = False
    cups: Annotated[
        tuple[tuple[int, ...], ...], owned(index="seats", sort=True, values=range(1, 7))
    ] = ()
    active: Annotated[int, PUBLIC] = -1
    round: Annotated[int, PUBLIC] = 0
    bids: Annotated[tuple[BidRecord, ...], PUBLIC] = ()
    last: Annotated[Reveal | None, PUBLIC] = None
    turn: Annotated[int, PUBLIC] = 0
    counter: Annotated[int, PUBLIC] = 0
    winner: Annotated[str | None, PUBLIC] = None

    def index(self, seat: str) -> int:
        """The table position of ``seat``."""
        return self.seats.index(seat)

    def counts(self) -> tuple[int, ...]:
        """How many dice each seat has (public)."""
        return tuple(len(cup) for cup in self.cups)

    def in_play(self) -> int:
        """The dice on the table."""
        return sum(len(cup) for cup in self.cups)

    def in_game(self) -> tuple[str, ...]:
        """The seats that still have dice, in table order (L-END-1)."""
        return tuple(s for s, cup in zip(self.seats, self.cups, strict=True) if cup)
