"""The development phase (rules §7, N-DEV-1..6): recruit and research; techs resolve at the
end of the turn.

N-DEV-1: in any order and as often as affordable. N-DEV-2: a recruit pays its cost, takes a
token from the pool (never the locked supply) and stands on the base. N-DEV-3: research pays
a tech card in hand (a unit tech's option A or B at that option's cost); the card waits until
the end of the turn. N-DEV-4: then resource techs raise their multiplier and leave, unit techs
turn the unit's group card to the chosen side and stay, and every bonus effect resolves.
Structures come with their own rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import msgspec

from nataterra_core.games.nataterra.content.schema import Bonus, TechCard
from nataterra_core.kernel import Command, DiceStream, Event, IllegalCommand

from ..messages.development import (
    BonusResolved,
    Recruit,
    Recruited,
    Research,
    Researched,
    Side,
    TechResolved,
)
from ..messages.tactics import TacticCardDrawn
from ..state import GameState, PlayerState, add_units
from .context import Context
from .stock import Resources
from .tactics import draw_tactic_events

__all__ = [
    "MAX_MULTIPLIER",
    "decide_development",
    "legal_development",
    "resolve_researched",
    "unit_cost",
]

MAX_MULTIPLIER = 4  # N-RES-4

_replace = msgspec.structs.replace
_NO_COST = Resources()


class CostChanged(Protocol):
    """A player's record of its techs' unit-cost changes: its state, or its seat's view of it."""

    @property
    def cost_mods(self) -> Mapping[str, Resources]:
        """Cost change per unit type."""


def unit_cost(ctx: Context, player: CostChanged, unit: str) -> Resources:
    """What recruiting ``unit`` costs ``player``, with its techs' cost changes (never below 0)."""
    base = Resources.of(ctx.unit(unit).cost)
    change = player.cost_mods.get(unit)
    if change is None:
        return base
    total = base + change
    return Resources(max(0, total.food), max(0, total.wood), max(0, total.metal))


def _tech_cost(player: PlayerState, card: TechCard, option: Side | None) -> Resources | None:
    """What researching ``card`` (``option``) costs ``player``, less any pending tech
    discount (a tactic card's, N-TAC-3); ``None`` when the option does not fit the card."""
    if card.kind == "resource":
        cost = Resources.of(card.cost) if option is None and card.cost else None
    else:
        cost = None if option is None else Resources.of(card.option(option).cost)
    return None if cost is None else cost.discounted(player.tech_discount)


def next_locked_structure(ctx: Context, seat: str, unlocked: Sequence[str]) -> str | None:
    """The structure an "unlock a structure" effect turns: the first of ``seat``'s
    civilisation not in ``unlocked`` (tech bonuses, N-DEV-4, and tactic cards, N-FAQ-16)."""
    return next((s for s in ctx.pack.civilisations[seat].structures if s not in unlocked), None)


def legal_development(ctx: Context, state: GameState, seat: str) -> list[Command]:
    """Every recruit and research ``seat`` can afford now (N-DEV-1..3)."""
    player = state.player(seat)
    commands: list[Command] = []
    for unit, tokens in sorted(player.pool.items()):
        if tokens and player.stock.covers(unit_cost(ctx, player, unit)):
            commands.append(Recruit(unit=unit))
    for tech in dict.fromkeys(player.tech_hand):
        card = ctx.pack.techs[tech]
        options: tuple[Side | None, ...] = (None,) if card.kind == "resource" else ("a", "b")
        for option in options:
            cost = _tech_cost(player, card, option)
            if cost is not None and player.stock.covers(cost):
                commands.append(Research(tech=tech, option=option))
    return commands


def decide_development(
    ctx: Context, state: GameState, seat: str, command: Command
) -> tuple[Event, ...]:
    """Check a recruit or research against N-DEV-2/3 and produce its event."""
    if state.phase != "development":
        raise IllegalCommand("N-TURN-1", f"development happens in its phase, not {state.phase}")
    player = state.player(seat)
    if isinstance(command, Recruit):
        if command.unit not in player.pool:
            raise IllegalCommand("N-DEV-2", f"{seat} has no unit type {command.unit!r}")
        if not player.pool[command.unit]:
            raise IllegalCommand("N-DEV-2", f"no {command.unit} token in the pool")
        cost = unit_cost(ctx, player, command.unit)
        if not player.stock.covers(cost):
            raise IllegalCommand(
                "N-DEV-2", f"a {command.unit} costs {cost}, the stock holds {player.stock}"
            )
        zone = ctx.map.base_of(seat)
        return (Recruited(seat=seat, unit=command.unit, zone=zone, cost=cost),)
    if isinstance(command, Research):
        if command.tech not in player.tech_hand:
            raise IllegalCommand("N-DEV-3", f"tech {command.tech!r} is not in {seat}'s hand")
        card = ctx.pack.techs[command.tech]
        price = _tech_cost(player, card, command.option)
        if price is None:
            raise IllegalCommand(
                "N-DEV-3",
                f"{card.title}: a unit tech needs option a or b, a resource tech none",
            )
        if not player.stock.covers(price):
            raise IllegalCommand(
                "N-DEV-3", f"{card.title} costs {price}, the stock holds {player.stock}"
            )
        return (Researched(seat=seat, tech=command.tech, option=command.option, cost=price),)
    raise IllegalCommand("N-DEV-1", f"{type(command).__name__} is not a development action")


# -- the end of the turn -----------------------------------------------------------------------


def resolve_researched(
    ctx: Context, state: GameState, dice: DiceStream, seat: str | None = None
) -> tuple[Event, ...]:
    """N-DEV-4: ``seat``'s (default: the active player's) researched techs take effect, in
    research order."""
    seat = seat or state.active_seat
    player = state.player(seat)
    events: list[Event] = []
    drawn_tactics = 0
    tiles = player.tiles_unlocked
    structures = list(player.structures_unlocked)
    workers = player.worker_supply
    locked = dict(player.locked)
    deck = list(player.tech_deck)
    for tech, option in player.researching:
        card = ctx.pack.techs[tech]
        events.append(_tech_resolved(seat, card, option))
        bonuses: tuple[Bonus, ...] = (
            card.bonuses if card.kind == "resource" else card.option(option or "a").bonuses
        )
        for bonus in bonuses:
            if bonus.kind == "draw_tactic":
                for _ in range(bonus.amount):
                    drawn = draw_tactic_events(state, seat, dice, drawn_tactics)
                    drawn_tactics += sum(isinstance(e, TacticCardDrawn) for e in drawn)
                    events.extend(drawn)
                continue
            moved: dict[str, int] = {}
            card_id: str | None = None
            if bonus.kind == "draw_tech":
                number = {ctx.pack.techs[t].number: t for t in deck}
                card_id = number.get(bonus.amount)
                if card_id is not None:
                    deck.remove(card_id)
            elif bonus.kind == "add_workers":
                n = min(bonus.amount, workers)
                workers -= n
                moved = {ctx.pack.worker_of(seat).id: n} if n else {}
            elif bonus.kind == "unlock_tile":
                if tiles < 2:
                    tile = ("left_tile", "right_tile")[tiles]
                    tiles += 1
                    for unit in ctx.pack.units_of(seat):
                        if unit.unlock == tile:
                            n = min(bonus.amount, locked.get(unit.id, 0))
                            locked[unit.id] = locked.get(unit.id, 0) - n
                            moved[unit.id] = n
                    card_id = tile
            elif bonus.kind == "unlock_structure":
                card_id = next_locked_structure(ctx, seat, structures)
                if card_id is not None:
                    structures.append(card_id)
            elif bonus.kind == "add_units" and card.unit is not None:
                n = min(bonus.amount, locked.get(card.unit, 0))
                locked[card.unit] = locked.get(card.unit, 0) - n
                moved = {card.unit: n} if n else {}
            events.append(
                BonusResolved(seat=seat, tech=tech, kind=bonus.kind, units=moved, card=card_id)
            )
    return tuple(events)


def _tech_resolved(seat: str, card: TechCard, option: Side | None) -> TechResolved:
    if card.kind == "resource" or option is None:
        return TechResolved(seat=seat, tech=card.id, resource=card.resource)
    cost, movement, initiative = Resources(), 0, 0
    for effect in card.option(option).effects:
        if effect.kind == "unit_cost" and effect.resource is not None:
            cost = cost + Resources(**{effect.resource: effect.amount})
        elif effect.kind == "movement":
            movement += effect.amount
        elif effect.kind == "initiative":
            initiative += effect.amount
    return TechResolved(
        seat=seat,
        tech=card.id,
        option=option,
        unit=card.unit,
        cost=cost,
        movement=movement,
        initiative=initiative,
    )


# -- evolving ----------------------------------------------------------------------------------


def evolve_recruited(state: GameState, event: Recruited) -> GameState:
    """Pay, take the token from the pool, stand it on the base."""
    player = state.player(event.seat)
    pool = {**player.pool, event.unit: player.pool[event.unit] - 1}
    return state.with_player(
        msgspec.structs.replace(player, stock=player.stock - event.cost, pool=pool),
        units=add_units(state.units, event.seat, event.unit, event.zone, 1),
    )


def evolve_researched(state: GameState, event: Researched) -> GameState:
    """Pay (using up any tech discount); the card leaves the hand and waits for the end of
    the turn."""
    player = state.player(event.seat)
    hand = list(player.tech_hand)
    hand.remove(event.tech)
    return state.with_player(
        msgspec.structs.replace(
            player,
            stock=player.stock - event.cost,
            tech_discount=_NO_COST,
            tech_hand=tuple(hand),
            researching=(*player.researching, (event.tech, event.option)),
        )
    )


def evolve_tech_resolved(state: GameState, event: TechResolved) -> GameState:
    """The tech takes effect (N-DEV-4, N-DEV-5, N-RES-4)."""
    player = state.player(event.seat)
    researching = tuple([r for r in player.researching if r[0] != event.tech])
    # Fields replaced by name, unchanged ones given as they are: a ``**changes`` dict cost
    # about 1.7k instructions a call.
    if event.resource is not None:
        m = player.multipliers
        value = min(MAX_MULTIPLIER, getattr(m, event.resource) + 1)
        multipliers = _replace(m, **{event.resource: value})
        player = _replace(player, researching=researching, multipliers=multipliers)
    elif event.unit is not None and event.option is not None:
        unit = event.unit
        cost_mods, movement_mods = player.cost_mods, player.movement_mods
        initiative_mods = player.initiative_mods
        if event.cost != _NO_COST:
            cost_mods = {**cost_mods, unit: cost_mods.get(unit, _NO_COST) + event.cost}
        if event.movement:
            movement_mods = {**movement_mods, unit: movement_mods.get(unit, 0) + event.movement}
        if event.initiative:
            steps = initiative_mods.get(unit, 0) + event.initiative
            initiative_mods = {**initiative_mods, unit: steps}
        player = _replace(
            player,
            researching=researching,
            sides={**player.sides, unit: event.option},
            techs=(*player.techs, event.tech),
            cost_mods=cost_mods,
            movement_mods=movement_mods,
            initiative_mods=initiative_mods,
        )
    else:
        player = _replace(player, researching=researching)
    return state.with_player(player)


def evolve_bonus_resolved(state: GameState, event: BonusResolved) -> GameState:
    """Move what the bonus moved (N-DEV-4)."""
    player = state.player(event.seat)
    if event.units:  # most bonuses draw a card and move no units
        pool = player.pool.copy()
        for unit, n in event.units.items():
            pool[unit] = pool.get(unit, 0) + n
        if event.kind == "add_workers":
            moved = sum(event.units.values())
            player = _replace(player, pool=pool, worker_supply=player.worker_supply - moved)
        else:
            locked = player.locked.copy()
            for unit, n in event.units.items():
                locked[unit] = locked.get(unit, 0) - n
            player = _replace(player, pool=pool, locked=locked)
    # Each case replaces its fields by name: a ``**changes`` dict cost about 1.7k a call.
    card = event.card
    if card is not None:
        if event.kind == "draw_tech":
            deck = tuple(t for t in player.tech_deck if t != card)
            player = _replace(player, tech_deck=deck, tech_hand=(*player.tech_hand, card))
        elif event.kind == "unlock_tile":
            player = _replace(player, tiles_unlocked=player.tiles_unlocked + 1)
        elif event.kind == "unlock_structure":
            unlocked = (*player.structures_unlocked, card)
            player = _replace(player, structures_unlocked=unlocked)
    return state.with_player(player)
