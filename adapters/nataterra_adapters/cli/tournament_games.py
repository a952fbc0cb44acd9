"""A tournament's games: planned from a seed, played anywhere, each log written and verified.

:func:`plan` lays out every game of a round robin (every pairing of the players, seats
rotated), :func:`plan_pairings` the games of given pairings (a Swiss round); :func:`play_game`
plays one of them in whatever process runs it (this one, a local worker, a Dask worker)
through the registry, closes its log, verifies it and returns the result with the log's
bytes; :func:`play_games` runs them all and yields results in plan order;
:func:`result_from_log` reads the result back from a kept log (``--resume``). Everything a
game needs is in its :class:`PlannedGame` (seeds included), so the same tournament seed gives
the same games, logs and table for any number of workers.

Seats are rotated within each pairing: game ``2m`` seats the pair one way round and game
``2m + 1`` the other, both with the same dice seed (mirrored games: the luck of the dice is
shared out evenly).

A time budget (``search:1s``, and the plain ``search``) is measured on the CPU time of the
process playing the game (``time.process_time``), so a game on a loaded worker thinks as much
as on an idle one; such a game is not reproducible from its seed (an iteration budget,
``search:8``, is).

Seeds (:class:`TournamentSeed`): a public ``--seed N`` derives every game's server seed as
``--seed`` does for one game, so anyone can recompute a game's dice from its id (fine for
measuring bots, docs/TOURNAMENTS.md §4); without it a secret of 32 random bytes is drawn,
kept in the run's folder, and each game's server seed is a hash of it, unpredictable until
the game's own ``reveal`` record publishes it.
"""

from __future__ import annotations

import hashlib
import secrets
import signal
import struct
import time
from collections.abc import Generator, Mapping, Sequence
from itertools import combinations
from typing import Any

import msgspec

from nataterra_adapters.batch_verify import map_in_order
from nataterra_core.game import new_game, verify_log
from nataterra_core.kernel import play, seed_from_number
from nataterra_core.kernel.registry import system
from nataterra_core.kernel.replay import Verdict
from nataterra_core.search.catalogue import make_player

__all__ = [
    "GameResult",
    "PlannedGame",
    "TournamentSeed",
    "plan",
    "plan_pairings",
    "play_game",
    "play_games",
    "result_from_log",
]


def _derive(seed: int, *parts: int) -> int:
    digest = hashlib.sha256(
        b"nataterra-tournament-v1" + struct.pack(f">{len(parts) + 1}Q", seed, *parts)
    ).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class TournamentSeed(msgspec.Struct, frozen=True):
    """A tournament's seed: a public ``number`` (``--seed``) or a drawn ``secret``."""

    number: int | None = None
    secret: bytes | None = None

    @classmethod
    def drawn(cls) -> TournamentSeed:
        """A new secret seed (32 bytes from the operating system's generator)."""
        return cls(secret=secrets.token_bytes(32))

    @property
    def public(self) -> bool:
        return self.number is not None

    @property
    def tag(self) -> str:
        """The game ids' prefix: ``tN`` for a public seed, else a hash of the secret."""
        if self.number is not None:
            return f"t{self.number}"
        return "tx" + hashlib.sha256(b"nataterra-tournament-id-v1" + self._secret).hexdigest()[:10]

    @property
    def _secret(self) -> bytes:
        if self.secret is None:
            raise ValueError("a tournament seed is a number or a secret")
        return self.secret

    def derive(self, *parts: int) -> int:
        """A number (63 bits) for ``parts``: a bot's seed, a tie-break."""
        if self.number is not None:
            return _derive(self.number, *parts)
        digest = hashlib.sha256(
            b"nataterra-tournament-secret-v1"
            + self._secret
            + struct.pack(f">{len(parts)}Q", *parts)
        ).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def server_seed(self, *parts: int) -> bytes:
        """The server seed of the games of ``parts``: the ``--seed`` derivation of a derived
        number for a public seed (as before secret seeds existed), 32 hashed bytes else."""
        if self.number is not None:
            return seed_from_number(_derive(self.number, *parts))[0]
        return self._hashed(b"nataterra-tournament-dice-v1", parts)

    def _hashed(self, domain: bytes, parts: tuple[int, ...]) -> bytes:
        return hashlib.sha256(
            domain + self._secret + struct.pack(f">{len(parts)}Q", *parts)
        ).digest()


class PlannedGame(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a tournament: which players sit where, and every seed it uses."""

    index: int
    game: str
    round: int | None
    """The Swiss round (``None`` in a round robin)."""
    pairing: tuple[str, str]
    seats: tuple[str, ...]
    players: tuple[str, ...]
    """The player spec at each seat, in seat order."""
    server_seed: bytes
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
    seats: tuple[str, ...]
    """The seats, in the order of ``players``."""
    records: int
    """Records in the log, header included."""
    round: int | None = None


def plan_pairings(
    game: str,
    pairings: Sequence[tuple[str, str]],
    games_per_pairing: int,
    seed: TournamentSeed | int,
    *,
    options: Mapping[str, Any] | None = None,
    round_number: int | None = None,
    first_index: int = 0,
) -> list[PlannedGame]:
    """The games of ``pairings``, ``games_per_pairing`` each, seats rotated, seeds derived
    from ``seed`` (and the round), numbered from ``first_index``."""
    record = system(game)
    if isinstance(seed, int):
        seed = TournamentSeed(number=seed)
    count = min(n for n in record.player_counts if n >= 2)
    seats = record.seats(count)
    chosen = dict(record.default_options if options is None else options)
    rounds = () if round_number is None else (round_number,)
    prefix = seed.tag if round_number is None else f"{seed.tag}-r{round_number}"
    planned: list[PlannedGame] = []
    for p, pairing in enumerate(pairings):
        for k in range(games_per_pairing):
            planned.append(
                PlannedGame(
                    index=first_index + len(planned),
                    game=game,
                    round=round_number,
                    pairing=(pairing[0], pairing[1]),
                    seats=seats,
                    players=tuple(pairing[(s + k) % 2] for s in range(len(seats))),
                    server_seed=seed.server_seed(*rounds, p, k // 2),
                    game_id=f"{prefix}-p{p}-g{k}",
                    bot_seeds=tuple(seed.derive(*rounds, p, k, 1 + s) for s in range(len(seats))),
                    options=chosen,
                )
            )
    return planned


def plan(
    game: str,
    players: Sequence[str],
    games_per_pairing: int,
    seed: TournamentSeed | int,
    *,
    options: Mapping[str, Any] | None = None,
) -> list[PlannedGame]:
    """Every game of the round robin, in a fixed order: pairings as ``players`` lists them,
    ``games_per_pairing`` each, seats rotated, seeds derived from ``seed``."""
    if len(set(players)) != len(players) or len(players) < 2:
        raise ValueError(f"a tournament needs two or more distinct players, got {list(players)}")
    pairings = [(a, b) for a, b in combinations(players, 2)]
    return plan_pairings(game, pairings, games_per_pairing, seed, options=options)


def _result(planned: PlannedGame, verdict: Verdict, commands: int) -> GameResult:
    by_seat = dict(zip(planned.seats, planned.players, strict=True))
    outcome = verdict.result
    winners = () if outcome is None else outcome.winners
    return GameResult(
        index=planned.index,
        game_id=planned.game_id,
        pairing=planned.pairing,
        players=planned.players,
        winners=tuple(dict.fromkeys(by_seat[seat] for seat in winners)),
        reason="" if outcome is None else outcome.reason,
        commands=commands,
        valid=verdict.valid,
        verdict=verdict.status if verdict.valid else f"{verdict.failure}: {verdict.reason}",
        seats=planned.seats,
        records=verdict.records,
        round=planned.round,
    )


def play_game(planned: PlannedGame) -> tuple[GameResult, bytes]:
    """Play ``planned`` to its end and verify its log; the result and the log's bytes (the
    caller writes them: a Dask worker may not share the caller's disk)."""
    record = system(planned.game)
    session = new_game(
        planned.seats,
        game=planned.game,
        server_seed=planned.server_seed,
        game_id=planned.game_id,
        options=planned.options,
    )
    bots = {
        seat: make_player(record, spec, seed, clock=time.process_time)
        for seat, spec, seed in zip(planned.seats, planned.players, planned.bot_seeds, strict=True)
    }
    commands = play(session, bots, record.seat_view)
    session.close()
    data = session.log_bytes()
    return _result(planned, verify_log(data), commands), data


class _Kind(msgspec.Struct):
    kind: str


def result_from_log(planned: PlannedGame, data: bytes) -> GameResult | None:
    """The result of ``planned`` from a kept log (``--resume``): ``None`` unless the log is
    this game's, whole and valid (a game cut short is played again)."""
    verdict = verify_log(data)
    if not verdict.valid or verdict.game_id != planned.game_id:
        return None
    if verdict.seats != planned.seats:
        return None
    decoder = msgspec.json.Decoder(_Kind)
    commands = sum(decoder.decode(line).kind == "command" for line in data.splitlines())
    return _result(planned, verdict, commands)


def _quiet_worker() -> None:
    """A local worker ignores Ctrl-C (the terminal sends it to the whole process group):
    the tournament's own process stops the workers itself, so none dies mid-queue."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_games(
    planned: Sequence[PlannedGame], *, workers: int = 1, scheduler: str | None = None
) -> Generator[tuple[GameResult, bytes], None, None]:
    """The results of ``planned``, in plan order, played here, in ``workers`` local
    processes, or on the Dask cluster at ``scheduler``. Closing the iterator early (an
    interrupt) stops the local workers at once and drops the cluster's futures."""
    yield from map_in_order(
        play_game, planned, workers=workers, scheduler=scheduler, initializer=_quiet_worker
    )
