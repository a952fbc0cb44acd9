"""The determiniser hook: a full state consistent with one seat's view (search players).

What the seat cannot see — the other side's hands, a draw waiting for the other side, the
deck orders — is dealt at random from the cards it has not seen, with the player's own
seeded stream (never global randomness), so a search can sample worlds the seat cannot tell
apart from the real one. Everything the view shows is copied as it is.
"""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from nataterra_core.kernel import DiceStream
from nataterra_core.kernel.determinise import deal, sampling_dice, unseen

from .content.schema import BattleLorePack
from .rules.world import World, world_in_play
from .state import BattleLoreState, Side
from .views import SeatView, SideView

__all__ = ["determinise", "public_state"]


def _lore_side(world: World, side: SideView, discards: Counter[str], dice: DiceStream) -> Side:
    """A side's lore: hand, offer and deck, the unseen ones dealt from its members' cards."""
    members = world.scenario.council.get(side.seat, {})
    cards = [c.id for c in world.pack.lore.values() if c.member in members for _ in range(c.copies)]
    discarded = Counter(cards) & discards  # a discard is this side's if its members hold it
    discards.subtract(discarded)
    pool = unseen(cards, side.lore_hand or (), side.lore_offer or (), discarded.elements())
    sizes = [
        side.lore_hand_size if side.lore_hand is None else 0,
        side.lore_offer_size if side.lore_offer is None else 0,
    ]
    (hand, offer), rest = deal(pool, sizes, dice)
    return _side(
        side,
        lore_hand=side.lore_hand if side.lore_hand is not None else hand,
        lore_offer=side.lore_offer if side.lore_offer is not None else offer,
        lore_deck=rest[: side.lore_deck_size],
    )


def _side(
    side: SideView,
    *,
    hand: tuple[str, ...] = (),
    lore_hand: tuple[str, ...] = (),
    lore_offer: tuple[str, ...] = (),
    lore_deck: tuple[str, ...] = (),
) -> Side:
    """A side as ``side`` shows it, with these cards."""
    return Side(
        seat=side.seat,
        hand=hand,
        kills=side.kills,
        objectives=side.objectives,
        last_card=side.last_card,
        lore_hand=lore_hand,
        lore_offer=lore_offer,
        lore_deck=lore_deck,
        lore_keep=side.lore_keep,
        lore_tokens=side.lore_tokens,
        lore_limit=side.lore_limit,
    )


_WORLDS: dict[tuple[str, str], World] = {}
"""Worlds built for a given pack, by its SHA-256 and the scenario (a search determinises
thousands of times a decision; building the board each time cost a tenth of it)."""


def _world(pack: BattleLorePack, scenario: str) -> World:
    key = (pack.sha256, scenario)
    found = _WORLDS.get(key)
    if found is None:
        if len(_WORLDS) >= 64:  # a long-lived process meeting many packs: start afresh
            _WORLDS.clear()
        found = _WORLDS[key] = World(pack, scenario)
    return found


def determinise(view: SeatView, pack: BattleLorePack | None, seed: int) -> BattleLoreState:
    """A state whose view for ``view.seat`` is ``view``, its hidden parts dealt at random."""
    world = _world(pack, view.scenario) if pack else world_in_play(view.pack, view.scenario)
    dice = sampling_dice(seed, "battlelore")
    full = [c.id for c in world.pack.cards.values() for _ in range(c.copies)]
    known = [s.hand for s in view.sides if s.hand is not None]
    pool = unseen(full, view.discard, view.drawn or (), *known)
    hidden = [s for s in view.sides if s.hand is None]
    sizes = [*(s.hand_size for s in hidden), view.drawn_size if view.drawn is None else 0]
    dealt, rest = deal(pool, sizes, dice)
    hands = {s.seat: s.hand for s in view.sides if s.hand is not None}
    hands.update({s.seat: hand for s, hand in zip(hidden, dealt, strict=False)})
    drawn = view.drawn if view.drawn is not None else dealt[-1]
    deck = rest[: view.deck_size]
    discards = Counter(view.lore_discard)
    sides = [_lore_side(world, s, discards, dice) for s in view.sides]
    sides = [replace(s, hand=hands[s.seat]) for s in sides]
    return _state(view, sides, deck, drawn)


def public_state(view: SeatView) -> BattleLoreState:
    """A state with what ``view`` shows and nothing else: the cards the seat cannot see are
    left out (empty hands, decks and draws), so only questions about the public position
    and the seat's own cards may be asked of it (the heuristic player's: no dealing, a tenth
    of its time)."""
    sides = [
        _side(
            s,
            hand=s.hand or (),
            lore_hand=s.lore_hand or (),
            lore_offer=s.lore_offer or (),
        )
        for s in view.sides
    ]
    return _state(view, sides, (), view.drawn or ())


def _state(
    view: SeatView, sides: list[Side], deck: tuple[str, ...], drawn: tuple[str, ...]
) -> BattleLoreState:
    seats = (sides[0].seat, sides[1].seat)
    return BattleLoreState(
        scenario=view.scenario,
        pack=view.pack,
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
