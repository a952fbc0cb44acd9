"""The turn's five steps (B-TURN-1): who must choose now, the legal commands, and applying
each command followed by the automatic steps up to the next choice."""

from __future__ import annotations

from collections.abc import Callable

from .. import messages as m
from ..state import BattleLoreState
from . import combat, lore
from .lore_windows import lore_commands
from .resolver import Resolver
from .world import World

__all__ = ["acting", "advance", "apply", "legal"]


def acting(world: World, state: BattleLoreState) -> tuple[str, ...]:
    """Who must choose now (empty when the game is over or not started)."""
    if state.phase == "over" or (state.turn == 0 and state.phase != "setup"):
        return ()
    if state.phase == "setup":
        return tuple(s for s in state.seats if state.side_of(s).lore_keep > 0)
    combat_ = state.combat
    if combat_ is not None:
        chooser = (
            combat_.defender
            if combat_.stage in ("flags", "retreat", "battle_back", "lore")
            else combat_.attacker
        )
        unit = state.unit(chooser)
        return (unit.side,) if unit is not None else ()
    return (state.seat,)


def legal(world: World, state: BattleLoreState, seat: str) -> list[m.Command]:
    """Every command ``seat`` may send now."""
    if seat not in acting(world, state):
        return []
    if state.phase == "setup":
        return [m.KeepLore(seat=seat, card=c) for c in sorted(set(state.side_of(seat).lore_offer))]
    combat_ = state.combat
    if combat_ is not None:
        defender = state.unit(combat_.defender)
        attacker = state.unit(combat_.attacker)
        if combat_.stage == "flags":
            ignore: list[m.Command] = [m.IgnoreFlag()] if combat_.ignorable > 0 else []
            lore = "on_retreat" not in combat_.closed and world.scenario.lore
            return [
                *ignore,
                m.AcceptFlags(),
                *(lore_commands(world, state, seat, "on_retreat") if lore else ()),
            ]
        if combat_.stage == "lore":
            return [*lore_commands(world, state, seat, "after_roll"), m.Decline()]
        if combat_.stage == "retreat" and defender is not None:
            return [m.Retreat(to=h) for h in world.retreat_options(state, defender)]
        if combat_.stage == "take_ground":
            return [m.TakeGround(), m.Decline()]
        if combat_.stage == "pursuit" and attacker is not None:
            return [
                *(m.Pursue(to=h) for h in world.pursuit_options(state, attacker.hex)),
                m.Decline(),
            ]
        if combat_.stage == "bonus":
            return [*(m.BonusBattle(target=t) for t in world.bonus_targets(state)), m.Decline()]
        if combat_.stage == "battle_back":
            return [m.BattleBack(), m.Decline()]
        return []
    lore = world.scenario.lore
    if state.phase == "card":
        cards: list[m.Command] = [m.PlayCard(card=c) for c in sorted(set(state.side_of(seat).hand))]
        if state.lore_played:
            return [*cards, m.SkipCard()]
        return [*cards, *(lore_commands(world, state, seat, "command") if lore else ())]
    if state.phase == "order":
        return [*(m.OrderUnit(unit=u) for u in world.orderable(state)), m.FinishOrders()]
    if state.phase == "move":
        found: list[m.Command] = []
        for unit_id in state.ordered:
            unit = state.unit(unit_id)
            if unit is not None and unit_id not in state.moved:
                found += [
                    m.MoveUnit(unit=unit_id, to=h) for h in sorted(world.destinations(state, unit))
                ]
        return [*found, m.FinishMoves()]
    if state.phase == "battle":
        charge = lore_commands(world, state, seat, "before_roll") if lore else []
        return [*_battles(world, state), *charge, m.FinishBattles()]
    if state.phase == "draw" and state.drawn:
        return [m.KeepCard(seat=seat, card=c) for c in sorted(set(state.drawn))]
    if state.phase == "draw":
        return [*lore_commands(world, state, seat, "end_of_turn"), m.Decline()]
    return []


def _battles(world: World, state: BattleLoreState) -> list[m.Command]:
    found: list[m.Command] = []
    for unit_id in state.ordered:
        unit = state.unit(unit_id)
        if unit is None or unit_id in state.battled or unit_id in state.no_battle:
            continue
        found += [m.BattleUnit(unit=unit_id, target=t) for t in world.targets(state, unit)]
    return found


def advance(r: Resolver) -> None:
    """Run the automatic steps until a player must choose or the game ends."""
    while not r.over:
        state, world = r.state, r.world
        if state.combat is not None:
            combat.proceed(r)
            if r.state.combat is not None:
                return
            continue
        if state.phase == "setup":
            if any(state.side_of(s).lore_keep > 0 for s in state.seats):
                return
            _discard_offers(r)
            r.emit(m.TurnEnded(next_seat=world.scenario.first, turn=1))
        elif state.phase in ("card",):
            return
        elif state.phase == "order":
            if world.orderable(state) and len(state.ordered) < world.order_capacity(state):
                return
            lost = world.order_capacity(state) - len(state.ordered)
            r.emit(m.StepEnded(step="order", lost=max(0, lost)))
            _rally(r)
        elif state.phase == "move":
            if len(legal(world, state, state.seat)) > 1:
                return
            r.emit(m.StepEnded(step="move"))
        elif state.phase == "battle":
            if len(legal(world, state, state.seat)) > 1:
                return
            r.emit(m.StepEnded(step="battle"))
            _draw_step(r)
        elif state.phase == "draw":
            if state.drawn:
                return
            if _end_window(world, state):
                return
            lore.end_of_turn(r)
            _end_turn(r)
        else:
            return


def _end_window(world: World, state: BattleLoreState) -> bool:
    """Whether the active side's end-of-turn lore window is open (B-ADV-5): whenever it
    holds a lore card (a public count), so whether it pauses reveals no card."""
    return (
        world.scenario.lore and not state.end_window and bool(state.side_of(state.seat).lore_hand)
    )


def _discard_offers(r: Resolver) -> None:
    for seat in r.state.seats:
        offer = r.state.side_of(seat).lore_offer
        if offer:
            r.emit(m.CardsDiscarded(seat=seat, deck="lore", cards=offer, source="draw"))


def _rally(r: Resolver) -> None:
    """A card that heals gives each ordered unit its figures back (Rally, provisional)."""
    card = r.world.card(r.state.card)
    if card is not None and card.heal:
        for unit_id in r.state.ordered:
            unit = r.state.unit(unit_id)
            if unit is not None and unit.figures < unit.start:
                r.emit(
                    m.FiguresRegained(unit=unit_id, count=min(card.heal, unit.start - unit.figures))
                )


def _draw_step(r: Resolver) -> None:
    """Step 5: draw a card; a Scout draws two to keep one (B-CMD-2)."""
    card = r.world.card(r.state.card)
    count = card.draw if card is not None else 1
    r.draw(r.state.seat, count, pending=count > 1)
    if len(r.state.drawn) <= 1 and r.state.drawn:
        only = r.state.drawn[0]
        r.emit(m.CardKept(seat=r.state.seat, deck="command", card=only))


def _end_turn(r: Resolver) -> None:
    """The turn passes; at the turn limit the side with more medals wins (B-TURN-2)."""
    state = r.state
    turn = state.turn + 1
    if state.max_turns and turn > state.max_turns:
        medals = [state.side_of(s).medals for s in state.seats]
        if medals[0] == medals[1]:
            r.emit(m.GameEnded(winner=None, reason="turn_limit"))
        else:
            r.emit(m.GameEnded(winner=state.seats[medals.index(max(medals))], reason="turn_limit"))
        return
    r.emit(m.TurnEnded(next_seat=state.other(state.seat), turn=turn))


def apply(r: Resolver, seat: str, command: m.Command) -> None:
    """Apply a legal ``command`` of ``seat``, then the automatic steps after it."""
    state, world = r.state, r.world
    match command:
        case m.PlayCard(card=card):
            acts_as = card
            if world.card(card) is not None and world.card(card).copy_last:  # type: ignore[union-attr]
                acts_as = state.side_of(state.other(seat)).last_card or card
            r.emit(m.CardPlayed(seat=seat, card=card, acts_as=acts_as))
        case m.OrderUnit(unit=unit):
            r.emit(m.UnitOrdered(unit=unit))
        case m.FinishOrders():
            r.emit(m.StepEnded(step="order", lost=world.order_capacity(state) - len(state.ordered)))
            _rally(r)
        case m.MoveUnit(unit=unit_id, to=to):
            mover = state.unit(unit_id)
            assert mover is not None
            path = world.destinations(state, mover)[to]
            may = world.may_battle_after(state, mover, path)
            r.emit(m.UnitMoved(unit=unit_id, path=path, may_battle=may))
            r.check_medals()
        case m.FinishMoves():
            r.emit(m.StepEnded(step="move"))
        case m.BattleUnit(unit=unit_id, target=target):
            combat.start_battle(r, unit_id, target, "battle")
        case m.FinishBattles():
            r.emit(m.StepEnded(step="battle"))
            _draw_step(r)
        case m.IgnoreFlag():
            assert state.combat is not None
            r.emit(m.FlagIgnored(unit=state.combat.defender))
        case m.AcceptFlags():
            assert state.combat is not None
            r.emit(m.FlagsRolled(unit=state.combat.defender, flags=state.combat.flags, ignorable=0))
            if world.scenario.lore:
                r.emit(m.LoreWindowClosed(window="on_retreat"))
        case m.SkipCard():
            r.emit(m.CardSkipped(seat=seat))
        case m.PlayLore():
            _play_lore(r, seat, command)
        case m.Retreat(to=to):
            combat.retreat_to(r, to)
        case m.TakeGround():
            assert state.combat is not None
            r.emit(
                m.UnitMoved(
                    unit=state.combat.attacker, path=(state.combat.origin,), why="take_ground"
                )
            )
            r.check_medals()
            if not r.over:
                combat.after_take_ground(r)
        case m.Pursue(to=to):
            assert state.combat is not None
            r.emit(m.UnitMoved(unit=state.combat.attacker, path=(to,), why="pursuit"))
            r.check_medals()
            if not r.over:
                combat.bonus_check(r)
        case m.BonusBattle(target=target):
            assert state.combat is not None
            attacker = state.combat.attacker
            combat.end_combat(r)
            combat.start_battle(r, attacker, target, "bonus")
        case m.BattleBack():
            assert state.combat is not None
            defender, attacker = state.combat.defender, state.combat.attacker
            combat.end_combat(r)
            combat.start_battle(r, defender, attacker, "battle_back")
        case m.Decline():
            _decline(r)
        case m.KeepCard(card=card):
            r.emit(m.CardKept(seat=seat, deck="command", card=card))
            rest = list(r.state.drawn)
            if rest:
                r.emit(
                    m.CardsDiscarded(seat=seat, deck="command", cards=tuple(rest), source="draw")
                )
        case m.KeepLore(card=card):
            r.emit(m.CardKept(seat=seat, deck="lore", card=card))
        case _:  # decide lets only a listed command through
            raise TypeError(f"not a BattleLore command: {command!r}")
    advance(r)


DECLINES: dict[str, Callable[[Resolver], None]] = {
    "take_ground": combat.end_combat,
    "pursuit": combat.bonus_check,
    "bonus": combat.end_combat,
    "battle_back": combat.end_combat,
}


def _decline(r: Resolver) -> None:
    combat_ = r.state.combat
    if combat_ is None:  # the end-of-turn lore window
        r.emit(m.LoreWindowClosed(window="end_of_turn"))
    elif combat_.stage == "lore":
        r.emit(m.CombatStage(stage="flags"))
        combat.resolve_roll(r)
    else:
        DECLINES[combat_.stage](r)


def _play_lore(r: Resolver, seat: str, command: m.PlayLore) -> None:
    """A lore card in its window (B-ADV-5), then the window it was played in moves on."""
    before = r.state
    lore.apply_lore(r, seat, command)
    combat_ = before.combat
    if combat_ is not None and combat_.stage == "lore" and r.state.combat is not None:
        r.emit(m.CombatStage(stage="flags"))
        combat.resolve_roll(r)
    elif combat_ is not None and combat_.stage == "flags" and r.state.combat is not None:
        r.emit(m.LoreWindowClosed(window="on_retreat"))
    elif combat_ is None and before.phase == "draw":
        r.emit(m.LoreWindowClosed(window="end_of_turn"))
