"""BattleLore's content-pack schema: frozen attrs classes that TOML tables are structured into.

Every class mirrors one TOML table. Closed vocabularies the engine implements (banners, unit
kinds, card primitives, lore effects, windows) are ``Literal`` types, so a misspelt value is a
schema error with a file and path. Hexes in scenarios are written ``[column, row]`` in the
board's offset coordinates (B-BOARD-1); :mod:`..board` turns them into axial hexes.
"""

from __future__ import annotations

from typing import Literal

import attrs

__all__ = [
    "Banner",
    "BattleLorePack",
    "CardOrder",
    "CommandCard",
    "CouncilLevel",
    "Face",
    "LoreCard",
    "PackInfo",
    "Placement",
    "Rules",
    "Scenario",
    "Section",
    "Terrain",
    "UnitType",
    "Weapon",
]

Banner = Literal["green", "blue", "red"]
Face = Literal["green", "blue", "red", "flag", "bonus_strike", "lore"]
Section = Literal["left", "centre", "right"]
UnitKind = Literal["foot", "archers", "mounted", "creature"]
Member = Literal["wizard", "cleric", "rogue", "warrior"]
Window = Literal["command", "before_roll", "after_roll", "on_retreat", "end_of_turn"]
LoreEffect = Literal[
    "damage",  # roll dice against one enemy unit within range (Fireball, Lightning Bolt)
    "teleport",  # move one ordered unit to an empty hex of its section
    "heal",  # one unit regains figures, never above its start
    "cancel_hit",  # the defender cancels hits of the roll just made
    "ignore_flag",  # the retreating unit ignores more flags
    "ambush",  # the defender battles back first, even if not bold
    "discard_random",  # the opponent discards a random command card
    "steal_token",  # take lore tokens from the opponent
    "extra_order",  # order more units in any section
    "shield_wall",  # ignore every flag on a unit adjacent to two friends
    "extra_die",  # the attacking unit of a kind rolls more dice
]


@attrs.frozen
class PackInfo:
    """The ``[pack]`` table: which pack this is."""

    id: str
    version: str
    title: str = ""
    provisional: bool = False


@attrs.frozen
class Rules:
    """The ``[rules]`` table: the die, banner dice and rule options (B-DIE-1, B-UNIT-3)."""

    columns: int
    rows: int
    section_lines: tuple[int, ...]
    """Where the section lines run: x in half-hexes, x = 2 * column + row % 2 (B-BOARD-1)."""
    die_faces: tuple[Face, ...]
    banner_dice: dict[str, int]
    bonus_strike: Literal["reroll", "hit"] = "reroll"
    ranged_dice_penalty: int = 1
    lore_token_cap: int = 10
    lore_tokens_per_face: int = 1
    lore_tokens_per_creature: int = 1
    provisional: bool = False


@attrs.frozen
class Terrain:
    """A terrain type and its effects as data (B-TER-1)."""

    id: str
    name: str
    symbol: str
    blocks_sight: bool = False
    stops_movement: bool = False
    impassable: bool = False
    no_battle_after_entering: bool = False
    bold_occupant: bool = False
    dice_cap_into: int = 0
    """At most this many base dice against a unit on it (0: no cap)."""
    dice_cap_out: int = 0
    """At most this many base dice from a unit on it (0: no cap)."""
    cap_exempt_from_same: bool = False
    """The cap into it does not apply to an attacker on the same terrain (hills)."""
    provisional: bool = False


@attrs.frozen
class Weapon:
    """A weapon: its range and whether a sword-on-shield gives a bonus strike (B-DIE-3)."""

    id: str
    name: str
    range: int = 1
    bonus_strike: bool = True
    provisional: bool = False


@attrs.frozen
class UnitType:
    """A unit type (B-UNIT-1..3, B-ADV-1, B-ADV-2)."""

    id: str
    name: str
    kind: UnitKind
    banner: Banner
    weapon: str
    figures: int
    move: int
    """Hexes it may move and still battle."""
    move_without_battle: int = 0
    """Hexes it may move when it gives up battling (0: the same as ``move``)."""
    dice: int = 0
    """Battle dice (0: its banner's, B-UNIT-3)."""
    bold: bool = False
    """Always bold (dwarves, creatures)."""
    flags_ignorable_supported: int = 1
    """Flags it may ignore when bold (dwarves adjacent to two friends: 2)."""
    must_ignore_flags: int = 0
    """Flags it ignores whether or not it wants to (creatures: 1)."""
    hexes_per_flag: int = 1
    retreat_rolls: bool = False
    """Rolls a die per hex retreated, losing a figure per helmet of its banner (goblins)."""
    critical_only: bool = False
    """Dies only to critical hits (creatures)."""
    ignores_dice_caps: bool = False
    ignores_stops: tuple[str, ...] = ()
    """Terrain ids whose stop it ignores."""
    hurl_range: int = 0
    """A creature's ranged attack (the Hill Giant's rock): its range, 0 for none."""
    hurl_dice: int = 0
    hit_cancels_order: bool = False
    """A hit it scores makes the target lose its next order (Spider)."""
    mercenary: Literal["", "dwarves", "goblins"] = ""
    provisional: bool = False


@attrs.frozen
class CardOrder:
    """One typed ordering primitive: ``count`` units in ``sections`` of ``kinds`` (B-CMD-1)."""

    count: int
    sections: tuple[Section, ...] = ("left", "centre", "right")
    kinds: tuple[UnitKind, ...] = ()
    """Unit kinds it may order (empty: any)."""


@attrs.frozen
class CommandCard:
    """A section or tactic card composed from typed primitives (B-CMD-1, B-CMD-2)."""

    id: str
    name: str
    kind: Literal["section", "tactic"]
    copies: int = 1
    orders: tuple[CardOrder, ...] = ()
    melee_dice: int = 0
    """Dice added (on top of any cap) to melee battles of units it ordered."""
    ranged_dice: int = 0
    max_move: int = -1
    """The most hexes its units may move (-1: their own)."""
    move_bonus: int = 0
    heal: int = 0
    """Figures each ordered unit regains (never above its start)."""
    draw: int = 1
    """Cards drawn at the end of the turn, one kept (Scout: 2)."""
    copy_last: bool = False
    """Acts as the opponent's last played card (Counter-Attack)."""
    provisional: bool = False


@attrs.frozen
class LoreCard:
    """A lore card (B-ADV-5): cost, window, member and its effect from typed primitives."""

    id: str
    name: str
    member: Member
    cost: int
    window: Window
    effect: LoreEffect
    dice: int = 0
    range: int = 0
    amount: int = 1
    kinds: tuple[UnitKind, ...] = ()
    copies: int = 1
    provisional: bool = False


@attrs.frozen
class CouncilLevel:
    """The war council's highest member level and what it gives (B-ADV-4, provisional)."""

    id: str
    level: int
    tokens: int
    keep: int
    hand_limit: int
    offered: int = 4
    provisional: bool = False


@attrs.frozen
class Placement:
    """A scenario's unit, terrain or objective on a hex ``[column, row]``."""

    hex: tuple[int, int]
    side: str = ""
    unit: str = ""
    terrain: str = ""


@attrs.frozen
class Scenario:
    """A scenario (B-SCN-1). ``sides[0]`` has the bottom edge (the last row) as its own."""

    id: str
    name: str
    sides: tuple[str, str]
    first: str
    hands: dict[str, int]
    medals: int
    units: tuple[Placement, ...]
    terrain: tuple[Placement, ...] = ()
    objectives: tuple[Placement, ...] = ()
    lore: bool = False
    council: dict[str, dict[str, int]] = attrs.field(factory=dict)
    """Per side, the war-council members in play and their levels (lore scenarios)."""
    lore_terrain: tuple[Placement, ...] = ()
    """Hexes whose holder gains a lore token at the end of its turn."""
    provisional: bool = False


@attrs.frozen
class BattleLorePack:
    """The effective pack: every table by id, and the rule values."""

    base: PackInfo
    overlay: PackInfo | None
    sha256: str
    rules: Rules
    terrain: dict[str, Terrain]
    weapons: dict[str, Weapon]
    unit_types: dict[str, UnitType]
    cards: dict[str, CommandCard]
    lore: dict[str, LoreCard]
    council_levels: dict[str, CouncilLevel]
    scenarios: dict[str, Scenario]

    @property
    def pack_id(self) -> str:
        """The id logged in the header: the overlay's when there is one."""
        return self.overlay.id if self.overlay is not None else self.base.id
