"""Combat state: groups on the combat boards and where the combat stands (rules §6).

A :class:`Combat` is one fight in one zone between an attacker and a defender. Its
``stage`` says what happens next; the flow module turns a stage into either an automatic
step (events) or a decision some seat must take (legal commands). Group statistics are
copied from the content pack when a group is deployed, so the hot path reads plain ints.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Literal

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack, Cost, GroupSide, UnitType
from nataterra_core.kernel.secrets import PUBLIC

from ..stock import Resources

__all__ = [
    "INITIATIVE_CAP",
    "ROUND_CAP",
    "Boost",
    "Combat",
    "Force",
    "Group",
    "SlotKind",
    "Stage",
    "combat_unit",
    "make_group",
]

INITIATIVE_CAP = 10  # N-COMBAT-6: no marker goes above 10
ROUND_CAP = 30  # N-COMBAT-29

SlotKind = Literal["melee", "ranged", "flex"]
Stage = Literal[
    "deploy",
    "opening",
    "redirect",
    "effects",
    "round_start",
    "pick",
    "heal",
    "action",
    "deception",
    "after_attack",
    "round_end",
    "round_effects",
    "retreat_defender",
    "retreat_attacker",
    "backstab",
    "decided",
    "injuries",
    "retreat_move",
    "aftermath",
    "end",
]


class Force(msgspec.Struct, frozen=True, order=True, omit_defaults=True):
    """``count`` units of one type and owner taking part (or waiting to deploy); ``origin``
    is the adjacent zone they joined from by Strategise (N-ABL-7), empty for the zone's own."""

    owner: Annotated[str, PUBLIC]
    unit: Annotated[str, PUBLIC]
    count: Annotated[int, PUBLIC]
    origin: Annotated[str, PUBLIC] = ""


class Group(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A group on a combat board: its fixed statistics and its tokens.

    ``cls`` is the unit class; ``slot`` where it sits. A melee group in a ranged slot may
    only support (N-COMBAT-5) unless ``flexible`` (Gargoyle, N-FAQ-17). ``bloodthirst``
    counts Bloodthirst instances granted by Warcry Totems (N-STR-3), on top of the Beasts'
    own (N-CIV-4), whatever the group's civilisation.
    """

    # The fields attacks and activations change come first (as Combat's, for replace).
    units: Annotated[int, PUBLIC]
    damage: Annotated[int, PUBLIC] = 0
    attack_bonus: Annotated[int, PUBLIC] = 0
    armor_bonus: Annotated[int, PUBLIC] = 0
    acted: Annotated[int, PUBLIC] = (
        0  # the round in which it last acted (0: not yet); a new round needs no reset
    )
    id: Annotated[int, PUBLIC]
    owner: Annotated[str, PUBLIC]
    unit: Annotated[str, PUBLIC]
    slot: Annotated[SlotKind, PUBLIC]
    cls: Annotated[str, PUBLIC]
    attack: Annotated[int, PUBLIC]
    armor: Annotated[int, PUBLIC]
    health: Annotated[int, PUBLIC]
    injury: Annotated[int, PUBLIC] = 0
    fee: Annotated[Resources, PUBLIC] = Resources()
    pierce: Annotated[int, PUBLIC] = 0
    heal: Annotated[int, PUBLIC] = 0
    aim: Annotated[int, PUBLIC] = 0
    reinforce: Annotated[int, PUBLIC] = 0
    extra: Annotated[int, PUBLIC] = 0
    deception: Annotated[int, PUBLIC] = 0
    retaliation: Annotated[int, PUBLIC] = 0
    splash: Annotated[int, PUBLIC] = 0
    flexible: Annotated[bool, PUBLIC] = False
    bloodthirst: Annotated[int, PUBLIC] = 0
    origin: Annotated[str, PUBLIC] = ""
    initiative: Annotated[int, PUBLIC] = 0

    @property
    def alive(self) -> bool:
        """Still on the board (N-COMBAT-17)."""
        return self.units > 0

    @property
    def melee_target(self) -> bool:
        """Counts as a melee group for targeting (N-COMBAT-13: ranged groups in melee slots too)."""
        return self.cls == "melee" or self.slot == "melee"

    @property
    def support_only(self) -> bool:
        """A melee group waiting in a ranged slot can only support (N-COMBAT-5)."""
        from .board import support_only  # the rule's one home; board reads this module

        return support_only(self)


class Boost(msgspec.Struct, frozen=True, omit_defaults=True):
    """What structures give a player's groups whose units stand in their reach (N-STR-3):
    attack bonus per unit (Outpost), armor bonus per group (Barricade), Deception levels
    (Outpost), Reinforce levels (Reinforcement post) and Bloodthirst instances (Warcry
    Totem)."""

    attack_per_unit: Annotated[int, PUBLIC] = 0
    armor_per_group: Annotated[int, PUBLIC] = 0
    deception: Annotated[int, PUBLIC] = 0
    reinforce: Annotated[int, PUBLIC] = 0
    bloodthirst: Annotated[int, PUBLIC] = 0


@lru_cache(maxsize=4096)
def make_group(
    pack: ContentPack,
    group_id: int,
    owner: str,
    unit_id: str,
    units: int,
    slot: SlotKind,
    side: Literal["a", "b"] | None,
    origin: str = "",
    boost: Boost | None = None,
) -> Group:
    """A freshly deployed group of ``units`` (N-COMBAT-4), with its tech's bonus icons
    given per unit at the start of the combat (N-COMBAT-20) and its structures' ``boost``.
    A function of values (the pack is hashed by identity): the many battles of one
    description deploy the same groups, so each is made once."""
    template = _template(pack, unit_id, side)
    group = _replace(
        template,
        id=group_id,
        owner=owner,
        units=units,
        slot=slot,
        origin=origin,
        attack_bonus=template.attack_bonus * units,
        armor_bonus=template.armor_bonus * units,
    )
    if boost is None:
        return group
    return _replace(
        group,
        attack_bonus=group.attack_bonus + boost.attack_per_unit * units,
        armor_bonus=group.armor_bonus + boost.armor_per_group,
        deception=group.deception + boost.deception,
        reinforce=group.reinforce + boost.reinforce,
        bloodthirst=group.bloodthirst + boost.bloodthirst,
    )


@lru_cache(maxsize=256)
def combat_unit(pack: ContentPack, unit_id: str) -> UnitType:
    """The stat line a combat group of ``unit_id`` fights with: a unit type, or a structure
    that fights as a group (the Bone Tower, N-STR-3: one unit, no injuries, no movement)."""
    unit = pack.units.get(unit_id)
    if unit is not None:
        return unit
    structure = pack.structures[unit_id]
    stats = structure.combat
    if stats is None:
        raise KeyError(f"{unit_id} does not fight")
    side = GroupSide(
        attack=stats.attack, armor=stats.armor, health=stats.health, abilities=stats.abilities
    )
    return UnitType(
        id=structure.id,
        civ=structure.civ,
        title=structure.title,
        role="combat",
        class_=stats.class_,
        unlock="start",
        cost=Cost(),
        movement=0,
        initiative=stats.initiative,
        group_size=1,
        tokens=structure.copies,
        side_a=side,
        side_b=side,
    )


@lru_cache(maxsize=1024)
def _template(pack: ContentPack, unit_id: str, side: Literal["a", "b"] | None) -> Group:
    """A unit type's group statistics on one card side, read once per pack (the pack is
    immutable and hashed by identity). Bonus tokens here are per unit."""
    unit = combat_unit(pack, unit_id)
    card = unit.side(side or "a")
    with_tech = side is not None
    levels: dict[str, int] = {}
    for ability in card.abilities:  # levels stack (rules §12); tech abilities need the tech
        if with_tech or not ability.tech:
            levels[ability.id] = levels.get(ability.id, 0) + ability.level
    injury = card.injury
    return Group(
        id=-1,
        owner="",
        unit=unit_id,
        units=0,
        slot="melee",
        cls=unit.class_,
        attack=card.attack,
        armor=card.armor,
        health=card.health,
        injury=injury.threshold if injury else 0,
        fee=Resources.of(injury.fee) if injury else Resources(),
        pierce=levels.get("pierce", 0),
        heal=levels.get("heal", 0),
        aim=levels.get("aim", 0),
        reinforce=levels.get("reinforce", 0),
        extra=levels.get("extra_attack", 0),
        deception=levels.get("deception", 0),
        retaliation=levels.get("retaliation", 0),
        splash=levels.get("splash", 0),
        flexible=card.flexible_slot,
        attack_bonus=card.attack_bonus if with_tech else 0,
        armor_bonus=card.armor_bonus if with_tech else 0,
    )


_replace = msgspec.structs.replace


class Combat(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One combat in progress.

    ``reserve`` holds units not on a board (not yet deployed, or sitting out for want of
    slots, N-COMBAT-4). ``initiative`` maps ``"owner/unit"`` to that type's marker;
    ``order`` lists group ids by descending initiative, the attacker's first on ties
    (N-COMBAT-10). ``melee_waiting`` says a melee group waits in a ranged slot; ``tied``
    that two groups of one side share an initiative marker (without that, the pick stage
    never asks an owner to choose, N-COMBAT-10).

    The biome card's effect is held by ``holders``; ``no_retreat``, ``no_backstab`` and
    ``no_opening_tactics`` list the seats its flags bind; ``pending`` queues (seat, choice)
    pairs asked before anything else; ``ambush`` the units that leave when it ends;
    ``movable`` the winner's units Quick Gains may still move. ``deferred`` holds
    after-combat tactic options played during the combat (seat, card, option, target); the
    window flags say those windows have opened; ``standing_passes`` lists the seats no
    later window of this combat asks (N-COMBAT-9). The fighters' tactic hands, stocks and
    flare are their host's (the game's players, the sandbox's state; :class:`~.host.Host`):
    the combat keeps no copy. ``joined`` lists the units that joined by Strategise.
    ``killed`` and ``injured`` count units lost per owner (only direct kills score,
    N-COMBAT-26); ``destroyed`` lists the groups an attack (or Retaliation) wiped out, in
    order: the groups destroyed directly, which victory conditions count (N-WIN-3).
    ``roll_face`` is a rolled die face index awaiting a Deception choice.
    ``boosts`` maps ``"owner@zone"`` to what that owner's structures give its groups whose
    units stand in ``zone`` (the combat zone, or where Strategise units joined from).
    Tactic options leave: ``granted``, (group, ability, levels) given until the round ends;
    ``withdrawing``, seats that retreat at the end of the round; ``extra_embraces``, seats
    with a free Spirit's Embrace at the next round's start; ``strategise_zones``, (seat,
    zone) pairs whose units may join by Strategise. ``setup_window`` says the set-up
    window has opened; ``moved_after_win`` that units moved after the win (Quick Gains or
    a card: the grants do not stack).
    Team games (N-TEAM-4): ``allies`` maps each further player of a side to its lead (the
    attacker or the defender); a lead decides its side's retreat; ``stabbers`` are the
    players of the other side still to make (or decline) their one backstab (N-COMBAT-24).

    A combat is a value built from values, never part of a reference cycle, so the garbage
    collector does not track it (``gc=False``, as ``GameState``): every fold makes one.
    """

    # The fields the rounds' folds replace come first: msgspec.structs.replace finds each
    # keyword by a scan over the fields in their order (a hot path: every fold copies).
    stage: Annotated[Stage, PUBLIC] = "deploy"
    groups: Annotated[tuple[Group, ...], PUBLIC] = ()
    active: Annotated[int, PUBLIC] = -1
    attacks_made: Annotated[int, PUBLIC] = 0
    roll_face: Annotated[int, PUBLIC] = -1
    pending_gain: Annotated[int, PUBLIC] = 0
    round: Annotated[int, PUBLIC] = 0
    target: Annotated[int, PUBLIC] = -1
    reserve: Annotated[tuple[Force, ...], PUBLIC] = ()
    initiative: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    killed: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    destroyed: Annotated[tuple[int, ...], PUBLIC] = ()
    zone: Annotated[str, PUBLIC]
    biome: Annotated[str, PUBLIC]
    attacker: Annotated[str, PUBLIC]
    defender: Annotated[str, PUBLIC]
    sides: Annotated[dict[str, dict[str, Literal["a", "b"]]], PUBLIC]
    deploying: Annotated[str, PUBLIC] = ""
    order: Annotated[tuple[int, ...], PUBLIC] = ()
    melee_waiting: Annotated[bool, PUBLIC] = False
    tied: Annotated[bool, PUBLIC] = False
    biome_card: Annotated[str | None, PUBLIC] = None
    revealed: Annotated[bool, PUBLIC] = False
    holders: Annotated[tuple[str, ...], PUBLIC] = ()
    no_retreat: Annotated[tuple[str, ...], PUBLIC] = ()
    no_backstab: Annotated[tuple[str, ...], PUBLIC] = ()
    no_opening_tactics: Annotated[tuple[str, ...], PUBLIC] = ()
    pending: Annotated[tuple[tuple[str, str], ...], PUBLIC] = ()
    initiative_bonus: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    boosts: Annotated[dict[str, Boost], PUBLIC] = msgspec.field(default_factory=dict)
    ambush: Annotated[tuple[Force, ...], PUBLIC] = ()
    setup_window: Annotated[bool, PUBLIC] = False
    before_window: Annotated[bool, PUBLIC] = False
    after_window: Annotated[bool, PUBLIC] = False
    deferred: Annotated[tuple[tuple[str, str, int, int | None], ...], PUBLIC] = ()
    standing_passes: Annotated[tuple[str, ...], PUBLIC] = ()
    strategise_offered: Annotated[bool, PUBLIC] = False
    joined: Annotated[tuple[Force, ...], PUBLIC] = ()
    movable: Annotated[tuple[tuple[str, int], ...], PUBLIC] = ()
    backstab: Annotated[bool, PUBLIC] = False
    retreating: Annotated[str | None, PUBLIC] = None
    winner: Annotated[str | None, PUBLIC] = None
    decided: Annotated[bool, PUBLIC] = False
    injuries: Annotated[tuple[int, ...], PUBLIC] = ()
    injured: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    granted: Annotated[tuple[tuple[int, str, int], ...], PUBLIC] = ()
    withdrawing: Annotated[tuple[str, ...], PUBLIC] = ()
    extra_embraces: Annotated[tuple[str, ...], PUBLIC] = ()
    strategise_zones: Annotated[tuple[tuple[str, str], ...], PUBLIC] = ()
    moved_after_win: Annotated[bool, PUBLIC] = False
    allies: Annotated[dict[str, str], PUBLIC] = msgspec.field(default_factory=dict)
    stabbers: Annotated[tuple[str, ...], PUBLIC] = ()

    def side(self, seat: str) -> str:
        """The side ``seat`` fights on, named by its lead (the attacker or the defender);
        an ally fights on its lead's side (N-TEAM-4)."""
        return self.allies.get(seat, seat)

    def opponent(self, seat: str) -> str:
        """The lead of the other side of this combat."""
        return self.defender if self.allies.get(seat, seat) == self.attacker else self.attacker

    def seats_of(self, lead: str) -> tuple[str, ...]:
        """The players on ``lead``'s side: the lead, then its allies."""
        if not self.allies:
            return (lead,)
        return (lead, *(s for s, side in self.allies.items() if side == lead))

    @property
    def seats(self) -> tuple[str, ...]:
        """Every player of the combat: the attacker's side, then the defender's."""
        if not self.allies:  # two players: asked at every step of the flow
            return (self.attacker, self.defender)
        return (*self.seats_of(self.attacker), *self.seats_of(self.defender))

    def groups_of(self, owner: str) -> list[Group]:
        """``owner``'s groups still on the board."""
        return [g for g in self.groups if g.owner == owner and g.units > 0]

    def has_groups(self, owner: str) -> bool:
        """Whether ``owner`` still has a group on the board."""
        return any(g.units and g.owner == owner for g in self.groups)

    def side_has_groups(self, lead: str) -> bool:
        """Whether anyone on ``lead``'s side still has a group on the board (N-COMBAT-17)."""
        from .board import side_stands  # the rule's one home; board reads this module

        return side_stands(self, lead)

    def reserve_of(self, owner: str) -> list[Force]:
        """``owner``'s units not on a board."""
        return [f for f in self.reserve if f.owner == owner and f.count > 0]
