"""The determiniser hook: a full state consistent with one seat's view (search players).

What the seat cannot see — the other side's hands, a draw waiting for the other side, the
deck orders — is dealt at random from the cards it has not seen, with the player's own
seeded stream (never global randomness), so a search can sample worlds the seat cannot tell
apart from the real one. Everything the view shows is copied as it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from nataterra_core.kernel import player_dice

from .content import load_pack
from .content.schema import BattleLorePack
from .rules.world import World
from .state import BattleLoreState, Side
from .views import SeatView, SideView

__all__ = ["determinise"]


def _deal(dice: Any, pool: Counter[str]) -> Iterator[str]:
    """The cards of ``pool`` in a seeded random order."""
    return iter(dice.shuffle(sorted(pool.elements())))


def _take(cards: Iterator[str], count: int) -> tuple[str, ...]:
    return tuple(next(cards) for _ in range(count))


def _lore_side(world: World, side: SideView, discards: Counter[str], dice: Any) -> Side:
    members = world.scenario.council.get(side.seat, {})
    pool = Counter(
        c.id for c in world.pack.lore.values() if c.member in members for _ in range(c.copies)
    )
    known = Counter((side.lore_hand or ()) + (side.lore_offer or ()))
    mine_discarded = pool & discards
    discards.subtract(mine_discarded)
    unseen = _deal(dice, pool - known - mine_discarded)
    hand = side.lore_hand if side.lore_hand is not None else _take(unseen, side.lore_hand_size)
    offer = side.lore_offer if side.lore_offer is not None else _take(unseen, side.lore_offer_size)
    return Side(
        seat=side.seat,
        kills=side.kills,
        objectives=side.objectives,
        last_card=side.last_card,
        lore_hand=hand,
        lore_offer=offer,
        lore_deck=_take(unseen, side.lore_deck_size),
        lore_keep=side.lore_keep,
        lore_tokens=side.lore_tokens,
        lore_limit=side.lore_limit,
    )


def determinise(view: SeatView, pack: BattleLorePack | None, seed: int) -> BattleLoreState:
    """A state whose view for ``view.seat`` is ``view``, its hidden parts dealt at random."""
    world = World(pack or load_pack(), view.scenario)
    dice = player_dice(seed, "battlelore-determiniser")
    full = Counter(c.id for c in world.pack.cards.values() for _ in range(c.copies))
    seen = Counter(view.discard) + Counter(view.drawn or ())
    for side in view.sides:
        seen += Counter(side.hand or ())
    unseen = _deal(dice, full - seen)
    hands = {
        s.seat: s.hand if s.hand is not None else _take(unseen, s.hand_size) for s in view.sides
    }
    drawn = view.drawn if view.drawn is not None else _take(unseen, view.drawn_size)
    deck = _take(unseen, view.deck_size)
    discards = Counter(view.lore_discard)
    sides = [_lore_side(world, s, discards, dice) for s in view.sides]
    sides = [
        Side(**{**{f: getattr(s, f) for f in s.__struct_fields__}, "hand": hands[s.seat]})
        for s in sides
    ]
    seats = (sides[0].seat, sides[1].seat)
    return BattleLoreState(
        scenario=view.scenario,
        seats=seats,
        sides=(sides[0], sides[1]),
        units=view.units,
        max_turns=view.max_turns,
        deck=deck,
        discard=view.discard,
        lore_discard=view.lore_discard,
        phase=view.phase,  # type: ignore[arg-type]
        active=seats.index(view.active),
        turn=view.turn,
        card=view.card,
        ordered=view.ordered,
        moved=view.moved,
        no_battle=view.no_battle,
        battled=view.battled,
        bonus_used=view.bonus_used,
        cancelled=view.cancelled,
        extra_orders=view.extra_orders,
        lore_played=view.lore_played,
        charged=view.charged,
        end_window=view.end_window,
        combat=view.combat,
        drawn=drawn,
        winner=view.winner,
        ended=view.ended,
    )
