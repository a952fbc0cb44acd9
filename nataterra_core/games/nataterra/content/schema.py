"""The content-pack schema: frozen attrs classes that TOML entries are structured into.

Every class mirrors one TOML table (field names are TOML keys; ``class_`` is written ``class``).
Closed vocabularies the engine implements (biomes, resources, abilities, bonus kinds, …) are
``Literal`` types, so a misspelt value is a schema error with a path, not a silent no-op.
Fields with defaults may be left out of the TOML. Ranges, references between entries and the
rulebook's binding facts are checked by the loader
(:mod:`nataterra_core.games.nataterra.content.loader`) and by
:mod:`nataterra_core.games.nataterra.content.binding`, not here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import attrs

__all__ = [
    "GRANTABLE_ABILITIES",
    "ZONE_TARGETED",
    "Ability",
    "AbilityId",
    "AttackDie",
    "Biome",
    "BiomeCard",
    "BiomeEffect",
    "BiomeEffectKind",
    "Bonus",
    "BonusKind",
    "CivAbility",
    "Civilisation",
    "CombatBoard",
    "ContentPack",
    "Cost",
    "CountBasis",
    "DeckBiome",
    "DieFace",
    "EffectKind",
    "EffectPrimitive",
    "EffectSpec",
    "EffectTarget",
    "Essence",
    "GroupSide",
    "Injury",
    "MapDef",
    "MapTile",
    "ModifierPlacement",
    "PackInfo",
    "PlacedZone",
    "Resource",
    "Role",
    "Side",
    "Structure",
    "StructureGroup",
    "TacticCard",
    "TacticOption",
    "TacticWindow",
    "TechCard",
    "TechEffect",
    "TechKind",
    "TechOption",
    "TerrainSide",
    "TileKind",
    "TilePlacement",
    "TileZone",
    "UnitClass",
    "UnitType",
    "Unlock",
    "VictoryCategory",
    "VictoryCondition",
    "ZoneFilter",
    "rotate_offset",
]

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
class PackInfo:
    """The ``[pack]`` table of a pack's ``pack.toml``: who made it and which version it is."""

    id: str
    version: str
    title: str = ""
    provisional: bool = False


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


@attrs.frozen
class Bonus:
    """A tech bonus effect (N-DEV-4); see :data:`BonusKind` for what ``amount`` counts."""

    kind: BonusKind
    amount: int


@attrs.frozen
class TechEffect:
    """A change to the unit type's main-board value: ``unit_cost`` needs ``resource``."""

    kind: EffectKind
    amount: int
    resource: Resource | None = None


@attrs.frozen
class TechOption:
    """Option A or B of a unit tech: researching it selects the group-card side of its letter."""

    title: str
    cost: Cost
    title_de: str = ""
    effects: tuple[TechEffect, ...] = ()
    bonuses: tuple[Bonus, ...] = ()


@attrs.frozen
class TechCard:
    """A tech card. Resource techs use ``resource``, ``cost`` and ``bonuses``; unit techs use
    ``unit``, ``option_a`` and ``option_b`` (N-COMP-3, N-DEV-3/4)."""

    id: str
    civ: str
    number: int
    kind: TechKind
    title: str
    title_de: str = ""
    resource: Resource | None = None
    cost: Cost | None = None
    bonuses: tuple[Bonus, ...] = ()
    unit: str | None = None
    option_a: TechOption | None = None
    option_b: TechOption | None = None
    provisional: bool = False

    def option(self, side: Side) -> TechOption:
        """Return option ``"a"`` or ``"b"`` of a unit tech; ``ValueError`` for a resource tech."""
        option = self.option_a if side == "a" else self.option_b
        if option is None:
            msg = f"tech {self.id!r} is a {self.kind} tech and has no option {side!r}"
            raise ValueError(msg)
        return option


TacticWindow = Literal[
    "movement",
    "resource",
    "development",
    "combat_setup",
    "before_combat",
    "combat",
    "after_combat",
]
"""When an option is played (N-TAC-1): a phase, or a combat window. ``combat`` options are
played before an active group acts (N-COMBAT-11); with ``also_before_combat`` (↑↑↑) also in
the before-combat window (N-COMBAT-9); ``after_combat`` (↓↓↓) options may be played during
the combat and resolve after it (N-TAC-1a, N-COMBAT-27); ``combat_setup`` options are played
"at the start of the combat", in the set-up before units join by Strategise (N-ABL-7)."""

EffectPrimitive = Literal[
    # in combat (rules §6, N-COMBAT-9/11/27)
    "attack_bonus",
    "armor_bonus",
    "remove_damage",
    "damage",
    "smite",
    "raise_initiative",
    "grant_ability",
    "no_retreat",
    "withdraw",
    "extra_embrace",
    "strategise_zone",
    "move_after_win",
    # anywhere
    "draw_tactic",
    "gain_resources",
    "gain_flare",
    # movement phase (N-MOV-6)
    "extra_movement",
    "grant_stealth",
    # development phase (N-DEV-1)
    "recruit",
    "replace_unit",
    "build_structure",
    "destroy_structure",
    "unlock_structure",
    "structure_discount",
    "tech_discount",
]
"""The effect primitives a card option composes: a closed set, each implemented once
(combat ones in :mod:`nataterra_core.games.nataterra.rules.combat.effects`, the others in
:mod:`nataterra_core.games.nataterra.rules.tactics`)."""

GRANTABLE_ABILITIES: tuple[str, ...] = (
    "pierce",
    "aim",
    "reinforce",
    "deception",
    "splash",
    "extra_attack",
)
"""The abilities a ``grant_ability`` effect may give a group until the end of the round."""

ZONE_TARGETED: frozenset[str] = frozenset(
    {
        "extra_movement",
        "grant_stealth",
        "recruit",
        "replace_unit",
        "build_structure",
        "destroy_structure",
        "strategise_zone",
    }
)
"""The primitives that act on a zone chosen when the option is played (``target = "zone"``)."""

EffectTarget = Literal[
    "player", "own_group", "enemy_group", "own_groups", "active_group", "any_player", "zone"
]
"""What an effect acts on: the player; a group chosen when playing (own or enemy); all own
groups; the active group (which must be the player's own); a player of the combat chosen
when playing; or a zone chosen when playing (``zone_filter`` says which zones qualify)."""

ZoneFilter = Literal[
    "any",
    "forest",
    "swamp",
    "hills",
    "desert",
    "lakeside",
    "structure",
    "unmoved_units",
    "own_unit",
    "adjacent_to_combat",
]
"""Which zones a zone-targeted effect may choose (always zones where the effect can act):
a biome; ``lakeside``, a lake or a zone next to one; ``structure``, one of the player's
structures (``structure`` names its kind when set); ``unmoved_units``, a zone holding at
least ``at_least`` of the player's combat units that have not moved this turn; ``own_unit``,
a zone that already holds one of the player's ``unit``; ``adjacent_to_combat``, next to the
combat zone."""

CountBasis = Literal["", "units", "structures", "unit_techs", "tactics_in_hand"]
"""What a ``gain_resources`` effect counts (``""``: a fixed gain): the player's ``unit`` in
zones passing ``zone_filter`` (on group-card ``side`` when set), the player's structures on
the map, the unit techs in play, or the tactic cards in hand (the played card included)."""


@attrs.frozen
class EffectSpec:
    """One effect of a card option: a primitive and its parameters.

    ``amount`` is a bonus, damage, count or number of cards; ``resources`` a gain or a
    discount; ``unit`` the unit recruited (or counted); ``replaces`` the unit a
    ``replace_unit`` removes; ``ability`` the ability ``grant_ability`` gives until the end
    of the round; ``per`` makes ``gain_resources`` a gain per counted thing.
    """

    kind: EffectPrimitive
    amount: int = 0
    target: EffectTarget = "player"
    resources: Cost = Cost()
    unit: str = ""
    replaces: str = ""
    ability: str = ""
    zone_filter: ZoneFilter = "any"
    structure: str = ""
    at_least: int = 0
    per: CountBasis = ""
    side: Literal["", "a", "b"] = ""


@attrs.frozen
class TacticOption:
    """One option of a tactic card (N-TAC-1): its window, costs, condition and effects.

    Costs are resources (``cost``), ``flare`` and ``discards`` (other tactic cards of the
    player's choice). ``condition = "win"`` makes an after-combat option resolve only if its
    player wins. ``units_in_biome`` makes an option playable only when the player has at
    least ``min_units`` combat units in a single zone of ``units_in_biome`` (N-TAC-1: "some
    options need a condition"). ``ruling`` says how the pack read a text that leaves the
    kind, target or amount unclear (N-TAC-4).
    """

    window: TacticWindow
    effects: tuple[EffectSpec, ...]
    cost: Cost = Cost()
    flare: int = 0
    discards: int = 0
    also_before_combat: bool = False
    condition: Literal["none", "win"] = "none"
    min_units: int = 0
    units_in_biome: ZoneFilter = "any"
    text: str = ""
    text_de: str = ""
    ruling: str = ""


@attrs.frozen
class TacticCard:
    """A tactic card: civilisation, position in its block of 15, titles and its options
    (N-TAC-1/4; options are compiled from the card text, empty until they are)."""

    id: str
    civ: str
    number: int
    title: str
    title_de: str = ""
    options: tuple[TacticOption, ...] = ()
    provisional: bool = False


@attrs.frozen
class StructureGroup:
    """The group stat line of a structure that fights (the Bone Tower, N-STR-3)."""

    class_: UnitClass
    attack: int
    armor: int
    health: int
    initiative: int
    abilities: tuple[Ability, ...] = ()


@attrs.frozen
class Structure:
    """A structure (N-STR-0..3). ``capacity`` is the cube slots of a Soul Prison."""

    id: str
    civ: str
    title: str
    cost: Cost
    copies: int
    title_de: str = ""
    radiance: bool = False
    start_unlocked: bool = False
    capacity: int | None = None
    combat: StructureGroup | None = None
    provisional: bool = False


BiomeEffectKind = Literal[
    "smite_each_round",
    "no_retreat",
    "discard_tactic",
    "no_tactics_at_start",
    "move_after_win",
    "ambush",
    "raise_initiative",
    "attack_bonus",
    "draw_tactic_if_win",
    "draw_tactic",
    "choose_player_discards",
    "no_backstab",
    "damage_per_group",
    "choose_player_no_retreat",
    "heal_each_round",
]
"""The main effects of the rulebook's biome cards (N-COMBAT-8), as the engine plays them."""


@attrs.frozen
class BiomeEffect:
    """A biome card's main effect: what it does and how much (damage, bonus, markers)."""

    kind: BiomeEffectKind
    amount: int = 0


@attrs.frozen
class BiomeCard:
    """A biome card: deck, main-effect target (``"all"`` or a civilisation id), two essences,
    and the main effect."""

    id: str
    biome: DeckBiome
    title: str
    target: str
    essences: tuple[str, ...]
    effect: BiomeEffect
    title_de: str = ""
    text_de: str = ""
    provisional: bool = False


@attrs.frozen
class VictoryCondition:
    """A victory-condition card (N-WIN-2/3): category, cubes to win, per-turn cap if any.

    ``thresholds`` are the counts a condition checked at the start of a turn asks for: the
    i-th one reached scores i + 1 cubes (Glory of the King: 3 buildings on mountains score 1,
    4 score 2). ``cost`` is what one cube costs where cubes are bought (Oath of Asha: wood and
    metal, any mix, this many in all). What each condition counts is rules logic
    (``rules/victory.py``), keyed by the condition's id.
    """

    id: str
    category: VictoryCategory
    title: str
    cubes: int
    title_de: str = ""
    cap_per_turn: int | None = None
    thresholds: tuple[int, ...] = ()
    cost: int = 0
    text_de: str = ""
    provisional: bool = False


@attrs.frozen
class TileZone:
    """A zone printed on a tile: key, axial offset inside the tile, biome, resource if any."""

    key: str
    at: tuple[int, int]
    biome: Biome
    resource: Resource | None = None


@attrs.frozen
class MapTile:
    """A map tile (``kind="map"``, numbered), the shared tile 0 (``"shared"``, one entry per side,
    strategy marker on ``centre``) or a civilisation's player tile (``"player"``, with ``base``)."""

    id: str
    kind: TileKind
    zones: tuple[TileZone, ...]
    number: int | None = None
    side: Side | None = None
    civ: str | None = None
    base: str | None = None
    centre: str | None = None
    provisional: bool = False


@attrs.frozen
class TilePlacement:
    """A tile on a map: zones go to ``rotate(offset, rotation) + at`` (60° steps)."""

    tile: str
    at: tuple[int, int]
    rotation: int = 0


@attrs.frozen
class ModifierPlacement:
    """A terrain modifier token: on a placed zone (``zone``) or beyond the edge (``at``)."""

    side: TerrainSide
    zone: str | None = None
    at: tuple[int, int] | None = None


def rotate_offset(at: tuple[int, int], steps: int) -> tuple[int, int]:
    """Turn an axial offset ``steps`` times by 60°: ``(q, r) -> (-r, q + r)`` each step."""
    q, r = at
    for _ in range(steps % 6):
        q, r = -r, q + r
    return (q, r)


@attrs.frozen
class PlacedZone:
    """A tile's zone where a map puts it: id ``"<tile id>.<zone key>"`` and axial hex ``at``."""

    id: str
    tile: MapTile
    zone: TileZone
    at: tuple[int, int]


@attrs.frozen
class MapDef:
    """A map: which civilisations play it, the tile placements and terrain modifiers."""

    id: str
    title: str
    players: tuple[str, ...]
    tiles: tuple[TilePlacement, ...]
    title_de: str = ""
    modifiers: tuple[ModifierPlacement, ...] = ()
    provisional: bool = False

    def placed_zones(self, tiles: Mapping[str, MapTile]) -> tuple[PlacedZone, ...]:
        """Every zone of the placed tiles, in placement then zone order.

        ``tiles`` must hold every tile the map places (``KeyError`` otherwise).
        """
        placed = []
        for placement in self.tiles:
            tile = tiles[placement.tile]
            for zone in tile.zones:
                q, r = rotate_offset(zone.at, placement.rotation)
                at = (q + placement.at[0], r + placement.at[1])
                placed.append(PlacedZone(f"{tile.id}.{zone.key}", tile, zone, at))
        return tuple(placed)


@attrs.frozen(eq=False)
class ContentPack:
    """A loaded, validated content pack: the provisional pack with an optional overlay applied.

    Collections map ids to entries in *pack order*: the base pack's files sorted by path, entries
    in file order; an overlay entry replacing a base entry keeps its place, new overlay entries
    follow in the overlay's file order. Decks start in pack order (design.md §3).
    """

    base: PackInfo
    overlay: PackInfo | None
    sha256: str
    die: AttackDie
    essences: Mapping[str, Essence]
    civilisations: Mapping[str, Civilisation]
    units: Mapping[str, UnitType]
    techs: Mapping[str, TechCard]
    tactics: Mapping[str, TacticCard]
    structures: Mapping[str, Structure]
    biome_cards: Mapping[str, BiomeCard]
    victory_conditions: Mapping[str, VictoryCondition]
    map_tiles: Mapping[str, MapTile]
    maps: Mapping[str, MapDef]

    @property
    def pack_id(self) -> str:
        """``base`` or ``base+overlay``: the pack ids a game header records."""
        return self.base.id if self.overlay is None else f"{self.base.id}+{self.overlay.id}"

    @property
    def version(self) -> str:
        """The base version, with the overlay's appended after ``+`` when there is one."""
        if self.overlay is None:
            return self.base.version
        return f"{self.base.version}+{self.overlay.version}"

    def units_of(self, civ: str) -> tuple[UnitType, ...]:
        """The unit types of ``civ`` in roster (board) order."""
        return tuple(self.units[u] for u in self.civilisations[civ].units)

    def worker_of(self, civ: str) -> UnitType:
        """The worker type of ``civ``."""
        return next(u for u in self.units_of(civ) if u.role == "worker")

    def tech_deck(self, civ: str) -> tuple[TechCard, ...]:
        """The tech deck of ``civ`` sorted by card number, card 1 on top (N-SETUP-4)."""
        return tuple(sorted((t for t in self.techs.values() if t.civ == civ), key=_by_number))

    def tactic_deck(self, civ: str) -> tuple[TacticCard, ...]:
        """The tactic cards of ``civ`` in card-number order, before shuffling."""
        return tuple(sorted((t for t in self.tactics.values() if t.civ == civ), key=_by_number))

    def biome_deck(self, biome: str) -> tuple[BiomeCard, ...]:
        """The biome cards of ``biome`` in pack order, before shuffling; mountain and lake have
        no deck, so theirs is empty (N-COMBAT-7)."""
        return tuple(c for c in self.biome_cards.values() if c.biome == biome)


def _by_number(card: TechCard | TacticCard) -> int:
    return card.number
