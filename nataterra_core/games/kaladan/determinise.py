"""Kaladan's determiniser (the registry's ``determiniser`` hook): a full state sampled from
what one seat may see, for search players.

The public part is copied from the seat view; the hidden part (K-HID-1) is sampled with the
seed's own stream (never the game's): the other seats' magic hands and captured cards are
dealt, in their public sizes, from the magic cards the seat has not seen, the rest is the
magic deck in a random order; the event deck is the cards not yet drawn, those the seat
scouted on top in the order it knows, the others shuffled; cards another seat scouted are the
sampled deck's top cards, in their public number. So the seat's view of the sampled state is
the view it came from, and so is its decision.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import player_dice

from .content.schema import KaladanPack
from .state import GameState, PlayerState
from .views import SeatView

__all__ = ["determinise"]


def _without(cards: list[str], taken: tuple[str, ...]) -> list[str]:
    for card in taken:
        cards.remove(card)
    return cards


def determinise(view: Any, pack: Any, seed: int) -> GameState:
    """A state whose ``view.seat`` view is ``view``, the hidden cards sampled with ``seed``."""
    assert isinstance(view, SeatView) and isinstance(pack, KaladanPack)
    dice = player_dice(seed, "kaladan-determiniser")
    mine = next(p for p in view.players if p.seat == view.seat)
    unseen = _without(list(pack.magic_cards()), (*view.magic_discard,))
    unseen = _without(unseen, (*(mine.hand or ()), *(mine.captured or ())))
    unseen = list(dice.shuffle(unseen))
    players = []
    for p in view.players:
        hand, captured = p.hand, p.captured
        if hand is None or captured is None:
            hand, unseen = tuple(sorted(unseen[: p.hand_count])), unseen[p.hand_count :]
            captured, unseen = (
                tuple(sorted(unseen[: p.captured_count])),
                unseen[p.captured_count :],
            )
        players.append(
            PlayerState(
                seat=p.seat,
                gold=p.gold,
                reserve=dict(p.reserve),
                graveyard=p.graveyard,
                hand=hand,
                captured=captured,
                fresh=p.fresh,
                crowns=p.crowns,
                eliminated=p.eliminated,
            )
        )
    left = _without(list(pack.events), (*view.event_discard, *view.scouted))
    events = (*view.scouted, *dice.shuffle(left))
    scout = view.scouted or events[: view.scouted_count]  # another seat's: sampled too
    return GameState(
        seats=view.seats,
        map_id=view.map_id,
        pack=view.pack,
        turn=view.turn,
        active=view.active,
        phase=view.phase,  # type: ignore[arg-type]
        board=dict(view.board),
        players=tuple(players),
        castle_upgrades=view.castle_upgrades,
        event_deck=events,
        event_discard=view.event_discard,
        magic_deck=tuple(unseen),
        magic_discard=view.magic_discard,
        recruit_done=view.recruit_done,
        action_done=view.action_done,
        extra_moves=view.extra_moves,
        magic_played=view.magic_played,
        placed_empty=view.placed_empty,
        pending=view.pending,
        scout=scout,
        scout_seat=view.scout_seat,
        combat=view.combat,
        deck_out_by=view.deck_out_by,
        final_order=view.final_order,
        winners=view.winners,
        scores=dict(view.scores),
        reason=view.reason,
    )
