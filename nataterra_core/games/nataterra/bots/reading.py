"""How the heuristic player reads a :class:`~nataterra_core.games.nataterra.views.SeatView`.

Everything here works on the seat's view and the public content (the pack and the map the
view's ``map_id`` names), never on the game state, so the player cannot use what its seat
may not see. The few rules helpers it needs that take a ``PlayerState`` or ``GameState``
(a unit's group side, its cost, a tactic option's count) are read here from the view's
public fields instead; ``tests/rules/test_bots.py`` checks they agree with the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from nataterra_core.games.nataterra.content.schema import EffectSpec, GroupSide
from nataterra_core.games.nataterra.rules.context import Context
from nataterra_core.games.nataterra.rules.hexmap import Zone
from nataterra_core.games.nataterra.rules.tactic_play import zone_passes
from nataterra_core.games.nataterra.state import UnitStack
from nataterra_core.games.nataterra.views import PlayerView, SeatView
from nataterra_core.kernel import DiceStream

__all__ = [
    "FAR",
    "Board",
    "Chooser",
    "Force",
    "Reading",
    "allied",
    "counted",
    "group_side",
    "player_of",
]

T = TypeVar("T")

FAR = 99
"""Steps to a zone no walker can reach."""

_PRIOR = {"food": 1.0, "metal": 0.5, "wood": 0.0}
"""What each resource is worth to a worker before the stock says more (units cost food)."""

Force = tuple[str, str, int]
"""(owner, unit type, count): units counted towards a strength estimate."""


# -- rules helpers, read from the view --------------------------------------------------------


def group_side(ctx: Context, player: PlayerView, unit: str) -> GroupSide:
    """The group-card side ``player`` uses for ``unit`` (N-DEV-5; as ``Context.group_side``)."""
    return ctx.pack.units[unit].side("b" if player.sides.get(unit) == "b" else "a")


def counted(ctx: Context, view: SeatView, spec: EffectSpec) -> int:
    """How many things a per-thing gain counts for the viewing seat (as
    ``tactic_play.counted``; its own hand's size is public anyway)."""
    seat = view.seat
    player = player_of(view, seat or "")
    if spec.per == "units":
        if spec.side and player.sides.get(spec.unit) != spec.side:
            return 0
        return sum(
            s.count
            for s in view.units
            if s.owner == seat
            and s.unit == spec.unit
            and zone_passes(ctx, s.zone, spec.zone_filter)
        )
    if spec.per == "structures":
        return sum(1 for p in view.structures if p.owner == seat)
    if spec.per == "unit_techs":
        return len(player.techs)
    if spec.per == "tactics_in_hand":  # the played card included, though it has left
        return player.tactic_hand_count + 1
    raise ValueError(f"unknown count basis {spec.per!r}")


def allied(view: SeatView, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are the same player or allies (as ``teams.allied``)."""
    return a == b or any(a in team and b in team for team in view.teams)


def player_of(view: SeatView, civ: str) -> PlayerView:
    """``civ``'s player as the view shows it."""
    return view.players[view.seats.index(civ)]


# -- the player's reading of the board ----------------------------------------------------------


class Chooser:
    """Choices among scored items, ties broken by the player's own seeded stream."""

    def __init__(self, dice: DiceStream) -> None:
        self._dice = dice

    def _pick(self, items: Sequence[T]) -> T:
        """One of ``items`` from the player's own stream (no draw for a single item)."""
        return items[0] if len(items) == 1 else items[self._dice.draw(len(items))]

    def _best(self, scored: Sequence[tuple[tuple[float, ...], T]]) -> T | None:
        """The item with the highest score; ties broken by the dice."""
        if not scored:
            return None
        top = max(score for score, _ in scored)
        return self._pick([item for score, item in scored if score == top])


class Board:
    """What the heuristic player precomputes once per map: walking steps between all zones
    (lakes barred, N-MOV-2, except the Naga base) and the resource zones."""

    __slots__ = ("ctx", "resources", "steps")

    def __init__(self, ctx: Context) -> None:
        game_map = ctx.map
        naga_base = game_map.bases.get("naga")

        def walkable(zone: Zone) -> bool:
            return zone.biome != "lake" or zone.id == naga_base

        self.ctx = ctx
        self.steps = {z: game_map.steps_from(z, walkable) for z in game_map.zone_ids}
        self.resources = tuple(z for z in game_map.zone_ids if game_map.zones[z].resource)

    def dist(self, a: str, b: str) -> int:
        """Walking steps from ``a`` to ``b`` (:data:`FAR` if there is no way)."""
        return self.steps[a].get(b, FAR)


class Reading:
    """One seat's reading of its view: who stands where, how strong, and what is
    threatened. Built afresh for every movement decision (cheap: a few dozen stacks)."""

    def __init__(self, board: Board, view: SeatView, seat: str) -> None:
        ctx = board.ctx
        self.board = board
        self.view = view
        self.seat = seat
        self.players = {p.civ: p for p in view.players}
        self.base = ctx.map.bases.get(seat)
        self.enemy_bases = [
            zone
            for owner, zone in sorted(ctx.map.bases.items())
            if not allied(view, owner, seat)
            and owner in view.seats
            and owner not in view.bases_destroyed
        ]
        self.mine: dict[str, list[UnitStack]] = {}
        self.enemy: dict[str, list[UnitStack]] = {}
        self.enemy_movers: list[tuple[UnitStack, int]] = []
        for stack in view.units:
            if stack.owner == seat:
                self.mine.setdefault(stack.zone, []).append(stack)
            elif not allied(view, stack.owner, seat):  # allies are neither (N-TEAM-2)
                self.enemy.setdefault(stack.zone, []).append(stack)
                if stack.unit not in ctx.workers:
                    owner = self.players[stack.owner]
                    reach = ctx.unit(stack.unit).movement + owner.movement_mods.get(stack.unit, 0)
                    self.enemy_movers.append((stack, reach))
        self.combat_units = sum(
            s.count for stacks in self.mine.values() for s in stacks if s.unit not in ctx.workers
        )
        # Advanced mode: what the conditions in play ask of the strategy zone and mountains.
        self.strategy = ctx.map.strategy_zone if view.conditions else None
        self.oath = "oath_of_asha" in view.conditions
        self.hold_point = "strategic_point" in view.conditions
        self.glory = "glory_of_the_king" in view.conditions
        # Bolder with time, so that two cautious players never wait for ever.
        boldness = min(1.0, view.turn / 120)
        self.attack_margin = 1.5 - 0.7 * boldness
        self.safety = 1.0 + boldness

    def power(self, forces: Iterable[Force]) -> float:
        """Lanchester-style strength: total attack times total toughness."""
        ctx, attack, health = self.board.ctx, 0.0, 0.0
        for owner, unit, count in forces:
            side = group_side(ctx, self.players[owner], unit)
            attack += (side.attack + side.attack_bonus) * count
            health += (side.health + 2 * side.armor + side.armor_bonus) * count
        return attack * health

    def forces(self, stacks: Iterable[UnitStack], combat_only: bool = False) -> list[Force]:
        """``stacks`` as forces (without workers when ``combat_only``)."""
        workers = self.board.ctx.workers
        return [
            (s.owner, s.unit, s.count) for s in stacks if not (combat_only and s.unit in workers)
        ]

    def danger(self, zone: str) -> float:
        """The strength of the enemy combat units in or next to ``zone`` (for workers)."""
        forces = [
            (stack.owner, stack.unit, stack.count)
            for stack, _ in self.enemy_movers
            if self.board.dist(stack.zone, zone) <= 1
        ]
        return self.power(forces) if forces else 0.0

    def need(self) -> dict[str, float]:
        """How many steps a worker should go out of its way for each resource: up to 3
        for the scarcest one in the stock, plus a prior (every unit costs food)."""
        stock = self.players[self.seat].stock
        amounts = {"food": stock.food, "wood": stock.wood, "metal": stock.metal}
        most = max(1, *amounts.values())
        return {r: 3.0 * (1 - n / most) + _PRIOR[r] for r, n in amounts.items()} | {"": 0.0}

    def threat(self, zone: str) -> float:
        """The strength of the enemy combat units that could reach ``zone`` next turn."""
        forces = [
            (stack.owner, stack.unit, stack.count)
            for stack, reach in self.enemy_movers
            if self.board.dist(stack.zone, zone) <= reach
        ]
        return self.power(forces) if forces else 0.0
