"""``nataterra tournament``: a round robin between named players, every log verified.

Every pairing of ``--players`` plays ``--games`` games (seats rotated, mirrored dice: see
:mod:`.tournament_games`), here, in ``--workers`` processes or on a Dask cluster; each log
is written to ``--out`` and verified. The table gives each player's score (a win 1, a draw
½), its win rate with a 95 % Wilson interval, and a Bradley-Terry rating on the Elo scale
with a 95 % interval; ``--json`` prints the same as one JSON object for tools. The same
``--seed`` gives the same table for any number of workers.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from nataterra_adapters.batch_verify import ClusterUnavailable
from nataterra_core.game import DEFAULT_GAME
from nataterra_core.kernel.registry import RuleSystem
from nataterra_core.search.catalogue import parse_player
from nataterra_core.tools.stats import bradley_terry, wilson_interval

from .common import SETUP_FAILED, GameOption, console, err_console, escape, rule_system
from .newgame import OptionOption, bot_names, game_options
from .tournament_games import GameResult, plan, play_games

__all__ = ["Standing", "TournamentReport", "report", "tournament"]

TOURNAMENT_TURNS = 100
"""The turn limit of a tournament game (of a system with one) when ``--turns`` is not given."""


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """One player's line of the table."""

    player: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    win_rate: float
    """Score per game (draws count half)."""
    interval: tuple[float, float]
    """95 % Wilson interval of the win rate."""
    elo: float
    elo_interval: tuple[float, float]


class Pairing(msgspec.Struct, frozen=True, kw_only=True):
    """The head-to-head result of two players."""

    players: tuple[str, str]
    games: int
    wins: tuple[int, int]
    draws: int


class TournamentReport(msgspec.Struct, frozen=True, kw_only=True):
    """What ``--json`` prints: the set-up, the standings, the pairings and the logs' verdicts."""

    game: str
    seed: int
    games_per_pairing: int
    options: dict[str, Any]
    standings: tuple[Standing, ...]
    pairings: tuple[Pairing, ...]
    logs_verified: int
    logs_invalid: tuple[str, ...]


def report(
    game: str,
    players: Sequence[str],
    games_per_pairing: int,
    seed: int,
    options: dict[str, Any],
    results: Sequence[GameResult],
) -> TournamentReport:
    """The table of ``results`` (standings sorted by rating, then score)."""
    tally = {p: [0, 0, 0] for p in players}  # wins, draws, losses
    heads: dict[tuple[str, str], list[int]] = {}
    for result in results:
        a, b = result.pairing
        head = heads.setdefault((a, b), [0, 0, 0])  # a's wins, b's wins, draws
        if not result.winners or set(result.winners) >= {a, b}:
            head[2] += 1
            tally[a][1] += 1
            tally[b][1] += 1
            continue
        winner = result.winners[0]
        loser = b if winner == a else a
        head[0 if winner == a else 1] += 1
        tally[winner][0] += 1
        tally[loser][2] += 1
    scores = {pair: (h[0] + h[2] / 2, sum(h)) for pair, h in heads.items()}
    ratings = bradley_terry(players, scores)
    standings = []
    for player in players:
        wins, draws, losses = tally[player]
        games = wins + draws + losses
        score = wins + draws / 2
        low, high = wilson_interval(score, games) if games else (0.0, 1.0)
        rating = ratings[player]
        standings.append(
            Standing(
                player=player,
                games=games,
                wins=wins,
                draws=draws,
                losses=losses,
                score=score,
                win_rate=score / games if games else 0.0,
                interval=(round(low, 4), round(high, 4)),
                elo=round(rating.elo, 1),
                elo_interval=(round(rating.low, 1), round(rating.high, 1)),
            )
        )
    standings.sort(key=lambda s: (-s.elo, -s.score, s.player))
    return TournamentReport(
        game=game,
        seed=seed,
        games_per_pairing=games_per_pairing,
        options=options,
        standings=tuple(standings),
        pairings=tuple(
            Pairing(players=pair, games=sum(h), wins=(h[0], h[1]), draws=h[2])
            for pair, h in heads.items()
        ),
        logs_verified=sum(r.valid for r in results),
        logs_invalid=tuple(f"{r.game_id}: {r.verdict}" for r in results if not r.valid),
    )


def _table(summary: TournamentReport) -> Table:
    table = Table(title=f"{summary.game}: {summary.games_per_pairing} games per pairing")
    for heading in ("player", "games", "W", "D", "L", "score", "win rate (95 %)", "Elo (95 %)"):
        table.add_column(heading, justify="left" if heading == "player" else "right")
    for s in summary.standings:
        table.add_row(
            escape(s.player),
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            f"{s.score:g}",
            f"{s.win_rate:.0%} [{s.interval[0]:.0%}, {s.interval[1]:.0%}]",
            f"{s.elo:+.0f} [{s.elo_interval[0]:+.0f}, {s.elo_interval[1]:+.0f}]",
        )
    return table


def _check_players(record: RuleSystem, given: str) -> list[str]:
    players = [p.strip() for p in given.split(",") if p.strip()]
    for spec in players:
        try:
            parse_player(record, spec, clock=time.process_time)
        except ValueError as exc:
            raise typer.BadParameter(
                f"{exc} (it has {bot_names(record)})", param_hint="--players"
            ) from exc
    if len(players) < 2 or len(set(players)) != len(players):
        raise typer.BadParameter("name two or more distinct players", param_hint="--players")
    return players


def tournament(
    players: Annotated[
        str,
        typer.Option(
            help="Players, comma-separated: the game's named players (random, heuristic, "
            "search, ...); search:N searches N iterations per decision (reproducible), "
            "search:1s or search:500ms as long per decision (plain search: 1s), "
            "search:BUDGET:POLICY plays its playouts with the player POLICY."
        ),
    ],
    game: GameOption = DEFAULT_GAME,
    games: Annotated[int, typer.Option(help="Games per pairing (seats rotated).", min=1)] = 20,
    seed: Annotated[int, typer.Option(help="The tournament's seed.", min=0, max=2**62)] = 0,
    out: Annotated[
        Path | None, typer.Option(help="A folder for the games' logs (default: not kept).")
    ] = None,
    turns: Annotated[
        int | None,
        typer.Option(
            help=f"At most this many player turns (max_turns; {TOURNAMENT_TURNS}).", min=1
        ),
    ] = None,
    option: OptionOption = None,
    workers: Annotated[int, typer.Option(help="Local worker processes.", min=1)] = 1,
    dask_scheduler: Annotated[
        str | None,
        typer.Option(help="Play on a Dask cluster at this address (extra: cluster)."),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object for tools.")] = False,
) -> None:
    """Play a round robin between bots, verify every log and print the table."""
    record = rule_system(game)
    names = _check_players(record, players)
    if workers > 1 and dask_scheduler is not None:
        raise typer.BadParameter("give --workers or --dask-scheduler, not both")
    if out is not None:
        if out.exists() and not out.is_dir():
            raise typer.BadParameter(f"{out} is not a folder", param_hint="--out")
        out.mkdir(parents=True, exist_ok=True)
    options = game_options(record, turns=turns, default_turns=TOURNAMENT_TURNS, extra=option or ())
    try:
        record.check(record.decider(None), record.seats(min(record.player_counts)), options)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    planned = plan(record.id, names, games, seed, options=options)
    results: list[GameResult] = []
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        disable=json_out and not err_console.is_terminal,
    )
    try:
        with progress:
            task = progress.add_task("games", total=len(planned))
            for result, data in play_games(planned, workers=workers, scheduler=dask_scheduler):
                if out is not None:
                    (out / f"{result.game_id}.jsonl").write_bytes(data)
                results.append(result)
                progress.advance(task)
    except ClusterUnavailable as exc:
        err_console.print(f"[red]{escape(str(exc))}[/]")
        raise typer.Exit(SETUP_FAILED) from exc
    summary = report(record.id, names, games, seed, options, results)
    if json_out:
        console.print_json(msgspec.json.encode(summary).decode())
    else:
        console.print(_table(summary))
        console.print(
            f"{summary.logs_verified} of {len(results)} logs verified"
            + (f" ({len(summary.logs_invalid)} INVALID)" if summary.logs_invalid else "")
        )
        for line in summary.logs_invalid:
            console.print(f"[red]INVALID[/] {escape(line)}")
    if summary.logs_invalid:
        raise typer.Exit(1)
