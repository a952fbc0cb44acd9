"""Computer players. Each picks one command from the legal list; none touches the game's dice.

:class:`RandomPlayer` picks uniformly; :class:`HeuristicPlayer` plays purposeful learning
games. A bot's randomness comes from its own ``nataterra-dice-v1`` stream keyed by the bot's
seed, never from Python's ``random`` (whose sequences are not promised across versions),
so a seeded bot game is the same everywhere.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol, TypeVar

from nataterra_core.games.nataterra.content import ContentPack, load_pack
from nataterra_core.games.nataterra.content.schema import Cost, TechCard, rotate_offset
from nataterra_core.games.nataterra.rules.combat.messages import PlayTactic, Retreat
from nataterra_core.games.nataterra.rules.combat.model import Combat
from nataterra_core.games.nataterra.rules.combat.policies import (
    CARD_WORTH,
    DefaultPolicy,
    option_value,
)
from nataterra_core.games.nataterra.rules.combat_phase import StartCombat
from nataterra_core.games.nataterra.rules.context import Context
from nataterra_core.games.nataterra.rules.development import (
    MAX_MULTIPLIER,
    Recruit,
    Research,
    unit_cost,
)
from nataterra_core.games.nataterra.rules.hexmap import Hex, Zone, build_map
from nataterra_core.games.nataterra.rules.movement import MoveUnits
from nataterra_core.games.nataterra.rules.setup import DiscardOpeningTactic
from nataterra_core.games.nataterra.rules.state import GameState, PlayerState, Resources, UnitStack
from nataterra_core.games.nataterra.rules.structures import Build
from nataterra_core.games.nataterra.rules.structuring import (
    AttachMapTile,
    PlaceModifier,
    PlacePlayerTile,
    PlaceSharedTile,
    player_tile,
)
from nataterra_core.games.nataterra.rules.tactic_play import counted
from nataterra_core.games.nataterra.rules.teams import allied
from nataterra_core.games.nataterra.rules.turns import EndPhase
from nataterra_core.games.nataterra.rules.victory import SwearOath
from nataterra_core.kernel import Command, DiceStream, Session

__all__ = ["HeuristicPlayer", "Player", "RandomPlayer", "play"]

T = TypeVar("T")


class Player(Protocol):
    """Anything that chooses among legal commands."""

    def choose(self, state: object, seat: str, commands: Sequence[Command]) -> Command:
        """One of ``commands`` (never empty)."""


class RandomPlayer:
    """Chooses uniformly among the legal commands, from its own seeded stream."""

    def __init__(self, seed: int) -> None:
        key = hashlib.sha256(b"nataterra-bot-v1" + struct.pack(">Q", seed)).digest()
        self._dice = DiceStream(key, "random-player", "")

    def choose(self, state: object, seat: str, commands: Sequence[Command]) -> Command:
        """A uniformly random legal command."""
        return commands[self._dice.draw(len(commands))]


def play(
    session: Session[Any, Any, Any],
    players: Mapping[str, Player],
    *,
    max_commands: int | None = None,
) -> int:
    """Let ``players`` (by seat) play until the game ends; return the commands applied."""
    applied = 0
    while session.outcome() is None and (max_commands is None or applied < max_commands):
        seat = session.acting_seats()[0]
        commands = session.legal_commands(seat)
        session.apply(seat, players[seat].choose(session.state, seat, commands))
        applied += 1
    return applied


# -- the heuristic player -------------------------------------------------------------------

FAR = 99
"""Steps to a zone no walker can reach."""

_PRIOR = {"food": 1.0, "metal": 0.5, "wood": 0.0}
"""What each resource is worth to a worker before the stock says more (units cost food)."""

Force = tuple[str, str, int]
"""(owner, unit type, count): units counted towards a strength estimate."""


class _Board:
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


class _View:
    """One seat's reading of a position: who stands where, how strong, and what is
    threatened. Built afresh for every movement decision (cheap: a few dozen stacks)."""

    def __init__(self, board: _Board, state: GameState, seat: str) -> None:
        ctx = board.ctx
        self.board = board
        self.state = state
        self.seat = seat
        self.base = ctx.map.bases.get(seat)
        self.enemy_bases = [
            zone
            for owner, zone in sorted(ctx.map.bases.items())
            if not allied(state, owner, seat)
            and owner in state.seats
            and owner not in state.bases_destroyed
        ]
        self.mine: dict[str, list[UnitStack]] = {}
        self.enemy: dict[str, list[UnitStack]] = {}
        self.enemy_movers: list[tuple[UnitStack, int]] = []
        for stack in state.units:
            if stack.owner == seat:
                self.mine.setdefault(stack.zone, []).append(stack)
            elif not allied(state, stack.owner, seat):  # allies are neither (N-TEAM-2)
                self.enemy.setdefault(stack.zone, []).append(stack)
                if stack.unit not in ctx.workers:
                    owner = state.player(stack.owner)
                    reach = ctx.unit(stack.unit).movement + owner.movement_mods.get(stack.unit, 0)
                    self.enemy_movers.append((stack, reach))
        self.combat_units = sum(
            s.count for stacks in self.mine.values() for s in stacks if s.unit not in ctx.workers
        )
        # Advanced mode: what the conditions in play ask of the strategy zone and mountains.
        self.strategy = ctx.map.strategy_zone if state.conditions else None
        self.oath = "oath_of_asha" in state.conditions
        self.hold_point = "strategic_point" in state.conditions
        self.glory = "glory_of_the_king" in state.conditions
        # Bolder with time, so that two cautious players never wait for ever.
        boldness = min(1.0, state.turn / 120)
        self.attack_margin = 1.5 - 0.7 * boldness
        self.safety = 1.0 + boldness

    def power(self, forces: Iterable[Force]) -> float:
        """Lanchester-style strength: total attack times total toughness."""
        ctx, attack, health = self.board.ctx, 0.0, 0.0
        for owner, unit, count in forces:
            side, _ = ctx.group_side(self.state.player(owner), unit)
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
        stock = self.state.player(self.seat).stock
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


class HeuristicPlayer:
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
    * **Combat**: :class:`~nataterra_core.games.nataterra.rules.combat.policies.DefaultPolicy` with
    a
      retreat threshold, except that it never retreats from its own base (that loses it);
      the policy also plays the combat tactic options it rates worth their card.
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
      retreat threshold, except that it never retreats from its own base (that loses it).
    * **Advanced mode** (N-SETUP-8, N-WIN-3): discards an opening tactic card by its dice;
      swears the Oath of Asha whenever it may (paying from the larger of wood and metal);
      sends a worker to the strategy zone when the Oath is in play, and holds it with a
      combat unit for Strategic Point; prefers mountains for structures (and sends spare
      workers there) for Glory of the King. The other conditions come from fighting.

    It only ever returns one of the legal commands it is given; ties are broken by its own
    seeded dice stream. ``pack`` is the game's content pack (default: the provisional one);
    ``retreat_below`` is the combat policy's retreat threshold; ``guard`` combat units stay
    on the base once it has more than ``guard + 1``; an army leaves home with at least
    ``muster`` units besides the guard.
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
        key = hashlib.sha256(b"nataterra-bot-v1" + struct.pack(">Q", seed)).digest()
        self._dice = DiceStream(key, "heuristic-player", "")
        self._pack = pack if pack is not None else load_pack()
        self._policy = DefaultPolicy(self._pack, retreat_below)
        self._guard = guard
        self._muster = muster
        self._boards: dict[str, _Board] = {}

    def choose(self, state: object, seat: str, commands: Sequence[Command]) -> Command:
        """The command this player prefers among ``commands`` (never empty)."""
        if len(commands) == 1:
            return commands[0]
        if not isinstance(state, GameState):
            return self._pick(list(commands))
        if state.structuring is not None:
            return self._structure(state, seat, commands)
        if state.phase == "setup":  # N-SETUP-8: which opening tactic card to discard
            discards = [c for c in commands if isinstance(c, DiscardOpeningTactic)]
            return self._pick(discards) if discards else commands[0]
        board = self._board(state.map_id)
        card = None if state.combat is not None else self._tactic(board, state, seat, commands)
        if card is not None:
            choice: Command = card
        elif state.combat is not None:
            choice = self._in_combat(board, state.combat, seat, commands)
        elif state.phase == "movement":
            choice = self._movement(_View(board, state, seat), commands)
        elif state.phase == "development":
            choice = self._development(board, state, seat, commands)
        else:  # resources: only EndPhase; combat phase: every contested zone must fight
            choice = next((c for c in commands if isinstance(c, StartCombat)), commands[-1])
        return next((c for c in commands if c == choice), commands[0])

    # -- helpers ------------------------------------------------------------------------------

    def _board(self, map_id: str) -> _Board:
        board = self._boards.get(map_id)
        if board is None:
            ctx = Context(self._pack, build_map(self._pack, map_id))
            board = self._boards[map_id] = _Board(ctx)
        return board

    def _pick(self, items: Sequence[T]) -> T:
        """One of ``items`` from the player's own stream (no draw for a single item)."""
        return items[0] if len(items) == 1 else items[self._dice.draw(len(items))]

    def _best(self, scored: Sequence[tuple[tuple[float, ...], T]]) -> T | None:
        """The item with the highest score; ties broken by the dice."""
        if not scored:
            return None
        top = max(score for score, _ in scored)
        return self._pick([item for score, item in scored if score == top])

    @staticmethod
    def _end(commands: Sequence[Command]) -> Command:
        return next((c for c in commands if isinstance(c, EndPhase)), commands[-1])

    # -- map structuring ----------------------------------------------------------------------

    def _structure(self, state: GameState, seat: str, commands: Sequence[Command]) -> Command:
        """A compact map: the placement touching the placed zones most (N-MAP-4)."""
        pack = self._pack
        game_map = build_map(pack, state.map_id)
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
        self, board: _Board, state: GameState, seat: str, commands: Sequence[Command]
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
                    value += effect_value_per(effect.resources, counted(ctx, state, seat, effect))
                if effect.kind in ("extra_movement", "grant_stealth") and command.zone:
                    waiting = sum(
                        s.unmoved
                        for s in state.stacks_in(command.zone)
                        if s.owner == seat and s.unit not in ctx.workers
                    )
                    value = value if waiting >= self._muster else 0.0
            if value > CARD_WORTH:
                scored.append(((value,), command))
        return self._best(scored)

    # -- combat -------------------------------------------------------------------------------

    def _in_combat(
        self, board: _Board, combat: Combat, seat: str, commands: Sequence[Command]
    ) -> Command:
        if isinstance(commands[0], Retreat) and combat.zone == board.ctx.map.bases.get(seat):
            return Retreat(retreat=False)  # leaving one's own base to the attacker loses it
        return self._policy.choose(combat, seat, commands)

    # -- movement -----------------------------------------------------------------------------

    def _movement(self, view: _View, commands: Sequence[Command]) -> Command:
        moves: dict[tuple[str, str], dict[str, dict[int, MoveUnits]]] = {}
        for command in commands:
            if isinstance(command, MoveUnits):
                by_dest = moves.setdefault((command.unit, command.origin), {})
                by_dest.setdefault(command.path[-1], {})[command.count] = command
        workers = view.board.ctx.workers
        for dests in moves.values():  # N-WIN-1: an undefended enemy base is taken at once
            for base in view.enemy_bases:
                if base in dests and base not in view.enemy:
                    return dests[base][max(dests[base])]
        held = self._hold_strategy_zone(view, moves)
        if held is not None:
            return held
        self._holding(view, moves)
        for (unit, origin), dests in moves.items():
            if unit not in workers:
                chosen = self._combat_move(view, moves, unit, origin, dests)
                if chosen is not None:
                    return chosen
        for (unit, origin), dests in moves.items():
            if unit in workers:
                chosen = self._worker_move(view, unit, origin, dests)
                if chosen is not None:
                    return chosen
        return self._end(commands)

    def _hold_strategy_zone(
        self, view: _View, moves: Mapping[tuple[str, str], Mapping[str, Mapping[int, MoveUnits]]]
    ) -> MoveUnits | None:
        """Strategic Point: one combat unit onto a free strategy zone that is safe enough."""
        zone, workers = view.strategy, view.board.ctx.workers
        if not view.hold_point or zone is None or zone in view.enemy:
            return None
        if any(s.unit not in workers for s in view.mine.get(zone, ())):
            return None
        options = [
            ((-float(view.board.dist(origin, zone)),), dests[zone][1])
            for (unit, origin), dests in moves.items()
            if unit not in workers and zone in dests and origin != view.base
        ]
        return self._best(options)

    @staticmethod
    def _holding(
        view: _View, moves: dict[tuple[str, str], dict[str, dict[int, MoveUnits]]]
    ) -> None:
        """Strategic Point: the last combat unit on the strategy zone stays (its moves are
        cut to leave one behind)."""
        zone, workers = view.strategy, view.board.ctx.workers
        if not view.hold_point or zone is None:
            return
        stacks = [s for s in view.mine.get(zone, ()) if s.unit not in workers]
        if sum(s.count for s in stacks) != sum(s.unmoved for s in stacks):
            return  # some have already moved (or none are there)
        stack = min(stacks, key=lambda s: (s.count, s.unit), default=None)
        if stack is None or (stack.unit, zone) not in moves:
            return
        kept = {
            dest: {n: c for n, c in counts.items() if n < stack.unmoved}
            for dest, counts in moves[stack.unit, zone].items()
        }
        kept = {dest: counts for dest, counts in kept.items() if counts}
        if kept:
            moves[stack.unit, zone] = kept
        else:
            del moves[stack.unit, zone]

    def _combat_move(
        self,
        view: _View,
        moves: Mapping[tuple[str, str], Mapping[str, Mapping[int, MoveUnits]]],
        unit: str,
        origin: str,
        dests: Mapping[str, Mapping[int, MoveUnits]],
    ) -> MoveUnits | None:
        board, seat = view.board, view.seat
        unmoved = max(max(counts) for counts in dests.values())
        # Attack: enemy zones this stack reaches where everything that can join wins well.
        attacks: list[tuple[tuple[float, ...], str]] = []
        for dest in dests:
            enemy = view.enemy.get(dest)
            if not enemy:
                continue
            force = view.forces(view.mine.get(dest, ()))
            for (other, _start), reach in moves.items():
                if dest in reach and other not in board.ctx.workers:
                    force.append((seat, other, max(reach[dest])))
            ratio = view.power(force) / max(1.0, view.power(view.forces(enemy)))
            if ratio >= view.attack_margin:
                joining = 1.0 if dest in view.mine else 0.0
                on_base = 1.0 if dest in view.enemy_bases else 0.0
                attacks.append(((on_base, joining, ratio), dest))
        target = self._best(attacks)
        if target is not None:
            return dests[target][max(dests[target])]
        home = view.base
        if home is None:
            return self._advance(view, moves, unit, origin, unmoved)
        home_threat = view.threat(home)
        defended = view.power(view.forces(view.mine.get(home, ())))
        if origin != home:
            if home_threat > defended and home in dests:  # run home to defend the base
                return dests[home][max(dests[home])]
            return self._advance(view, moves, unit, origin, unmoved)
        if home_threat > 0 and home_threat * view.attack_margin > defended:
            return None  # stay and defend
        at_home = sum(s.count for s in view.mine.get(home, ()) if s.unit not in board.ctx.workers)
        guard = self._guard if view.combat_units > self._guard + 1 else 0
        leaving = min(unmoved, at_home - guard)
        if leaving <= 0 or view.combat_units - guard < self._muster:
            return None
        return self._advance(view, moves, unit, origin, leaving)

    def _advance(
        self,
        view: _View,
        moves: Mapping[tuple[str, str], Mapping[str, Mapping[int, MoveUnits]]],
        unit: str,
        origin: str,
        count: int,
    ) -> MoveUnits | None:
        """Towards the nearest enemy base, through zones the army moving with this stack
        can hold against what could come; stacks keep together where they can."""
        board, dests = view.board, moves[unit, origin]
        if not view.enemy_bases:
            return None
        goal = min(view.enemy_bases, key=lambda b: (board.dist(origin, b), b))
        here = board.dist(origin, goal)
        workers = board.ctx.workers
        options: list[tuple[tuple[float, ...], str]] = []
        for dest, counts in dests.items():
            if dest in view.enemy or count not in counts:
                continue
            closer = here - board.dist(dest, goal)
            if closer <= 0:
                continue
            force = [*view.forces(view.mine.get(dest, ()), True), (view.seat, unit, count)]
            for (other, start), reach in moves.items():  # who can come along from here
                if start == origin and other != unit and other not in workers and dest in reach:
                    force.append((view.seat, other, max(reach[dest])))
            if view.threat(dest) > view.power(force) * view.safety:
                continue
            joining = any(s.moved and s.unit not in workers for s in view.mine.get(dest, ()))
            options.append(((1.0 if joining else 0.0, closer), dest))
        chosen = self._best(options)
        return None if chosen is None else dests[chosen][count]

    def _worker_move(
        self, view: _View, unit: str, origin: str, dests: Mapping[str, Mapping[int, MoveUnits]]
    ) -> MoveUnits | None:
        board = view.board
        zones = board.ctx.map.zones
        unmoved = max(max(counts) for counts in dests.values())
        here = view.mine.get(origin, ())
        guards = view.forces((s for s in here if s.unit not in board.ctx.workers), True)
        if origin != view.base and view.danger(origin) > view.power(guards):
            # Flee towards home, to a zone no enemy stands next to.
            safe = [
                ((-float(board.dist(dest, view.base or dest)),), dest)
                for dest in dests
                if dest not in view.enemy and view.danger(dest) == 0
            ]
            dest = self._best(safe)
            return None if dest is None else dests[dest][unmoved]
        taken = {z for z, stacks in view.mine.items() if any(s.unit == unit for s in stacks)}
        home = view.base or origin
        need = view.need()
        free = [
            ((need[zones[z].resource or ""] - board.dist(origin, z) - board.dist(home, z),), z)
            for z in board.resources
            if z not in taken
            and z not in view.enemy
            and view.danger(z) == 0
            and board.dist(origin, z) < FAR
        ]
        free.extend(
            ((value - board.dist(origin, z),), z)
            for z, value in self._worker_goals(view, unit).items()
            if z not in taken
            and z not in view.enemy
            and view.danger(z) == 0
            and board.dist(origin, z) < FAR
        )
        goal = self._best(free)
        if goal is None:
            return None
        settled = sum(s.count for s in here if s.unit == unit) - unmoved
        keep = 1 if zones[origin].resource and origin not in view.enemy else 0
        if unmoved - max(0, keep - settled) <= 0:
            # The zone's only gatherer moves only to a resource wanted much more.
            gain = need[zones[goal].resource or ""] - need[zones[origin].resource or ""]
            if gain < 2 or board.dist(origin, goal) > 4:
                return None
        to_goal = board.dist(origin, goal)
        steps = [
            ((-float(board.dist(dest, goal)),), dest)
            for dest in dests
            if dest not in view.enemy and board.dist(dest, goal) < to_goal
        ]
        dest = self._best(steps)
        return None if dest is None else dests[dest][1]

    @staticmethod
    def _worker_goals(view: _View, unit: str) -> dict[str, float]:
        """Zones without a resource that the conditions in play make worth a worker: the
        strategy zone for the Oath of Asha; free mountains for Glory of the King (up to
        the four structures that score most)."""
        goals: dict[str, float] = {}
        state, zones = view.state, view.board.ctx.map.zones
        if view.oath and view.strategy is not None:
            goals[view.strategy] = 9.0
        if view.glory:
            built = {p.zone for p in state.structures}
            mine = sum(
                1
                for p in state.structures
                if p.owner == view.seat and zones[p.zone].biome == "mountain"
            )
            on_mountains = sum(
                1
                for z, stacks in view.mine.items()
                if zones[z].biome == "mountain" and any(s.unit == unit for s in stacks)
            )
            if mine + on_mountains < 4:
                for z, zone in zones.items():
                    if zone.biome == "mountain" and z not in built:
                        goals[z] = 4.0
        return goals

    # -- development --------------------------------------------------------------------------

    def _development(
        self, board: _Board, state: GameState, seat: str, commands: Sequence[Command]
    ) -> Command:
        ctx = board.ctx
        pack = ctx.pack
        player = state.player(seat)
        oaths = [c for c in commands if isinstance(c, SwearOath)]
        if oaths:  # N-WIN-3 Oath of Asha: a cube now; pay from the larger pile
            stock = player.stock
            return max(
                oaths, key=lambda c: (min(stock.wood - c.wood, stock.metal - c.metal), c.wood)
            )
        recruits = {c.unit: c for c in commands if isinstance(c, Recruit)}
        researches = [c for c in commands if isinstance(c, Research)]
        on_map: dict[str, int] = {}
        for stack in state.stacks_of(seat):
            on_map[stack.unit] = on_map.get(stack.unit, 0) + stack.count
        worker = pack.worker_of(seat).id
        workers = on_map.get(worker, 0)
        combat = sum(n for u, n in on_map.items() if u != worker)
        own_turn = (state.turn + len(state.seats) - 1) // len(state.seats)
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
        glory = "glory_of_the_king" in state.conditions
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
        return self._end(commands)

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
    def _value(ctx: Context, player: PlayerState, unit: str) -> float:
        """Fighting value per resource spent on one ``unit``."""
        side, _ = ctx.group_side(player, unit)
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
