"""Nataterra's heuristic computer player, judging on its seat's view alone.

Movement lives in :mod:`.movement`, the reading of the view in :mod:`.reading`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from nataterra_core.games.nataterra.content import ContentPack, load_pack
from nataterra_core.games.nataterra.content.schema import Cost, TechCard, rotate_offset
from nataterra_core.games.nataterra.messages.combat import PlayTactic, Retreat, StartCombat
from nataterra_core.games.nataterra.messages.development import Build, Recruit, Research
from nataterra_core.games.nataterra.messages.setup import DiscardOpeningTactic
from nataterra_core.games.nataterra.messages.structuring import (
    AttachMapTile,
    PlaceModifier,
    PlacePlayerTile,
    PlaceSharedTile,
)
from nataterra_core.games.nataterra.messages.victory import SwearOath
from nataterra_core.games.nataterra.rules.combat.model import Combat
from nataterra_core.games.nataterra.rules.combat.policies import (
    CARD_WORTH,
    DefaultPolicy,
    option_value,
)
from nataterra_core.games.nataterra.rules.context import Context
from nataterra_core.games.nataterra.rules.development import MAX_MULTIPLIER
from nataterra_core.games.nataterra.rules.hexmap import Hex, build_map
from nataterra_core.games.nataterra.rules.structuring import player_tile
from nataterra_core.games.nataterra.state import Resources
from nataterra_core.games.nataterra.views import PlayerView, SeatView
from nataterra_core.kernel import Command, player_dice

from ..rules.development import unit_cost
from .movement import MovementPlanner, end_phase
from .reading import Board, Reading, counted, group_side, player_of
from .scenario import guarded, scenario_choice

__all__ = ["HeuristicPlayer", "effect_value_per"]


class HeuristicPlayer(MovementPlanner):
    """A seeded, deterministic player that plays purposeful learning games.

    * **Development** (N-DEV-1..4): researches resource multipliers first (N-RES-4), recruits
      workers up to the resource zones near its base, then combat units by value for cost,
      and researches unit techs that bring more tokens to its pool.
    * **Movement** (N-MOV-1..4): takes an undefended enemy base at once (N-WIN-1); attacks
      enemy stacks its reachable units out-muscle (total attack times total health, a
      margin that shrinks as the game goes on); pulls units home when its base is
      threatened; keeps a guard at home; otherwise marches on the nearest enemy base,
      never into a zone an enemy could hit harder than it can stand. Workers spread to free,
      safe resource zones near the base (one per zone, N-RES-1), favouring the resource the
      stock lacks (a lone gatherer relocates for a much scarcer one), and flee from enemies
      next door.
    * **Combat**: :class:`~nataterra_core.games.nataterra.rules.combat.policies.DefaultPolicy`
      with a retreat threshold, except that it never retreats from its own base (that loses it);
      the policy also plays the combat tactic options it rates worth their card, and gives a
      standing pass (N-COMBAT-9) once no card in its own hand fits a window still to come
      (it reads its own view: the other seats' hands are not in it).
    * **Map structuring** (N-MAP-4): keeps the map compact. Tile 0 shows the side with
      more resources; a tile goes where it shares the most edges with the placed zones;
      the player tile likewise, its base as near tile 0's centre as that allows; a terrain
      modifier goes mountain side up (mountains never cut the map, N-MOV-2) on the
      resource zone nearest an enemy base and farthest from its own.
    * **Tactic cards** (N-TURN-2, N-TAC-1..3): in movement, resources and development it
      first plays the option of its phase that rates best, if it rates above keeping the
      card: movement options only where at least ``muster`` combat units wait to move,
      resource options by what they actually gain, never one that destroys its own
      structure.
    * **Advanced mode** (N-SETUP-8, N-WIN-3): discards an opening tactic card by its dice;
      swears the Oath of Asha whenever it may (paying from the larger of wood and metal);
      sends a worker to the strategy zone when the Oath is in play, and holds it with a
      combat unit for Strategic Point; prefers mountains for structures (and sends spare
      workers there) for Glory of the King. The other conditions come from fighting.

    It judges on its seat's :class:`~nataterra_core.games.nataterra.views.SeatView` alone
    (with the public content: the pack and the map the view names), so it plays on what a
    human in its seat could know; it only ever returns one of the legal commands it is given,
    and ties are broken by its own seeded dice stream. ``pack`` is the game's content pack
    (default: the provisional one); ``retreat_below`` is the combat policy's retreat
    threshold; ``guard`` combat units stay on the base once it has more than ``guard + 1``;
    an army leaves home with at least ``muster`` units besides the guard.
    """

    def __init__(
        self,
        seed: int,
        *,
        pack: ContentPack | None = None,
        retreat_below: float = 0.5,
        guard: int = 1,
        muster: int = 3,
    ) -> None:
        super().__init__(player_dice(seed, "heuristic-player"))
        self._pack = pack if pack is not None else load_pack()
        self._policy = DefaultPolicy(self._pack, retreat_below)
        self._guard = guard
        self._muster = muster
        self._boards: dict[str, Board] = {}

    def choose(self, view: Any, legal_commands: Sequence[Command]) -> Command:
        """The command this player prefers among ``legal_commands`` (never empty), judged on
        the seat's ``view``."""
        commands = legal_commands
        if len(commands) == 1:
            return commands[0]
        if not isinstance(view, SeatView) or view.seat is None:
            return self._pick(list(commands))
        seat = view.seat
        if view.structuring is not None:
            return self._structure(view, seat, commands)
        if view.phase == "setup":  # N-SETUP-8: which opening tactic card to discard
            discards = [c for c in commands if isinstance(c, DiscardOpeningTactic)]
            return self._pick(discards) if discards else commands[0]
        board = self._board(view.map_id)
        if view.scenario is not None and view.combat is None:  # the scenario's goals first
            aimed = scenario_choice(board.ctx, view, seat, commands)
            if aimed is not None:
                return aimed
            commands = guarded(view, seat, commands)
        card = None if view.combat is not None else self._tactic(board, view, seat, commands)
        if card is not None:
            choice: Command = card
        elif view.combat is not None:
            choice = self._in_combat(board, view, view.combat, seat, commands)
        elif view.phase == "movement":
            choice = self._movement(Reading(board, view, seat), commands)
        elif view.phase == "development":
            choice = self._development(board, view, seat, commands)
        else:  # resources: only EndPhase; combat phase: every contested zone must fight
            choice = next((c for c in commands if isinstance(c, StartCombat)), commands[-1])
        return next((c for c in commands if c == choice), commands[0])

    def _board(self, map_id: str) -> Board:
        board = self._boards.get(map_id)
        if board is None:
            ctx = Context(self._pack, build_map(self._pack, map_id))
            board = self._boards[map_id] = Board(ctx)
        return board

    # -- map structuring ----------------------------------------------------------------------

    def _structure(self, view: SeatView, seat: str, commands: Sequence[Command]) -> Command:
        """A compact map: the placement touching the placed zones most (N-MAP-4)."""
        pack = self._pack
        game_map = build_map(pack, view.map_id)
        taken = {zone.hex for zone in game_map.zones.values()}
        scored: list[tuple[tuple[float, ...], Command]] = []
        for command in commands:
            if isinstance(command, PlaceSharedTile):
                tile = next(
                    t
                    for t in pack.map_tiles.values()
                    if t.kind == "shared" and t.side == command.side
                )
                scored.append(((sum(1 for z in tile.zones if z.resource),), command))
            elif isinstance(command, AttachMapTile | PlacePlayerTile):
                placed = (
                    pack.map_tiles[command.tile]
                    if isinstance(command, AttachMapTile)
                    else player_tile(pack, seat)
                )
                if placed is None:
                    continue
                tile = placed
                cells = [
                    Hex(q + command.at[0], r + command.at[1])
                    for q, r in (rotate_offset(z.at, command.rotation) for z in tile.zones)
                ]
                contacts = sum(1 for c in cells for n in c.neighbours() if n in taken)
                score: tuple[float, ...] = (contacts,)
                if isinstance(command, PlacePlayerTile) and game_map.strategy_zone is not None:
                    base = next(
                        c for c, z in zip(cells, tile.zones, strict=True) if z.key == tile.base
                    )
                    centre = game_map.zones[game_map.strategy_zone].hex
                    score = (contacts, -base.distance(centre))
                scored.append((score, command))
            elif isinstance(command, PlaceModifier) and command.zone is not None:
                if command.side != "mountain":
                    continue
                zone = game_map.zones[command.zone]
                enemies = [
                    game_map.zones[b].hex for civ, b in game_map.bases.items() if civ != seat
                ]
                own = game_map.bases.get(seat)
                near = min((zone.hex.distance(b) for b in enemies), default=0)
                mine = game_map.distance(command.zone, own) if own else 0
                scored.append(((zone.resource is not None, -near, mine), command))
        best = self._best(scored)
        return best if best is not None else self._pick(list(commands))

    # -- tactic cards outside combat ------------------------------------------------------

    def _tactic(
        self, board: Board, view: SeatView, seat: str, commands: Sequence[Command]
    ) -> PlayTactic | None:
        """The option of this phase worth playing most, if any is worth its card."""
        ctx = board.ctx
        scored: list[tuple[tuple[float, ...], PlayTactic]] = []
        for command in commands:
            if not isinstance(command, PlayTactic):
                continue
            option = ctx.pack.tactics[command.card].options[command.option]
            value = option_value(option)
            for effect in option.effects:
                if effect.kind == "gain_resources" and effect.per:  # what it really gains
                    value += effect_value_per(effect.resources, counted(ctx, view, effect))
                if effect.kind in ("extra_movement", "grant_stealth") and command.zone:
                    waiting = sum(
                        s.unmoved
                        for s in view.units
                        if s.zone == command.zone and s.owner == seat and s.unit not in ctx.workers
                    )
                    value = value if waiting >= self._muster else 0.0
            if value > CARD_WORTH:
                scored.append(((value,), command))
        return self._best(scored)

    # -- combat -------------------------------------------------------------------------------

    def _in_combat(
        self, board: Board, view: SeatView, combat: Combat, seat: str, commands: Sequence[Command]
    ) -> Command:
        if isinstance(commands[0], Retreat) and combat.zone == board.ctx.map.bases.get(seat):
            return Retreat(retreat=False)  # leaving one's own base to the attacker loses it
        hand = player_of(view, seat).tactic_hand or ()  # its own hand: the view shows it
        return self._policy.choose(combat, seat, commands, hand=hand)

    # -- development --------------------------------------------------------------------------

    def _development(
        self, board: Board, view: SeatView, seat: str, commands: Sequence[Command]
    ) -> Command:
        ctx = board.ctx
        pack = ctx.pack
        player = player_of(view, seat)
        oaths = [c for c in commands if isinstance(c, SwearOath)]
        if oaths:  # N-WIN-3 Oath of Asha: a cube now; pay from the larger pile
            stock = player.stock
            return max(
                oaths, key=lambda c: (min(stock.wood - c.wood, stock.metal - c.metal), c.wood)
            )
        recruits = {c.unit: c for c in commands if isinstance(c, Recruit)}
        researches = [c for c in commands if isinstance(c, Research)]
        on_map: dict[str, int] = {}
        for stack in (s for s in view.units if s.owner == seat):
            on_map[stack.unit] = on_map.get(stack.unit, 0) + stack.count
        worker = pack.worker_of(seat).id
        workers = on_map.get(worker, 0)
        combat = sum(n for u, n in on_map.items() if u != worker)
        own_turn = (view.turn + len(view.seats) - 1) // len(view.seats)
        home = ctx.map.bases.get(seat)
        near = sum(1 for z in board.resources if home is not None and board.dist(home, z) <= 3)
        wanted_workers = max(4, min(7, near))
        # The combat unit it would recruit next: research must not starve the army of it.
        in_pool = [u for u, n in sorted(player.pool.items()) if n and u != worker]
        best = max(in_pool, key=lambda u: (self._value(ctx, player, u), u), default=None)
        reserve = Resources() if best is None else unit_cost(ctx, player, best)

        def spares_army(research: Research) -> bool:
            return (player.stock - self._tech_price(research)).covers(reserve)

        multipliers = [
            r
            for r in researches
            if (card := pack.techs[r.tech]).kind == "resource"
            and card.resource is not None
            and getattr(player.multipliers, card.resource) < MAX_MULTIPLIER
        ]
        unit_techs = [
            r
            for r in researches
            if (card := pack.techs[r.tech]).kind == "unit"
            and card.unit is not None
            and r.option == self._tech_option(ctx, card)
        ]
        early = [r for r in multipliers if own_turn <= 3 or spares_army(r)]
        if early:
            return self._cheapest(early)
        if worker in recruits and workers < wanted_workers and (workers < 5 or combat >= 3):
            return recruits[worker]
        growth = [r for r in unit_techs if spares_army(r)]
        if growth:
            return self._cheapest(growth)
        # Build near home when it leaves enough for the next recruit (N-STR-1).
        glory = "glory_of_the_king" in view.conditions
        builds = [
            (
                (
                    1 if glory and ctx.map.zones[c.zone].biome == "mountain" else 0,
                    -board.dist(home, c.zone) if home is not None else 0,
                ),
                c,
            )
            for c in commands
            if isinstance(c, Build)
            and (player.stock - Resources.of(pack.structures[c.structure].cost)).covers(reserve)
        ]
        chosen_build = self._best(builds)
        if chosen_build is not None:
            return chosen_build
        fighters = [
            ((self._value(ctx, player, unit),), command)
            for unit, command in recruits.items()
            if unit != worker
        ]
        chosen = self._best(fighters)
        if chosen is not None:
            return chosen
        rest = [*multipliers, *(r for r in unit_techs if pack.techs[r.tech].unit != worker)]
        if rest:
            return self._cheapest(rest)
        return end_phase(commands)

    def _tech_price(self, research: Research) -> Resources:
        card = self._pack.techs[research.tech]
        cost = card.cost if card.kind == "resource" else card.option(research.option or "a").cost
        return Resources() if cost is None else Resources.of(cost)

    def _cheapest(self, researches: Sequence[Research]) -> Research:
        def price(r: Research) -> tuple[int, int]:
            cost = self._tech_price(r)
            return (cost.food + cost.wood + cost.metal, self._pack.techs[r.tech].number)

        return min(researches, key=price)

    @staticmethod
    def _value(ctx: Context, player: PlayerView, unit: str) -> float:
        """Fighting value per resource spent on one ``unit``."""
        side = group_side(ctx, player, unit)
        cost = unit_cost(ctx, player, unit)
        fight = (side.attack + side.attack_bonus) * (side.health + 2 * side.armor)
        return fight / max(1, cost.food + cost.wood + cost.metal)

    @staticmethod
    def _tech_option(ctx: Context, card: TechCard) -> str:
        """The option of a unit tech with more tokens for the pool, then the stronger side."""
        unit = ctx.unit(card.unit or "")

        def merit(option: Literal["a", "b"]) -> tuple[int, int]:
            tokens = sum(
                b.amount
                for b in card.option(option).bonuses
                if b.kind in ("add_units", "add_workers")
            )
            side = unit.side(option)
            return (tokens, (side.attack + side.attack_bonus) * (side.health + 2 * side.armor))

        return "b" if merit("b") > merit("a") else "a"


def effect_value_per(each: Cost, times: int) -> float:
    """The worth :func:`option_value` gives ``times`` a per-thing gain of ``each``."""
    return 0.5 * times * (each.food + each.wood + each.metal)
