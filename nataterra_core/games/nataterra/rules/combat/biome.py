"""Biome cards in combat (N-COMBAT-7/8) and the choices they and the Naga's Flare create.

The card is drawn after deployment; its two essences raise initiative; its main effect
targets ``all`` players of the combat or one civilisation, and a Naga player may take a
civilisation-targeted effect for themselves by paying flare (N-COMBAT-8). Effects that
need a choice queue a *pending choice* on the combat; :mod:`.flow` asks for pending
choices before anything else.
"""

from __future__ import annotations

from typing import Final, Literal, Protocol

from nataterra_core.games.nataterra.content.schema import (
    BiomeCard,
    ContentPack,
    EffectPrimitive,
    EffectSpec,
)
from nataterra_core.kernel import Command, DiceStream, Event

from ...messages.combat import (
    AmbushJoined,
    BiomeTargetFixed,
    ChoiceResolved,
    ChooseEffectGroup,
    ChoosePlayer,
    DiscardTactic,
    FinishMoves,
    MoveAfterWin,
    RaiseInitiative,
    RedirectBiome,
    SpiritsEmbrace,
    SpiritsEmbraced,
    TacticDiscarded,
    UnitsMovedAfterWin,
)
from ...messages.combat_opening import BiomeFlag
from .effects import damage_event, effect_events, player_chosen, raise_initiative
from .fold_tools import movable_units
from .model import Combat
from .tactics import TacticEnv

__all__ = [
    "EMBRACE_COST",
    "FLAGS",
    "START_CHOICES",
    "acts_at_round_end",
    "card_of",
    "choice_events",
    "fix_target",
    "pending_options",
    "quick_gains",
    "redirect_cost",
    "round_end_damage",
    "round_heals",
]

EMBRACE_COST = 2  # N-CIV-3 (provisional): Spirit's Embrace costs 2 flare
EMBRACE_BONUS = 2


def card_of(pack: ContentPack, combat: Combat) -> BiomeCard | None:
    """The combat's biome card, once one has turned up (N-COMBAT-7; none in mountains and
    lakes)."""
    return pack.biome_cards[combat.biome_card] if combat.biome_card else None


def redirect_cost(env: EnvLike, combat: Combat) -> int | None:
    """N-COMBAT-8: what the Naga pay to take the card's civilisation effect, or ``None``
    when they may not (not a combatant, an ``all`` effect, no lake nearby, too little flare)."""
    if combat.biome_card is None or "naga" not in combat.seats:
        return None
    target = env.pack.biome_cards[combat.biome_card].target
    if target in ("all", "naga"):
        return None
    cost = env.flare_cost("naga", combat.zone)
    if cost is None or env.flare("naga") < cost:
        return None
    return cost


FLAGS: Final[dict[str, BiomeFlag]] = {
    "no_retreat": "no_retreat",
    "no_backstab": "no_backstab",
    "no_tactics_at_start": "no_opening_tactics",
}
"""The biome effects that bind their holders for the whole combat, and the flag each sets."""


START_CHOICES: Final[dict[str, str]] = {
    "discard_tactic": "discard",
    "raise_initiative": "initiative",
    "attack_bonus": "bonus_group",
    "choose_player_discards": "choose_discarder",
    "choose_player_no_retreat": "choose_no_retreat",
}
"""The biome effects that ask each holder a choice at once (N-COMBAT-8: at combat start
unless the card says otherwise), and the pending choice each asks."""


def fix_target(
    env: EnvLike, combat: Combat, dice: DiceStream, redirected: bool
) -> tuple[Event, ...]:
    """Who holds the card's effect, the flag that binds them, the choice each is asked,
    and the effects that act at once (N-COMBAT-8)."""
    card = card_of(env.pack, combat)
    if card is None:
        return (BiomeTargetFixed(holders=()),)
    kind, amount = card.effect.kind, card.effect.amount
    binds, asks = FLAGS.get(kind, ""), START_CHOICES.get(kind, "")
    if redirected:
        cost = redirect_cost(env, combat) or 0
        holders: tuple[str, ...] = ("naga",)
        fixed = BiomeTargetFixed(
            holders=holders, redirected_by="naga", flare_paid=cost, binds=binds, asks=asks
        )
    else:
        holders = tuple(s for s in combat.seats if card.target in ("all", s))
        fixed = BiomeTargetFixed(holders=holders, binds=binds, asks=asks)
    events: list[Event] = [fixed]
    for seat in holders:
        if kind == "ambush":
            unit = env.ambush_unit(seat)
            if unit is not None:
                events.append(AmbushJoined(seat=seat, unit=unit))
        elif kind == "draw_tactic":
            for _ in range(amount):
                events.extend(env.draw_tactic(seat, dice))
        elif kind == "damage_per_group":
            mine = combat.groups_of(seat)
            spec = EffectSpec(kind="damage", amount=amount * len(mine), target="own_groups")
            events.extend(effect_events(env, combat, seat, spec, None, dice))
    return tuple(events)


def round_end_damage(env: EnvLike, combat: Combat) -> tuple[Event, ...]:
    """Drought: each group of the holders takes smite at the end of every round."""
    card = card_of(env.pack, combat)
    if card is None or card.effect.kind != "smite_each_round":
        return ()
    return tuple(
        damage_event(env, combat, g.id, card.effect.amount, smite=True)
        for seat in combat.holders
        for g in combat.groups_of(seat)
    )


# Biome effects that act at the end of each round (Drought's smite, a healing card).
_ROUND_END_EFFECTS = frozenset({"smite_each_round", "heal_each_round"})


def acts_at_round_end(env: EnvLike, combat: Combat) -> bool:
    """Whether the combat's biome card acts at the end of each round (N-COMBAT-8)."""
    card = card_of(env.pack, combat)
    return card is not None and card.effect.kind in _ROUND_END_EFFECTS


def round_heals(env: EnvLike, combat: Combat) -> tuple[str, ...]:
    """A healing card: the holders with a group on the board, each of whom chooses a group
    to heal at the end of the round."""
    card = card_of(env.pack, combat)
    if card is None or card.effect.kind != "heal_each_round":
        return ()
    return tuple([seat for seat in combat.holders if combat.has_groups(seat)])


def quick_gains(env: EnvLike, combat: Combat) -> tuple[str | None, tuple[tuple[str, int], ...]]:
    """Quick Gains: the winner, if it holds the card, and its units (unit, count) it may
    move out of the won zone (none: nobody is asked)."""
    card = card_of(env.pack, combat)
    winner = combat.winner
    if card is None or card.effect.kind != "move_after_win":
        return None, ()
    if winner is None or winner not in combat.holders:
        return None, ()
    return winner, movable_units(env.pack, combat, winner)


def pending_options(env: EnvLike, combat: Combat) -> tuple[str, list[Command]] | None:
    """The first pending choice's seat and options (``None``: nothing to choose)."""
    seat, kind = combat.pending[0]
    mine = combat.groups_of(seat)
    options: list[Command] = []
    if kind == "redirect":
        options = [RedirectBiome(redirect=True), RedirectBiome(redirect=False)]
    elif kind == "discard":
        options = [DiscardTactic(card=card) for card in dict.fromkeys(env.hand(seat))]
    elif kind == "initiative":
        options = [RaiseInitiative(unit=u) for u in dict.fromkeys(g.unit for g in mine)]
    elif kind in ("bonus_group", "heal_round"):
        options = [ChooseEffectGroup(group=g.id) for g in mine]
    elif kind in ("choose_discarder", "choose_no_retreat"):
        options = [ChoosePlayer(seat=s) for s in combat.seats]
    elif kind in ("embrace", "embrace_free"):  # a card's extra one is paid already
        if (kind == "embrace_free" or env.flare(seat) >= EMBRACE_COST) and mine:
            options = [
                *(SpiritsEmbrace(group=g.id, bonus=b) for g in mine for b in _BONUS_KINDS),
                SpiritsEmbrace(),
            ]
    elif kind == "move_after_win":
        for unit, count in combat.movable:
            for zone in env.after_win_destinations(seat, unit):
                options.extend(
                    MoveAfterWin(unit=unit, count=k, destination=zone) for k in range(1, count + 1)
                )
        if options:
            options.append(FinishMoves())
    return (seat, options) if options else None


_BONUS_KINDS: tuple[Literal["attack", "armor"], ...] = ("attack", "armor")


def choice_events(
    env: EnvLike, combat: Combat, seat: str, command: Command, dice: DiceStream
) -> tuple[Event, ...] | None:
    """The events of a pending-choice command (``None``: not such a command)."""
    if isinstance(command, RedirectBiome):
        return fix_target(env, combat, dice, redirected=command.redirect)
    if not combat.pending:
        return None
    kind = combat.pending[0][1]
    card = card_of(env.pack, combat)
    amount = card.effect.amount if card else 0
    resolved = ChoiceResolved(seat=seat, choice=kind)
    if isinstance(command, DiscardTactic):
        return (resolved, TacticDiscarded(seat=seat, card=command.card))
    if isinstance(command, RaiseInitiative):
        return (resolved, *raise_initiative(combat, seat, [command.unit], amount))
    if isinstance(command, ChooseEffectGroup):
        primitive: EffectPrimitive = "remove_damage" if kind == "heal_round" else "attack_bonus"
        spec = EffectSpec(kind=primitive, amount=amount, target="own_group")
        return (resolved, *effect_events(env, combat, seat, spec, command.group, dice))
    if isinstance(command, ChoosePlayer):
        return (resolved, player_chosen(seat, command.seat, kind))
    if isinstance(command, SpiritsEmbrace):
        if command.group is None:
            return (ChoiceResolved(seat=seat, choice=kind, declined=True),)
        return (
            resolved,
            SpiritsEmbraced(
                seat=seat,
                group=command.group,
                bonus=command.bonus,
                amount=EMBRACE_BONUS,
                flare=0 if kind == "embrace_free" else EMBRACE_COST,
            ),
        )
    if isinstance(command, MoveAfterWin):
        moved = UnitsMovedAfterWin(
            seat=seat, unit=command.unit, count=command.count, destination=command.destination
        )
        if sum(count for _, count in combat.movable) > command.count:
            return (moved,)
        return (moved, resolved)  # the last unit that may move has moved
    if isinstance(command, FinishMoves):
        return (ChoiceResolved(seat=seat, choice=kind, declined=True),)
    return None


class EnvLike(TacticEnv, Protocol):
    """What this module reads from :class:`~.flow.CombatEnv` (which imports this module)."""

    def flare_cost(self, seat: str, zone: str) -> int | None:
        """Flare ``seat`` pays to redirect a biome effect in ``zone`` (``None``: may not)."""
        ...

    def ambush_unit(self, seat: str) -> str | None:
        """The unit Ambush adds for ``seat``."""
        ...

    def after_win_destinations(self, seat: str, unit: str) -> list[str]:
        """Where Quick Gains may move ``seat``'s ``unit``."""
        ...
