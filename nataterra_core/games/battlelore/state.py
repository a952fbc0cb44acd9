"""BattleLore's immutable game state (msgspec structs) and small read-only helpers."""

from __future__ import annotations

from typing import Literal

import msgspec

from .board import Point

__all__ = ["BattleLoreState", "Combat", "Side", "Unit"]

Phase = Literal["setup", "card", "order", "move", "battle", "draw", "over"]
Stage = Literal["flags", "retreat", "take_ground", "pursuit", "bonus", "battle_back", "lore"]


class Unit(msgspec.Struct, frozen=True, kw_only=True):
    """A unit on its hex (B-UNIT-1)."""

    id: str
    side: str
    type: str
    hex: Point
    figures: int
    start: int


class Side(msgspec.Struct, frozen=True, kw_only=True):
    """One side's cards, medals and lore (the hands are hidden from the other side)."""

    seat: str
    hand: tuple[str, ...] = ()
    kills: int = 0
    objectives: int = 0
    last_card: str = ""
    lore_hand: tuple[str, ...] = ()
    lore_deck: tuple[str, ...] = ()
    lore_offer: tuple[str, ...] = ()
    lore_keep: int = 0
    lore_tokens: int = 0
    lore_limit: int = 0

    @property
    def medals(self) -> int:
        """Medals: destroyed enemy units plus objectives held (B-WIN-1)."""
        return self.kills + self.objectives


class Combat(msgspec.Struct, frozen=True, kw_only=True):
    """The battle being resolved and the choice it waits for."""

    attacker: str
    defender: str
    kind: Literal["battle", "bonus", "battle_back", "lore"]
    melee: bool
    stage: Stage
    origin: Point
    """The defender's hex when it was battled (take ground moves there)."""
    flags: int = 0
    ignorable: int = 0
    hexes: int = 0
    hits: int = 0
    vacated: bool = False
    took_ground: bool = False
    ambush: bool = False
    """The defender may battle back even if not bold (Ambush)."""
    closed: tuple[str, ...] = ()
    """Lore windows of this battle that have passed."""


class BattleLoreState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything about a game of BattleLore, immutable."""

    scenario: str
    pack: str = ""
    """The effective SHA-256 of the content pack in play (views carry it, so that words and
    drawings read that pack's scenario, board and units)."""
    seats: tuple[str, str]
    sides: tuple[Side, Side]
    units: tuple[Unit, ...]
    max_turns: int = 0
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    lore_discard: tuple[str, ...] = ()
    phase: Phase = "setup"
    active: int = 0
    turn: int = 0
    card: str = ""
    """The card whose rules apply this turn (a copied card's original)."""
    ordered: tuple[str, ...] = ()
    moved: tuple[str, ...] = ()
    no_battle: tuple[str, ...] = ()
    battled: tuple[str, ...] = ()
    bonus_used: tuple[str, ...] = ()
    cancelled: tuple[str, ...] = ()
    extra_orders: int = 0
    lore_played: bool = False
    """A lore card was played in this turn's command step."""
    charged: tuple[str, ...] = ()
    """Units that roll an extra die in their next battle this turn (Charge)."""
    end_window: bool = False
    """This turn's end-of-turn lore window has passed."""
    combat: Combat | None = None
    drawn: tuple[str, ...] = ()
    """A Scout's draw waiting for its keeper."""
    counter: int = 0
    winner: str | None = None
    ended: str = ""

    def unit(self, unit_id: str) -> Unit | None:
        """The unit with this id, ``None`` if destroyed or unknown."""
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        return None

    def at(self, hex_: Point) -> Unit | None:
        """The unit on ``hex_``, if any."""
        for unit in self.units:
            if unit.hex == hex_:
                return unit
        return None

    def side_of(self, seat: str) -> Side:
        """The side of ``seat``."""
        return self.sides[self.seats.index(seat)]

    @property
    def seat(self) -> str:
        """The seat whose turn it is."""
        return self.seats[self.active]

    def other(self, seat: str) -> str:
        """The opponent of ``seat``."""
        return self.seats[1 - self.seats.index(seat)]
