"""A tournament's report: standings with intervals and ratings, the head-to-head matrix and
the list of games, as one JSON object (``--json``, ``summary.json``) and as tables for people.

The report is computed from the games' results alone (:func:`report`), so a tournament cut
short reports the games it finished, and a resumed one the same table as one never stopped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from rich.console import Group
from rich.table import Table

from nataterra_core.tools.stats import bradley_terry, wilson_interval

from .common import escape
from .tournament_games import GameResult

__all__ = ["GameLine", "Pairing", "Standing", "TournamentReport", "render", "report"]


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


class GameLine(msgspec.Struct, frozen=True, kw_only=True):
    """One game of the per-game list."""

    index: int
    game_id: str
    round: int | None
    pairing: tuple[str, str]
    seats: dict[str, str]
    """Seat → player."""
    winners: tuple[str, ...]
    """The winning players; empty for a draw."""
    reason: str
    records: int
    log: str | None
    """The log's path, relative to the run's folder (``None``: not kept)."""
    verdict: str


class TournamentReport(msgspec.Struct, frozen=True, kw_only=True):
    """What ``--json`` prints and ``summary.json`` holds."""

    game: str
    seed: int | None
    """The public ``--seed``, or ``None`` for a secret one (kept in the run's folder)."""
    seed_kind: str
    """``public`` or ``secret``."""
    games_per_pairing: int
    options: dict[str, Any]
    standings: tuple[Standing, ...]
    pairings: tuple[Pairing, ...]
    logs_verified: int
    logs_invalid: tuple[str, ...]
    format: str = "round-robin"
    rounds: int | None = None
    byes: dict[str, int] = msgspec.field(default_factory=dict)
    """Rounds each player sat out (Swiss, an odd number of players)."""
    games: tuple[GameLine, ...] = ()
    head_to_head: dict[str, dict[str, float]] = msgspec.field(default_factory=dict)
    """``head_to_head[a][b]``: a's score against b (a win 1, a draw ½)."""
    games_planned: int | None = None
    interrupted: bool = False
    reproducible: bool = True
    """False when a player thinks on a clock (``search:1s``): the seed fixes the dice and
    the bots' seeds, not how far a search gets in its time."""
    folder: str | None = None


def report(
    game: str,
    players: Sequence[str],
    games_per_pairing: int,
    seed: int | None,
    options: dict[str, Any],
    results: Sequence[GameResult],
    **details: Any,
) -> TournamentReport:
    """The table of ``results`` (standings sorted by rating, then score); ``details`` fill
    the report's other fields (``format``, ``interrupted``, ``folder``, ...). Logs are
    listed as ``<game_id>.jsonl`` when ``folder`` is given."""
    tally = {p: [0, 0, 0] for p in players}  # wins, draws, losses
    heads: dict[tuple[str, str], list[int]] = {}
    matrix: dict[str, dict[str, float]] = {p: {} for p in players}
    for result in results:
        a, b = result.pairing
        head = heads.setdefault((a, b), [0, 0, 0])  # a's wins, b's wins, draws
        if not result.winners or set(result.winners) >= {a, b}:
            head[2] += 1
            tally[a][1] += 1
            tally[b][1] += 1
            points = {a: 0.5, b: 0.5}
        else:
            winner = result.winners[0]
            loser = b if winner == a else a
            head[0 if winner == a else 1] += 1
            tally[winner][0] += 1
            tally[loser][2] += 1
            points = {winner: 1.0, loser: 0.0}
        for one, other in ((a, b), (b, a)):
            matrix[one][other] = matrix[one].get(other, 0.0) + points[one]
    scores = {pair: (h[0] + h[2] / 2, sum(h)) for pair, h in heads.items()}
    ratings = bradley_terry(players, scores)
    standings = []
    for player in players:
        wins, draws, losses = tally[player]
        played = wins + draws + losses
        score = wins + draws / 2
        low, high = wilson_interval(score, played) if played else (0.0, 1.0)
        rating = ratings[player]
        standings.append(
            Standing(
                player=player,
                games=played,
                wins=wins,
                draws=draws,
                losses=losses,
                score=score,
                win_rate=score / played if played else 0.0,
                interval=(round(low, 4), round(high, 4)),
                elo=round(rating.elo, 1),
                elo_interval=(round(rating.low, 1), round(rating.high, 1)),
            )
        )
    standings.sort(key=lambda s: (-s.elo, -s.score, s.player))
    kept = details.get("folder") is not None
    return TournamentReport(
        game=game,
        seed=seed,
        seed_kind="public" if seed is not None else "secret",
        games_per_pairing=games_per_pairing,
        options=options,
        standings=tuple(standings),
        pairings=tuple(
            Pairing(players=pair, games=sum(h), wins=(h[0], h[1]), draws=h[2])
            for pair, h in heads.items()
        ),
        logs_verified=sum(r.valid for r in results),
        logs_invalid=tuple(f"{r.game_id}: {r.verdict}" for r in results if not r.valid),
        games=tuple(
            GameLine(
                index=r.index,
                game_id=r.game_id,
                round=r.round,
                pairing=r.pairing,
                seats=dict(zip(r.seats, r.players, strict=True)),
                winners=r.winners,
                reason=r.reason,
                records=r.records,
                log=f"{r.game_id}.jsonl" if kept else None,
                verdict=r.verdict if r.valid else f"INVALID ({r.verdict})",
            )
            for r in sorted(results, key=lambda r: r.index)
        ),
        head_to_head={p: row for p, row in matrix.items() if row},
        **details,
    )


def _standings(summary: TournamentReport) -> Table:
    shape = f"Swiss, {summary.rounds} rounds, " if summary.format == "swiss" else "round robin, "
    table = Table(title=f"{summary.game}: {shape}{summary.games_per_pairing} games per pairing")
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


def _matrix(summary: TournamentReport) -> Table:
    """Row player's score against the column player (out of the games they played)."""
    order = [s.player for s in summary.standings]
    played = {(p.players[0], p.players[1]): p.games for p in summary.pairings}
    table = Table(title="head to head: the row's score against the column")
    table.add_column("")
    for player in order:
        table.add_column(escape(player), justify="right")
    for row in order:
        cells = []
        for column in order:
            games = played.get((row, column)) or played.get((column, row))
            if row == column or not games:
                cells.append("·" if row == column else "")
            else:
                cells.append(f"{summary.head_to_head[row][column]:g}/{games}")
        table.add_row(escape(row), *cells)
    return table


def _games(summary: TournamentReport) -> list[str]:
    """One line per game (lines, not a table: they stay readable on a narrow terminal)."""
    lines = ["[bold]games[/]"]
    for line in summary.games:
        seats = ", ".join(f"{seat} {player}" for seat, player in line.seats.items())
        winner = ", ".join(line.winners) or "draw"
        verdict = "valid" if line.verdict == "valid" else f"[red]{escape(line.verdict)}[/]"
        lines.append(
            f"{line.index + 1:>4}. {escape(line.log or line.game_id)}: {escape(seats)}; "
            f"won by {escape(winner)} ({escape(line.reason)}), {line.records} records, {verdict}"
        )
    return lines


def render(summary: TournamentReport) -> Group:
    """The report for people: the games, the head-to-head matrix, the standings, and notes
    (interrupted; the seed; not reproducible; logs verified)."""
    notes = []
    finished = len(summary.games)
    if summary.interrupted:
        notes.append(
            f"[yellow]interrupted[/]: {finished} of {summary.games_planned} games finished; "
            "every kept log is whole (nataterra tournament --resume FOLDER goes on)"
        )
    if summary.seed is None:
        notes.append("seed: secret (kept in the run's folder; each log reveals its own dice)")
    else:
        notes.append(f"seed: {summary.seed} (public: anyone can recompute the dice)")
    if not summary.reproducible:
        notes.append(
            "[yellow]not reproducible from its seed[/]: a player thinks on a clock "
            "(search:1s); an iteration budget (search:8) is"
        )
    for player, count in summary.byes.items():
        notes.append(f"{escape(player)} sat out {count} round(s) (bye)")
    verified = f"{summary.logs_verified} of {finished} logs verified"
    if summary.logs_invalid:
        verified += f" ({len(summary.logs_invalid)} INVALID)"
    notes.append(verified)
    notes += [f"[red]INVALID[/] {escape(line)}" for line in summary.logs_invalid]
    if summary.folder is not None:
        notes.append(f"logs and summary.json in {escape(summary.folder)}")
    return Group(*_games(summary), _matrix(summary), _standings(summary), *notes)
