"""Folding Kaladan's events into the state: one function per event type, never random.

Each fold replaces parts of the immutable state; none checks a rule (``decide`` did).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from .. import messages as m
from ..state import Army, Combat, Fallen, GameState, PlayerState, base_of, upgraded, without

__all__ = ["FOLDS", "fold"]


def _player(state: GameState, seat: str, **changes: Any) -> GameState:
    index = state.seats.index(seat)
    players = list(state.players)
    players[index] = replace(players[index], **changes)
    return replace(state, players=tuple(players))


def _reserve(player: PlayerState, unit: str, delta: int) -> dict[str, int]:
    reserve = dict(player.reserve)
    reserve[unit] = reserve.get(unit, 0) + delta
    if reserve[unit] == 0:
        del reserve[unit]
    return reserve


def _board(state: GameState, tile: str, owner: str, units: tuple[str, ...]) -> GameState:
    board = dict(state.board)
    if units:
        board[tile] = Army(owner, tuple(sorted(units)))
    else:
        board.pop(tile, None)
    return replace(state, board=board)


def _add(state: GameState, tile: str, owner: str, units: tuple[str, ...]) -> GameState:
    return _board(state, tile, owner, (*state.units_on(tile), *units))


def _take(state: GameState, tile: str, units: tuple[str, ...]) -> GameState:
    army = state.board[tile]
    return _board(state, tile, army.owner, without(army.units, units))


def _shuffled(state: GameState, e: m.DeckShuffled) -> GameState:
    if e.deck == "events":
        return replace(state, event_deck=e.after)
    return replace(state, magic_deck=e.after, magic_discard=())


def _first(state: GameState, e: m.FirstPlayerDrawn) -> GameState:
    return replace(state, active=e.seat)


def _magic_drawn(state: GameState, e: m.MagicDrawn) -> GameState:
    player = state.player(e.seat)
    state = replace(state, magic_deck=state.magic_deck[len(e.cards) :])
    return _player(state, e.seat, hand=tuple(sorted((*player.hand, *e.cards))))


def _turn(state: GameState, e: m.TurnStarted) -> GameState:
    state = replace(state, active=e.seat, turn=e.turn, combat=None)
    if e.final and state.final_order is not None:
        state = replace(state, final_order=state.final_order[state.final_order.index(e.seat) + 1 :])
    return _player(state, e.seat, fresh=())


def _phase(state: GameState, e: m.PhaseStarted) -> GameState:
    return replace(
        state,
        phase=e.phase,
        recruit_done=(),
        action_done=False,
        extra_moves=0,
        magic_played=(),
        placed_empty="",
    )


def _gold(state: GameState, e: m.GoldChanged) -> GameState:
    return _player(state, e.seat, gold=max(0, state.player(e.seat).gold + e.amount))


def _event_card(state: GameState, e: m.EventCardDrawn) -> GameState:
    scout = state.scout[1:] if state.scout[:1] == (e.card,) else ()
    state = replace(
        state,
        event_deck=state.event_deck[1:],
        event_discard=(*state.event_discard, e.card),
        scout=scout,
        scout_seat=state.scout_seat if scout else "",
        action_done=True,
    )
    return replace(state, deck_out_by=e.seat) if e.last else state


def _awaited(state: GameState, e: m.ChoiceAwaited) -> GameState:
    return replace(state, pending=(*state.pending, e.choice))


def _made(state: GameState, e: m.ChoiceMade) -> GameState:
    return replace(state, pending=state.pending[1:])


def _recruited(state: GameState, e: m.Recruited) -> GameState:
    state = replace(state, recruit_done=(*state.recruit_done, e.castle))
    if not e.unit:
        return state
    state = _add(state, e.castle, e.seat, (e.unit,))
    return _player(state, e.seat, reserve=_reserve(state.player(e.seat), e.unit, -1))


def _moved(state: GameState, e: m.UnitsMoved) -> GameState:
    state = _add(_take(state, e.source, e.units), e.target, e.seat, e.units)
    if e.rule == "K-CARD-2":
        return replace(state, extra_moves=state.extra_moves - 1)
    if e.rule == "K-ACT-1":
        return replace(state, action_done=True)
    return state


def _swapped(state: GameState, e: m.UnitsSwapped) -> GameState:
    state = _add(_take(state, e.first, e.give), e.first, e.seat, e.take)
    state = _add(_take(state, e.second, e.take), e.second, e.seat, e.give)
    return replace(state, action_done=True) if state.phase == "action" else state


def _placed(state: GameState, e: m.UnitPlaced) -> GameState:
    fresh_tile = e.tile not in state.board and e.rule == "K-BUY-3"
    state = _add(state, e.tile, e.seat, (e.unit,))
    player = state.player(e.seat)
    state = _player(state, e.seat, reserve=_reserve(player, e.unit, -1), gold=player.gold - e.cost)
    return replace(state, placed_empty=e.tile) if fresh_tile else state


def _upgraded(state: GameState, e: m.UnitUpgraded) -> GameState:
    state = _add(_take(state, e.tile, (e.unit,)), e.tile, e.seat, (upgraded(e.unit),))
    return _player(state, e.seat, gold=state.player(e.seat).gold - e.cost)


def _castle(state: GameState, e: m.CastleUpgraded) -> GameState:
    if e.removed:
        return replace(
            state, castle_upgrades=tuple(t for t in state.castle_upgrades if t != e.tile)
        )
    state = replace(state, castle_upgrades=tuple(sorted((*state.castle_upgrades, e.tile))))
    return _player(state, e.seat, gold=state.player(e.seat).gold - e.cost)


def _removed(state: GameState, e: m.UnitRemoved) -> GameState:
    state = _take(state, e.tile, (e.unit,))
    combat = state.combat
    if combat is not None and e.tile == combat.source and e.owner == combat.attacker:
        committed = without(combat.committed, (e.unit,))
        state = replace(state, combat=replace(combat, committed=committed))
    unit = base_of(e.unit)
    if e.scalp_of:
        grave = state.player(e.scalp_of).graveyard
        return _player(state, e.scalp_of, graveyard=tuple(sorted((*grave, Fallen(e.owner, unit)))))
    return _player(state, e.owner, reserve=_reserve(state.player(e.owner), unit, 1))


def _revived(state: GameState, e: m.UnitRevived) -> GameState:
    grave = list(state.player(e.source).graveyard)
    grave.remove(Fallen(e.seat, e.unit))
    state = _player(state, e.source, graveyard=tuple(grave))
    return _player(state, e.seat, reserve=_reserve(state.player(e.seat), e.unit, 1))


def _hand_without(player: PlayerState, card: str) -> tuple[str, ...]:
    hand = list(player.hand)
    hand.remove(card)
    return tuple(hand)


def _played(state: GameState, e: m.MagicPlayed) -> GameState:
    state = _player(state, e.seat, hand=_hand_without(state.player(e.seat), e.card))
    return replace(
        state,
        magic_discard=(*state.magic_discard, e.card),
        magic_played=(*state.magic_played, e.seat),
    )


def _discarded(state: GameState, e: m.MagicDiscarded) -> GameState:
    player = state.player(e.seat)
    state = _player(state, e.seat, hand=_hand_without(player, e.card), gold=player.gold - e.cost)
    return replace(state, magic_discard=(*state.magic_discard, e.card))


def _bought(state: GameState, e: m.MagicBought) -> GameState:
    return _player(state, e.seat, gold=state.player(e.seat).gold - e.cost)


def _captured(state: GameState, e: m.CapturedBought) -> GameState:
    player = state.player(e.seat)
    captured = list(player.captured)
    captured.remove(e.card)
    return _player(
        state,
        e.seat,
        captured=tuple(captured),
        hand=tuple(sorted((*player.hand, e.card))),
        gold=player.gold - e.cost,
    )


def _scouted(state: GameState, e: m.Scouted) -> GameState:
    return replace(state, scout=e.cards, scout_seat=e.seat)


def _scout_ordered(state: GameState, e: m.ScoutOrdered) -> GameState:
    rest = state.event_deck[len(e.cards) :]
    return replace(state, event_deck=(*e.cards, *rest), scout=e.cards)


def _granted(state: GameState, e: m.MovesGranted) -> GameState:
    return replace(state, extra_moves=state.extra_moves + e.amount)


def _assassin(state: GameState, e: m.AssassinRolled) -> GameState:
    return state


def _combat_started(state: GameState, e: m.CombatStarted) -> GameState:
    combat = Combat(
        attacker=e.attacker,
        defender=e.defender,
        source=e.source,
        target=e.target,
        committed=tuple(sorted(e.units)),
        stage="attack_magic",
    )
    return replace(state, combat=combat, action_done=True)


def _die_added(state: GameState, e: m.CombatDieAdded) -> GameState:
    assert state.combat is not None
    combat = state.combat
    if e.side == "attack":
        combat = replace(combat, attack_bonus=(*combat.attack_bonus, e.die))
    else:
        combat = replace(combat, defence_bonus=(*combat.defence_bonus, e.die))
    return replace(state, combat=combat)


def _step(state: GameState, e: m.CombatStep) -> GameState:
    assert state.combat is not None
    return replace(state, combat=replace(state.combat, stage=e.stage, loser=e.loser))


def _rolled(state: GameState, e: m.CombatRolled) -> GameState:
    assert state.combat is not None
    return replace(state, combat=replace(state.combat, round=e.round))


def _ended(state: GameState, e: m.CombatEnded) -> GameState:
    return replace(state, combat=None)


def _eliminated(state: GameState, e: m.PlayerEliminated) -> GameState:
    loser = state.player(e.seat)
    reserve = dict(loser.reserve)
    for army in [a for a in state.board.values() if a.owner == e.seat]:
        for unit in army.units:
            reserve[base_of(unit)] = reserve.get(base_of(unit), 0) + 1
    if e.special:
        reserve[e.special] -= 1
        if not reserve[e.special]:
            del reserve[e.special]
    board = {t: a for t, a in state.board.items() if a.owner != e.seat}
    cards = (*loser.hand, *loser.captured)
    state = replace(state, board=board)
    state = _player(state, e.seat, eliminated=True, reserve=reserve, hand=(), captured=())
    victor = state.player(e.by)
    changes: dict[str, Any] = {
        "crowns": victor.crowns + 1,
        "captured": tuple(sorted((*victor.captured, *cards))),
    }
    if e.special:
        changes["reserve"] = _reserve(victor, e.special, 1)
        changes["fresh"] = (*victor.fresh, e.special)
    return _player(state, e.by, **changes)


def _final(state: GameState, e: m.FinalRound) -> GameState:
    return replace(state, final_order=e.order)


def _tie(state: GameState, e: m.TieRolled) -> GameState:
    return state


def _game_ended(state: GameState, e: m.GameEnded) -> GameState:
    return replace(
        state, phase="over", winners=e.winners, scores=dict(e.scores), reason=e.reason, pending=()
    )


FOLDS: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    m.DeckShuffled: _shuffled,
    m.FirstPlayerDrawn: _first,
    m.MagicDrawn: _magic_drawn,
    m.TurnStarted: _turn,
    m.PhaseStarted: _phase,
    m.GoldChanged: _gold,
    m.EventCardDrawn: _event_card,
    m.ChoiceAwaited: _awaited,
    m.ChoiceMade: _made,
    m.Recruited: _recruited,
    m.UnitsMoved: _moved,
    m.UnitsSwapped: _swapped,
    m.UnitPlaced: _placed,
    m.UnitUpgraded: _upgraded,
    m.CastleUpgraded: _castle,
    m.UnitRemoved: _removed,
    m.UnitRevived: _revived,
    m.MagicPlayed: _played,
    m.MagicDiscarded: _discarded,
    m.MagicBought: _bought,
    m.CapturedBought: _captured,
    m.Scouted: _scouted,
    m.ScoutOrdered: _scout_ordered,
    m.MovesGranted: _granted,
    m.AssassinRolled: _assassin,
    m.CombatStarted: _combat_started,
    m.CombatDieAdded: _die_added,
    m.CombatStep: _step,
    m.CombatRolled: _rolled,
    m.CombatEnded: _ended,
    m.PlayerEliminated: _eliminated,
    m.FinalRound: _final,
    m.TieRolled: _tie,
    m.GameEnded: _game_ended,
}
assert set(FOLDS) == set(m.EVENTS), "every event needs a fold"


def fold(state: GameState, event: Any) -> GameState:
    """The state after ``event``; a random event also moves the dice counter."""
    after = FOLDS[type(event)](state, event)
    counter = getattr(event, "counter_after", None)
    if counter is not None:
        after = replace(after, counter=counter)
    return after
