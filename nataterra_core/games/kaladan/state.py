"""The Kaladan state: immutable msgspec Structs, replaced (never mutated) by ``evolve``.

The state is the whole truth, hidden parts included (deck orders, magic hands); what a seat
may see is cut out by :mod:`.views`. It holds the dice counter, never the seed.

A unit on the board is a string: its type id, with ``+`` appended when upgraded
(``"archer+"``). Two armies never share a tile (K-INC-1), so the board maps a tile id to one
:class:`Army`; a tile without an entry is empty.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Literal

import msgspec

from nataterra_core.kernel.secrets import PUBLIC, hidden, owned, visible_if

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


def _is_scout(state: GameState, seat: str | None) -> bool:
    """The event cards scouted are seen by the scout only (K-HID-1)."""
    return seat is not None and seat == state.scout_seat


def _scouted_count(state: GameState, seat: str | None) -> int:
    """The scout knows the event deck's top cards it scouted (K-HID-1)."""
    return len(state.scout) if _is_scout(state, seat) else 0


class Army(msgspec.Struct, frozen=True):
    """The units of one owner on one tile, sorted."""

    owner: Annotated[str, PUBLIC]
    units: Annotated[tuple[str, ...], PUBLIC]


class Fallen(msgspec.Struct, frozen=True, order=True):
    """A unit in a graveyard: ``owner``'s ``unit`` (never upgraded)."""

    owner: Annotated[str, PUBLIC]
    unit: Annotated[str, PUBLIC]


class PlayerState(msgspec.Struct, frozen=True, kw_only=True):
    """One seat off the board: gold, reserve, graveyard (scalps), magic cards, crowns taken.

    ``graveyard`` holds the enemy units this seat defeated (K-END-2: its scalps). ``hand`` is
    hidden from the others (K-HID-1); ``captured`` are magic cards taken from a defeated
    player, seen only by this seat and bought for 4 gold each (K-CAS-6). ``fresh`` are units
    taken from a defeated player that may be placed only from this seat's next turn (K-CAS-5).
    """

    seat: Annotated[str, PUBLIC]
    gold: Annotated[int, PUBLIC]
    reserve: Annotated[dict[str, int], PUBLIC]
    graveyard: Annotated[tuple[Fallen, ...], PUBLIC] = ()
    hand: Annotated[tuple[str, ...], owned("seat", pool="magic", sort=True)] = ()
    captured: Annotated[tuple[str, ...], owned("seat", pool="magic", sort=True)] = ()
    fresh: Annotated[tuple[str, ...], PUBLIC] = ()
    crowns: Annotated[int, PUBLIC] = 0
    eliminated: Annotated[bool, PUBLIC] = False


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """A decision an event or magic card awaits from ``seat`` (K-EV-3, K-EV-4, K-EV-6), or a
    victor's free garrison of a fallen crown's castle (K-CAS-7, ``tile``). ``unit`` limits
    a unit effect to one unit type."""

    seat: Annotated[str, PUBLIC]
    kind: Annotated[Literal["revive", "upgrade", "lose_unit", "scout", "garrison"], PUBLIC]
    card: Annotated[str, PUBLIC] = ""
    unit: Annotated[str, PUBLIC] = ""
    tile: Annotated[str, PUBLIC] = ""


class Combat(msgspec.Struct, frozen=True, kw_only=True):
    """A fight in progress (K-FIG-2..5).

    ``committed`` are the attacker's units still in the fight (they stand on ``source``
    until they move in); the defender's units are the army on ``target``. ``stage`` says
    which decision is next: the attacker's and then the defender's magic window before the
    first roll, a loss to choose, continue or withdraw, how many move in.
    """

    attacker: Annotated[str, PUBLIC]
    defender: Annotated[str, PUBLIC]
    source: Annotated[str, PUBLIC]
    target: Annotated[str, PUBLIC]
    committed: Annotated[tuple[str, ...], PUBLIC]
    stage: Annotated[
        Literal["attack_magic", "defence_magic", "loss", "continue", "move_in"], PUBLIC
    ]
    round: Annotated[int, PUBLIC] = 0
    attack_bonus: Annotated[tuple[int, ...], PUBLIC] = ()
    defence_bonus: Annotated[tuple[int, ...], PUBLIC] = ()
    loser: Annotated[str, PUBLIC] = ""


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    """A Kaladan position."""

    seats: Annotated[tuple[str, ...], PUBLIC]
    map_id: Annotated[str, PUBLIC]
    pack: Annotated[str, PUBLIC] = ""
    """The effective SHA-256 of the content pack in play (views carry it, so that words and
    drawings read that pack's map and cards)."""
    counter: Annotated[int, PUBLIC] = 0
    turn: Annotated[int, PUBLIC] = 0
    active: Annotated[str, PUBLIC] = ""
    phase: Annotated[Phase, PUBLIC] = "setup"
    board: Annotated[dict[str, Army], PUBLIC] = msgspec.field(default_factory=dict)
    players: Annotated[tuple[PlayerState, ...], PUBLIC] = ()
    castle_upgrades: Annotated[tuple[str, ...], PUBLIC] = ()
    event_deck: Annotated[tuple[str, ...], hidden(pool="event", keep=_scouted_count)] = ()
    event_discard: Annotated[tuple[str, ...], PUBLIC] = ()
    magic_deck: Annotated[tuple[str, ...], hidden(pool="magic")] = ()
    magic_discard: Annotated[tuple[str, ...], PUBLIC] = ()
    recruit_done: Annotated[tuple[str, ...], PUBLIC] = ()
    action_done: Annotated[bool, PUBLIC] = False
    """The phase's one act is done: the event card drawn (K-EV-1), the action taken (K-ACT-3)."""
    extra_moves: Annotated[int, PUBLIC] = 0
    magic_played: Annotated[tuple[str, ...], PUBLIC] = ()
    placed_empty: Annotated[str, PUBLIC] = ""
    pending: Annotated[tuple[Choice, ...], PUBLIC] = ()
    scout: Annotated[tuple[str, ...], visible_if(_is_scout)] = ()
    scout_seat: Annotated[str, PUBLIC] = ""
    combat: Annotated[Combat | None, PUBLIC] = None
    deck_out_by: Annotated[str, PUBLIC] = ""
    final_order: Annotated[tuple[str, ...] | None, PUBLIC] = None
    winners: Annotated[tuple[str, ...], PUBLIC] = ()
    scores: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    reason: Annotated[str, PUBLIC] = ""

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
