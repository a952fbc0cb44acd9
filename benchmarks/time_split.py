"""Where a playout's decision goes: legal lists, decide, evolve, the session and the bot.

    python benchmarks/time_split.py [--games N] [--turns T] [--players N]

Plays the playout benchmark's games (seeded random players, ``benchmarks/playout.py``) with
the session's decider wrapped so that its three calls are timed, and prints microseconds
per decision for each part (issue 20 asks for this split before and after):

- ``legal``: ``Session.acting_seats`` and ``Session.legal_commands`` building the legal
  lists (once per state, lazily per seat), but for the decider's ``decision``;
- ``decision``: the decider's ``decision`` (who may act, and the lists' recipe), wherever it
  is called;
- ``decide``: the decider's ``decide`` (for combat decisions it folds its own events and
  finds the next decision, so that part of the fold and the legal list is counted here);
- ``evolve``: the decider's ``evolve`` and its direct ``folds``, the fold of the events
  ``decide`` returned;
- ``bot``: the random player picking from the list;
- ``session``: the rest of ``Session.apply`` and the loop (``outcome``, the membership
  check, the dice stream, the log record and its hash, the undo bookkeeping).

Timed by the performance counter: a CPU-time clock read is a system call (about 1 µs, as
much as a small part), so run it on a quiet machine. The clock reads (about 0.1 µs each) are
counted in the parts they time. Figures are printed, never asserted; compare runs made on the
same machine in the same minutes.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any, cast

from pairs import build_name, load_note

from nataterra_core.games.nataterra.bots import RandomPlayer
from nataterra_core.kernel import Session
from nataterra_core.kernel.dice import seed_from_number
from nataterra_core.kernel.registry import system

PARTS = ("decision", "decide", "evolve")
"""The decider's calls timed, each a part of a player's decision (named as its method)."""


class TimedDecider:
    """A decider that adds the CPU time of its ``decision``, ``decide`` and ``evolve`` to
    :attr:`spent`; everything else is the wrapped decider's."""

    def __init__(self, decider: Any) -> None:
        self._decider = decider
        self.spent = dict.fromkeys(PARTS, 0)
        for part in PARTS:
            setattr(self, part, self._timed(part, getattr(decider, part)))
        # The folds the session calls without ``evolve`` (``kernel.decider.direct_folds``).
        folds = getattr(decider, "folds", None)
        if folds is not None:
            self.folds = {kind: self._timed("evolve", fold) for kind, fold in folds.items()}

    def _timed(self, part: str, call: Callable[..., Any]) -> Callable[..., Any]:
        spent = self.spent
        clock = time.perf_counter_ns

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            try:
                return call(*args, **kwargs)
            finally:
                spent[part] += clock() - start

        return timed

    def __getattr__(self, name: str) -> Any:
        return getattr(self._decider, name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    args = parser.parse_args()

    decisions = 0
    bot_ns = legal_ns = total_ns = 0
    spent = dict.fromkeys(PARTS, 0)
    clock = time.perf_counter_ns
    record = system("nataterra")
    timed = TimedDecider(record.decider(None))
    for game in range(args.games):
        server_seed, game_id = seed_from_number(game)  # the games new_game(seed=game) starts
        session: Session[Any, Any, Any] = Session.new(
            cast(Any, timed),  # the same calls, timed
            seats=record.seats(args.players),
            server_seed=server_seed,
            game_id=game_id,
            options={"max_turns": args.turns},
        )
        for part in PARTS:  # the start record's is not a player's decision
            timed.spent[part] = 0
        bots = {seat: RandomPlayer(game * 16 + i) for i, seat in enumerate(session.header.seats)}
        start = clock()
        while session.outcome() is None:
            decided_before = timed.spent["decision"]
            asked = clock()
            seat = session.acting_seats()[0]
            commands = session.legal_commands(seat)
            picked = clock()
            command = bots[seat].choose(None, commands)
            applied = clock()
            session.apply(seat, command)
            legal_ns += picked - asked - (timed.spent["decision"] - decided_before)
            bot_ns += applied - picked
            decisions += 1
        total_ns += clock() - start
        for part in PARTS:
            spent[part] += timed.spent[part]
            timed.spent[part] = 0

    per = {"legal": legal_ns / decisions / 1000}
    per.update((part, spent[part] / decisions / 1000) for part in PARTS)
    per["bot"] = bot_ns / decisions / 1000
    total = total_ns / decisions / 1000
    per["session"] = total - sum(per.values())
    print(f"{args.games} games, {decisions} decisions, {build_name()} build, {load_note()}")
    for part, micros in per.items():
        print(f"  {part:8} {micros:6.1f} µs per decision ({micros / total:4.0%})")
    print(f"  {'total':8} {total:6.1f} µs per decision")
    print(" ".join(f"split_{part}_us={micros:.1f}" for part, micros in per.items()), end=" ")
    print(f"split_total_us={total:.1f}")


if __name__ == "__main__":
    main()
