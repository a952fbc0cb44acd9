"""Content-pack schema, part 2: tech, tactic and biome cards with their effect primitives,
structures and victory conditions (see :mod:`.schema`)."""

from __future__ import annotations

from typing import Literal

import attrs

from .units import (
    Ability,
    BonusKind,
    Cost,
    DeckBiome,
    EffectKind,
    Resource,
    Side,
    TechKind,
    UnitClass,
    VictoryCategory,
)


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
    resources: Cost = attrs.field(factory=Cost)
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
    cost: Cost = attrs.field(factory=Cost)
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
