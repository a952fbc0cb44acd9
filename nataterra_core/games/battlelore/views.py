"""What one seat may see (B-CMD-2: its own hand and draw; the deck order is nobody's)."""

from __future__ import annotations

import msgspec

from nataterra_core.kernel.secrets import sees

from .state import BattleLoreState, Combat, Unit

__all__ = ["SeatView", "SideView", "seat_view"]


class SideView(msgspec.Struct, frozen=True, kw_only=True):
    """A side as the viewer sees it: hidden cards only when they are the viewer's own."""

    seat: str
    medals: int
    kills: int
    objectives: int
    hand_size: int
    last_card: str
    lore_tokens: int
    lore_hand_size: int
    lore_deck_size: int = 0
    lore_offer_size: int = 0
    lore_keep: int = 0
    lore_limit: int = 0
    hand: tuple[str, ...] | None = None
    lore_hand: tuple[str, ...] | None = None
    lore_offer: tuple[str, ...] | None = None


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's view of the battle (``seat`` None: a spectator)."""

    seat: str | None
    scenario: str
    pack: str
    """The effective SHA-256 of the content pack in play."""
    turn: int
    max_turns: int
    active: str
    phase: str
    card: str
    units: tuple[Unit, ...]
    sides: tuple[SideView, ...]
    deck_size: int
    discard: tuple[str, ...]
    ordered: tuple[str, ...]
    moved: tuple[str, ...]
    battled: tuple[str, ...]
    no_battle: tuple[str, ...]
    cancelled: tuple[str, ...]
    combat: Combat | None
    charged: tuple[str, ...] = ()
    bonus_used: tuple[str, ...] = ()
    extra_orders: int = 0
    lore_played: bool = False
    end_window: bool = False
    lore_discard: tuple[str, ...] = ()
    drawn: tuple[str, ...] | None = None
    drawn_size: int = 0
    winner: str | None = None
    ended: str = ""


def seat_view(state: BattleLoreState, seat: str | None, *, revealed: bool = False) -> SeatView:
    """What ``seat`` may see of ``state``: each secret as its field is declared (a side's
    hands its own, the draw the drawer's), all of them once the seed is ``revealed``."""
    sides = tuple(
        SideView(
            seat=s.seat,
            medals=s.medals,
            kills=s.kills,
            objectives=s.objectives,
            hand_size=len(s.hand),
            last_card=s.last_card,
            lore_tokens=s.lore_tokens,
            lore_hand_size=len(s.lore_hand),
            lore_deck_size=len(s.lore_deck),
            lore_offer_size=len(s.lore_offer),
            lore_keep=s.lore_keep,
            lore_limit=s.lore_limit,
            hand=s.hand if sees(s, "hand", seat, revealed=revealed) else None,
            lore_hand=s.lore_hand if sees(s, "lore_hand", seat, revealed=revealed) else None,
            lore_offer=s.lore_offer if sees(s, "lore_offer", seat, revealed=revealed) else None,
        )
        for s in state.sides
    )
    return SeatView(
        seat=seat,
        scenario=state.scenario,
        pack=state.pack,
        turn=state.turn,
        max_turns=state.max_turns,
        active=state.seat,
        phase=state.phase,
        card=state.card,
        units=state.units,
        sides=sides,
        deck_size=len(state.deck),
        discard=state.discard,
        ordered=state.ordered,
        moved=state.moved,
        battled=state.battled,
        no_battle=state.no_battle,
        cancelled=state.cancelled,
        combat=state.combat,
        charged=state.charged,
        bonus_used=state.bonus_used,
        extra_orders=state.extra_orders,
        lore_played=state.lore_played,
        end_window=state.end_window,
        lore_discard=state.lore_discard,
        drawn=state.drawn if sees(state, "drawn", seat, revealed=revealed) else None,
        drawn_size=len(state.drawn),
        winner=state.winner,
        ended=state.ended,
    )
