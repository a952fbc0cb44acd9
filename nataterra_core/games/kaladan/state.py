"""The Kaladan state: immutable msgspec Structs, replaced (never mutated) by ``evolve``.

The state is the whole truth, hidden parts included (deck orders, magic hands); what a seat
may see is cut out by :mod:`.views`. It holds the dice counter, never the seed.

A unit on the board is a string: its type id, with ``+`` appended when upgraded
(``"archer+"``). Two armies never share a tile (K-INC-1), so the board maps a tile id to one
:class:`Army`; a tile without an entry is empty.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import msgspec

__all__ = [
    "PHASES",
    "Army",
    "Choice",
    "Combat",
    "Fallen",
    "GameState",
    "Phase",
    "PlayerState",
    "base_of",
    "is_upgraded",
    "upgraded",
    "without",
]

Phase = Literal["setup", "event", "recruit", "income", "action", "buy", "reinforce", "over"]
PHASES: tuple[Phase, ...] = ("event", "recruit", "income", "action", "buy", "reinforce")
"""The six phases of a turn, in order (K-TURN-1)."""

UP = "+"


def is_upgraded(unit: str) -> bool:
    """Whether a board unit is on its upgraded side (K-EV-4)."""
    return unit.endswith(UP)


def base_of(unit: str) -> str:
    """The unit type of a board unit (an upgrade is lost on defeat, K-FIG-5)."""
    return unit.removesuffix(UP)


def upgraded(unit: str) -> str:
    """The unit flipped to its upgraded side."""
    return base_of(unit) + UP


def without(units: Iterable[str], taken: Iterable[str]) -> tuple[str, ...]:
    """``units`` less one of each of ``taken`` (a multiset difference), sorted."""
    left = list(units)
    for unit in taken:
        left.remove(unit)
    return tuple(sorted(left))


class Army(msgspec.Struct, frozen=True):
    """The units of one owner on one tile, sorted."""

    owner: str
    units: tuple[str, ...]


class Fallen(msgspec.Struct, frozen=True, order=True):
    """A unit in a graveyard: ``owner``'s ``unit`` (never upgraded)."""

    owner: str
    unit: str


class PlayerState(msgspec.Struct, frozen=True, kw_only=True):
    """One seat off the board: gold, reserve, graveyard (scalps), magic cards, crowns taken.

    ``graveyard`` holds the enemy units this seat defeated (K-END-2: its scalps). ``hand`` is
    hidden from the others (K-HID-1); ``captured`` are magic cards taken from a defeated
    player, seen only by this seat and bought for 4 gold each (K-CAS-6). ``fresh`` are units
    taken from a defeated player that may be placed only from this seat's next turn (K-CAS-5).
    """

    seat: str
    gold: int
    reserve: dict[str, int]
    graveyard: tuple[Fallen, ...] = ()
    hand: tuple[str, ...] = ()
    captured: tuple[str, ...] = ()
    fresh: tuple[str, ...] = ()
    crowns: int = 0
    eliminated: bool = False


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """A decision an event or magic card awaits from ``seat`` (K-EV-3, K-EV-4, K-EV-6), or a
    victor's free garrison of a fallen crown's castle (K-CAS-7, ``tile``). ``unit`` limits
    a unit effect to one unit type."""

    seat: str
    kind: Literal["revive", "upgrade", "lose_unit", "scout", "garrison"]
    card: str = ""
    unit: str = ""
    tile: str = ""


class Combat(msgspec.Struct, frozen=True, kw_only=True):
    """A fight in progress (K-FIG-2..5).

    ``committed`` are the attacker's units still in the fight (they stand on ``source``
    until they move in); the defender's units are the army on ``target``. ``stage`` says
    which decision is next: the attacker's and then the defender's magic window before the
    first roll, a loss to choose, continue or withdraw, how many move in.
    """

    attacker: str
    defender: str
    source: str
    target: str
    committed: tuple[str, ...]
    stage: Literal["attack_magic", "defence_magic", "loss", "continue", "move_in"]
    round: int = 0
    attack_bonus: tuple[int, ...] = ()
    defence_bonus: tuple[int, ...] = ()
    loser: str = ""


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    """A Kaladan position."""

    seats: tuple[str, ...]
    map_id: str
    pack: str = ""
    """The effective SHA-256 of the content pack in play (views carry it, so that words and
    drawings read that pack's map and cards)."""
    counter: int = 0
    turn: int = 0
    active: str = ""
    phase: Phase = "setup"
    board: dict[str, Army] = msgspec.field(default_factory=dict)
    players: tuple[PlayerState, ...] = ()
    castle_upgrades: tuple[str, ...] = ()
    event_deck: tuple[str, ...] = ()
    event_discard: tuple[str, ...] = ()
    magic_deck: tuple[str, ...] = ()
    magic_discard: tuple[str, ...] = ()
    recruit_done: tuple[str, ...] = ()
    action_done: bool = False
    """The phase's one act is done: the event card drawn (K-EV-1), the action taken (K-ACT-3)."""
    extra_moves: int = 0
    magic_played: tuple[str, ...] = ()
    placed_empty: str = ""
    pending: tuple[Choice, ...] = ()
    scout: tuple[str, ...] = ()
    scout_seat: str = ""
    combat: Combat | None = None
    deck_out_by: str = ""
    final_order: tuple[str, ...] | None = None
    winners: tuple[str, ...] = ()
    scores: dict[str, int] = msgspec.field(default_factory=dict)
    reason: str = ""

    def player(self, seat: str) -> PlayerState:
        """The seat's off-board state."""
        return self.players[self.seats.index(seat)]

    def owner(self, tile: str) -> str | None:
        """Who controls ``tile`` (K-INC-1): the owner of the army on it, if any."""
        army = self.board.get(tile)
        return army.owner if army is not None else None

    def units_on(self, tile: str) -> tuple[str, ...]:
        """The units on ``tile``."""
        army = self.board.get(tile)
        return army.units if army is not None else ()

    def tiles_of(self, seat: str) -> tuple[str, ...]:
        """The tiles ``seat`` controls, sorted."""
        return tuple(sorted(t for t, a in self.board.items() if a.owner == seat))

    def in_game(self) -> tuple[str, ...]:
        """The seats not eliminated, in seat order."""
        return tuple(p.seat for p in self.players if not p.eliminated)
