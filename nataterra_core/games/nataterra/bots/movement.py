"""The heuristic player's movement phase (N-MOV-1..4), on its reading of the seat view.

Combat units take undefended enemy bases, attack what they out-muscle, defend the base
and otherwise march on the nearest enemy base through zones they can hold; workers spread
to free, safe resource zones (see
:class:`~nataterra_core.games.nataterra.bots.heuristic.HeuristicPlayer`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.messages.turns import EndPhase
from nataterra_core.kernel import Command

from .reading import FAR, Chooser, Reading

__all__ = ["MovementPlanner", "end_phase"]

Moves = Mapping[tuple[str, str], Mapping[str, Mapping[int, MoveUnits]]]
"""The legal moves by (unit type, origin), then destination, then count."""


def end_phase(commands: Sequence[Command]) -> Command:
    """The phase's end (the last command if it cannot be ended)."""
    return next((c for c in commands if isinstance(c, EndPhase)), commands[-1])


class MovementPlanner(Chooser):
    """The movement decisions; ``_guard`` and ``_muster`` are set by the player."""

    _guard: int
    _muster: int

    def _movement(self, reading: Reading, commands: Sequence[Command]) -> Command:
        """The best move for this seat, or the end of its movement phase."""
        moves: dict[tuple[str, str], dict[str, dict[int, MoveUnits]]] = {}
        for command in commands:
            if isinstance(command, MoveUnits):
                by_dest = moves.setdefault((command.unit, command.origin), {})
                by_dest.setdefault(command.path[-1], {})[command.count] = command
        workers = reading.board.ctx.workers
        for dests in moves.values():  # N-WIN-1: an undefended enemy base is taken at once
            for base in reading.enemy_bases:
                if base in dests and base not in reading.enemy:
                    return dests[base][max(dests[base])]
        held = self._hold_strategy_zone(reading, moves)
        if held is not None:
            return held
        self._holding(reading, moves)
        for (unit, origin), dests in moves.items():
            if unit not in workers:
                chosen = self._combat_move(reading, moves, unit, origin, dests)
                if chosen is not None:
                    return chosen
        for (unit, origin), dests in moves.items():
            if unit in workers:
                chosen = self._worker_move(reading, unit, origin, dests)
                if chosen is not None:
                    return chosen
        return end_phase(commands)

    def _hold_strategy_zone(self, reading: Reading, moves: Moves) -> MoveUnits | None:
        """Strategic Point: one combat unit onto a free strategy zone that is safe enough."""
        zone, workers = reading.strategy, reading.board.ctx.workers
        if not reading.hold_point or zone is None or zone in reading.enemy:
            return None
        if any(s.unit not in workers for s in reading.mine.get(zone, ())):
            return None
        options = [
            ((-float(reading.board.dist(origin, zone)),), dests[zone][1])
            for (unit, origin), dests in moves.items()
            if unit not in workers and zone in dests and origin != reading.base
        ]
        return self._best(options)

    @staticmethod
    def _holding(
        reading: Reading, moves: dict[tuple[str, str], dict[str, dict[int, MoveUnits]]]
    ) -> None:
        """Strategic Point: the last combat unit on the strategy zone stays (its moves are
        cut to leave one behind)."""
        zone, workers = reading.strategy, reading.board.ctx.workers
        if not reading.hold_point or zone is None:
            return
        stacks = [s for s in reading.mine.get(zone, ()) if s.unit not in workers]
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
        reading: Reading,
        moves: Moves,
        unit: str,
        origin: str,
        dests: Mapping[str, Mapping[int, MoveUnits]],
    ) -> MoveUnits | None:
        board, seat = reading.board, reading.seat
        unmoved = max(max(counts) for counts in dests.values())
        # Attack: enemy zones this stack reaches where everything that can join wins well.
        attacks: list[tuple[tuple[float, ...], str]] = []
        for dest in dests:
            enemy = reading.enemy.get(dest)
            if not enemy:
                continue
            force = reading.forces(reading.mine.get(dest, ()))
            for (other, _start), reach in moves.items():
                if dest in reach and other not in board.ctx.workers:
                    force.append((seat, other, max(reach[dest])))
            ratio = reading.power(force) / max(1.0, reading.power(reading.forces(enemy)))
            if ratio >= reading.attack_margin:
                joining = 1.0 if dest in reading.mine else 0.0
                on_base = 1.0 if dest in reading.enemy_bases else 0.0
                attacks.append(((on_base, joining, ratio), dest))
        target = self._best(attacks)
        if target is not None:
            return dests[target][max(dests[target])]
        home = reading.base
        if home is None:
            return self._advance(reading, moves, unit, origin, unmoved)
        home_threat = reading.threat(home)
        defended = reading.power(reading.forces(reading.mine.get(home, ())))
        if origin != home:
            if home_threat > defended and home in dests:  # run home to defend the base
                return dests[home][max(dests[home])]
            return self._advance(reading, moves, unit, origin, unmoved)
        if home_threat > 0 and home_threat * reading.attack_margin > defended:
            return None  # stay and defend
        at_home = sum(
            s.count for s in reading.mine.get(home, ()) if s.unit not in board.ctx.workers
        )
        guard = self._guard if reading.combat_units > self._guard + 1 else 0
        leaving = min(unmoved, at_home - guard)
        if leaving <= 0 or reading.combat_units - guard < self._muster:
            return None
        return self._advance(reading, moves, unit, origin, leaving)

    def _advance(
        self,
        reading: Reading,
        moves: Moves,
        unit: str,
        origin: str,
        count: int,
    ) -> MoveUnits | None:
        """Towards the nearest enemy base, through zones the army moving with this stack
        can hold against what could come; stacks keep together where they can."""
        board, dests = reading.board, moves[unit, origin]
        if not reading.enemy_bases:
            return None
        goal = min(reading.enemy_bases, key=lambda b: (board.dist(origin, b), b))
        here = board.dist(origin, goal)
        workers = board.ctx.workers
        options: list[tuple[tuple[float, ...], str]] = []
        for dest, counts in dests.items():
            if dest in reading.enemy or count not in counts:
                continue
            closer = here - board.dist(dest, goal)
            if closer <= 0:
                continue
            force = [*reading.forces(reading.mine.get(dest, ()), True), (reading.seat, unit, count)]
            for (other, start), reach in moves.items():  # who can come along from here
                if start == origin and other != unit and other not in workers and dest in reach:
                    force.append((reading.seat, other, max(reach[dest])))
            if reading.threat(dest) > reading.power(force) * reading.safety:
                continue
            joining = any(s.moved and s.unit not in workers for s in reading.mine.get(dest, ()))
            options.append(((1.0 if joining else 0.0, closer), dest))
        chosen = self._best(options)
        return None if chosen is None else dests[chosen][count]

    def _worker_move(
        self, reading: Reading, unit: str, origin: str, dests: Mapping[str, Mapping[int, MoveUnits]]
    ) -> MoveUnits | None:
        board = reading.board
        zones = board.ctx.map.zones
        unmoved = max(max(counts) for counts in dests.values())
        here = reading.mine.get(origin, ())
        guards = reading.forces((s for s in here if s.unit not in board.ctx.workers), True)
        if origin != reading.base and reading.danger(origin) > reading.power(guards):
            # Flee towards home, to a zone no enemy stands next to.
            safe = [
                ((-float(board.dist(dest, reading.base or dest)),), dest)
                for dest in dests
                if dest not in reading.enemy and reading.danger(dest) == 0
            ]
            dest = self._best(safe)
            return None if dest is None else dests[dest][unmoved]
        taken = {z for z, stacks in reading.mine.items() if any(s.unit == unit for s in stacks)}
        home = reading.base or origin
        need = reading.need()
        free = [
            ((need[zones[z].resource or ""] - board.dist(origin, z) - board.dist(home, z),), z)
            for z in board.resources
            if z not in taken
            and z not in reading.enemy
            and reading.danger(z) == 0
            and board.dist(origin, z) < FAR
        ]
        free.extend(
            ((value - board.dist(origin, z),), z)
            for z, value in self._worker_goals(reading, unit).items()
            if z not in taken
            and z not in reading.enemy
            and reading.danger(z) == 0
            and board.dist(origin, z) < FAR
        )
        goal = self._best(free)
        if goal is None:
            return None
        settled = sum(s.count for s in here if s.unit == unit) - unmoved
        keep = 1 if zones[origin].resource and origin not in reading.enemy else 0
        if unmoved - max(0, keep - settled) <= 0:
            # The zone's only gatherer moves only to a resource wanted much more.
            gain = need[zones[goal].resource or ""] - need[zones[origin].resource or ""]
            if gain < 2 or board.dist(origin, goal) > 4:
                return None
        to_goal = board.dist(origin, goal)
        steps = [
            ((-float(board.dist(dest, goal)),), dest)
            for dest in dests
            if dest not in reading.enemy and board.dist(dest, goal) < to_goal
        ]
        dest = self._best(steps)
        return None if dest is None else dests[dest][1]

    @staticmethod
    def _worker_goals(reading: Reading, unit: str) -> dict[str, float]:
        """Zones without a resource that the conditions in play make worth a worker: the
        strategy zone for the Oath of Asha; free mountains for Glory of the King (up to
        the four structures that score most)."""
        goals: dict[str, float] = {}
        view, zones = reading.view, reading.board.ctx.map.zones
        if reading.oath and reading.strategy is not None:
            goals[reading.strategy] = 9.0
        if reading.glory:
            built = {p.zone for p in view.structures}
            mine = sum(
                1
                for p in view.structures
                if p.owner == reading.seat and zones[p.zone].biome == "mountain"
            )
            on_mountains = sum(
                1
                for z, stacks in reading.mine.items()
                if zones[z].biome == "mountain" and any(s.unit == unit for s in stacks)
            )
            if mine + on_mountains < 4:
                for z, zone in zones.items():
                    if zone.biome == "mountain" and z not in built:
                        goals[z] = 4.0
        return goals
