"""Kaladan's pack schema: frozen attrs classes that the TOML tables are structured into.

Closed vocabularies the engine implements (unit classes, terrains, card scopes, targets,
conditions, timings) are ``Literal`` types, so a misspelt value is a schema error with its
path. Effect kinds are checked by :mod:`.checks` instead, so that a kind the engine refuses
on principle (one raising a tile's capacity, K-TER-1) is reported with the clause it breaks.
Every value that the rules do not make binding is provisional (K-SET-1, K-FIG-1, K-CARD-1..3).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import attrs

from nataterra_core.packs import PackInfo as PackInfo

__all__ = [
    "Condition",
    "Economy",
    "Effect",
    "EventCard",
    "KaladanPack",
    "MagicCard",
    "MapDef",
    "MapTile",
    "PackInfo",
    "SeatDef",
    "Terrain",
    "Trait",
    "UnitType",
]

UnitClass = Literal["crown", "general", "base", "elite", "special"]
TerrainId = Literal["plain", "mountain", "forest"]
Scope = Literal["personal", "global"]
Target = Literal["active", "all", "richest", "strongest"]
ConditionKind = Literal["unit_on_board", "terrain", "extra_castle", "gold_at_least", "gold_at_most"]
Timing = Literal["event", "income", "action", "attack", "defence", "buy"]
Per = Literal["flat", "castle"]
TraitKind = Literal["reroll_lowest", "defence_die", "ignore_terrain", "attack_die_vs_castle"]


@attrs.frozen
class Trait:
    """A special unit's trait (K-CARD-3): one of a closed set, ``die`` its die size if any."""

    kind: TraitKind
    die: int = 0
    text: str = ""


@attrs.frozen
class UnitType:
    """A unit type (K-FIG-1, K-BUY-2): attack and defence die sizes, costs, its class."""

    id: str
    title: str
    class_: UnitClass
    attack: int
    defence: int
    place_cost: int = 0
    upgrade_cost: int = 0
    title_de: str = ""
    trait: Trait | None = None
    provisional: bool = False


@attrs.frozen
class Terrain:
    """A terrain (K-TER-1, §3): capacity, and the extra d10 of its combat bonus."""

    id: TerrainId
    title: str
    capacity: int
    defence_die: int = 0
    drop_lowest: bool = False
    attack_die: int = 0
    title_de: str = ""


@attrs.frozen
class SeatDef:
    """A seat (K-SET-3): its colour id and its special unit."""

    id: str
    special: str
    provisional: bool = False


@attrs.frozen
class MapTile:
    """One tile of a map: axial ``at`` = [q, r], its terrain, the seat whose castle it holds."""

    at: tuple[int, int]
    terrain: TerrainId
    castle: str = ""


@attrs.frozen
class MapDef:
    """A provisional map (K-SET-1) for ``players`` players."""

    id: str
    players: int
    tiles: tuple[MapTile, ...]
    provisional: bool = False


@attrs.frozen
class Economy:
    """The ``[economy]`` table: starting material (K-SET-2) and the buy phase's prices (K-BUY-1)."""

    start_gold: int
    start_magic: int
    start_board: tuple[str, ...]
    start_reserve: Mapping[str, int]
    castle_upgrade_cost: int
    castle_upgrade_die: int
    magic_exchange_cost: int
    magic_buy_cost: int
    captured_magic_cost: int
    tie_break_dice: tuple[int, ...]
    provisional: bool = False


@attrs.frozen
class Effect:
    """One effect primitive (K-CARD-1): its ``kind`` from the closed set of :mod:`.checks`.

    ``amount`` is how much (gold, units, cards, moves), ``per`` multiplies gold by the
    castles the player controls, ``die`` is a die size, ``unit`` limits a unit effect to
    one unit type.
    """

    kind: str
    amount: int = 1
    per: Per = "flat"
    die: int = 0
    unit: str = ""


@attrs.frozen
class Condition:
    """Who a conditional event affects (K-EV-2); units in a reserve never count."""

    kind: ConditionKind
    unit: str = ""
    terrain: str = ""
    amount: int = 0


@attrs.frozen
class EventCard:
    """An event card (K-CARD-1): scope, target, an optional condition, its effects."""

    id: str
    title: str
    text: str
    scope: Scope
    target: Target
    effects: tuple[Effect, ...]
    condition: Condition | None = None
    provisional: bool = False


@attrs.frozen
class MagicCard:
    """A magic card kind (K-CARD-2): when it is played, its effect, how many are in the deck."""

    id: str
    title: str
    text: str
    timing: Timing
    effect: Effect
    copies: int = 2
    provisional: bool = False


@attrs.frozen
class KaladanPack:
    """A loaded, checked Kaladan pack."""

    base: PackInfo
    overlay: PackInfo | None
    sha256: str
    economy: Economy
    units: Mapping[str, UnitType]
    terrains: Mapping[str, Terrain]
    seats: Mapping[str, SeatDef]
    maps: Mapping[str, MapDef]
    events: Mapping[str, EventCard]
    magic: Mapping[str, MagicCard]

    @property
    def pack_id(self) -> str:
        """The id logged in the header: the overlay's when there is one."""
        return self.overlay.id if self.overlay is not None else self.base.id

    def magic_cards(self) -> tuple[str, ...]:
        """The magic deck, each card named by its kind (as many times as it has copies), in
        pack order. Copies of a kind are never told apart: a name per copy (``assassin#2``)
        in a public record would say which copy left a hidden hand (K-HID-1)."""
        return tuple(c.id for c in self.magic.values() for _ in range(c.copies))

    def base_units(self) -> tuple[str, ...]:
        """The base units, in pack order (free recruitment, K-REC-1)."""
        return tuple(u.id for u in self.units.values() if u.class_ == "base")
