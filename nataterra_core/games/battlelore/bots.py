"""The heuristic player: judges from its seat's view alone (never the state).

It plays the card that orders the most units close to the enemy, orders the units that can
hurt someone, moves toward favourable battles while keeping units next to friends (bold:
B-RET-2), battles with the best expected damage, takes ground and battles back whenever it
may, and retreats next to friends. Ties are broken by its own seeded stream.

:func:`evaluate` is the search player's estimate of a side's winning chance
(``Hooks.evaluate``): the medals each side still needs (B-WIN-1) and the figures each has
left to win them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from pathlib import Path

from nataterra_core.kernel import Command, player_dice

from . import messages as m
from .board import distance
from .content import load_pack
from .content.schema import BattleLorePack
from .determinise import public_state
from .rules.world import World, world_in_play
from .state import BattleLoreState, Unit
from .views import SeatView

__all__ = ["PLAYOUT_DEPTH", "HeuristicPlayer", "evaluate", "state_of_view", "threats"]


def state_of_view(view: SeatView) -> BattleLoreState:
    """A state the rules' queries accept, built from what the seat sees (the hidden parts
    left empty: the player never reads them, and dealing them cost a tenth of its time)."""
    return public_state(view)


LORE_BONUS = {
    "teleport": -0.5,
    "extra_order": 3.0,
    "discard_random": 2.0,
    "heal": 1.5,
    "steal_token": 1.2,
    "cancel_hit": 1.5,
    "shield_wall": 1.5,
    "ambush": 1.0,
    "ignore_flag": 1.2,
    "extra_die": 1.5,
}
"""What the heuristic player thinks a lore effect is worth (a battle is 0.5 and up)."""


class HeuristicPlayer:
    """A purposeful BattleLore player on the seat view."""

    def __init__(self, seed: int, pack: BattleLorePack | None = None) -> None:
        self._dice = player_dice(seed, "battlelore-heuristic")
        self._pack = pack or load_pack()
        self._worlds: dict[str, World] = {}

    def _world(self, scenario: str) -> World:
        if scenario not in self._worlds:
            self._worlds[scenario] = World(self._pack, scenario)
        return self._worlds[scenario]

    def choose(self, view: SeatView, legal_commands: Sequence[Command]) -> Command:
        """The best-looking legal command (ties broken at random)."""
        world = self._world(view.scenario)
        state = state_of_view(view)
        memo = _Memo(world, state)
        scored = [(self._score(memo, view, c), n) for n, c in enumerate(legal_commands)]
        best = max(score for score, _ in scored)
        ties = [n for score, n in scored if score >= best - 1e-9]
        return legal_commands[ties[self._dice.draw(len(ties))] if len(ties) > 1 else ties[0]]

    def rank(self, view: SeatView, legal_commands: Sequence[Command]) -> list[Command]:
        """The legal commands, best-looking first (ties in the list's order; no dice drawn):
        the search player's prior at the root."""
        world = self._world(view.scenario)
        state = state_of_view(view)
        memo = _Memo(world, state)
        values = [self._score(memo, view, c) for c in legal_commands]
        order = sorted(range(len(legal_commands)), key=lambda n: -values[n])
        return [legal_commands[n] for n in order]

    # --- judging ------------------------------------------------------------------------

    def _score(self, memo: _Memo, view: SeatView, command: Command) -> float:
        world, state = memo.world, memo.state
        me = view.seat or state.seat
        match command:
            case m.PlayCard(card=card) | m.KeepCard(card=card):
                return self._card_value(world, state, me, card)
            case m.OrderUnit(unit=unit_id):
                unit = state.unit(unit_id)
                return 1.0 + (self._threat(world, state, unit) if unit else 0.0)
            case m.FinishOrders() | m.FinishMoves() | m.FinishBattles():
                return 0.0
            case m.MoveUnit(unit=unit_id, to=to):
                unit = state.unit(unit_id)
                if unit is None:
                    return -1.0
                moved = _moved(unit, to)
                here = memo.position.get(unit_id)
                if here is None:
                    here = memo.position[unit_id] = self._position(world, state, unit)
                gain = self._position(world, state, moved) - here
                paths = memo.destinations.get(unit_id)
                if paths is None:
                    paths = memo.destinations[unit_id] = world.destinations(state, unit)
                path = paths[to]
                if not world.may_battle_after(state, unit, path) and self._targets(
                    world, state, moved
                ):
                    gain -= 1.0
                return gain
            case m.BattleUnit(unit=unit_id, target=target):
                unit, enemy = state.unit(unit_id), state.unit(target)
                if unit is None or enemy is None:
                    return 0.0
                return 0.5 + self._expected(world, state, unit, enemy)
            case m.IgnoreFlag() | m.TakeGround() | m.BattleBack():
                return 1.0
            case m.AcceptFlags() | m.Decline():
                return 0.0
            case m.Retreat(to=to):
                return float(
                    sum(1 for u in state.units if u.side == me and distance(u.hex, to) == 1)
                )
            case m.Pursue(to=to):
                return float(
                    sum(1 for u in state.units if u.side != me and distance(u.hex, to) == 1)
                )
            case m.BonusBattle(target=target):
                enemy = state.unit(target)
                return 2.0 - (enemy.figures / 4 if enemy else 0.0)
            case m.KeepLore(card=card):
                lore = world.pack.lore.get(card)
                return -float(lore.cost) if lore else 0.0
            case m.PlayLore(card=card, unit=unit_id):
                return self._lore_value(world, state, card, unit_id)
            case m.SkipCard():
                return -1.0
        return 0.0

    def _lore_value(
        self, world: World, state: BattleLoreState, card_id: str, unit_id: str
    ) -> float:
        """A lore play's worth: damage by its expected hits, the others by a fixed bonus
        (teleports rarely: they are many and hard to judge)."""
        card = world.pack.lore[card_id]
        target = state.unit(unit_id) if unit_id else None
        if card.effect == "damage" and target is not None:
            return 2.5 + card.dice / 6 * (1 + 1 / max(1, target.figures))
        return LORE_BONUS.get(card.effect, 0.5)

    def _card_value(self, world: World, state: BattleLoreState, me: str, card_id: str) -> float:
        """Units the card would order, weighted by how close each is to a fight."""
        card = world.card(card_id)
        if card is None:
            return 0.0
        if card.copy_last:
            last = state.side_of(state.other(me)).last_card
            return (
                self._card_value(world, state, me, last) - 0.1 if last and last != card_id else 0.5
            )
        trial = _with(state, me, card_id)
        orderable = world.orderable(trial)
        units = sorted(
            (self._threat(world, trial, u) + 1.0 for u in trial.units if u.id in orderable),
            reverse=True,
        )
        value = sum(units[: world.order_capacity(trial)])
        return value + card.melee_dice * 0.5 + card.ranged_dice * 0.5

    def _threat(self, world: World, state: BattleLoreState, unit: Unit) -> float:
        """How ready ``unit`` is to battle: targets now, or how near the nearest enemy is."""
        if self._targets(world, state, unit):
            return 2.0
        enemies = [distance(unit.hex, u.hex) for u in state.units if u.side != unit.side]
        return 1.0 / max(1, min(enemies, default=9))

    def _targets(self, world: World, state: BattleLoreState, unit: Unit) -> tuple[str, ...]:
        return world.targets(_placed(state, unit), unit)

    def _position(self, world: World, state: BattleLoreState, unit: Unit) -> float:
        """A hex's worth for ``unit``: the best battle from it, friends next to it, and
        danger from enemies that would battle it at full strength."""
        placed = _placed(state, unit)
        best = max(
            (
                self._expected(world, placed, unit, e)
                for t in world.targets(placed, unit)
                if (e := placed.unit(t))
            ),
            default=0.0,
        )
        support = min(2, world.friends_around(placed, unit)) * 0.15
        danger = sum(
            0.05 for e in placed.units if e.side != unit.side and distance(e.hex, unit.hex) == 1
        )
        nearest = min(
            (distance(unit.hex, e.hex) for e in placed.units if e.side != unit.side), default=0
        )
        return best + support - danger - 0.02 * nearest

    def _expected(self, world: World, state: BattleLoreState, unit: Unit, enemy: Unit) -> float:
        """Expected figures removed, counting a kill (a medal) extra."""
        dice = world.dice(state, unit, enemy, card_bonus=True)
        hits = _expected_hits(world, unit, enemy, dice)
        return hits * (1 + 1 / max(1, enemy.figures)) + dice / 12


def _expected_hits(world: World, unit: Unit, enemy: Unit, dice: int) -> float:
    """Hits ``unit`` may expect on ``enemy`` from ``dice`` battle dice (B-DIE-2): a sixth a
    die, a fifth more with a bonus strike, a sixth of that on a unit only critical hits harm."""
    hits = dice / 6 * (1.2 if world.weapon_of(unit).bonus_strike else 1.0)
    if world.type_of(enemy).critical_only:
        hits /= 6
    return hits


class _Memo:
    """One decision's position and the answers judging its commands asks more than once
    (a unit's moves are judged against the same paths and the same starting hex)."""

    __slots__ = ("destinations", "position", "state", "world")

    def __init__(self, world: World, state: BattleLoreState) -> None:
        self.world = world
        self.state = state
        self.destinations: dict[str, dict[tuple[int, int], tuple[tuple[int, int], ...]]] = {}
        self.position: dict[str, float] = {}


def _moved(unit: Unit, to: tuple[int, int]) -> Unit:
    from msgspec.structs import replace

    return replace(unit, hex=to)


def _placed(state: BattleLoreState, unit: Unit) -> BattleLoreState:
    from msgspec.structs import replace

    return replace(state, units=tuple(unit if u.id == unit.id else u for u in state.units))


def _with(state: BattleLoreState, seat: str, card: str) -> BattleLoreState:
    from msgspec.structs import replace

    return replace(state, card=card, ordered=(), active=state.seats.index(seat))


def make(seed: int, *, content: Path | None = None) -> HeuristicPlayer:
    """The registry's factory: a heuristic player judging by the game's pack."""
    return HeuristicPlayer(seed, pack=load_pack(content))


MEDAL_WEIGHT = 4.0
"""Log-odds of a side that has all the medals it needs against one that has none."""
FIGURE_WEIGHT = 2.0
"""Log-odds of a side with every figure left on the field against one with none."""
THREAT_WEIGHT = 0.5
"""Medals a threat is worth: a unit that would surely destroy a target it can battle from
where it stands counts half a medal (the dice and the cards decide whether it gets to)."""
THREATS_COUNTED = 3
"""A side's strongest threats counted: about the units a command card orders."""
PLAYOUT_DEPTH = 20
"""Commands a search playout plays before :func:`evaluate` scores it (``Hooks.playout_depth``):
about two half-turns, the reply included. With the threats in the evaluation a move shows
before its battles are rolled, so a short playout tells moves apart in fewer, cheaper
iterations than the 40 it played before (docs/BOTS.md, "Tuning runs (session 14)")."""


def evaluate(state: BattleLoreState, seat: str) -> float:
    """``seat``'s chance of winning from ``state``, estimated (``Hooks.evaluate``): a logistic
    of the medal lead (as a share of the scenario's medals, B-WIN-1), with each side's threats
    as partial medals (:func:`threats`: what the battles not yet rolled promise), and the
    figure lead (as a share of the figures on the field). A game over is 1 for the winner, 0
    for the loser and ½ each for a draw."""
    if state.phase == "over":
        return 0.5 if state.winner is None else float(state.winner == seat)
    other = state.other(seat)
    needed = max(1, _medals_to_win(state.scenario))
    figures = dict.fromkeys((seat, other), 0)
    for unit in state.units:
        if unit.side in figures:
            figures[unit.side] += unit.figures
    world = world_in_play(state.pack, state.scenario)
    promised = THREAT_WEIGHT * (threats(world, state, seat) - threats(world, state, other))
    medals = state.side_of(seat).medals - state.side_of(other).medals
    lead = (medals + promised) / needed
    field = (figures[seat] - figures[other]) / max(1, figures[seat] + figures[other])
    return 1 / (1 + math.exp(-(MEDAL_WEIGHT * lead + FIGURE_WEIGHT * field)))


def threats(world: World, state: BattleLoreState, side: str) -> float:
    """What ``side``'s units threaten from where they stand, in expected kills: each unit's
    best target by its expected hits (B-DIE-2, no card's bonus) over the target's figures (at
    most 1), the :data:`THREATS_COUNTED` strongest summed. A move that brings a unit in reach,
    or leaves one exposed, shows here before a die is rolled (a playout cut short sees it)."""
    found = []
    for unit in state.units:
        if unit.side != side:
            continue
        best = 0.0
        for target_id in world.targets(state, unit):
            enemy = state.unit(target_id)
            if enemy is None:
                continue
            dice = world.dice(state, unit, enemy, card_bonus=False)
            hits = _expected_hits(world, unit, enemy, dice)
            best = max(best, min(1.0, hits / max(1, enemy.figures)))
        if best > 0:
            found.append(best)
    return sum(sorted(found, reverse=True)[:THREATS_COUNTED])


@functools.cache
def _medals_to_win(scenario: str) -> int:
    """The scenario's medals (B-WIN-1) in the library's pack (6 for a scenario it lacks)."""
    pack = load_pack()
    found = pack.scenarios.get(scenario)
    return 6 if found is None else found.medals
