"""A tournament's games: planned from a seed, played anywhere, each log written and verified.

:func:`plan` lays out every game of a round robin (every pairing of the players, seats
rotated); :func:`play_game` plays one of them in whatever process runs it (this one, a local
worker, a Dask worker) through the registry, closes its log, verifies it and returns the
result with the log's bytes; :func:`play_games` runs them all and yields results in plan
order. Everything a game needs is in its :class:`PlannedGame` (seeds included), so the same
tournament seed gives the same games, logs and table for any number of workers.

Seats are rotated within each pairing: game ``2m`` seats the pair one way round and game
``2m + 1`` the other, both with the same dice seed (mirrored games: the luck of the dice is
shared out evenly).

A time budget (``search:1s``, and the plain ``search``) is measured on the CPU time of the
process playing the game (``time.process_time``), so a game on a loaded worker thinks as much
as on an idle one; such a game is not reproducible from its seed (an iteration budget,
``search:8``, is).
"""

from __future__ import annotations

import hashlib
import struct
import time
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any

import msgspec

from nataterra_adapters.batch_verify import map_in_order
from nataterra_core.game import new_game, verify_log
from nataterra_core.kernel import play, seed_from_number
from nataterra_core.kernel.registry import system
from nataterra_core.search.catalogue import make_player

__all__ = ["GameResult", "PlannedGame", "plan", "play_game", "play_games"]


class PlannedGame(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a tournament: which players sit where, and every seed it uses."""

    index: int
    game: str
    pairing: tuple[str, str]
    seats: tuple[str, ...]
    players: tuple[str, ...]
    """The player spec at each seat, in seat order."""
    dice_seed: int
    game_id: str
    bot_seeds: tuple[int, ...]
    options: dict[str, Any]


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """How a game ended, from its verified log: winners as player specs, and the verdict."""

    index: int
    game_id: str
    pairing: tuple[str, str]
    players: tuple[str, ...]
    winners: tuple[str, ...]
    """The players (specs) that won; empty for a draw."""
    reason: str
    commands: int
    valid: bool
    verdict: str


def _derive(seed: int, *parts: int) -> int:
    digest = hashlib.sha256(
        b"nataterra-tournament-v1" + struct.pack(f">{len(parts) + 1}Q", seed, *parts)
    ).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def plan(
    game: str,
    players: Sequence[str],
    games_per_pairing: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
) -> list[PlannedGame]:
    """Every game of the round robin, in a fixed order: pairings as ``players`` lists them,
    ``games_per_pairing`` each, seats rotated, seeds derived from ``seed``."""
    record = system(game)
    if len(set(players)) != len(players) or len(players) < 2:
        raise ValueError(f"a tournament needs two or more distinct players, got {list(players)}")
    count = min(n for n in record.player_counts if n >= 2)
    seats = record.seats(count)
    chosen = dict(record.default_options if options is None else options)
    planned: list[PlannedGame] = []
    for p, pairing in enumerate(combinations(players, 2)):
        for k in range(games_per_pairing):
            index = len(planned)
            at_seat = tuple(pairing[(s + k) % 2] for s in range(len(seats)))
            game_id = f"t{seed}-p{p}-g{k}"
            planned.append(
                PlannedGame(
                    index=index,
                    game=game,
                    pairing=(pairing[0], pairing[1]),
                    seats=seats,
                    players=at_seat,
                    dice_seed=_derive(seed, p, k // 2),
                    game_id=game_id,
                    bot_seeds=tuple(_derive(seed, p, k, 1 + s) for s in range(len(seats))),
                    options=chosen,
                )
            )
    return planned


def play_game(planned: PlannedGame) -> tuple[GameResult, bytes]:
    """Play ``planned`` to its end and verify its log; the result and the log's bytes (the
    caller writes them: a Dask worker may not share the caller's disk)."""
    record = system(planned.game)
    server_seed, _ = seed_from_number(planned.dice_seed)
    session = new_game(
        planned.seats,
        game=planned.game,
        server_seed=server_seed,
        game_id=planned.game_id,
        options=planned.options,
    )
    bots = {
        seat: make_player(record, spec, seed, clock=time.process_time)
        for seat, spec, seed in zip(planned.seats, planned.players, planned.bot_seeds, strict=True)
    }
    commands = play(session, bots, record.seat_view)
    outcome = session.close()
    data = session.log_bytes()
    verdict = verify_log(data)
    by_seat = dict(zip(planned.seats, planned.players, strict=True))
    result = GameResult(
        index=planned.index,
        game_id=planned.game_id,
        pairing=planned.pairing,
        players=planned.players,
        winners=tuple(dict.fromkeys(by_seat[seat] for seat in outcome.winners)),
        reason=outcome.reason,
        commands=commands,
        valid=verdict.valid,
        verdict=verdict.status if verdict.valid else f"{verdict.failure}: {verdict.reason}",
    )
    return result, data


def play_games(
    planned: Sequence[PlannedGame], *, workers: int = 1, scheduler: str | None = None
) -> Iterator[tuple[GameResult, bytes]]:
    """The results of ``planned``, in plan order, played here, in ``workers`` local
    processes, or on the Dask cluster at ``scheduler``."""
    return map_in_order(play_game, planned, workers=workers, scheduler=scheduler)
