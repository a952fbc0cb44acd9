"""``nataterra odds FILE``: the battle calculator on the command line.

Plays the battle described in a JSON file (``docs/COMBAT_SANDBOX.md``) many times and
prints win and draw probabilities with 95 % confidence intervals, mean rounds, and the
expected survivors of each unit type, as rich tables or as one JSON object (``--json``).
The progress bar goes to stderr whenever stdout is not a terminal, so pipes get results only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import msgspec
import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from nataterra_core.games.nataterra.battles import BattleError, load_battle
from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.odds import Estimate, OddsReport, simulate
from nataterra_core.games.nataterra.rules.combat.policies import CombatPolicy, DefaultPolicy
from nataterra_core.kernel import ContentError

__all__ = ["odds", "report_tables"]

SETUP_FAILED = 1
"""Exit code when the battle or the content pack cannot be used (as the other commands)."""

console = Console()
err_console = Console(stderr=True)


def odds(
    file: Annotated[
        Path, typer.Argument(help="A battle description (JSON).", dir_okay=False, exists=True)
    ],
    runs: Annotated[int, typer.Option(help="Battles to simulate.", min=1)] = 1000,
    workers: Annotated[
        int, typer.Option(help="Worker processes (the result does not depend on it).", min=1)
    ] = 1,
    seed: Annotated[
        int, typer.Option(help="Calculator seed: run i uses odds_seed(seed, i).", min=0)
    ] = 0,
    retreat_below: Annotated[
        float,
        typer.Option(
            help="Both sides retreat when their units on the boards fall below this share "
            "of the opponent's (0: fight to the end).",
            min=0.0,
        ),
    ] = 0.0,
    json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    content: Annotated[
        Path | None,
        typer.Option(help="A user content pack overlaid on the provisional one.", file_okay=False),
    ] = None,
) -> None:
    """Battle calculator: simulate a battle RUNS times and print the odds.

    Win and no-winner probabilities with 95 % Wilson intervals, mean rounds, and the mean
    survivors of every unit type. Same FILE, RUNS and SEED: same report, for any WORKERS.
    """
    try:
        pack = load_pack(content)
        battle = load_battle(file, pack)
    except (BattleError, ContentError) as exc:
        err_console.print(f"[red]cannot use {file}[/]: {_escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(SETUP_FAILED) from exc
    policies: dict[str, CombatPolicy] = {
        seat: DefaultPolicy(pack, retreat_below) for seat in (battle.attacker, battle.defender)
    }
    on_stdout = console.is_terminal and not json
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console if on_stdout else err_console,
        transient=on_stdout,
    ) as progress:
        task = progress.add_task("simulating", total=runs)
        report = simulate(
            battle,
            runs,
            seed=seed,
            workers=workers,
            policies=policies,
            # A user pack travels to worker processes as its directory.
            pack=content if content is not None else pack,
            progress=lambda n: progress.advance(task, n),
        )
    if json:
        typer.echo(msgspec.json.encode(report).decode())
        return
    for table in report_tables(report):
        console.print(table)


def _escape(text: str) -> str:
    return text.replace("[", r"\[")  # messages quote JSON paths like `$.forces[0]`


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _interval(estimate: Estimate) -> str:
    return f"{_percent(estimate.low)} to {_percent(estimate.high)}"


def report_tables(report: OddsReport) -> list[Table]:
    """The report as rich tables: outcomes with their intervals, then units and losses."""
    title = (
        f"{report.attacker} attacks {report.defender}: {report.runs} battles, seed "
        f"{report.seed}, {report.mean_rounds:.2f} rounds on average"
    )
    outcomes = Table("outcome", "probability", "95% interval", "battles", title=title)
    for label, estimate in (
        (f"{report.attacker} wins", report.attacker_wins),
        (f"{report.defender} wins", report.defender_wins),
        ("no winner", report.no_winner),
    ):
        outcomes.add_row(label, _percent(estimate.p), _interval(estimate), str(estimate.count))
    units = Table("side", "unit", "start", "mean survivors", "survival", title="survivors")
    for unit in report.survivors:
        units.add_row(
            unit.owner,
            unit.unit,
            str(unit.start),
            f"{unit.mean:.2f}",
            _percent(unit.mean / unit.start),
        )
    losses = Table(
        "side", "mean killed", "mean injured", "mean lost", "retreated", title="losses per battle"
    )
    for side in report.losses:
        losses.add_row(
            side.owner,
            f"{side.mean_killed:.2f}",
            f"{side.mean_injured:.2f}",
            f"{side.mean_lost:.2f}",
            _percent(side.retreated.p),
        )
    return [outcomes, units, losses]
