"""``nataterra tournament``: bots against bots, every log kept and verified, a table at the end.

A round robin (every pairing of ``--players``) or ``--format swiss --rounds N`` (each round
pairs players of similar score, never twice the same pair while another pairing is possible:
:mod:`nataterra_core.tools.swiss`); each pairing plays ``--games`` games (seats rotated,
mirrored dice: see :mod:`.tournament_games`), here, in ``--workers`` processes or on a Dask
cluster. Each log is verified and kept in the run's folder (:mod:`.tournament_run`), a
secret seed unless ``--seed``; the table (:mod:`.tournament_table`) lists the games, the
head-to-head matrix and each player's score, win rate with a 95 % Wilson interval and a
Bradley-Terry rating on the Elo scale with a 95 % interval. Ctrl-C or SIGTERM stops at once
with the table of the finished games; ``--resume FOLDER`` goes on from the kept logs.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Annotated

import msgspec
import typer

from nataterra_adapters.batch_verify import ClusterUnavailable
from nataterra_core.game import DEFAULT_GAME
from nataterra_core.kernel.registry import RuleSystem, system
from nataterra_core.search.catalogue import SEARCH, budget_of, parse_player
from nataterra_core.tools.swiss import swiss_round

from .common import SETUP_FAILED, GameOption, console, err_console, escape, rule_system
from .newgame import OptionOption, bot_names, game_options
from .tournament_games import (
    GameResult,
    PlannedGame,
    TournamentSeed,
    plan,
    plan_pairings,
    play_games,
    result_from_log,
)
from .tournament_run import Interrupts, Progress, RunFolder, Settings
from .tournament_table import TournamentReport, render, report

__all__ = ["TournamentReport", "report", "tournament"]

TOURNAMENT_TURNS = 100
"""The turn limit of a tournament game (of a system with one) when ``--turns`` is not given."""
FORMATS = ("round-robin", "swiss")
_TIE_BREAK = 2**32
"""The first part of a Swiss tie-break's seed derivation (no game's parts start so high)."""


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


def _timed(record: RuleSystem, spec: str) -> bool:
    """Does ``spec`` think on a clock: ``search:1s``, or the plain ``search`` (1 s where a
    clock is passed, as here) of the catalogue?"""
    budget = budget_of(spec)
    if budget is not None:
        return budget.timed
    return spec == SEARCH and SEARCH not in record.players


def planned_total(s: Settings) -> int:
    """The games a tournament of ``s`` plays in all."""
    if s.format == "swiss":
        return (s.rounds or 0) * (len(s.players) // 2) * s.games_per_pairing
    count = len(s.players)
    return count * (count - 1) // 2 * s.games_per_pairing


class _Run:
    """One run of a tournament: plays what its folder lacks, round by round."""

    def __init__(
        self,
        settings: Settings,
        seed: TournamentSeed,
        folder: RunFolder,
        progress: Progress,
        interrupts: Interrupts,
    ) -> None:
        self.settings, self.seed, self.folder = settings, seed, folder
        self.progress, self.interrupts = progress, interrupts
        self.results: list[GameResult] = []
        self.byes: dict[str, int] = {}
        self.played = 0

    def run(self, workers: int, scheduler: str | None) -> None:
        s = self.settings
        if s.format != "swiss":
            games = plan(s.game, s.players, s.games_per_pairing, self.seed, options=s.options)
            self._play(games, workers, scheduler)
            return
        for number in range(1, (s.rounds or 0) + 1):
            self._play(self._swiss(number), workers, scheduler)

    def _swiss(self, number: int) -> list[PlannedGame]:
        """Round ``number``'s games, paired from the results so far."""
        s = self.settings
        points = dict.fromkeys(s.players, 0.0)
        met: set[frozenset[str]] = set()
        for result in self.results:
            met.add(frozenset(result.pairing))
            for player in result.pairing:
                won = player in result.winners
                drawn = not result.winners or set(result.winners) >= set(result.pairing)
                points[player] += 1.0 if won and not drawn else 0.5 if drawn else 0.0
        for player, count in self.byes.items():
            points[player] += count * s.games_per_pairing  # a bye scores as a won pairing
        ties = {p: self.seed.derive(_TIE_BREAK, i) for i, p in enumerate(s.players)}
        standing = sorted(s.players, key=lambda p: (-points[p], ties[p]))
        paired = swiss_round(standing, met, self.byes)
        if paired.bye is not None:
            self.byes[paired.bye] = self.byes.get(paired.bye, 0) + 1
        return plan_pairings(
            s.game,
            paired.pairings,
            s.games_per_pairing,
            self.seed,
            options=s.options,
            round_number=number,
            first_index=len(self.results),
        )

    def _play(self, planned: list[PlannedGame], workers: int, scheduler: str | None) -> None:
        kept: dict[int, GameResult] = {}
        for game in planned:
            data = self.folder.kept_log(game.game_id)
            found = None if data is None else result_from_log(game, data)
            if found is not None:
                kept[game.index] = found
        self.progress.kept(len(kept))
        missing = [game for game in planned if game.index not in kept]
        fresh: dict[int, GameResult] = {}
        try:
            played = play_games(missing, workers=workers, scheduler=scheduler)
            with contextlib.closing(played) as games:
                for result, data in games:
                    with self.interrupts.deferred():
                        self.folder.write_log(result.game_id, data)
                        fresh[result.index] = result
                    self.played += 1
                    self.progress.finished(result, self.played)
        finally:  # a round cut short still counts its finished games, in plan order
            done = kept | fresh
            self.results += [done[g.index] for g in planned if g.index in done]


def tournament(
    players: Annotated[
        str | None,
        typer.Option(
            help="Players, comma-separated: the game's named players (random, heuristic, "
            "search, ...); search:N searches N iterations per decision (reproducible), "
            "search:1s or search:500ms as long per decision (plain search: 1s), "
            "search:BUDGET:POLICY plays its playouts with the player POLICY. Not with --resume."
        ),
    ] = None,
    game: GameOption = DEFAULT_GAME,
    games: Annotated[int, typer.Option(help="Games per pairing (seats rotated).", min=1)] = 20,
    tournament_format: Annotated[
        str,
        typer.Option("--format", help="round-robin (every pairing) or swiss (--rounds rounds)."),
    ] = "round-robin",
    rounds: Annotated[
        int | None, typer.Option(help="Rounds of a Swiss tournament.", min=1, max=1000)
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="A public seed: anyone can recompute every game's dice from it "
            "(reproducible runs). Default: a secret seed, kept in the folder.",
            min=0,
            max=2**62,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="The folder for the logs (default: tournament-YYYYMMDD-HHMMSS/)."),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            metavar="FOLDER",
            help="Go on with the interrupted tournament in FOLDER: its settings, seed and "
            "finished games are read from it.",
        ),
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
    """Play a tournament between bots, keep and verify every log, print the table."""
    if workers > 1 and dask_scheduler is not None:
        raise typer.BadParameter("give --workers or --dask-scheduler, not both")
    if resume is not None:
        if players is not None or seed is not None or out is not None:
            raise typer.BadParameter(
                "--resume reads the players, seed and folder from FOLDER: give none of them"
            )
        try:
            folder, settings, tournament_seed = RunFolder.open(resume)
            system(settings.game)
        except (ValueError, KeyError) as exc:
            raise typer.BadParameter(str(exc), param_hint="--resume") from None
    else:
        settings, tournament_seed = _new_settings(
            game, players, games, tournament_format, rounds, seed, turns, option or ()
        )
        try:
            folder = RunFolder.create(out, settings, tournament_seed)
        except (ValueError, OSError) as exc:
            raise typer.BadParameter(str(exc), param_hint="--out") from None
    err_console.print(
        f"tournament folder: {escape(str(folder.path))} "
        + ("(seed: secret)" if settings.seed is None else f"(seed: {settings.seed}, public)"),
        soft_wrap=True,
    )
    with Interrupts() as interrupts:
        progress = Progress(err_console, planned_total(settings))
        run = _Run(settings, tournament_seed, folder, progress, interrupts)
        interrupted = False
        try:
            with run.progress:
                run.run(workers, dask_scheduler)
        except ClusterUnavailable as exc:
            err_console.print(f"[red]{escape(str(exc))}[/]")
            raise typer.Exit(SETUP_FAILED) from exc
        except KeyboardInterrupt:
            interrupted = True
        summary = _summary(settings, run, folder, interrupted=interrupted)
        with interrupts.deferred():
            folder.write_summary(summary)
    if json_out:
        console.print_json(msgspec.json.encode(summary).decode())
    else:
        console.print(render(summary))
    if interrupted:
        raise typer.Exit(128 + (interrupts.signal or 2))
    if summary.logs_invalid:
        raise typer.Exit(1)


def _new_settings(
    game: str,
    players: str | None,
    games: int,
    tournament_format: str,
    rounds: int | None,
    seed: int | None,
    turns: int | None,
    option: list[str] | tuple[str, ...],
) -> tuple[Settings, TournamentSeed]:
    record = rule_system(game)
    if players is None:
        raise typer.BadParameter("name the players (or --resume FOLDER)", param_hint="--players")
    names = _check_players(record, players)
    if tournament_format not in FORMATS:
        raise typer.BadParameter(f"one of {', '.join(FORMATS)}", param_hint="--format")
    if tournament_format == "swiss" and rounds is None:
        raise typer.BadParameter("a Swiss tournament needs --rounds N", param_hint="--rounds")
    if tournament_format != "swiss" and rounds is not None:
        raise typer.BadParameter("--rounds is for --format swiss", param_hint="--rounds")
    options = game_options(record, turns=turns, default_turns=TOURNAMENT_TURNS, extra=option)
    try:
        record.check(record.decider(None), record.seats(min(record.player_counts)), options)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    settings = Settings(
        game=record.id,
        players=tuple(names),
        games_per_pairing=games,
        options=options,
        format=tournament_format,
        rounds=rounds,
        seed=seed,
    )
    return settings, TournamentSeed.drawn() if seed is None else TournamentSeed(number=seed)


def _summary(
    settings: Settings, run: _Run, folder: RunFolder, *, interrupted: bool
) -> TournamentReport:
    return report(
        settings.game,
        settings.players,
        settings.games_per_pairing,
        settings.seed,
        settings.options,
        run.results,
        format=settings.format,
        rounds=settings.rounds,
        byes=run.byes,
        games_planned=planned_total(settings),
        interrupted=interrupted,
        reproducible=not any(_timed(system(settings.game), p) for p in settings.players),
        folder=str(folder.path),
    )
