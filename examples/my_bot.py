"""Write your own bot: a "gatherer" that spreads its workers over resource zones.

    python examples/my_bot.py [--seed N] [--turns N]

A bot is any object with ``choose(view, legal_commands) -> command`` (the
``nataterra_core.kernel.Player`` protocol). ``view`` is what its seat may see (a
``nataterra_core.games.nataterra.views.SeatView``: the board, stocks, its own hands, only
counts of decks and of other hands), never the game state, so a bot plays on what a human
in its seat would know; it only ever picks from the legal list, so it cannot break a rule.
Public content (the pack, the map the view's ``map_id`` names) may be read freely. The
gatherer plays the first seat against a ``RandomPlayer`` and the script prints what each
side gathered.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from nataterra_core.game import decider_for, new_game, verify_log
from nataterra_core.games.nataterra.decider import Nataterra
from nataterra_core.games.nataterra.messages.development import ResourcesGathered
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.messages.turns import EndPhase
from nataterra_core.games.nataterra.rules.context import Context
from nataterra_core.games.nataterra.state import Resources
from nataterra_core.games.nataterra.views import SeatView, seat_view
from nataterra_core.kernel import Command, Player, RandomPlayer


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

    def choose(self, view: object, legal_commands: Sequence[Command]) -> Command:
        """The most useful worker move, else ending the phase."""
        assert isinstance(view, SeatView) and view.seat is not None
        commands, seat = legal_commands, view.seat
        held = {
            s.zone
            for s in view.units
            if s.owner == seat
            and s.unit in self.workers
            and self.map.zones[s.zone].resource is not None
        }
        free = [z for z in self.map.zones.values() if z.resource is not None and z.id not in held]
        stock = view.players[view.seats.index(seat)].stock
        best: tuple[int, int, int] | None = None
        choice: Command | None = None
        for i, command in enumerate(commands):
            if not self._may_leave(view, seat, command):
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

    def _may_leave(self, view: SeatView, seat: str, command: Command) -> bool:
        """A single worker whose zone keeps another of ours if it produces a resource."""
        if not isinstance(command, MoveUnits) or command.unit not in self.workers:
            return False
        if command.count != 1:
            return False
        if self.map.zones[command.origin].resource is None:
            return True
        staying = sum(
            s.count
            for s in view.units
            if s.owner == seat and s.zone == command.origin and s.unit in self.workers
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
        view = seat_view(session.state, seat)  # what this seat may see, never the state
        command = players[seat].choose(view, session.legal_commands(seat))
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
