"""Battle: dice, hits before flags, retreat, momentum and battle back (B-BAT, B-DIE, B-RET,
B-MOM, B-ADV-1, B-ADV-2). Every function works on a :class:`.resolver.Resolver` and stops
where a player must choose; :func:`proceed` picks up from there."""

from __future__ import annotations

from .. import messages as m
from ..board import Point, distance
from .resolver import Resolver

__all__ = [
    "after_take_ground",
    "bonus_check",
    "end_combat",
    "proceed",
    "retreat_to",
    "start_battle",
]


def start_battle(r: Resolver, attacker: str, target: str, kind: str) -> None:
    """``attacker`` battles ``target``: roll, hits, then flags (B-DIE-2..4)."""
    world, state = r.world, r.state
    unit, defender = state.unit(attacker), state.unit(target)
    assert unit is not None and defender is not None
    melee = distance(unit.hex, defender.hex) == 1
    dice = world.dice(state, unit, defender, card_bonus=kind in ("battle", "bonus"))
    r.emit(m.BattleDeclared(unit=attacker, target=target, dice=dice, melee=melee, kind=kind))  # type: ignore[arg-type]
    faces = list(r.roll(dice, "battle", attacker))
    strikes = faces.count("bonus_strike")
    weapon = world.weapon_of(unit)
    if strikes and weapon.bonus_strike and world.pack.rules.bonus_strike == "reroll":
        # B-DIE-3 ruling: each sword-on-shield is re-rolled once, all before hits and flags.
        faces = [f for f in faces if f != "bonus_strike"] + [
            f for f in r.roll(strikes, "bonus_strike", attacker) if f != "bonus_strike"
        ]
    banner = world.type_of(defender).banner
    hits = faces.count(banner)
    if weapon.bonus_strike and world.pack.rules.bonus_strike == "hit":
        hits += faces.count("bonus_strike")
    if world.scenario.lore and faces.count("lore"):
        r.gain_tokens(
            unit.side, faces.count("lore") * world.pack.rules.lore_tokens_per_face, "lore rolled"
        )
    r.emit(m.RollRead(unit=target, hits=hits, flags=faces.count("flag")))
    if world.scenario.lore and r.state.side_of(defender.side).lore_hand:
        # B-ADV-5: the defender may react to the roll. The window opens whenever it holds a
        # lore card at all (a public count), so the pause tells the attacker nothing.
        r.emit(m.CombatStage(stage="lore"))
        return
    resolve_roll(r)


def resolve_roll(r: Resolver) -> None:
    """Hits first, then flags (B-DIE-4), then whatever the battle asks next."""
    combat = r.state.combat
    assert combat is not None
    target, flags = combat.defender, combat.flags
    apply_hits(r, target, combat.hits, combat.attacker)
    if r.over or r.state.combat is None:
        return
    survivor = r.state.unit(target)
    if survivor is not None and flags:
        forced = min(flags, r.world.type_of(survivor).must_ignore_flags)
        ignorable = r.world.ignorable_flags(r.state, survivor)
        r.emit(m.FlagsRolled(unit=target, flags=flags, ignorable=ignorable))
        for _ in range(forced):
            r.emit(m.FlagIgnored(unit=target, forced=True))  # B-ADV-2
    proceed(r)


def apply_hits(r: Resolver, target: str, hits: int, attacker: str | None) -> None:
    """Hits first (B-DIE-4): figures, or a creature's critical roll (B-ADV-2)."""
    world = r.world
    defender = r.state.unit(target)
    unit = r.state.unit(attacker) if attacker else None
    if defender is None or hits <= 0:
        return
    kind = world.type_of(defender)
    if unit is not None and world.type_of(unit).hit_cancels_order:
        r.emit(m.OrderCancelled(unit=target))
    if kind.critical_only:
        critical = r.roll(hits, "critical", target)
        if kind.banner in critical:
            r.emit(m.FiguresLost(unit=target, count=defender.figures, cause="critical"))
    else:
        r.emit(m.FiguresLost(unit=target, count=min(hits, defender.figures), cause="hits"))
    r.destroy_if_empty(target)


def proceed(r: Resolver) -> None:
    """Run the battle in progress until a player must choose or it ends."""
    while not r.over and (combat := r.state.combat) is not None:
        defender = r.state.unit(combat.defender)
        if combat.stage == "flags":
            if defender is None or combat.flags <= 0:
                _after_retreat(r)
            elif combat.ignorable > 0 or _courage(r, defender.side):
                return  # B-RET-2: ignore a flag or not (B-ADV-5: or play lore)
            else:
                per_flag = r.world.type_of(defender).hexes_per_flag
                r.emit(m.RetreatBegun(unit=defender.id, hexes=combat.flags * per_flag))
        elif combat.stage == "retreat":
            if defender is None or combat.hexes <= 0:
                _after_retreat(r)
                continue
            options = r.world.retreat_options(r.state, defender)
            if len(options) > 1:
                return  # B-RET-1: the owner picks the hex
            if options:
                retreat_to(r, options[0])
            else:
                _blocked(r, defender.id)
        else:
            return  # take ground, pursuit, bonus battle, battle back: a choice


def _courage(r: Resolver, seat: str) -> bool:
    """Whether the retreating side's on-retreat lore window is open in this battle: it
    opens when the side holds any lore card (a public count, so it reveals no card)."""
    combat = r.state.combat
    return (
        r.world.scenario.lore
        and combat is not None
        and "on_retreat" not in combat.closed
        and bool(r.state.side_of(seat).lore_hand)
    )


def _blocked(r: Resolver, unit_id: str) -> None:
    """A retreat hex that cannot be entered: a figure lost (B-RET-1), or a creature's roll
    as if attacked, dying to a critical hit (B-ADV-2 ruling: one die per blocked hex)."""
    unit = r.state.unit(unit_id)
    assert unit is not None
    kind = r.world.type_of(unit)
    if kind.critical_only:
        faces = r.roll(1, "blocked", unit_id)
        if kind.banner in faces:
            critical = r.roll(1, "critical", unit_id)
            if kind.banner in critical:
                r.emit(m.FiguresLost(unit=unit_id, count=unit.figures, cause="critical"))
    else:
        r.emit(m.FiguresLost(unit=unit_id, count=1, cause="blocked"))
    r.destroy_if_empty(unit_id)


def retreat_to(r: Resolver, hex_: Point) -> None:
    """One hex of retreat; goblins roll for it (B-ADV-1)."""
    combat = r.state.combat
    assert combat is not None
    unit_id = combat.defender
    r.emit(m.UnitMoved(unit=unit_id, path=(hex_,), why="retreat"))
    r.check_medals()
    unit = r.state.unit(unit_id)
    if r.over or unit is None:
        return
    kind = r.world.type_of(unit)
    if kind.retreat_rolls:
        lost = r.roll(1, "retreat", unit_id).count(kind.banner)
        if lost:
            r.emit(m.FiguresLost(unit=unit_id, count=min(lost, unit.figures), cause="retreat_roll"))
            r.destroy_if_empty(unit_id)


def _after_retreat(r: Resolver) -> None:
    """Take ground for a melee attacker whose target left, else battle back (B-MOM-1/2)."""
    combat = r.state.combat
    assert combat is not None
    attacker, defender = r.state.unit(combat.attacker), r.state.unit(combat.defender)
    momentum = combat.melee and combat.kind in ("battle", "bonus") and attacker is not None
    if (
        momentum
        and r.state.at(combat.origin) is None
        and (defender is None or defender.hex != combat.origin)
    ):
        r.emit(m.CombatStage(stage="take_ground"))
    elif (
        momentum
        and defender is not None
        and defender.hex == combat.origin
        and (combat.ambush or r.world.bold(r.state, defender))
    ):
        r.emit(m.CombatStage(stage="battle_back"))
    else:
        end_combat(r)


def after_take_ground(r: Resolver) -> None:
    """After taking ground: a mounted unit's pursuit and bonus battle (B-MOM-1)."""
    combat = r.state.combat
    assert combat is not None
    unit = r.state.unit(combat.attacker)
    assert unit is not None
    mounted = r.world.type_of(unit).kind == "mounted"
    if not mounted or combat.kind != "battle" or unit.id in r.state.bonus_used:
        end_combat(r)
    elif r.world.pursuit_options(r.state, unit.hex):
        r.emit(m.CombatStage(stage="pursuit"))
    else:
        bonus_check(r)


def bonus_check(r: Resolver) -> None:
    """Offer the bonus battle if an enemy stands next to the pursuer, else end."""
    if r.world.bonus_targets(r.state):
        r.emit(m.CombatStage(stage="bonus"))
    else:
        end_combat(r)


def end_combat(r: Resolver) -> None:
    """The battle in progress is over."""
    r.emit(m.CombatEnded())
