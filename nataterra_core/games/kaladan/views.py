"""What one seat may see of a Kaladan position (K-HID-1).

Gold, reserves, graveyards, the board, castle upgrades, discard piles and played cards are
public; a seat sees its own magic hand and captured cards, only the sizes of the others',
the deck sizes but never their order, and the event cards it scouted. Two positions that
differ only in what a seat may not see give it equal views.
"""

from __future__ import annotations

import msgspec

from nataterra_core.kernel.secrets import sees

from .state import Army, Choice, Combat, Fallen, GameState

__all__ = ["PlayerView", "SeatView", "seat_view"]


class PlayerView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as the viewer sees it; ``hand``/``captured`` are ``None`` unless its own."""

    seat: str
    gold: int
    reserve: dict[str, int]
    graveyard: tuple[Fallen, ...]
    crowns: int
    eliminated: bool
    hand_count: int
    captured_count: int
    fresh: tuple[str, ...]
    hand: tuple[str, ...] | None = None
    captured: tuple[str, ...] | None = None


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """A Kaladan position as ``seat`` sees it (``None``: a spectator)."""

    seat: str | None
    seats: tuple[str, ...]
    map_id: str
    pack: str
    """The effective SHA-256 of the content pack in play."""
    turn: int
    active: str
    phase: str
    board: dict[str, Army]
    players: tuple[PlayerView, ...]
    castle_upgrades: tuple[str, ...]
    event_deck_count: int
    event_discard: tuple[str, ...]
    magic_deck_count: int
    magic_discard: tuple[str, ...]
    recruit_done: tuple[str, ...]
    action_done: bool
    extra_moves: int
    magic_played: tuple[str, ...]
    placed_empty: str
    pending: tuple[Choice, ...]
    combat: Combat | None
    final_order: tuple[str, ...] | None
    deck_out_by: str
    winners: tuple[str, ...]
    scores: dict[str, int]
    reason: str
    scouted: tuple[str, ...] = ()
    """The event cards on top of the deck the viewer scouted (K-CARD-2 Scout), in order."""
    scout_seat: str = ""
    """Who scouted the top event cards still on the deck (public: the card was played)."""
    scouted_count: int = 0
    """How many scouted cards are still on top of the event deck (public, as the deck's size)."""


def seat_view(state: GameState, seat: str | None, *, revealed: bool = False) -> SeatView:
    """What ``seat`` may see of ``state`` (K-HID-1): each secret as its field is declared
    (a hand its owner's, the scouted cards the scout's), all once the seed is ``revealed``."""
    players = tuple(
        PlayerView(
            seat=p.seat,
            gold=p.gold,
            reserve=dict(p.reserve),
            graveyard=p.graveyard,
            crowns=p.crowns,
            eliminated=p.eliminated,
            hand_count=len(p.hand),
            captured_count=len(p.captured),
            fresh=p.fresh,
            hand=p.hand if sees(p, "hand", seat, revealed=revealed) else None,
            captured=p.captured if sees(p, "captured", seat, revealed=revealed) else None,
        )
        for p in state.players
    )
    return SeatView(
        seat=seat,
        seats=state.seats,
        map_id=state.map_id,
        pack=state.pack,
        turn=state.turn,
        active=state.active,
        phase=state.phase,
        board=dict(state.board),
        players=players,
        castle_upgrades=state.castle_upgrades,
        event_deck_count=len(state.event_deck),
        event_discard=state.event_discard,
        magic_deck_count=len(state.magic_deck),
        magic_discard=state.magic_discard,
        recruit_done=state.recruit_done,
        action_done=state.action_done,
        extra_moves=state.extra_moves,
        magic_played=state.magic_played,
        placed_empty=state.placed_empty,
        pending=state.pending,
        combat=state.combat,
        final_order=state.final_order,
        deck_out_by=state.deck_out_by,
        winners=state.winners,
        scores=dict(state.scores),
        reason=state.reason,
        scouted=state.scout if sees(state, "scout", seat, revealed=revealed) else (),
        scout_seat=state.scout_seat,
        scouted_count=len(state.scout),
    )
