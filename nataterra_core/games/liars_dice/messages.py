"""Every Liar's Dice command and event, each declaring who may see it (``kernel.visibility``).

Everything is public but the faces a cup shows when it is rolled: :class:`CupRolled` shows
its ``values`` and ``faces`` to the cup's owner only (L-HID-1); the others see that the seat
rolled, and how many dice. A call reveals every cup in :class:`CupsRevealed`, which is public.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from nataterra_core.kernel import Command, Event
from nataterra_core.kernel.chance import DrawEvent, DrawsEvent
from nataterra_core.kernel.visibility import PUBLIC, Visibility, hide_from_others

__all__ = [
    "COMMANDS",
    "EVENTS",
    "Bid",
    "BidMade",
    "CallLiar",
    "CallSpotOn",
    "CupRolled",
    "CupsRevealed",
    "DieLost",
    "GameWon",
    "OpenerDrawn",
    "RoundStarted",
    "StartGame",
]

Call = Literal["liar", "spot_on"]
"""The two calls that end a round (L-CALL-1, L-SPOT-1)."""

# --- commands -------------------------------------------------------------------------------


class StartGame(Command, frozen=True, tag="start.v1"):
    """The system starts the game: the first opener drawn, the first cups rolled (L-SET-3)."""

    visibility = PUBLIC


class Bid(Command, frozen=True, tag="bid.v1"):
    """At least ``quantity`` dice among all cups show ``face`` (L-BID-1)."""

    visibility = PUBLIC
    quantity: int
    face: int


class CallLiar(Command, frozen=True, tag="call_liar.v1"):
    """The player to act doubts the last bid: every cup is revealed (L-CALL-1)."""

    visibility = PUBLIC


class CallSpotOn(Command, frozen=True, tag="call_spot_on.v1"):
    """The player to act says the last bid is exactly right (L-SPOT-1; option ``spot_on``)."""

    visibility = PUBLIC


COMMANDS: tuple[type[Command], ...] = (StartGame, Bid, CallLiar, CallSpotOn)

# --- events ---------------------------------------------------------------------------------


class OpenerDrawn(DrawEvent, frozen=True, tag="opener_drawn.v1"):
    """The first round's opener, drawn among the seats (L-SET-3)."""

    visibility = PUBLIC
    m: int
    value: int
    counter_before: int
    counter_after: int
    seat: str


class RoundStarted(Event, frozen=True, tag="round_started.v1"):
    """Round ``round`` begins; ``opener`` bids first (L-ROUND-1, L-ROUND-3, L-ROUND-4)."""

    visibility = PUBLIC
    round: int
    opener: str


class CupRolled(DrawsEvent, frozen=True, tag="cup_rolled.v1"):
    """``seat`` rolls its dice under its cup: ``faces[i]`` is ``values[i] + 1``. Only
    ``seat`` sees the values and faces (L-HID-1); everyone sees how many dice (``ms``)."""

    visibility: ClassVar[Visibility | None] = hide_from_others("values", "faces")
    seat: str
    ms: tuple[int, ...]
    values: tuple[int, ...]
    counter_before: int
    counter_after: int
    faces: tuple[int, ...]


class BidMade(Event, frozen=True, tag="bid_made.v1"):
    """``seat`` bids ``quantity`` dice showing ``face`` (L-BID-1, L-BID-2)."""

    visibility = PUBLIC
    seat: str
    quantity: int
    face: int


class CupsRevealed(Event, frozen=True, tag="cups_revealed.v1"):
    """``caller``'s ``call`` on ``bidder``'s bid: every cup lifted (``cups``, by seat, sorted
    faces) and ``count`` dice counting for the bid's face (L-CALL-2, L-SPOT-1)."""

    reveals_information: ClassVar[bool] = True
    visibility = PUBLIC
    caller: str
    call: Call
    bidder: str
    quantity: int
    face: int
    cups: dict[str, tuple[int, ...]]
    count: int


class DieLost(Event, frozen=True, tag="die_lost.v1"):
    """``seat`` loses a die and has ``left``; at 0 it is out (L-CALL-2, L-END-1)."""

    visibility = PUBLIC
    seat: str
    left: int


class GameWon(Event, frozen=True, tag="game_won.v1"):
    """``seat`` is the last player with dice (L-END-2)."""

    visibility = PUBLIC
    seat: str


EVENTS: tuple[type[Event], ...] = (
    OpenerDrawn,
    RoundStarted,
    CupRolled,
    BidMade,
    CupsRevealed,
    DieLost,
    GameWon,
)
