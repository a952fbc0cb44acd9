"""The commands and events of the set-up (N-SETUP-1..8): the start, the first player, the
shuffled decks, starting bonuses and the opening tactic discards, and the start from a
position file (``docs/POSITIONS.md``). Their rules are in ``rules/setup.py`` and
``rules/positions/``."""

from __future__ import annotations

from nataterra_core.kernel import (
    PUBLIC,
    Command,
    DrawEvent,
    Event,
    ShuffleEvent,
)
from nataterra_core.kernel.visibility import hidden_order

from ..rules.stock import Resources


class StartGame(Command, frozen=True, tag="start_game.v1"):
    """The system command of record 1: draw the first player and shuffle every deck."""

    visibility = PUBLIC


class FirstPlayerDrawn(DrawEvent, frozen=True, tag="first_player_drawn.v1"):
    """N-SETUP-2: ``draw(m)`` over the seats in header order picked ``seat``."""

    visibility = PUBLIC

    m: int
    counter_before: int
    counter_after: int
    value: int
    seat: str


class DeckShuffled(ShuffleEvent, frozen=True, tag="deck_shuffled.v1"):
    """A deck was shuffled; ``after[0]`` is the top card (docs/DICE.md)."""

    visibility = hidden_order("before", "after", size_of="after")

    deck: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    counter_before: int
    counter_after: int


class StartingBonus(Event, frozen=True, tag="starting_bonus.v1"):
    """N-SETUP-3: the second player of a 2-player game gets +1 food."""

    visibility = PUBLIC

    seat: str
    gain: Resources


class OpeningDiscardsAwaited(Event, frozen=True, tag="opening_discards_awaited.v1"):
    """N-SETUP-8: ``seats``, in this order, each discard one of their opening tactic cards
    before the first turn begins."""

    visibility = PUBLIC

    seats: tuple[str, ...]


class DiscardOpeningTactic(Command, frozen=True, tag="discard_opening_tactic.v1"):
    """N-SETUP-8: discard ``card`` from the three opening tactic cards."""

    visibility = PUBLIC

    card: str


class OpeningTacticDiscarded(Event, frozen=True, tag="opening_tactic_discarded.v1"):
    """``seat`` discarded ``card`` (face up on its discard pile)."""

    visibility = PUBLIC

    seat: str
    card: str


class StartFromPosition(Command, frozen=True, tag="start_position.v2"):
    """The system command of record 1 of a game started from a position.

    ``public_sha256`` is the SHA-256 of the position as a spectator sees it
    (``rules.positions.public_sha256``: the other seats' hands and every deck order cut,
    sizes kept); ``shuffle`` names the decks the start shuffles (the position's
    ``shuffle``). v1 carried a hash over the whole position: with a small hidden hand a seat
    could find it by hashing each guess.
    """

    visibility = PUBLIC

    public_sha256: str
    shuffle: tuple[str, ...] = ()


COMMANDS: tuple[type[Command], ...] = (
    StartGame,
    DiscardOpeningTactic,
    StartFromPosition,
)
EVENTS: tuple[type[Event], ...] = (
    FirstPlayerDrawn,
    DeckShuffled,
    StartingBonus,
    OpeningDiscardsAwaited,
    OpeningTacticDiscarded,
)
