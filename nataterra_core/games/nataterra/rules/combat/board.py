"""Who stands and who acts next: queries on a combat's groups that every step, question and
fold asks (N-COMBAT-9/10/17). Plain functions, compiled with the rules in the compiled build
(the model's classes are msgspec structs and stay interpreted)."""

from __future__ import annotations

from typing import Protocol

from .model import Combat, Group

__all__ = [
    "Hands",
    "asks_windows",
    "both_standing",
    "pick_candidates",
    "replace_group",
    "side_stands",
]


class Hands(Protocol):
    """Where the fighters' tactic hands are held: the combat's host, through its
    environment (:class:`~.env.CombatEnv`; the combat keeps no copy)."""

    deals_tactics: bool

    def hand(self, seat: str) -> tuple[str, ...]:
        """``seat``'s tactic hand."""
        ...


def asks_windows(env: Hands, combat: Combat) -> bool:
    """Whether a tactic window could ask anyone: some seat holds a card and has not given
    a standing pass (N-COMBAT-9). Decided on hand sizes, which are public, held by the
    combat's host; when it is false no window opens (the hot path: a battle deals no
    cards)."""
    if not env.deals_tactics:
        return False
    passed = combat.standing_passes
    return any(seat not in passed and env.hand(seat) for seat in combat.seats)


def both_standing(combat: Combat) -> bool:
    """Whether both sides still have a group on the board (N-COMBAT-17)."""
    seat, allies = combat.attacker, combat.allies
    attacker = defender = False
    for g in combat.groups:
        if g.units:
            if g.owner == seat or (allies and allies.get(g.owner) == seat):
                attacker = True
            else:
                defender = True
            if attacker and defender:
                return True
    return False


def pick_candidates(combat: Combat) -> list[Group] | None:
    """The groups that may act next: highest initiative first, the attacker's groups
    first on ties between players; ties within one player are the owner's choice
    (N-COMBAT-10). ``None`` when a side has no group on the board any more (N-COMBAT-17:
    the combat is decided). One pass over the initiative order, which holds every group,
    for both answers (the pick stage's question and its step each ask it once), reading
    a group's owner only while it matters (compiled, each field read is a lookup)."""
    groups, allies, this_round = combat.groups, combat.allies, combat.round
    attacker, tied = combat.attacker, combat.tied
    found: list[Group] = []
    lead, initiative = "", 0
    complete = attackers = defenders = False
    for i in combat.order:  # sorted, so the candidates come first and together
        g = groups[i]
        if attackers and defenders:  # both sides stand: only the candidates are open
            if complete:
                return found
            # Most groups passed over have acted this round: one read each.
            if g.acted == this_round or not g.units:
                continue
            owner = g.owner
            side = allies.get(owner, owner) if allies else owner
        else:
            if not g.units:
                continue
            owner = g.owner
            side = allies.get(owner, owner) if allies else owner
            if side == attacker:
                attackers = True
            else:
                defenders = True
            if complete or g.acted == this_round:
                continue
        if not found:  # the first group that may act; without ties, the only one
            lead, initiative = side, g.initiative
            found.append(g)
            complete = not tied
        elif g.initiative == initiative and side == lead:
            found.append(g)
        else:
            complete = True
    return found if attackers and defenders else None


def support_only(group: Group) -> bool:
    """A melee group waiting in a ranged slot can only support (N-COMBAT-5); the rule's one
    home (:attr:`Group.support_only` asks it: compiled code calls a msgspec struct's
    property as an interpreted call)."""
    return group.cls == "melee" and group.slot == "ranged" and not group.flexible


def side_stands(combat: Combat, lead: str) -> bool:
    """Whether anyone on ``lead``'s side still has a group on the board (N-COMBAT-17), in
    one pass; :meth:`Combat.side_has_groups` asks this (a function, not only the method:
    compiled code calls a msgspec struct's method as an interpreted call)."""
    allies = combat.allies
    for g in combat.groups:
        if g.units:
            owner = g.owner
            if owner == lead or (allies and allies.get(owner) == lead):
                return True
    return False


def replace_group(groups: tuple[Group, ...], group: Group) -> tuple[Group, ...]:
    """``groups`` with ``group`` put in place of the one with its id."""
    return (*groups[: group.id], group, *groups[group.id + 1 :])
