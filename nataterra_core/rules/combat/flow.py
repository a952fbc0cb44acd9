"""The combat flow (rules §6): what happens next, who decides, and what each event does.

The flow is a small machine over :attr:`Combat.stage`. At every point exactly one of two
things holds: either some seat must decide (:func:`decision` gives the seat and its legal
commands), or the next step is automatic (:func:`auto_step` gives its events). ``decide``
turns a command into events and then runs automatic steps until the next decision, so a
command's record holds everything up to the next choice. :func:`evolve` folds events and
never draws dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import msgspec

from nataterra_core.content.schema import ContentPack, Side
from nataterra_core.kernel import Command, DiceStream, Event, IllegalCommand

from ..hexmap import GameMap
from ..stock import Resources
from ..tactics import TacticCardDrawn
from . import biome, tactics
from .damage import (
    attack_total,
    damage_dealt,
    heal_amount,
    resolve_damage,
    retaliation_damage,
    support_amount,
)
from .messages import (
    ActivationEnded,
    Aftermath,
    AmbushJoined,
    ArmorClaimed,
    Attack,
    AttackResolved,
    AttackRolled,
    Backstab,
    BackstabDeclared,
    BackstabDeclined,
    BiomeCardRevealed,
    BiomeTargetFixed,
    BonusGranted,
    ChoiceResolved,
    ChooseGroup,
    ClaimArmor,
    CombatDecided,
    CombatEnded,
    CombatOpened,
    CombatStarted,
    DamageRemoved,
    DeferredResolved,
    DeployGroup,
    DeploymentEnded,
    EffectDamage,
    ExtraAttackBegun,
    GroupActivated,
    GroupDeployed,
    Healed,
    HealGroup,
    InitiativeRaised,
    InjuryResolved,
    PassTactics,
    PayInjury,
    PlayerChosen,
    RedirectBiome,
    Reroll,
    Retreat,
    RetreatChosen,
    RetreatMoveStarted,
    RetreatUnits,
    RoundClosing,
    RoundEffectsResolved,
    RoundEnded,
    RoundStarted,
    SpiritsEmbraced,
    StoneskinHardened,
    Strategise,
    StrategiseDone,
    StrategiseJoined,
    StrategiseOffered,
    Support,
    Supported,
    TacticDiscarded,
    TacticPlayed,
    UnitsMovedAfterWin,
    UnitsRetreated,
    WindowOpened,
)
from .model import Combat, Force, Group, SlotKind, combat_unit, make_group, replace_group

__all__ = [
    "ROUND_CAP",
    "CombatEnv",
    "advance",
    "auto_step",
    "combat_from_start",
    "decide_combat",
    "decision",
    "evolve_combat",
    "start_combat",
]

ROUND_CAP = 30  # N-COMBAT-29
INITIATIVE_CAP = 10  # N-COMBAT-6

# The rule a refused command breaks, by the stage that asked for a decision.
STAGE_RULES = {
    "strategise": "N-ABL-7",
    "redirect": "N-COMBAT-8",
    "effects": "N-COMBAT-8",
    "round_effects": "N-COMBAT-8",
    "aftermath": "N-COMBAT-28",
    "deploy": "N-COMBAT-4",
    "pick": "N-COMBAT-10",
    "heal": "N-COMBAT-11a",
    "action": "N-COMBAT-12",
    "deception": "N-ABL-8",
    "after_attack": "N-CIV-1",
    "retreat_defender": "N-COMBAT-22",
    "retreat_attacker": "N-COMBAT-22",
    "backstab": "N-COMBAT-23",
    "injuries": "N-COMBAT-26",
    "retreat_move": "N-COMBAT-23",
}


BiomeDraw = Callable[[Combat, DiceStream], tuple[str | None, tuple[Event, ...]]]
"""Draws the combat's biome card: the card (or ``None``) and the events that drew it."""


def _no_biome_card(combat: Combat, dice: DiceStream) -> tuple[str | None, tuple[Event, ...]]:
    return None, ()


class CombatEnv:
    """What combat reads besides its own state: the pack, the map if there is one, and
    how a biome card is drawn (the game's decks; the sandbox names one or none).

    ``blocked(seat, zone)`` says whether an enemy unit, structure or base bars ``seat``
    from retreating into ``zone`` (N-COMBAT-23); without a map (the sandbox) retreating
    units simply leave the combat.
    """

    __slots__ = (
        "_decided",
        "_folds",
        "after_win",
        "ambush",
        "blocked",
        "civ_ability",
        "draw_biome",
        "draw_tactics",
        "essences",
        "faces",
        "flare_costs",
        "map",
        "pack",
        "strategists",
    )

    def __init__(
        self,
        pack: ContentPack,
        game_map: GameMap | None = None,
        blocked: Callable[[str, str], bool] | None = None,
        draw_biome: BiomeDraw | None = None,
        *,
        draw_tactics: Callable[[str, DiceStream], tuple[Event, ...]] | None = None,
        flare_costs: Callable[[str, str], int | None] | None = None,
        ambush: Callable[[str], str | None] | None = None,
        after_win: Callable[[str, str], list[str]] | None = None,
        strategists: Callable[[str, Combat], list[tuple[str, str, int]]] | None = None,
    ) -> None:
        # Memos of pure functions keyed by object identity (states are immutable): the
        # decision last computed, and the folds ``decide`` made, which ``evolve`` then
        # replays for free. Hot in the battle calculator.
        self._decided: tuple[Combat, tuple[str, list[Command]] | None] | None = None
        self._folds: dict[int, tuple[Event, Combat, Combat]] = {}
        self.pack = pack
        self.map = game_map
        self.blocked = blocked or (lambda seat, zone: False)
        self.draw_biome = draw_biome or _no_biome_card
        # Without a game (the sandbox) there are no hands, decks, pools or map to act on.
        self.draw_tactics = draw_tactics or (lambda seat, dice: ())
        self.flare_costs = flare_costs or (lambda seat, zone: None)
        self.ambush = ambush or (lambda seat: None)
        self.after_win = after_win or (lambda seat, unit: [])
        self.strategists = strategists or (lambda seat, combat: [])
        self.faces = pack.die.faces
        self.civ_ability = {civ.id: civ.ability for civ in pack.civilisations.values()}
        self.essences = {civ.id: frozenset(civ.essences) for civ in pack.civilisations.values()}

    def draw_tactic(self, seat: str, dice: DiceStream) -> tuple[Event, ...]:
        """Events that draw ``seat`` one tactic card (N-DEV-6 reshuffles an empty deck)."""
        return self.draw_tactics(seat, dice)

    def flare_cost(self, seat: str, zone: str) -> int | None:
        """N-COMBAT-8: flare ``seat`` pays to redirect a biome effect in ``zone``."""
        return self.flare_costs(seat, zone)

    def ambush_unit(self, seat: str) -> str | None:
        """Ambush: the unit type whose token joins for ``seat`` (``None``: none can)."""
        return self.ambush(seat)

    def after_win_destinations(self, seat: str, unit: str) -> list[str]:
        """Quick Gains: where ``seat``'s ``unit`` may move from the combat zone."""
        return self.after_win(seat, unit)

    def fold(self, combat: Combat, event: Event) -> Combat:
        """:func:`evolve_combat`, remembered for :meth:`refold`."""
        after = evolve_combat(self.pack, combat, event)
        self._folds[id(event)] = (event, combat, after)
        return after

    def refold(self, combat: Combat, event: Event) -> Combat:
        """:func:`evolve_combat`, free when ``decide`` already folded this very event."""
        known = self._folds.get(id(event))
        if known is not None and known[0] is event and known[1] is combat:
            return known[2]
        return evolve_combat(self.pack, combat, event)


# -- starting ---------------------------------------------------------------------------


def combat_from_start(
    event: CombatStarted, hands: dict[str, tuple[str, ...]] | None = None
) -> Combat:
    """The combat a :class:`CombatStarted` event opens: the attacker deploys first.

    ``hands`` are the sides' tactic hands, taken from the game (never logged in the event).
    """
    return Combat(
        hands=dict(hands or {}),
        zone=event.zone,
        biome=event.biome,
        attacker=event.attacker,
        defender=event.defender,
        sides=event.sides,
        stocks=event.stocks,
        reserve=event.forces,
        deploying=event.attacker,
        flare=dict(event.flare),
    )


def start_combat(
    zone: str,
    biome: str,
    attacker: str,
    defender: str,
    forces: Sequence[Force],
    sides: dict[str, dict[str, Side]],
    stocks: dict[str, Resources],
    flare: dict[str, int] | None = None,
) -> CombatStarted:
    """The event that opens a combat (N-COMBAT-1..3); deployment follows."""
    return CombatStarted(
        zone=zone,
        biome=biome,
        attacker=attacker,
        defender=defender,
        forces=tuple(sorted(forces)),
        sides={owner: dict(s) for owner, s in sides.items()},
        stocks=dict(stocks),
        flare=dict(flare or {}),
    )


# -- decisions --------------------------------------------------------------------------


def _slot_counts(env: CombatEnv, combat: Combat, seat: str) -> dict[str, int]:
    board = env.pack.civilisations[seat].combat_board
    free = {"melee": board.melee, "ranged": board.ranged, "flex": board.flex}
    for g in combat.groups:
        if g.owner == seat and g.units > 0:
            free[g.slot] -= 1
    return free


def _deploy_options(env: CombatEnv, combat: Combat, seat: str) -> list[Command]:
    free = _slot_counts(env, combat, seat)
    options: list[Command] = []
    for force in combat.reserve_of(seat):
        unit = combat_unit(env.pack, force.unit)
        side = combat.sides.get(seat, {}).get(force.unit)
        flexible = unit.side(side or "a").flexible_slot
        own: tuple[SlotKind, ...] = ("melee", "ranged") if flexible else (unit.class_,)
        slots: list[SlotKind] = [s for s in (*own, "flex") if free[s] > 0]
        if not slots:  # N-COMBAT-5: the other class's slots only once these are full
            other: SlotKind = "ranged" if unit.class_ == "melee" else "melee"
            slots = [other] if free[other] > 0 else []
        size = unit.group_size
        groups = -(-force.count // size)
        # N-COMBAT-4: only splits that use the minimum number of groups.
        sizes = [
            k
            for k in range(1, size + 1)
            if k <= force.count and force.count - k <= (groups - 1) * size
        ]
        options.extend(
            DeployGroup(unit=force.unit, size=k, slot=s, origin=force.origin)
            for k in sizes
            for s in dict.fromkeys(slots)
        )
    return options


def targets(combat: Combat, group: Group) -> list[Group]:
    """Enemy groups ``group`` may attack (N-COMBAT-13, N-ABL-4 Aim)."""
    if group.support_only:
        return []
    enemies = [g for g in combat.groups if g.owner != group.owner and g.units > 0]
    if group.cls == "ranged" or group.aim:
        return enemies
    melee = [g for g in enemies if g.melee_target]
    if melee:
        return melee
    return enemies


def _support_amounts(group: Group) -> list[tuple[Literal["attack", "armor"], int]]:
    amounts: list[tuple[Literal["attack", "armor"], int]] = [
        ("attack", support_amount(group.attack, group.units, group.reinforce)),
        ("armor", support_amount(group.armor, group.units, group.reinforce)),
    ]
    return [(kind, amount) for kind, amount in amounts if amount > 0]


def _action_options(combat: Combat, group: Group) -> list[Command]:
    options: list[Command] = [Attack(target=t.id) for t in targets(combat, group)]
    if combat.attacks_made == 0:  # N-COMBAT-18: a group that attacked cannot support
        allies = [g for g in combat.groups_of(group.owner) if g.id != group.id]
        options.extend(
            Support(target=ally.id, bonus=kind)
            for ally in allies
            for kind, _ in _support_amounts(group)
        )
    return options


def _pick_candidates(combat: Combat) -> list[Group]:
    """The groups that may act next: highest initiative first, the attacker's groups
    first on ties between players; ties within one player are the owner's choice."""
    groups = combat.groups
    found: list[Group] = []
    for i in combat.order:  # sorted, so the candidates come first and together
        g = groups[i]
        if not g.units or g.acted:
            continue
        if found and (g.initiative != found[0].initiative or g.owner != found[0].owner):
            break
        found.append(g)
    return found


def _backstab_options(combat: Combat) -> list[Command]:
    retreating = combat.retreating
    assert retreating is not None
    options: list[Command] = []
    for group in combat.groups_of(combat.opponent(retreating)):
        options.extend(
            Backstab(group=group.id, target=t.id)
            for t in targets(combat, group)
            if t.owner == retreating
        )
    return options


def _retreat_destinations(env: CombatEnv, combat: Combat, seat: str, unit: str) -> list[str]:
    game_map = env.map
    assert game_map is not None
    side = combat.sides.get(seat, {}).get(unit)
    card = env.pack.units[unit].side(side or "a")
    flying = card.ability_level("flying", with_tech=side is not None) > 0
    naga_base = game_map.bases.get("naga")
    found = []
    for zone in game_map.neighbours(combat.zone):
        biome = game_map.zones[zone].biome
        if biome in ("mountain", "lake") and not flying and zone != naga_base:
            continue
        if env.blocked(seat, zone):
            continue
        found.append(zone)
    return found


def decision(env: CombatEnv, combat: Combat) -> tuple[str, list[Command]] | None:
    """The seat that must decide now and its legal commands, or ``None`` if the next step
    is automatic."""
    cached = env._decided
    if cached is not None and cached[0] is combat:
        return cached[1]
    found = _decision(env, combat)
    env._decided = (combat, found)
    return found


def _decision(env: CombatEnv, combat: Combat) -> tuple[str, list[Command]] | None:
    stage = combat.stage
    if combat.pending:
        seat, choice = combat.pending[0]
        if choice.startswith("tactic_"):
            window = choice.removeprefix("tactic_")
            plays = tactics.playable(env, combat, seat, window)
            return (seat, [*plays, PassTactics()]) if plays else None
        if choice == "strategise":
            joins = [
                Strategise(unit=unit, origin=origin, count=k)
                for unit, origin, available in env.strategists(seat, combat)
                for k in range(1, available + 1)
            ]
            return (seat, [*joins, StrategiseDone()]) if joins else None
        return biome.pending_options(env, combat)
    if stage == "redirect":
        if biome.redirect_cost(env, combat) is None:
            return None
        return "naga", [RedirectBiome(redirect=True), RedirectBiome(redirect=False)]
    if stage == "deploy":
        if not combat.strategise_offered and _strategists(env, combat):
            return None  # N-ABL-7: joining by Strategise comes first, during set-up
        options = _deploy_options(env, combat, combat.deploying)
        return (combat.deploying, options) if options else None
    if stage == "pick":
        if not combat.both_standing():
            return None
        candidates = _pick_candidates(combat)
        if len(candidates) > 1:
            return candidates[0].owner, [ChooseGroup(group=g.id) for g in candidates]
        return None
    group = combat.groups[combat.active] if combat.active >= 0 else None
    if stage == "heal" and group is not None:
        return group.owner, [HealGroup(target=g.id) for g in combat.groups_of(group.owner)]
    if stage == "action" and group is not None:
        options = _action_options(combat, group)
        return (group.owner, options) if options else None
    if stage == "deception" and group is not None:
        return group.owner, [Reroll(reroll=True), Reroll(reroll=False)]
    if stage == "after_attack" and group is not None and combat.pending_gain > 0:
        return group.owner, [ClaimArmor(accept=True), ClaimArmor(accept=False)]
    if stage in ("retreat_defender", "retreat_attacker"):
        seat = combat.defender if stage == "retreat_defender" else combat.attacker
        if seat in combat.no_retreat:  # Fight to the Bitter End, Retractable Siphons
            return None
        return seat, [Retreat(retreat=True), Retreat(retreat=False)]
    if stage == "backstab":
        if combat.retreating in combat.no_backstab:  # Higher Ground
            return None
        options = _backstab_options(combat)
        assert combat.retreating is not None
        return (combat.opponent(combat.retreating), [*options, Backstab()]) if options else None
    if stage == "injuries" and combat.injuries:
        injured = combat.groups[combat.injuries[0]]
        if not combat.stocks.get(injured.owner, Resources()).covers(injured.fee):
            return None
        return injured.owner, [
            PayInjury(group=injured.id, pay=True),
            PayInjury(group=injured.id, pay=False),
        ]
    if stage == "retreat_move" and env.map is not None and combat.retreating is not None:
        seat = combat.retreating
        moves: list[Command] = []
        for force in combat.reserve_of(seat):
            for zone in _retreat_destinations(env, combat, seat, force.unit):
                moves.extend(
                    RetreatUnits(unit=force.unit, count=k, destination=zone)
                    for k in range(1, force.count + 1)
                )
        # A type with nowhere to go is destroyed automatically, before anything is asked.
        if moves and all(
            _retreat_destinations(env, combat, seat, f.unit) for f in combat.reserve_of(seat)
        ):
            return seat, moves
    return None


# -- automatic steps --------------------------------------------------------------------


def _winner(combat: Combat) -> str | None:
    if combat.retreating is not None:
        return combat.opponent(combat.retreating)
    attacker = combat.has_groups(combat.attacker)
    defender = combat.has_groups(combat.defender)
    if attacker and not defender:
        return combat.attacker
    if defender and not attacker:
        return combat.defender
    return None


def _initiative(env: CombatEnv, combat: Combat, card: str | None) -> dict[str, int]:
    """N-COMBAT-6/7: each type's marker, +1 per matching essence, +1 for mountain defenders."""
    essences = env.pack.biome_cards[card].essences if card else ()
    values = {}
    for group in combat.groups:
        bonus = sum(1 for e in essences if e in env.essences[group.owner])
        if combat.biome == "mountain" and group.owner == combat.defender:
            bonus += 1
        key = f"{group.owner}/{group.unit}"
        base = combat_unit(env.pack, group.unit).initiative + combat.initiative_bonus.get(key, 0)
        values[key] = min(INITIATIVE_CAP, base + bonus)
    return values


def _roll(
    env: CombatEnv, dice: DiceStream, group: Group, target: int, reroll: bool
) -> AttackRolled:
    before = dice.counter
    value = dice.draw(len(env.faces))
    face = env.faces[value]
    return AttackRolled(
        group=group.id,
        target=target,
        m=len(env.faces),
        counter_before=before,
        counter_after=dice.counter,
        value=value,
        face=face.value,
        swords=face.swords,
        reroll=reroll,
    )


def _resolve(env: CombatEnv, combat: Combat, face_index: int) -> AttackResolved:
    """N-COMBAT-14..17 with the abilities that act on an attack, for the kept die face."""
    group = combat.groups[combat.active]
    target = combat.groups[combat.target]
    face = env.faces[face_index]
    # N-COMBAT-18: the attack bonus is spent on the first attack of an activation only.
    bonus = group.attack_bonus if combat.attacks_made == 0 or combat.backstab else 0
    total = attack_total(group.attack, group.units, bonus, face.value)
    hit = damage_dealt(
        total,
        attacking_units=group.units,
        pierce=group.pierce,
        armor=target.armor,
        armor_bonus=target.armor_bonus,
        splash=group.splash,
        target_units=target.units,
    )
    deaths, _ = resolve_damage(target.damage + hit.damage, target.units, target.health)
    # N-ABL-9: Retaliation is simultaneous: the target's units before this attack count.
    retaliation = 0
    if target.retaliation and any(t.id == group.id for t in targets(combat, target)):
        retaliation = retaliation_damage(target.units, target.retaliation)
    attacker_deaths, _ = resolve_damage(group.damage + retaliation, group.units, group.health)
    owner_ability = env.civ_ability[group.owner]
    # N-CIV-4 Bloodthirst, or a Warcry Totem's (N-STR-3)
    thirst = target.bloodthirst + (env.civ_ability[target.owner] == "bloodthirst")
    bloodthirst = thirst if hit.damage > 0 else 0
    claim = 0
    survivors = group.units - attacker_deaths
    if owner_ability == "for_the_king" and deaths and survivors:
        claim = deaths * support_amount(group.armor, survivors, group.reinforce)
    resolved = AttackResolved(
        group=group.id,
        target=target.id,
        total=total,
        damage=hit.damage,
        target_deaths=deaths,
        bonus_spent=bonus,
        armor_bonus_spent=hit.armor_bonus_spent,
        swords=face.swords,
        retaliation=retaliation,
        attacker_deaths=attacker_deaths,
        bloodthirst=bloodthirst if deaths < target.units else 0,
        armor_claim=claim,
        flare=deaths if owner_ability == "flare" else 0,
    )
    if _activation_over(env, combat, resolved):
        return _replace(resolved, ends_activation=True)
    return resolved


def auto_step(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """The events of the next automatic step (call only when :func:`decision` is ``None``)."""
    stage = combat.stage
    if combat.pending:  # a pending choice with nothing to choose from
        seat, choice = combat.pending[0]
        return (ChoiceResolved(seat=seat, choice=choice, declined=True),)
    if stage == "deploy":
        if not combat.strategise_offered:
            seats = _strategists(env, combat)
            if seats:
                return (StrategiseOffered(seats=seats),)
        return (DeploymentEnded(seat=combat.deploying),)
    if stage == "opening":
        # N-COMBAT-7: no biome card in mountains or lakes (the drawing function knows).
        card, drawn = env.draw_biome(combat, dice)
        return (*drawn, BiomeCardRevealed(card=card))
    if stage == "redirect":
        return biome.fix_target(env, combat, dice, redirected=False)
    if stage == "effects":
        if not combat.before_window:  # N-COMBAT-9: attackers first, then defenders
            opened = tactics.open_window(env, combat, "before", (combat.attacker, combat.defender))
            if opened:
                return opened
        return (CombatOpened(initiative=_initiative(env, combat, combat.biome_card)),)
    if stage == "round_start":
        return (RoundStarted(round=combat.round + 1),)
    if stage == "pick":
        if not combat.both_standing():
            return (CombatDecided(winner=_winner(combat)),)
        candidates = _pick_candidates(combat)
        if not candidates:
            return (RoundEnded(round=combat.round),)
        return _activate(env, combat, candidates[0])
    if stage == "round_end":
        return (*biome.round_end_damage(env, combat), RoundClosing(round=combat.round))
    if stage == "round_effects":
        if not combat.both_standing():
            return (CombatDecided(winner=_winner(combat)),)
        if combat.round >= ROUND_CAP:  # N-COMBAT-29: the attacker retreats, no backstab
            return (RetreatChosen(seat=combat.attacker, retreat=True, forced=True),)
        return (RoundEffectsResolved(round=combat.round),)
    if stage in ("retreat_defender", "retreat_attacker"):  # barred from retreating
        seat = combat.defender if stage == "retreat_defender" else combat.attacker
        return (RetreatChosen(seat=seat, retreat=False),)
    if stage == "action":  # nothing to attack and nobody to support: the group passes
        return (ActivationEnded(group=combat.active),)
    if stage == "after_attack":
        group = combat.groups[combat.active]
        if combat.backstab or not combat.both_standing():
            return (CombatDecided(winner=_winner(combat)),)
        if group.units > 0 and combat.attacks_made <= group.extra and targets(combat, group):
            return (ExtraAttackBegun(group=group.id),)
        return (ActivationEnded(group=group.id),)
    if stage == "backstab":
        assert combat.retreating is not None
        return (BackstabDeclined(seat=combat.opponent(combat.retreating)),)
    if stage == "decided":
        return (CombatDecided(winner=_winner(combat)),)
    if stage == "injuries":
        if combat.injuries:  # cannot pay: the unit is lost
            injured = combat.groups[combat.injuries[0]]
            return (InjuryResolved(group=injured.id, paid=False, fee=Resources()),)
        if combat.retreating is not None:
            seat = combat.retreating
            forces = _own_units(env.pack, combat, seat)
            return (RetreatMoveStarted(seat=seat, forces=forces),)
        return (Aftermath(),)
    if stage == "aftermath":
        if combat.deferred:  # N-COMBAT-27: options played earlier resolve now
            return tactics.resolve_deferred(env, combat, dice)
        if not combat.after_window:  # defenders first
            opened = tactics.open_window(env, combat, "after", (combat.defender, combat.attacker))
            if opened:
                return opened
        return (*_spoils(env, combat, dice), _ended(combat))
    if stage == "retreat_move":
        assert combat.retreating is not None
        seat = combat.retreating
        waiting = combat.reserve_of(seat)
        if not waiting:
            return (Aftermath(),)
        force = waiting[0]
        if env.map is None:  # the sandbox: retreating units leave the combat as survivors
            return (UnitsRetreated(seat=seat, unit=force.unit, count=force.count),)
        for f in waiting:
            if not _retreat_destinations(env, combat, seat, f.unit):
                return (UnitsRetreated(seat=seat, unit=f.unit, count=f.count, lost=True),)
    raise AssertionError(f"no automatic step in stage {stage}")  # pragma: no cover


def _strategists(env: CombatEnv, combat: Combat) -> tuple[str, ...]:
    """The sides (attacker first) with units next door that may join by Strategise."""
    if combat.revealed:
        return ()
    return tuple(s for s in (combat.attacker, combat.defender) if env.strategists(s, combat))


def _activate(env: CombatEnv, combat: Combat, group: Group) -> tuple[Event, ...]:
    """N-COMBAT-10/11: ``group`` becomes active; the per-group tactic window opens for the
    players holding a playable option, the group's owner first."""
    activated = GroupActivated(group=group.id)
    order = (group.owner, combat.opponent(group.owner))
    return (activated, *tactics.open_window(env, combat, "group", order))


def _own_units(pack: ContentPack, combat: Combat, seat: str) -> tuple[Force, ...]:
    """``seat``'s units in the combat: survivors on the boards and those that sat out.
    Ambush units are left out: they neither retreat nor move, they leave when it ends; so
    are structures fighting as groups (the Bone Tower never moves, N-FAQ-20)."""
    counts: dict[str, int] = {}
    for g in combat.groups_of(seat):
        if not g.origin:  # N-ABL-7: units joined by Strategise stay where they are
            counts[g.unit] = counts.get(g.unit, 0) + g.units
    for f in combat.reserve_of(seat):
        if not f.origin:
            counts[f.unit] = counts.get(f.unit, 0) + f.count
    for f in combat.ambush:
        if f.owner == seat:
            counts[f.unit] = max(0, counts.get(f.unit, 0) - f.count)
    return tuple(
        Force(seat, unit, n) for unit, n in sorted(counts.items()) if n and unit in pack.units
    )


def _spoils(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """Spoils of War: a holder who won draws tactic cards."""
    card = env.pack.biome_cards[combat.biome_card] if combat.biome_card else None
    if card is None or card.effect.kind != "draw_tactic_if_win":
        return ()
    if combat.winner is None or combat.winner not in combat.holders:
        return ()
    events: list[Event] = []
    for _ in range(card.effect.amount):
        events.extend(env.draw_tactic(combat.winner, dice))
    return tuple(events)


def _ended(combat: Combat) -> CombatEnded:
    return CombatEnded(
        zone=combat.zone,
        winner=combat.winner,
        killed=dict(combat.killed),
        injured=dict(combat.injured),
    )


# -- deciding ---------------------------------------------------------------------------


def advance(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[list[Event], Combat]:
    """Run automatic steps until a decision is needed or the combat has ended."""
    events: list[Event] = []
    while combat.stage != "end" and decision(env, combat) is None:
        for event in auto_step(env, combat, dice):
            events.append(event)
            combat = env.fold(combat, event)
    return events, combat


def decide_combat(
    env: CombatEnv, combat: Combat, seat: str, command: Command, dice: DiceStream
) -> tuple[Event, ...]:
    """Check ``command`` against the pending decision, produce its events and run on to the
    next decision."""
    pending = decision(env, combat)
    if pending is None:
        raise IllegalCommand("N-COMBAT-10", "no decision is pending in this combat")
    who, options = pending
    rule = STAGE_RULES.get(combat.stage, "N-COMBAT-10")
    if combat.pending:
        rule = "N-CIV-3" if combat.pending[0][1] == "embrace" else "N-COMBAT-8"
    if seat != who:
        raise IllegalCommand(rule, f"{who} decides now in this combat, not {seat}")
    if command not in options:
        rule, why = _why_not(combat, command, rule)
        raise IllegalCommand(rule, why)
    env._folds.clear()
    events = list(_command_events(env, combat, seat, command, dice))
    for event in events:
        combat = env.fold(combat, event)
    more, _ = advance(env, combat, dice)
    return (*events, *more)


def _why_not(combat: Combat, command: Command, rule: str) -> tuple[str, str]:
    """The rule a refused command breaks, and why (more precise than the stage's rule)."""
    if isinstance(command, Attack) and combat.active >= 0 and combat.stage == "action":
        group = combat.groups[combat.active]
        if group.support_only:
            return "N-COMBAT-5", "a melee group in a ranged slot can only support"
        return "N-COMBAT-13", (
            f"group {group.id} cannot attack group {command.target} "
            "(melee groups reach ranged groups only when their owner has no melee group)"
        )
    return rule, f"{command!r} is not a legal choice in the {combat.stage} stage"


def _command_events(
    env: CombatEnv, combat: Combat, seat: str, command: Command, dice: DiceStream
) -> tuple[Event, ...]:
    chosen = tactics.play_events(env, combat, seat, command, dice)
    if chosen is None:
        chosen = biome.choice_events(env, combat, seat, command, dice)
    if chosen is not None:
        return chosen
    if isinstance(command, DeployGroup):
        return (
            GroupDeployed(
                seat=seat,
                group=len(combat.groups),
                unit=command.unit,
                units=command.size,
                slot=command.slot,
                origin=command.origin,
            ),
        )
    if isinstance(command, Strategise):
        return (
            StrategiseJoined(
                seat=seat, unit=command.unit, origin=command.origin, count=command.count
            ),
        )
    if isinstance(command, StrategiseDone):
        return (ChoiceResolved(seat=seat, choice="strategise", declined=True),)
    if isinstance(command, ChooseGroup):
        return _activate(env, combat, combat.groups[command.group])
    if isinstance(command, HealGroup):
        group = combat.groups[combat.active]
        target = combat.groups[command.target]
        amount = min(target.damage, heal_amount(group.units, group.heal))
        return (Healed(group=group.id, target=target.id, amount=amount),)
    if isinstance(command, Attack):
        return _attack(env, combat, combat.groups[combat.active], command.target, dice)
    if isinstance(command, Support):
        group = combat.groups[combat.active]
        amount = dict(_support_amounts(group))[command.bonus]
        return (
            Supported(group=group.id, target=command.target, bonus=command.bonus, amount=amount),
        )
    if isinstance(command, Reroll):
        group = combat.groups[combat.active]
        if command.reroll:  # only the kept face's swords count (N-COMBAT-15)
            roll = _roll(env, dice, group, combat.target, reroll=True)
            return (roll, _resolve(env, combat, roll.value))
        return (_resolve(env, combat, combat.roll_face),)
    if isinstance(command, ClaimArmor):
        amount = combat.pending_gain if command.accept else 0
        return (ArmorClaimed(group=combat.active, amount=amount),)
    if isinstance(command, Retreat):
        return (RetreatChosen(seat=seat, retreat=command.retreat),)
    if isinstance(command, Backstab):
        if command.group is None or command.target is None:
            return (BackstabDeclined(seat=seat),)
        declared = BackstabDeclared(seat=seat, group=command.group, target=command.target)
        stabbing = evolve_combat(env.pack, combat, declared)
        group = stabbing.groups[command.group]
        return (declared, *_attack(env, stabbing, group, command.target, dice))
    if isinstance(command, PayInjury):
        group = combat.groups[command.group]
        return (
            InjuryResolved(
                group=group.id, paid=command.pay, fee=group.fee if command.pay else Resources()
            ),
        )
    if isinstance(command, RetreatUnits):
        return (
            UnitsRetreated(
                seat=seat, unit=command.unit, count=command.count, destination=command.destination
            ),
        )
    raise IllegalCommand("N-COMBAT-10", f"{type(command).__name__} is not a combat command")


def _attack(
    env: CombatEnv, combat: Combat, group: Group, target: int, dice: DiceStream
) -> tuple[Event, ...]:
    roll = _roll(env, dice, group, target, reroll=False)
    if group.deception:  # N-ABL-8: the owner sees the die, then keeps or re-rolls it
        return (roll,)
    aimed = _replace(combat, active=group.id, target=target)
    return (roll, _resolve(env, aimed, roll.value))


def _activation_over(env: CombatEnv, combat: Combat, attack: AttackResolved) -> bool:
    """Whether, after ``attack``, the active group has nothing left to do while the combat
    goes on: no armor to claim, no backstab, both sides standing, no extra attack."""
    if attack.armor_claim or combat.backstab:
        return False
    group, target = combat.groups[attack.group], combat.groups[attack.target]
    standing = {g.owner for g in combat.groups if g.units and g.id not in (group.id, target.id)}
    if group.units > attack.attacker_deaths:
        standing.add(group.owner)
    if target.units > attack.target_deaths:
        standing.add(target.owner)
    if len(standing) < 2:
        return False
    if not group.extra or group.units == attack.attacker_deaths:
        return True
    after = _attack_resolved(env.pack, combat, attack)  # rare: only groups with extra attacks
    return not (after.attacks_made <= group.extra and targets(after, after.groups[group.id]))


# -- evolving ---------------------------------------------------------------------------

_replace = msgspec.structs.replace


def _add(counts: dict[str, int], owner: str, n: int) -> dict[str, int]:
    return counts if not n else {**counts, owner: counts.get(owner, 0) + n}


def _take_damage(group: Group, damage: int, deaths: int) -> Group:
    units = group.units - deaths
    markers = 0 if units == 0 else group.damage + damage - deaths * group.health
    return _replace(group, units=units, damage=markers)


def _deployed(pack: ContentPack, combat: Combat, event: GroupDeployed) -> Combat:
    side = combat.sides.get(event.seat, {}).get(event.unit)
    boost = combat.boosts.get(f"{event.seat}@{event.origin or combat.zone}")
    group = make_group(
        pack,
        event.group,
        event.seat,
        event.unit,
        event.units,
        event.slot,
        side,
        event.origin,
        boost,
    )
    reserve = _take_reserve(combat.reserve, event.seat, event.unit, event.units, event.origin)
    return _replace(combat, groups=(*combat.groups, group), reserve=reserve)


def _take_reserve(
    reserve: tuple[Force, ...], owner: str, unit: str, n: int, origin: str = ""
) -> tuple[Force, ...]:
    key = (owner, unit, origin)
    return tuple(
        _replace(f, count=f.count - n) if (f.owner, f.unit, f.origin) == key else f for f in reserve
    )


def _strategise_offered(pack: ContentPack, combat: Combat, event: StrategiseOffered) -> Combat:
    asks = tuple((seat, "strategise") for seat in event.seats)
    return _replace(combat, strategise_offered=True, pending=(*combat.pending, *asks))


def _strategise_joined(pack: ContentPack, combat: Combat, event: StrategiseJoined) -> Combat:
    force = Force(event.seat, event.unit, event.count, event.origin)
    return _replace(combat, reserve=(*combat.reserve, force), joined=(*combat.joined, force))


def _deployment_ended(pack: ContentPack, combat: Combat, event: DeploymentEnded) -> Combat:
    if combat.revealed:  # an Ambush unit has been placed after the biome card
        return _replace(combat, stage="effects", deploying="")
    if event.seat == combat.attacker:
        return _replace(combat, deploying=combat.defender)
    return _replace(combat, stage="opening", deploying="")


def _revealed(pack: ContentPack, combat: Combat, event: BiomeCardRevealed) -> Combat:
    return _replace(combat, biome_card=event.card, revealed=True, stage="redirect")


# The biome effects that bind seats for the whole combat, and those that ask a choice
# of each holder at once (N-COMBAT-8: at combat start unless the card says otherwise).
_FLAGS = {
    "no_retreat": "no_retreat",
    "no_backstab": "no_backstab",
    "no_tactics_at_start": "no_opening_tactics",
}
_START_CHOICES = {
    "discard_tactic": "discard",
    "raise_initiative": "initiative",
    "attack_bonus": "bonus_group",
    "choose_player_discards": "choose_discarder",
    "choose_player_no_retreat": "choose_no_retreat",
}


def _target_fixed(pack: ContentPack, combat: Combat, event: BiomeTargetFixed) -> Combat:
    changes: dict[str, Any] = {"holders": event.holders, "stage": "effects"}
    if combat.biome_card is not None:
        kind = pack.biome_cards[combat.biome_card].effect.kind
        if kind in _FLAGS:
            field = _FLAGS[kind]
            changes[field] = (*getattr(combat, field), *event.holders)
        if kind in _START_CHOICES:
            changes["pending"] = tuple((seat, _START_CHOICES[kind]) for seat in event.holders)
    if event.redirected_by is not None:
        seat = event.redirected_by
        changes["flare"] = {**combat.flare, seat: combat.flare.get(seat, 0) - event.flare_paid}
    return _replace(combat, **changes)


def _effect_damage(pack: ContentPack, combat: Combat, event: EffectDamage) -> Combat:
    group = _take_damage(combat.groups[event.group], event.amount, event.deaths)
    if event.bloodthirst:
        group = _replace(group, attack_bonus=group.attack_bonus + event.bloodthirst)
    # Losses to effects are not kills: like injuries they never score (N-WIN-3).
    return _replace(
        combat,
        groups=replace_group(combat.groups, group),
        injured=_add(combat.injured, group.owner, event.deaths),
    )


def _bonus_granted(pack: ContentPack, combat: Combat, event: BonusGranted) -> Combat:
    group = combat.groups[event.group]
    group = _replace(
        group,
        attack_bonus=group.attack_bonus + event.attack,
        armor_bonus=group.armor_bonus + event.armor,
    )
    return _replace(combat, groups=replace_group(combat.groups, group))


def _initiative_raised(pack: ContentPack, combat: Combat, event: InitiativeRaised) -> Combat:
    key = f"{event.seat}/{event.unit}"
    bonus = {**combat.initiative_bonus, key: combat.initiative_bonus.get(key, 0) + event.amount}
    return _replace(combat, initiative_bonus=bonus)


def _damage_removed(pack: ContentPack, combat: Combat, event: DamageRemoved) -> Combat:
    group = combat.groups[event.group]
    group = _replace(group, damage=group.damage - event.amount)
    return _replace(combat, groups=replace_group(combat.groups, group))


def _ambush_joined(pack: ContentPack, combat: Combat, event: AmbushJoined) -> Combat:
    force = Force(event.seat, event.unit, 1)
    return _replace(
        combat,
        reserve=(*combat.reserve, force),
        ambush=(*combat.ambush, force),
        stage="deploy",
        deploying=event.seat,
    )


def _player_chosen(pack: ContentPack, combat: Combat, event: PlayerChosen) -> Combat:
    if event.effect == "choose_no_retreat":
        return _replace(combat, no_retreat=(*combat.no_retreat, event.chosen))
    return _replace(combat, pending=((event.chosen, "discard"), *combat.pending))


def _choice_resolved(pack: ContentPack, combat: Combat, event: ChoiceResolved) -> Combat:
    return _replace(combat, pending=combat.pending[1:])


def _window_opened(pack: ContentPack, combat: Combat, event: WindowOpened) -> Combat:
    asks = tuple((seat, f"tactic_{event.window}") for seat in event.seats)
    flags = {"before": {"before_window": True}, "after": {"after_window": True}}
    return _replace(combat, pending=(*combat.pending, *asks), **flags.get(event.window, {}))


def _hand_without(combat: Combat, seat: str, card: str) -> dict[str, tuple[str, ...]]:
    hand = list(combat.hands.get(seat, ()))
    if card in hand:
        hand.remove(card)
    return {**combat.hands, seat: tuple(hand)}


def _discarded(pack: ContentPack, combat: Combat, event: TacticDiscarded) -> Combat:
    return _replace(combat, hands=_hand_without(combat, event.seat, event.card))


def _drawn(pack: ContentPack, combat: Combat, event: TacticCardDrawn) -> Combat:
    hands = {**combat.hands, event.seat: (*combat.hands.get(event.seat, ()), event.card)}
    return _replace(combat, hands=hands)


def _tactic_played(pack: ContentPack, combat: Combat, event: TacticPlayed) -> Combat:
    paid = combat.stocks.get(event.seat, Resources()) - event.cost
    flare = {**combat.flare, event.seat: combat.flare.get(event.seat, 0) - event.flare}
    deferred = combat.deferred
    if event.deferred:
        deferred = (*deferred, (event.seat, event.card, event.option, event.target))
    return _replace(
        combat,
        stocks={**combat.stocks, event.seat: paid},
        flare=flare,
        deferred=deferred,
        hands=_hand_without(combat, event.seat, event.card),
    )


def _deferred_resolved(pack: ContentPack, combat: Combat, event: DeferredResolved) -> Combat:
    return _replace(combat, deferred=combat.deferred[1:])


def _stoneskin(pack: ContentPack, combat: Combat, event: StoneskinHardened) -> Combat:
    groups = tuple(
        _replace(g, armor_bonus=g.armor_bonus + event.amount)
        if g.owner == event.seat and g.units
        else g
        for g in combat.groups
    )
    return _replace(combat, groups=groups)


def _embraced(pack: ContentPack, combat: Combat, event: SpiritsEmbraced) -> Combat:
    group = combat.groups[event.group]
    if event.bonus == "attack":
        group = _replace(group, attack_bonus=group.attack_bonus + event.amount)
    else:
        group = _replace(group, armor_bonus=group.armor_bonus + event.amount)
    flare = {**combat.flare, event.seat: combat.flare.get(event.seat, 0) - event.flare}
    return _replace(combat, groups=replace_group(combat.groups, group), flare=flare)


def _moved_after_win(pack: ContentPack, combat: Combat, event: UnitsMovedAfterWin) -> Combat:
    movable = tuple(
        (unit, count - event.count if unit == event.unit else count)
        for unit, count in combat.movable
    )
    movable = tuple(m for m in movable if m[1] > 0)
    return _replace(combat, movable=movable, pending=combat.pending if movable else ())


def _round_closing(pack: ContentPack, combat: Combat, event: RoundClosing) -> Combat:
    pending: tuple[tuple[str, str], ...] = ()
    card = pack.biome_cards[combat.biome_card] if combat.biome_card else None
    if card is not None and card.effect.kind == "heal_each_round":
        pending = tuple((s, "heal_round") for s in combat.holders if combat.has_groups(s))
    return _replace(combat, stage="round_effects", pending=pending)


def _round_effects_resolved(
    pack: ContentPack, combat: Combat, event: RoundEffectsResolved
) -> Combat:
    return _replace(combat, stage="retreat_defender")


def _aftermath(pack: ContentPack, combat: Combat, event: Aftermath) -> Combat:
    winner = combat.winner
    pending: tuple[tuple[str, str], ...] = ()
    movable: tuple[tuple[str, int], ...] = ()
    card = pack.biome_cards[combat.biome_card] if combat.biome_card else None
    quick_gains = card is not None and card.effect.kind == "move_after_win"
    if winner is not None and winner in combat.holders and quick_gains:
        movable = tuple((f.unit, f.count) for f in _own_units(pack, combat, winner))
        pending = ((winner, "move_after_win"),) if movable else ()
    return _replace(combat, stage="aftermath", pending=pending, movable=movable)


def _opened(pack: ContentPack, combat: Combat, event: CombatOpened) -> Combat:
    markers = event.initiative
    groups = tuple(_replace(g, initiative=markers[f"{g.owner}/{g.unit}"]) for g in combat.groups)
    order = tuple(
        g.id
        for g in sorted(groups, key=lambda g: (-g.initiative, g.owner != combat.attacker, g.id))
    )
    return _replace(
        combat,
        initiative=markers,
        groups=groups,
        order=order,
        melee_waiting=any(g.support_only for g in groups),
        stage="round_start",
    )


def _round_started(pack: ContentPack, combat: Combat, event: RoundStarted) -> Combat:
    fresh = tuple(_replace(g, acted=False) if g.acted else g for g in combat.groups)
    # N-CIV-3 (provisional): Spirit's Embrace is offered at the start of each round.
    embrace = tuple(
        (seat, "embrace")
        for seat in (combat.attacker, combat.defender)
        if pack.civilisations[seat].ability == "flare"
        and combat.flare.get(seat, 0) >= biome.EMBRACE_COST
    )
    return _replace(combat, round=event.round, groups=fresh, stage="pick", pending=embrace)


def _activated(pack: ContentPack, combat: Combat, event: GroupActivated) -> Combat:
    stage = "heal" if combat.groups[event.group].heal else "action"
    return _replace(combat, active=event.group, attacks_made=0, stage=stage)


def _healed(pack: ContentPack, combat: Combat, event: Healed) -> Combat:
    target = combat.groups[event.target]
    healed = _replace(target, damage=target.damage - event.amount)
    return _replace(combat, groups=replace_group(combat.groups, healed), stage="action")


def _rolled(pack: ContentPack, combat: Combat, event: AttackRolled) -> Combat:
    waiting = combat.groups[event.group].deception > 0 and not event.reroll
    return _replace(
        combat,
        target=event.target,
        roll_face=event.value,
        stage="deception" if waiting else combat.stage,
    )


def _armor_claimed(pack: ContentPack, combat: Combat, event: ArmorClaimed) -> Combat:
    group = combat.groups[event.group]
    claimed = _replace(group, armor_bonus=group.armor_bonus + event.amount)
    return _replace(combat, groups=replace_group(combat.groups, claimed), pending_gain=0)


def _extra_attack(pack: ContentPack, combat: Combat, event: ExtraAttackBegun) -> Combat:
    return _replace(combat, stage="action")


def _supported(pack: ContentPack, combat: Combat, event: Supported) -> Combat:
    target = combat.groups[event.target]
    if event.bonus == "attack":
        target = _replace(target, attack_bonus=target.attack_bonus + event.amount)
    else:
        target = _replace(target, armor_bonus=target.armor_bonus + event.amount)
    groups = replace_group(combat.groups, target)
    groups = replace_group(groups, _replace(groups[event.group], acted=True))
    return _replace(combat, groups=groups, stage="pick", active=-1)


def _activation_ended(pack: ContentPack, combat: Combat, event: ActivationEnded) -> Combat:
    groups = replace_group(combat.groups, _replace(combat.groups[event.group], acted=True))
    return _replace(combat, groups=groups, stage="pick", active=-1)


def _round_ended(pack: ContentPack, combat: Combat, event: RoundEnded) -> Combat:
    return _replace(combat, stage="round_end")


def _retreat_chosen(pack: ContentPack, combat: Combat, event: RetreatChosen) -> Combat:
    if event.retreat:
        stage = "decided" if event.forced else "backstab"
        return _replace(combat, retreating=event.seat, stage=stage)
    if event.seat == combat.defender:
        return _replace(combat, stage="retreat_attacker")
    return _replace(combat, stage="round_start")


def _backstab_declared(pack: ContentPack, combat: Combat, event: BackstabDeclared) -> Combat:
    return _replace(combat, backstab=True, active=event.group, attacks_made=0, stage="action")


def _backstab_declined(pack: ContentPack, combat: Combat, event: BackstabDeclined) -> Combat:
    return _replace(combat, stage="decided")


def _decided(pack: ContentPack, combat: Combat, event: CombatDecided) -> Combat:
    injuries = tuple(
        g.id for g in combat.groups if g.units > 0 and g.injury and g.damage >= g.injury
    )
    return _replace(combat, winner=event.winner, decided=True, stage="injuries", injuries=injuries)


def _injury(pack: ContentPack, combat: Combat, event: InjuryResolved) -> Combat:
    group = combat.groups[event.group]
    rest = combat.injuries[1:]
    if event.paid:
        paid = combat.stocks[group.owner] - event.fee
        return _replace(combat, injuries=rest, stocks={**combat.stocks, group.owner: paid})
    hurt = _replace(group, units=group.units - 1, damage=0 if group.units == 1 else group.damage)
    return _replace(
        combat,
        groups=replace_group(combat.groups, hurt),
        injuries=rest,
        injured=_add(combat.injured, group.owner, 1),
    )


def _retreat_move(pack: ContentPack, combat: Combat, event: RetreatMoveStarted) -> Combat:
    groups = tuple(_replace(g, units=0) if g.owner == event.seat else g for g in combat.groups)
    others = tuple(f for f in combat.reserve if f.owner != event.seat)
    return _replace(combat, groups=groups, reserve=(*others, *event.forces), stage="retreat_move")


def _retreated(pack: ContentPack, combat: Combat, event: UnitsRetreated) -> Combat:
    return _replace(
        combat, reserve=_take_reserve(combat.reserve, event.seat, event.unit, event.count)
    )


def _ended_event(pack: ContentPack, combat: Combat, event: CombatEnded) -> Combat:
    return _replace(combat, stage="end")


def _attack_resolved(pack: ContentPack, combat: Combat, event: AttackResolved) -> Combat:
    groups = combat.groups
    group = groups[event.group]
    target = groups[event.target]
    target = _take_damage(target, event.damage, event.target_deaths)
    if event.armor_bonus_spent:
        target = _replace(target, armor_bonus=0)
    if event.bloodthirst:
        target = _replace(target, attack_bonus=target.attack_bonus + event.bloodthirst)
    groups = replace_group(groups, target)
    group = _take_damage(group, event.retaliation, event.attacker_deaths)
    if group.units:  # N-COMBAT-14: swords give new tokens once the attack is resolved
        group = _replace(group, attack_bonus=group.attack_bonus - event.bonus_spent + event.swords)
    groups = replace_group(groups, group)
    killed = _add(combat.killed, target.owner, event.target_deaths)
    killed = _add(killed, group.owner, event.attacker_deaths)
    if event.ends_activation:
        groups = replace_group(groups, _replace(groups[event.group], acted=True))
    flare = combat.flare
    if event.flare:  # N-CIV-3: the Naga gain flare per unit they defeat
        flare = {**flare, group.owner: flare.get(group.owner, 0) + event.flare}
    return _replace(
        combat,
        groups=_fill_melee_slots(pack, groups) if combat.melee_waiting else groups,
        killed=killed,
        flare=flare,
        attacks_made=combat.attacks_made + 1,
        pending_gain=event.armor_claim,
        roll_face=-1,
        stage="pick" if event.ends_activation else "after_attack",
        active=-1 if event.ends_activation else combat.active,
    )


def _fill_melee_slots(pack: ContentPack, groups: tuple[Group, ...]) -> tuple[Group, ...]:
    """N-COMBAT-5: a melee group waiting in a ranged slot moves to a melee slot that freed
    (in deployment order, **Ruling**). Slots are counted per owner from the live groups."""
    for group in [g for g in groups if g.units > 0 and g.support_only]:
        melee_slots = pack.civilisations[group.owner].combat_board.melee
        used = sum(
            1 for g in groups if g.owner == group.owner and g.units > 0 and g.slot == "melee"
        )
        if used < melee_slots:
            groups = replace_group(groups, _replace(group, slot="melee"))
    return groups


_FOLD: dict[type[Event], Callable[[ContentPack, Combat, Any], Combat]] = {
    GroupDeployed: _deployed,
    StrategiseOffered: _strategise_offered,
    StrategiseJoined: _strategise_joined,
    DeploymentEnded: _deployment_ended,
    BiomeCardRevealed: _revealed,
    BiomeTargetFixed: _target_fixed,
    EffectDamage: _effect_damage,
    BonusGranted: _bonus_granted,
    InitiativeRaised: _initiative_raised,
    DamageRemoved: _damage_removed,
    AmbushJoined: _ambush_joined,
    PlayerChosen: _player_chosen,
    ChoiceResolved: _choice_resolved,
    TacticDiscarded: _discarded,
    TacticCardDrawn: _drawn,
    WindowOpened: _window_opened,
    TacticPlayed: _tactic_played,
    DeferredResolved: _deferred_resolved,
    StoneskinHardened: _stoneskin,
    SpiritsEmbraced: _embraced,
    UnitsMovedAfterWin: _moved_after_win,
    RoundClosing: _round_closing,
    RoundEffectsResolved: _round_effects_resolved,
    Aftermath: _aftermath,
    CombatOpened: _opened,
    RoundStarted: _round_started,
    GroupActivated: _activated,
    Healed: _healed,
    AttackRolled: _rolled,
    AttackResolved: _attack_resolved,
    ArmorClaimed: _armor_claimed,
    ExtraAttackBegun: _extra_attack,
    Supported: _supported,
    ActivationEnded: _activation_ended,
    RoundEnded: _round_ended,
    RetreatChosen: _retreat_chosen,
    BackstabDeclared: _backstab_declared,
    BackstabDeclined: _backstab_declined,
    CombatDecided: _decided,
    InjuryResolved: _injury,
    RetreatMoveStarted: _retreat_move,
    UnitsRetreated: _retreated,
    CombatEnded: _ended_event,
}


def evolve_combat(pack: ContentPack, combat: Combat, event: Event) -> Combat:
    """Fold one combat event (no dice, no decisions); other events leave the combat as is."""
    fold = _FOLD.get(type(event))
    return combat if fold is None else fold(pack, combat, event)
