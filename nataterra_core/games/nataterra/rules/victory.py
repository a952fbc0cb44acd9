"""Victory (rules §10): Battlefield Dominance, the advanced conditions and base destruction.

N-WIN-2 (learning mode): winning a combat scores one cube; the game ends the moment a player
has the cubes it needs (4 by default). N-WIN-3 (advanced mode): three conditions are in play,
one per category, drawn at set-up (N-SETUP-8); each card shows the cubes it needs and, for
most, how many a player may place on it per turn (per "Runde": one player's turn, §3).
N-WIN-4: cube conditions are checked when cubes are placed and end the game at once; one
check that finds two or more winners is a draw. N-WIN-1: at the end of your turn, a unit of
yours standing in an opponent's base destroys it; in a 2-player game you win.

What each advanced condition counts (the card texts; counts and caps are pack data):

* **Oath of Asha** (strategy): in your development phase, with a worker on the strategy
  zone, pay ``cost`` wood and metal in any mix for a cube (:class:`SwearOath`).
* **Colonisation**, **Strategic Point** (strategy): at the start of your turn, a cube if
  you have at least ``thresholds[0]`` combat units on the strategy zone.
* **Total Dominance** (war): a cube for each combat you win against enemy combat units.
* **War of Attrition** (war): a cube for each enemy combat group you destroy.
* **Subjugation** (war): a cube for each enemy worker group you destroy.
* **Glory of the King** (glory): at the start of your turn, i + 1 cubes when you have at
  least ``thresholds[i]`` structures on mountains.
* **Rise of the Mighty** (glory): a cube for each combat against enemy combat units you win
  with hero units.
* **Military Supremacy** (glory): once every unit tech of your combat unit types is in
  play, a cube for each combat you win against enemy combat units.

Only groups destroyed directly count (N-FAQ-15): wiped out by an attack or Retaliation, not
by injuries, effects or a retreat with nowhere to go (``Combat.destroyed``).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack, VictoryCondition
from nataterra_core.kernel import (
    DiceStream,
    Event,
    IllegalCommand,
    record_draws,
)

from ..messages.turns import GameEnded, PlayerEliminated
from ..messages.victory import (
    BaseDestroyed,
    CubeScored,
    OathSworn,
    SwearOath,
    VictoryConditionsDrawn,
)
from ..state import GameState, Resources
from . import teams
from .combat.model import Combat
from .context import Context

__all__ = [
    "ADVANCED_CATEGORIES",
    "DOMINANCE",
    "SIMULTANEOUS",
    "bases_taken",
    "decide_oath",
    "draw_conditions",
    "legal_oaths",
    "score_advanced_combat",
    "score_combat",
    "turn_start_cubes",
]

DOMINANCE = "battlefield_dominance"
ADVANCED_CATEGORIES: tuple[str, ...] = ("strategy", "war", "glory")
"""The categories advanced mode draws one condition from each, in this order (N-SETUP-8)."""
SIMULTANEOUS = "simultaneous_victory"
"""The reason of a game drawn because one check found two or more winners (N-WIN-4)."""

OATH_OF_ASHA = "oath_of_asha"
COLONISATION = "colonisation"
STRATEGIC_POINT = "strategic_point"
TOTAL_DOMINANCE = "total_dominance"
WAR_OF_ATTRITION = "war_of_attrition"
SUBJUGATION = "subjugation"
GLORY_OF_THE_KING = "glory_of_the_king"
RISE_OF_THE_MIGHTY = "rise_of_the_mighty"
MILITARY_SUPREMACY = "military_supremacy"

_ON_THE_STRATEGY_ZONE = (COLONISATION, STRATEGIC_POINT)
_TURN_START = (*_ON_THE_STRATEGY_ZONE, GLORY_OF_THE_KING)


# -- set-up ------------------------------------------------------------------------------------


def conditions_of(pack: ContentPack, category: str) -> tuple[VictoryCondition, ...]:
    """The pack's conditions of ``category``, in pack order."""
    return tuple(c for c in pack.victory_conditions.values() if c.category == category)


def draw_conditions(pack: ContentPack, dice: DiceStream) -> VictoryConditionsDrawn:
    """N-SETUP-8: draw one condition of each advanced category."""
    categories = [conditions_of(pack, category) for category in ADVANCED_CATEGORIES]
    for category, cards in zip(ADVANCED_CATEGORIES, categories, strict=True):
        if not cards:
            raise ValueError(f"N-SETUP-8: the content pack has no {category} condition")
    drawn = record_draws(dice, (len(cards) for cards in categories))
    conditions = tuple(
        cards[value].id for cards, value in zip(categories, drawn["values"], strict=True)
    )
    return VictoryConditionsDrawn(conditions=conditions, **drawn)


# -- scoring -----------------------------------------------------------------------------------


def score_combat(state: GameState, winner: str | None) -> tuple[Event, ...]:
    """N-WIN-2 (learning mode): the combat's winner scores a cube; enough cubes win at once."""
    if winner is None or state.mode != "learning" or winner in state.conquered:
        return ()  # N-WIN-5: a conquered player scores nothing until its base is back
    if state.scenario is not None:
        return ()  # N-SCN-GEN-1: a scenario wins by its own conditions (and N-WIN-1)
    cubes = state.cubes.get(winner, 0) + 1
    scored = CubeScored(seat=winner, condition=DOMINANCE, cubes=cubes)
    if cubes >= state.dominance_cubes:
        return (scored, GameEnded(reason=DOMINANCE, winners=(winner,)))
    return (scored,)


def _place(
    ctx: Context, state: GameState, wanted: Iterable[tuple[str, str, int]]
) -> tuple[Event, ...]:
    """Place the cubes ``wanted`` ((seat, condition, how many) in order), each within its
    per-turn cap, then check once (N-WIN-4): one winner wins, two or more draw."""
    events: list[Event] = []
    have = {seat: dict(by) for seat, by in state.condition_cubes.items()}
    this_turn = {seat: dict(by) for seat, by in state.turn_cubes.items()}
    winners: list[tuple[str, str]] = []
    for seat, condition_id, count in wanted:
        if seat in state.conquered:  # N-WIN-5: not until the base is back
            continue
        card = ctx.pack.victory_conditions[condition_id]
        mine, now = have.setdefault(seat, {}), this_turn.setdefault(seat, {})
        if card.cap_per_turn is not None:
            count = min(count, card.cap_per_turn - now.get(condition_id, 0))
        count = min(count, card.cubes - mine.get(condition_id, 0))  # the card is full: won
        for _ in range(max(count, 0)):
            mine[condition_id] = mine.get(condition_id, 0) + 1
            now[condition_id] = now.get(condition_id, 0) + 1
            events.append(CubeScored(seat=seat, condition=condition_id, cubes=mine[condition_id]))
            if mine[condition_id] == card.cubes:
                winners.append((seat, condition_id))
    seats = tuple(dict.fromkeys(seat for seat, _ in winners))
    if seats and len(teams.teams_standing(state, seats)) == 1:  # one player, or allies
        events.append(GameEnded(reason=winners[0][1], winners=seats))
    elif len(seats) > 1:  # N-WIN-4: met at the same moment, the game is drawn
        events.append(GameEnded(reason=SIMULTANEOUS))
    return tuple(events)


def _is_combat_unit(ctx: Context, unit_id: str) -> bool:
    """A combat unit type (workers and structures that fight, like the Bone Tower, are not)."""
    unit = ctx.pack.units.get(unit_id)
    return unit is not None and unit.role == "combat"


def _techs_complete(ctx: Context, state: GameState, seat: str) -> bool:
    """Military Supremacy: every unit tech of the seat's combat unit types is in play."""
    needed = {
        card.id
        for card in ctx.pack.tech_deck(seat)
        if card.kind == "unit" and card.unit is not None and _is_combat_unit(ctx, card.unit)
    }
    return bool(needed) and needed <= set(state.player(seat).techs)


def score_advanced_combat(
    ctx: Context, state: GameState, combat: Combat, winner: str | None
) -> tuple[Event, ...]:
    """N-WIN-3, at the combat's clean-up (N-COMBAT-28): the war and glory conditions in play
    score for ``combat`` (its state just before it ended); the game may end here (N-WIN-4).

    A combat is won *against enemy combat units* when the loser had a combat-unit group on
    the board; *with hero units* when the winner had a hero group on the board.
    """
    if state.mode != "advanced" or not state.conditions:
        return ()
    wanted = [
        (seat, condition_id, count)
        for seat in combat.seats
        for condition_id in state.conditions
        if (count := _combat_cubes(ctx, state, combat, winner, seat, condition_id))
    ]
    return _place(ctx, state, wanted)


def _combat_cubes(
    ctx: Context,
    state: GameState,
    combat: Combat,
    winner: str | None,
    seat: str,
    condition_id: str,
) -> int:
    """The cubes ``seat`` earns on ``condition_id`` for ``combat`` (before the per-turn cap)."""
    enemies = set(combat.seats_of(combat.opponent(seat)))  # a team's side (N-TEAM-4)
    if condition_id in (WAR_OF_ATTRITION, SUBJUGATION):
        wiped = (combat.groups[i] for i in combat.destroyed)
        if condition_id == WAR_OF_ATTRITION:
            return sum(1 for g in wiped if g.owner in enemies and _is_combat_unit(ctx, g.unit))
        return sum(1 for g in wiped if g.owner in enemies and g.unit in ctx.workers)
    if winner != combat.side(seat) or not any(
        g.owner in enemies and _is_combat_unit(ctx, g.unit) for g in combat.groups
    ):
        return 0  # the rest need a win against enemy combat units
    if condition_id == TOTAL_DOMINANCE:
        return 1
    if condition_id == RISE_OF_THE_MIGHTY:
        return int(any(_is_hero(ctx, g.unit) for g in combat.groups if g.owner == seat))
    if condition_id == MILITARY_SUPREMACY:
        return int(_techs_complete(ctx, state, seat))
    return 0


def _is_hero(ctx: Context, unit_id: str) -> bool:
    """A hero unit type (the civilisation's right-hand tile, rulebook p. 31)."""
    unit = ctx.pack.units.get(unit_id)
    return unit is not None and unit.hero


def turn_start_cubes(ctx: Context, state: GameState, seat: str) -> tuple[Event, ...]:
    """N-WIN-3 at the start of ``seat``'s turn: Colonisation, Strategic Point (combat units
    on the strategy zone) and Glory of the King (structures on mountains)."""
    if state.mode != "advanced" or not any(c in _TURN_START for c in state.conditions):
        return ()
    wanted: list[tuple[str, str, int]] = []
    for condition_id in state.conditions:
        if condition_id not in _TURN_START:
            continue
        card = ctx.pack.victory_conditions[condition_id]
        if condition_id in _ON_THE_STRATEGY_ZONE:
            zone = ctx.map.strategy_zone
            have = sum(
                s.count
                for s in state.stacks_of(seat)
                if s.zone == zone and _is_combat_unit(ctx, s.unit)
            )
        else:
            have = sum(
                1
                for p in state.structures
                if p.owner == seat and ctx.map.zones[p.zone].biome == "mountain"
            )
        count = sum(1 for needed in card.thresholds if have >= needed)
        if count:
            wanted.append((seat, condition_id, count))
    return _place(ctx, state, wanted)


# -- Oath of Asha --------------------------------------------------------------------------------


def legal_oaths(ctx: Context, state: GameState, seat: str) -> list[SwearOath]:
    """The Oath of Asha payments ``seat`` may make now (none unless every condition holds)."""
    if _oath_refusal(ctx, state, seat) is not None:
        return []
    cost = ctx.pack.victory_conditions[OATH_OF_ASHA].cost
    stock = state.player(seat).stock
    return [
        SwearOath(wood=wood, metal=cost - wood)
        for wood in range(cost, -1, -1)
        if wood <= stock.wood and cost - wood <= stock.metal
    ]


def _oath_refusal(ctx: Context, state: GameState, seat: str) -> str | None:
    """Why ``seat`` may not swear the oath now (``None``: it may, if it can pay)."""
    if OATH_OF_ASHA not in state.conditions:
        return "Oath of Asha is not a victory condition of this game"
    if state.phase != "development" or seat != state.active_seat:
        return "the oath is sworn in your development phase"
    zone = ctx.map.strategy_zone
    if not any(s.zone == zone and s.unit in ctx.workers for s in state.stacks_of(seat)):
        return "you need a worker on the strategy zone"
    card = ctx.pack.victory_conditions[OATH_OF_ASHA]
    done = state.turn_cubes.get(seat, {}).get(OATH_OF_ASHA, 0)
    if card.cap_per_turn is not None and done >= card.cap_per_turn:
        return f"at most {card.cap_per_turn} cubes per turn"
    return None


def decide_oath(ctx: Context, state: GameState, seat: str, command: SwearOath) -> tuple[Event, ...]:
    """Oath of Asha: pay and place a cube (the game may end, N-WIN-4)."""
    why = _oath_refusal(ctx, state, seat)
    if why is not None:
        raise IllegalCommand("N-WIN-3", why)
    cost = ctx.pack.victory_conditions[OATH_OF_ASHA].cost
    if command.wood < 0 or command.metal < 0 or command.wood + command.metal != cost:
        raise IllegalCommand("N-WIN-3", f"the oath costs {cost} wood and metal in all")
    paid = Resources(wood=command.wood, metal=command.metal)
    if not state.player(seat).stock.covers(paid):
        raise IllegalCommand("N-WIN-3", "you cannot pay the oath")
    return (OathSworn(seat=seat, paid=paid), *_place(ctx, state, [(seat, OATH_OF_ASHA, 1)]))


# -- base destruction -----------------------------------------------------------------------------


def bases_in_reach(ctx: Context, state: GameState) -> list[tuple[str, str]]:
    """N-WIN-1 at the end of a turn: the (owner, by) pairs of enemy bases where a unit of
    the player (or of one of the allies taking the turn with it, N-TURN-3) stands."""
    playing = teams.turn_seats(state)
    standing_in = {s.zone: s.owner for s in state.units if s.owner in playing}
    return [
        (owner, standing_in[zone])
        for owner, zone in sorted(ctx.map.bases.items())
        if not teams.allied(state, playing[0], owner)
        and owner in state.seats
        and owner not in state.eliminated
        and zone in standing_in
    ]


def bases_taken(ctx: Context, state: GameState) -> tuple[Event, ...]:
    """N-WIN-1 at the end of a turn: the bases of :func:`bases_in_reach` are destroyed.

    With two players that wins the game. With three or more the owner is eliminated, and the
    last player (or team, N-TEAM-1) standing wins. (Conquest mode, N-WIN-5, conquers them
    instead: :mod:`.conquest`.)
    """
    me = teams.turn_seats(state)[0]
    taken = bases_in_reach(ctx, state)
    if not taken:
        return ()
    destroyed = [BaseDestroyed(owner=owner, by=by) for owner, by in taken]
    taken_owners = [owner for owner, _ in taken]
    if len(state.seats) == 2:
        return (*destroyed, GameEnded(reason="base_destroyed", winners=(me,)))
    eliminated = [PlayerEliminated(seat=owner) for owner in taken_owners]
    standing = [s for s in state.seats if s not in state.eliminated and s not in taken_owners]
    if len(teams.teams_standing(state, standing)) == 1:
        won = GameEnded(reason="last_player_standing", winners=tuple(standing))
        return (*destroyed, *eliminated, won)
    return (*destroyed, *eliminated)


# -- evolve ---------------------------------------------------------------------------------------


def evolve_conditions_drawn(state: GameState, event: VictoryConditionsDrawn) -> GameState:
    """Lay the conditions out."""
    return msgspec.structs.replace(state, conditions=event.conditions, counter=event.counter_after)


def evolve_cube_scored(state: GameState, event: CubeScored) -> GameState:
    """Put the cube down (``cubes`` keeps each seat's total over the conditions)."""
    by_condition = {**state.condition_cubes.get(event.seat, {}), event.condition: event.cubes}
    this_turn = dict(state.turn_cubes.get(event.seat, {}))
    this_turn[event.condition] = this_turn.get(event.condition, 0) + 1
    return msgspec.structs.replace(
        state,
        cubes={**state.cubes, event.seat: sum(by_condition.values())},
        condition_cubes={**state.condition_cubes, event.seat: by_condition},
        turn_cubes={**state.turn_cubes, event.seat: this_turn},
    )


def evolve_oath_sworn(state: GameState, event: OathSworn) -> GameState:
    """Pay for the oath."""
    player = state.player(event.seat)
    return state.with_player(msgspec.structs.replace(player, stock=player.stock - event.paid))


def evolve_base_destroyed(state: GameState, event: BaseDestroyed) -> GameState:
    """Record the destroyed base."""
    return msgspec.structs.replace(state, bases_destroyed=(*state.bases_destroyed, event.owner))
