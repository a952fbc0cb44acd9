"""Write your own bot: a "gatherer" that spreads its workers over resource zones.

    python examples/my_bot.py [--seed N] [--turns N]

A bot is any object with ``choose(state, seat, commands) -> command`` (the
``nataterra_core.games.nataterra.bots.Player`` protocol); it only ever picks from the legal list, so
it cannot break a rule. The gatherer plays the first seat against a ``RandomPlayer`` and the
script prints what each side gathered.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from nataterra_core.game import decider_for, new_game, verify_log
from nataterra_core.games.nataterra.bots import Player, RandomPlayer
from nataterra_core.games.nataterra.rules.context import Context
from nataterra_core.games.nataterra.rules.game import Nataterra
from nataterra_core.games.nataterra.rules.movement import MoveUnits
from nataterra_core.games.nataterra.rules.resources import ResourcesGathered
from nataterra_core.games.nataterra.rules.state import GameState, Resources
from nataterra_core.games.nataterra.rules.turns import EndPhase
from nataterra_core.kernel import Command


class Gatherer:
    """Moves one worker at a time onto a resource zone none of its workers holds yet.

    Gathering counts each zone once, however many workers stand there (N-RES-2), so
    spreading out pays. It prefers the resource it has least of, never leaves a resource
    zone empty of its workers, and otherwise walks a worker towards the nearest free
    resource zone; with nothing useful to do it ends the phase.
    """

    def __init__(self, ctx: Context) -> None:
        self.map = ctx.map
        self.workers = ctx.workers

    def choose(self, state: object, seat: str, commands: Sequence[Command]) -> Command:
        """The most useful worker move, else ending the phase."""
        assert isinstance(state, GameState)
        held = {
            s.zone
            for s in state.stacks_of(seat)
            if s.unit in self.workers and self.map.zones[s.zone].resource is not None
        }
        free = [z for z in self.map.zones.values() if z.resource is not None and z.id not in held]
        stock = state.player(seat).stock
        best: tuple[int, int, int] | None = None
        choice: Command | None = None
        for i, command in enumerate(commands):
            if not self._may_leave(state, seat, command):
                continue
            assert isinstance(command, MoveUnits)
            target = self.map.zones[command.path[-1]]
            if target.resource is not None and target.id not in held:
                score = (0, _amount(stock, target.resource), i)
            else:  # a step towards the nearest free resource zone, if it gets closer
                now = min(
                    (self.map.zones[command.origin].hex.distance(z.hex) for z in free), default=0
                )
                then = min((target.hex.distance(z.hex) for z in free), default=0)
                if then >= now:
                    continue
                score = (1, then, i)
            if best is None or score < best:
                best, choice = score, command
        if choice is not None:
            return choice
        return next((c for c in commands if isinstance(c, EndPhase)), commands[0])

    def _may_leave(self, state: GameState, seat: str, command: Command) -> bool:
        """A single worker whose zone keeps another of ours if it produces a resource."""
        if not isinstance(command, MoveUnits) or command.unit not in self.workers:
            return False
        if command.count != 1:
            return False
        if self.map.zones[command.origin].resource is None:
            return True
        staying = sum(
            s.count
            for s in state.stacks_of(seat)
            if s.zone == command.origin and s.unit in self.workers
        )
        return staying > 1


def _amount(stock: Resources, resource: str) -> int:
    return int(getattr(stock, resource))


def main() -> None:
    """Gatherer against RandomPlayer; print each side's harvest and verify the log."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--turns", type=int, default=16)
    args = parser.parse_args()

    session = new_game(2, seed=args.seed, options={"max_turns": args.turns})
    first, second = session.header.seats
    decider = decider_for(session.header)
    assert isinstance(decider, Nataterra)
    ctx = decider.context(session.state.map_id)
    players: dict[str, Player] = {first: Gatherer(ctx), second: RandomPlayer(args.seed)}
    gathered = {seat: Resources() for seat in session.header.seats}
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        command = players[seat].choose(session.state, seat, session.legal_commands(seat))
        for event in session.apply(seat, command):
            if isinstance(event, ResourcesGathered):
                gathered[event.seat] = gathered[event.seat] + event.gain
    session.close()

    for seat, kind in ((first, "gatherer"), (second, "random")):
        total = gathered[seat]
        print(
            f"{kind} ({seat}): gathered {total.food} food, {total.wood} wood, "
            f"{total.metal} metal ({total.food + total.wood + total.metal} in all)"
        )
    print(f"verified: {verify_log(session.log_bytes()).status}")


if __name__ == "__main__":
    main()
