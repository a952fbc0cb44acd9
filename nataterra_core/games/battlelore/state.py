"""BattleLore's immutable game state (msgspec structs) and small read-only helpers."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from nataterra_core.kernel.secrets import PUBLIC, hidden, owned, visible_if

from .board import Point

__all__ = ["BattleLoreState", "Combat", "Side", "Unit"]

Phase = Literal["setup", "card", "order", "move", "battle", "draw", "over"]
Stage = Literal["flags", "retreat", "take_ground", "pursuit", "bonus", "battle_back", "lore"]


def _is_drawer(state: BattleLoreState, seat: str | None) -> bool:
    """A Scout's pending draw is seen by the seat drawing, whose turn it is (B-CMD-2)."""
    return seat is not None and seat == state.seat


class Unit(msgspec.Struct, frozen=True, kw_only=True):
    """A unit on its hex (B-UNIT-1)."""

    id: Annotated[str, PUBLIC]
    side: Annotated[str, PUBLIC]
    type: Annotated[str, PUBLIC]
    hex: Annotated[Point, PUBLIC]
    figures: Annotated[int, PUBLIC]
    start: Annotated[int, PUBLIC]


class Side(msgspec.Struct, frozen=True, kw_only=True):
    """One side's cards, medals and lore (the hands are hidden from the other side)."""

    seat: Annotated[str, PUBLIC]
    hand: Annotated[tuple[str, ...], owned("seat", pool="command")] = ()
    kills: Annotated[int, PUBLIC] = 0
    objectives: Annotated[int, PUBLIC] = 0
    last_card: Annotated[str, PUBLIC] = ""
    lore_hand: Annotated[tuple[str, ...], owned("seat", pool="lore", local=True)] = ()
    lore_deck: Annotated[tuple[str, ...], hidden(pool="lore", local=True)] = ()
    lore_offer: Annotated[tuple[str, ...], owned("seat", pool="lore", local=True)] = ()
    lore_keep: Annotated[int, PUBLIC] = 0
    lore_tokens: Annotated[int, PUBLIC] = 0
    lore_limit: Annotated[int, PUBLIC] = 0

    @property
    def medals(self) -> int:
        """Medals: destroyed enemy units plus objectives held (B-WIN-1)."""
        return self.kills + self.objectives


class Combat(msgspec.Struct, frozen=True, kw_only=True):
    """The battle being resolved and the choice it waits for."""

    attacker: Annotated[str, PUBLIC]
    defender: Annotated[str, PUBLIC]
    kind: Annotated[Literal["battle", "bonus", "battle_back", "lore"], PUBLIC]
    melee: Annotated[bool, PUBLIC]
    stage: Annotated[Stage, PUBLIC]
    origin: Annotated[Point, PUBLIC]
    """The defender's hex when it was battled (take ground moves there)."""
    flags: Annotated[int, PUBLIC] = 0
    ignorable: Annotated[int, PUBLIC] = 0
    hexes: Annotated[int, PUBLIC] = 0
    hits: Annotated[int, PUBLIC] = 0
    vacated: Annotated[bool, PUBLIC] = False
    took_ground: Annotated[bool, PUBLIC] = False
    ambush: Annotated[bool, PUBLIC] = False
    """The defender may battle back even if not bold (Ambush)."""
    closed: Annotated[tuple[str, ...], PUBLIC] = ()
    """Lore windows of this battle that have passed."""


class BattleLoreState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything about a game of BattleLore, immutable."""

    scenario: Annotated[str, PUBLIC]
    pack: Annotated[str, PUBLIC] = ""
    """The effective SHA-256 of the content pack in play (views carry it, so that words and
    drawings read that pack's scenario, board and units)."""
    seats: Annotated[tuple[str, str], PUBLIC]
    sides: Annotated[tuple[Side, Side], PUBLIC]
    units: Annotated[tuple[Unit, ...], PUBLIC]
    max_turns: Annotated[int, PUBLIC] = 0
    deck: Annotated[tuple[str, ...], hidden(pool="command")] = ()
    discard: Annotated[tuple[str, ...], PUBLIC] = ()
    lore_discard: Annotated[tuple[str, ...], PUBLIC] = ()
    phase: Annotated[Phase, PUBLIC] = "setup"
    active: Annotated[int, PUBLIC] = 0
    turn: Annotated[int, PUBLIC] = 0
    card: Annotated[str, PUBLIC] = ""
    """The card whose rules apply this turn (a copied card's original)."""
    ordered: Annotated[tuple[str, ...], PUBLIC] = ()
    moved: Annotated[tuple[str, ...], PUBLIC] = ()
    no_battle: Annotated[tuple[str, ...], PUBLIC] = ()
    battled: Annotated[tuple[str, ...], PUBLIC] = ()
    bonus_used: Annotated[tuple[str, ...], PUBLIC] = ()
    cancelled: Annotated[tuple[str, ...], PUBLIC] = ()
    extra_orders: Annotated[int, PUBLIC] = 0
    lore_played: Annotated[bool, PUBLIC] = False
    """A lore card was played in this turn's command step."""
    charged: Annotated[tuple[str, ...], PUBLIC] = ()
    """Units that roll an extra die in their next battle this turn (Charge)."""
    end_window: Annotated[bool, PUBLIC] = False
    """This turn's end-of-turn lore window has passed."""
    combat: Annotated[Combat | None, PUBLIC] = None
    drawn: Annotated[tuple[str, ...], visible_if(_is_drawer, pool="command")] = ()
    """A Scout's draw waiting for its keeper."""
    counter: Annotated[int, PUBLIC] = 0
    winner: Annotated[str | None, PUBLIC] = None
    ended: Annotated[str, PUBLIC] = ""

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
