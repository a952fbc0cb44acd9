"""Lore and the war council (B-ADV-3, B-ADV-4, B-ADV-5): the set-up, the cards each window
offers, and what each card's typed effect does.

Rulings (``docs/battlelore.md``): each side has its own lore deck of its council members'
cards (B-ADV-3a); one lore card per window (B-ADV-5a); damage lore scores hits only, its
flags and other faces miss, and "within N hexes" counts from any friendly unit (B-ADV-5b);
Ambush lets the defender battle back after the attack even if it is not bold (B-ADV-5c);
Charge is played in the battle step before the charging unit's battle (B-ADV-5d); Sabotage's
victim draws a replacement at once (B-ADV-5e); at the end of its turn a side below its lore
hand limit draws one lore card, and a side holding a lore hex gains a token (B-ADV-6).
"""

from __future__ import annotations

from nataterra_core.kernel import record_draw

from .. import messages as m
from . import combat
from .lore_windows import lore_card
from .resolver import Resolver

__all__ = ["apply_lore", "end_of_turn", "lore_setup"]


def lore_deck(seat: str) -> str:
    """The name of ``seat``'s lore deck in events."""
    return f"lore:{seat}"


def lore_setup(r: Resolver) -> None:
    """Seat each council, shuffle each side's lore deck and offer its cards (B-ADV-3/4)."""
    pack = r.world.pack
    for seat in r.state.seats:
        members = r.world.scenario.council.get(seat, {})
        if not members:
            continue
        level = max(members.values())
        council = next(c for c in pack.council_levels.values() if c.level == level)
        r.emit(
            m.CouncilSeated(
                side=seat, level=level, keep=council.keep, hand_limit=council.hand_limit
            )
        )
        r.gain_tokens(seat, council.tokens, "war council")
        cards = tuple(
            c.id for c in pack.lore.values() if c.member in members for _ in range(c.copies)
        )
        r.shuffle(lore_deck(seat), cards)
        offer = r.state.side_of(seat).lore_deck[: council.offered]
        r.emit(m.CardsDrawn(seat=seat, deck=lore_deck(seat), cards=offer, pending=True))


def apply_lore(r: Resolver, seat: str, command: m.PlayLore) -> None:
    """Pay for and play a lore card, then do what its effect says."""
    card = lore_card(r.world, command.card)
    tokens = r.state.side_of(seat).lore_tokens - card.cost
    r.emit(m.LorePlayed(seat=seat, card=card.id, unit=command.unit, to=command.to))
    r.emit(m.LoreTokens(side=seat, tokens=tokens, reason=f"paid for {card.name}"))
    combat_ = r.state.combat
    match card.effect:
        case "damage":
            faces = r.roll(card.dice, "lore", command.unit)
            target = r.state.unit(command.unit)
            if target is not None:
                combat.apply_hits(
                    r, command.unit, faces.count(r.world.type_of(target).banner), None
                )
        case "teleport":
            assert command.to is not None
            r.emit(m.UnitMoved(unit=command.unit, path=(command.to,), why="teleport"))
            r.check_medals()
        case "discard_random":
            victim = r.state.other(seat)
            hand = r.state.side_of(victim).hand
            draw = record_draw(r.dice, len(hand))
            r.emit(m.RandomDiscard(**draw, seat=victim, card=hand[draw["value"]]))
            r.draw(victim, 1)
        case "extra_order":
            r.emit(m.ExtraOrders(count=card.amount))
        case "heal":
            unit = r.state.unit(command.unit)
            if unit is not None:
                r.emit(
                    m.FiguresRegained(
                        unit=unit.id, count=min(card.amount, unit.start - unit.figures)
                    )
                )
        case "steal_token":
            victim = r.state.other(seat)
            taken = min(card.amount, r.state.side_of(victim).lore_tokens)
            r.emit(
                m.LoreTokens(
                    side=victim, tokens=r.state.side_of(victim).lore_tokens - taken, reason="stolen"
                )
            )
            r.gain_tokens(seat, taken, "stolen")
        case "cancel_hit" if combat_ is not None:
            r.emit(
                m.RollRead(
                    unit=combat_.defender,
                    hits=max(0, combat_.hits - card.amount),
                    flags=combat_.flags,
                )
            )
        case "shield_wall" if combat_ is not None:
            r.emit(m.RollRead(unit=combat_.defender, hits=combat_.hits, flags=0))
        case "ambush" if combat_ is not None:
            r.emit(m.Ambush(unit=combat_.defender))
        case "ignore_flag" if combat_ is not None:
            r.emit(m.FlagIgnored(unit=combat_.defender, forced=True))
        case "extra_die":
            pass  # LorePlayed marks the unit charged (the fold); its next battle adds the dice


def end_of_turn(r: Resolver) -> None:
    """B-ADV-6 ruling: the active side's lore hex token and its lore hand refill."""
    if not r.world.scenario.lore:
        return
    seat = r.state.seat
    if any((u := r.state.at(h)) is not None and u.side == seat for h in r.world.lore_hexes):
        r.gain_tokens(seat, 1, "lore hex held")
    side = r.state.side_of(seat)
    if side.lore_deck and len(side.lore_hand) < side.lore_limit:
        r.emit(m.CardsDrawn(seat=seat, deck=lore_deck(seat), cards=side.lore_deck[:1]))
