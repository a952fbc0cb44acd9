"""``evolve``: the state after one event. Never random and never failing on its own events."""

from __future__ import annotations

from msgspec.structs import replace

from .. import messages as m
from ..state import BattleLoreState, Combat, Side
from .world import World

__all__ = ["evolve"]


def _side(state: BattleLoreState, seat: str, **changes: object) -> tuple[Side, Side]:
    i = state.seats.index(seat)
    sides = list(state.sides)
    sides[i] = replace(sides[i], **changes)
    return (sides[0], sides[1])


def _without(items: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    rest = list(items)
    for item in gone:
        if item in rest:
            rest.remove(item)
    return tuple(rest)


def evolve(world: World, state: BattleLoreState, event: m.Event) -> BattleLoreState:
    """The state after ``event``."""
    combat = state.combat
    match event:
        case m.DeckShuffled(deck="command"):
            return replace(state, deck=event.after, discard=(), counter=event.counter_after)
        case m.DeckShuffled():  # a side's lore deck, "lore:SEAT"
            seat = event.deck.partition(":")[2]
            sides = _side(state, seat, lore_deck=event.after)
            return replace(state, sides=sides, counter=event.counter_after)
        case m.CardsDrawn(deck="command"):
            deck = state.deck[len(event.cards) :]
            if event.pending:
                return replace(state, deck=deck, drawn=state.drawn + event.cards)
            hand = state.side_of(event.seat).hand + event.cards
            return replace(state, deck=deck, sides=_side(state, event.seat, hand=hand))
        case m.CardsDrawn():
            side = state.side_of(event.seat)
            rest = side.lore_deck[len(event.cards) :]
            if event.pending:
                sides = _side(
                    state, event.seat, lore_deck=rest, lore_offer=side.lore_offer + event.cards
                )
            else:
                sides = _side(
                    state, event.seat, lore_deck=rest, lore_hand=side.lore_hand + event.cards
                )
            return replace(state, sides=sides)
        case m.CardKept(deck="command"):
            hand = (*state.side_of(event.seat).hand, event.card)
            return replace(
                state,
                drawn=_without(state.drawn, (event.card,)),
                sides=_side(state, event.seat, hand=hand),
            )
        case m.CardKept():
            side = state.side_of(event.seat)
            sides = _side(
                state,
                event.seat,
                lore_hand=(*side.lore_hand, event.card),
                lore_offer=_without(side.lore_offer, (event.card,)),
                lore_keep=side.lore_keep - 1,
            )
            return replace(state, sides=sides)
        case m.CardsDiscarded(deck="command", source="draw"):
            return replace(
                state, drawn=_without(state.drawn, event.cards), discard=state.discard + event.cards
            )
        case m.CardsDiscarded(deck="command"):
            side = state.side_of(event.seat)
            return replace(
                state,
                discard=state.discard + event.cards,
                sides=_side(state, event.seat, hand=_without(side.hand, event.cards)),
            )
        case m.CardsDiscarded():  # lore: what is left of the offer once the keeping is done
            side = state.side_of(event.seat)
            offer = _without(side.lore_offer, event.cards)
            sides = _side(state, event.seat, lore_offer=offer, lore_keep=0)
            return replace(state, lore_discard=state.lore_discard + event.cards, sides=sides)
        case m.CardPlayed():
            side = state.side_of(event.seat)
            sides = _side(
                state, event.seat, hand=_without(side.hand, (event.card,)), last_card=event.acts_as
            )
            return replace(
                state,
                sides=sides,
                discard=(*state.discard, event.card),
                card=event.acts_as,
                phase="order",
            )
        case m.UnitOrdered():
            return replace(state, ordered=(*state.ordered, event.unit))
        case m.StepEnded(step="order"):
            return replace(state, phase="move")
        case m.StepEnded(step="move"):
            return replace(state, phase="battle")
        case m.StepEnded():
            return replace(state, phase="draw")
        case m.UnitMoved():
            units = tuple(
                replace(u, hex=event.path[-1]) if u.id == event.unit else u for u in state.units
            )
            state = replace(state, units=units)
            if event.why == "move":
                state = replace(state, moved=(*state.moved, event.unit))
            if not event.may_battle:
                state = replace(state, no_battle=(*state.no_battle, event.unit))
            if combat is not None and event.why == "retreat":
                state = replace(state, combat=replace(combat, hexes=combat.hexes - 1, vacated=True))
            if combat is not None and event.why == "take_ground":
                state = replace(state, combat=replace(combat, took_ground=True))
            return state
        case m.BattleDeclared():
            target = state.unit(event.target)
            origin = target.hex if target is not None else (0, 0)
            state = replace(
                state,
                combat=_opened(event, origin),
            )
            if event.kind == "battle":
                state = replace(state, battled=(*state.battled, event.unit))
            if event.kind == "bonus":
                state = replace(state, bonus_used=(*state.bonus_used, event.unit))
            return state
        case m.DiceRolled():
            if combat is not None and event.purpose == "blocked":
                state = replace(state, combat=replace(combat, hexes=combat.hexes - 1))
            return replace(state, counter=event.counter_after)
        case m.FiguresLost():
            units = tuple(
                replace(u, figures=u.figures - event.count) if u.id == event.unit else u
                for u in state.units
            )
            if combat is not None and event.cause == "blocked":
                combat = replace(combat, hexes=combat.hexes - 1)
            return replace(state, units=units, combat=combat)
        case m.FiguresRegained():
            units = tuple(
                replace(u, figures=min(u.start, u.figures + event.count))
                if u.id == event.unit
                else u
                for u in state.units
            )
            return replace(state, units=units)
        case m.UnitDestroyed():
            units = tuple(u for u in state.units if u.id != event.unit)
            kills = state.side_of(event.medal_to).kills + 1
            if combat is not None and combat.defender == event.unit:
                combat = replace(combat, vacated=True, hexes=0, flags=0)
            return replace(
                state, units=units, combat=combat, sides=_side(state, event.medal_to, kills=kills)
            )
        case m.FlagIgnored():
            assert combat is not None
            ignorable = combat.ignorable - (0 if event.forced else 1)
            return replace(
                state, combat=replace(combat, flags=combat.flags - 1, ignorable=ignorable)
            )
        case m.FlagsRolled():
            assert combat is not None
            return replace(
                state, combat=replace(combat, flags=event.flags, ignorable=event.ignorable)
            )
        case m.RetreatBegun():
            assert combat is not None
            return replace(
                state, combat=replace(combat, hexes=event.hexes, flags=0, stage="retreat")
            )
        case m.CombatStage():
            assert combat is not None
            return replace(state, combat=replace(combat, stage=event.stage))
        case m.CombatEnded():
            return replace(state, combat=None)
        case m.OrderCancelled():
            return replace(state, cancelled=(*state.cancelled, event.unit))
        case m.MedalsChanged():
            return replace(state, sides=_side(state, event.side, objectives=event.objectives))
        case m.LoreTokens():
            return replace(state, sides=_side(state, event.side, lore_tokens=event.tokens))
        case m.LorePlayed():
            side = state.side_of(event.seat)
            sides = _side(state, event.seat, lore_hand=_without(side.lore_hand, (event.card,)))
            state = replace(state, sides=sides, lore_discard=(*state.lore_discard, event.card))
            if state.phase == "card":
                state = replace(state, lore_played=True)
            if world.pack.lore[event.card].effect == "extra_die":
                state = replace(state, charged=(*state.charged, event.unit))
            return state
        case m.CardSkipped():
            return replace(state, phase="order", card="")
        case m.RollRead():
            assert combat is not None
            return replace(state, combat=replace(combat, hits=event.hits, flags=event.flags))
        case m.CouncilSeated():
            sides = _side(state, event.side, lore_keep=event.keep, lore_limit=event.hand_limit)
            return replace(state, sides=sides)
        case m.RandomDiscard():
            side = state.side_of(event.seat)
            sides = _side(state, event.seat, hand=_without(side.hand, (event.card,)))
            return replace(
                state,
                sides=sides,
                discard=(*state.discard, event.card),
                counter=event.counter_after,
            )
        case m.ExtraOrders():
            return replace(state, extra_orders=state.extra_orders + event.count)
        case m.Ambush():
            assert combat is not None
            return replace(state, combat=replace(combat, ambush=True))
        case m.LoreWindowClosed() if combat is not None:
            return replace(state, combat=replace(combat, closed=(*combat.closed, event.window)))
        case m.LoreWindowClosed():
            return replace(state, end_window=True)
        case m.TurnEnded():
            ending = state.seat
            cancelled = tuple(
                u for u in state.cancelled if (x := state.unit(u)) is not None and x.side != ending
            )
            return replace(
                state,
                active=state.seats.index(event.next_seat),
                turn=event.turn,
                phase="card",
                card="",
                ordered=(),
                moved=(),
                no_battle=(),
                battled=(),
                bonus_used=(),
                extra_orders=0,
                lore_played=False,
                charged=(),
                end_window=False,
                cancelled=cancelled if state.turn else (),
                drawn=(),
            )
        case m.GameEnded():
            return replace(state, winner=event.winner, ended=event.reason, phase="over")
    raise TypeError(f"not a BattleLore event: {event!r}")


def _opened(event: m.BattleDeclared, origin: tuple[int, int]) -> Combat:
    """The combat a declared battle opens."""
    return Combat(
        attacker=event.unit,
        defender=event.target,
        kind=event.kind,
        melee=event.melee,
        stage="flags",
        origin=origin,
    )
