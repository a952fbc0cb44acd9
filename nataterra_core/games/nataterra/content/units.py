"""Content-pack schema, part 1: the closed vocabularies, the attack die, essences, costs,
abilities, units and civilisations (see :mod:`.schema`)."""

from __future__ import annotations

from typing import Literal

import attrs

from nataterra_core.packs import PackInfo as PackInfo

Resource = Literal["food", "wood", "metal"]
Biome = Literal["desert", "forest", "hills", "swamp", "mountain", "lake"]
DeckBiome = Literal["desert", "forest", "hills", "swamp"]
"""Biomes that have a biome-card deck (N-COMBAT-7: none for mountain or lake)."""
UnitClass = Literal["melee", "ranged"]
Role = Literal["worker", "combat"]
Unlock = Literal["start", "left_tile", "right_tile"]
"""Where a unit type starts: unlocked, or under the left or right civilisation tile (N-COMP-1)."""
Side = Literal["a", "b"]
AbilityId = Literal[
    "pierce",
    "stealth",
    "heal",
    "aim",
    "reinforce",
    "extra_attack",
    "strategise",
    "deception",
    "retaliation",
    "flying",
    "splash",
]
"""Unit abilities of rules §12 (N-ABL-*); Radiance is a structure flag, not a unit ability."""
CivAbility = Literal["for_the_king", "stoneskin", "flare", "bloodthirst"]
"""Civilisation abilities N-CIV-1..4."""
BonusKind = Literal[
    "draw_tactic", "draw_tech", "add_workers", "unlock_tile", "unlock_structure", "add_units"
]
"""Tech bonus effects (N-DEV-4). ``amount`` is a card count, except for ``draw_tech``, where it
is the number of the tech card drawn, and ``unlock_tile``, where it is the number of tokens of
each unit type on the tile moved to the pool."""
EffectKind = Literal["unit_cost", "movement", "initiative"]
"""Changes a unit tech makes to the unit type's main-board values, besides flipping its card."""
TechKind = Literal["resource", "unit"]
VictoryCategory = Literal["learning", "strategy", "war", "glory"]
TileKind = Literal["map", "player", "shared"]
TerrainSide = Literal["mountain", "lake"]


@attrs.frozen
class DieFace:
    """One face of the attack die: its value and how many sword symbols it shows (N-COMP-5)."""

    value: int
    swords: int = 0


@attrs.frozen
class AttackDie:
    """The d10 attack die. Its faces are in pack order, which the dice stream indexes."""

    faces: tuple[DieFace, ...]
    provisional: bool = False


@attrs.frozen
class Essence:
    """An essence: civilisations have two, biome cards show two (N-COMBAT-7)."""

    id: str
    title: str
    title_de: str = ""
    provisional: bool = False


@attrs.frozen
class Cost:
    """A price in resources; keys left out of the TOML cost nothing."""

    food: int = 0
    wood: int = 0
    metal: int = 0

    def get(self, resource: Resource) -> int:
        """Return the amount of ``resource`` in this cost."""
        amount: int = getattr(self, resource)
        return amount


@attrs.frozen
class Injury:
    """Injury threshold and the fee that saves a unit (N-COMBAT-26)."""

    threshold: int
    fee: Cost


@attrs.frozen
class Ability:
    """An ability on a group card. ``tech`` abilities count only once a tech selected the side."""

    id: AbilityId
    level: int = 1
    tech: bool = False


@attrs.frozen
class GroupSide:
    """One side (A or B) of a unit type's group card.

    ``attack_bonus`` and ``armor_bonus`` are the tech's bonus icons: with a tech that selected this
    side, the group gets that many tokens per unit at the start of each combat (N-COMBAT-20).
    ``injury`` is ``None`` when the card prints no injury value: no injuries (N-FAQ-21).
    ``flexible_slot`` lets the group sit in melee or ranged slots (N-FAQ-17).
    """

    attack: int
    armor: int
    health: int
    injury: Injury | None = None
    abilities: tuple[Ability, ...] = ()
    attack_bonus: int = 0
    armor_bonus: int = 0
    flexible_slot: bool = False

    def ability_level(self, ability: AbilityId, *, with_tech: bool) -> int:
        """Return the summed level of ``ability`` (levels stack, §12); 0 when absent.

        ``with_tech`` says whether a tech selected this side; without it, tech abilities are
        ignored (N-DEV-5).
        """
        return sum(a.level for a in self.abilities if a.id == ability and (with_tech or not a.tech))


@attrs.frozen
class UnitType:
    """A unit type's stat line (N-COMP-2): main-board values plus both group-card sides."""

    id: str
    civ: str
    title: str
    role: Role
    class_: UnitClass
    unlock: Unlock
    cost: Cost
    movement: int
    initiative: int
    group_size: int
    tokens: int
    side_a: GroupSide
    side_b: GroupSide
    title_de: str = ""
    hero: bool = False
    provisional: bool = False

    def side(self, side: Side) -> GroupSide:
        """Return group-card side ``"a"`` or ``"b"``."""
        return self.side_a if side == "a" else self.side_b


@attrs.frozen
class CombatBoard:
    """Slots of a civilisation's combat board by kind (N-COMBAT-5)."""

    melee: int
    ranged: int
    flex: int

    @property
    def total(self) -> int:
        """All slots of the board."""
        return self.melee + self.ranged + self.flex


@attrs.frozen
class Civilisation:
    """A civilisation: its roster (board order), essences, ability, board and structures."""

    id: str
    title: str
    essences: tuple[str, ...]
    ability: CivAbility
    combat_board: CombatBoard
    units: tuple[str, ...]
    structures: tuple[str, ...]
    title_de: str = ""
    provisional: bool = False
