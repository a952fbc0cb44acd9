"""Nataterra's own ``nataterra`` sub-command: ``odds`` (the battle calculator).

The generic command line (``nataterra_adapters.cli``) adds every registered system's
commands from its ``Hooks.cli_commands``; Nataterra's hook imports this module, so typer
and rich are imported only by the command line, never by the rules.

* ``odds [FILE]`` plays the battle described in a JSON file (``docs/COMBAT_SANDBOX.md``; by
  default the standard battle shipped with the package) many times and prints win and draw
  probabilities with 95 % confidence intervals, mean rounds
  and the expected survivors of each unit type, as rich tables or one JSON object
  (``--json``); ``--log-dir DIR`` also writes every run as a combat-sandbox log that
  ``nataterra verify`` checks. The progress bar goes to stderr whenever stdout is not a
  terminal, so pipes get results only.

Its rules coverage is reported by the generic ``nataterra coverage`` from its
``Hooks.coverage`` (:mod:`.coverage`, ``docs/COVERAGE.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

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

from nataterra_core.kernel import ContentError

from .battles import STANDARD_BATTLE_FILE, BattleError, load_battle
from .content import ContentPack, load_pack
from .odds import Estimate, OddsReport, auto_workers, logged_battle, simulate
from .rules.combat.policies import CombatPolicy, DefaultPolicy
from .rules.combat.sandbox_model import Battle

__all__ = [
    "FAILED",
    "commands",
    "log_name",
    "odds",
    "report_tables",
]

FAILED = 1
"""Exit code when a command cannot run (bad battle or pack)."""


console = Console()
err_console = Console(stderr=True)


def commands() -> Sequence[Callable[..., Any]]:
    """The commands the CLI registers for Nataterra (``Hooks.cli_commands``)."""
    return (odds,)


def _escape(text: str) -> str:
    # Messages quote JSON paths (`$.forces[0]`) and test names (`test_x[a]`) that rich
    # would read as markup.
    return text.replace("[", r"\[")


# -- odds -------------------------------------------------------------------------------------


def odds(
    file: Annotated[
        Path | None,
        typer.Argument(
            help="A battle description (JSON; default: the standard battle shipped with "
            "the package).",
            dir_okay=False,
            exists=True,
        ),
    ] = None,
    runs: Annotated[int, typer.Option(help="Battles to simulate.", min=1)] = 1000,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Worker processes (the result does not depend on it); default: one per "
            "core, as many as the runs repay.",
            min=1,
        ),
    ] = None,
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
    log_dir: Annotated[
        Path | None,
        typer.Option(
            help="Also write every run as a combat-sandbox log, "
            "DIR/<battle>-seed-S-run-i.jsonl (check them with nataterra verify).",
            file_okay=False,
        ),
    ] = None,
) -> None:
    """Battle calculator: simulate a battle RUNS times and print the odds.

    Win and no-winner probabilities with 95 % Wilson intervals, mean rounds, and the mean
    survivors of every unit type. Same FILE, RUNS and SEED: same report, for any WORKERS.
    """
    file = file or STANDARD_BATTLE_FILE
    try:
        pack = load_pack(content)
        battle = load_battle(file, pack)
    except (BattleError, ContentError) as exc:
        err_console.print(f"[red]cannot use {file}[/]: {_escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(FAILED) from exc
    policies: dict[str, CombatPolicy] = {
        seat: DefaultPolicy(pack, retreat_below) for seat in (battle.attacker, battle.defender)
    }
    on_stdout = console.is_terminal and not json
    with _progress(on_stdout) as progress:
        task = progress.add_task("simulating", total=runs)
        report = simulate(
            battle,
            runs,
            seed=seed,
            workers=workers if workers is not None else auto_workers(runs),
            policies=policies,
            # A user pack travels to worker processes as its directory.
            pack=content if content is not None else pack,
            progress=lambda n: progress.advance(task, n),
        )
        if log_dir is not None:
            task = progress.add_task("writing logs", total=runs)
            _write_logs(
                log_dir, file.stem, battle, report, policies, pack, lambda: progress.advance(task)
            )
    if json:
        typer.echo(msgspec.json.encode(report).decode())
        return
    for table in report_tables(report):
        console.print(table)
    if log_dir is not None:
        console.print(f"{runs} battle logs in {log_dir}", soft_wrap=True)


def _progress(on_stdout: bool) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console if on_stdout else err_console,
        transient=on_stdout,
    )


def log_name(stem: str, seed: int, run: int) -> str:
    """The file name of run ``run`` of ``seed`` of the battle in ``<stem>.json``."""
    return f"{stem}-seed-{seed}-run-{run}.jsonl"


def _write_logs(
    directory: Path,
    stem: str,
    battle: Battle,
    report: OddsReport,
    policies: dict[str, CombatPolicy],
    pack: ContentPack,
    advance: Callable[[], None],
) -> None:
    """Play every run of the report again as a logged sandbox game and write its log.

    The logged runs are the simulated ones (same seeds, same policies); their winners are
    counted against the report, so a log that told another story than the odds is an error
    here, not a surprise for whoever audits them.
    """
    directory.mkdir(parents=True, exist_ok=True)
    wins = {battle.attacker: 0, battle.defender: 0}
    for run in range(report.runs):
        session = logged_battle(battle, run, seed=report.seed, policies=policies, pack=pack)
        (directory / log_name(stem, report.seed, run)).write_bytes(session.log_bytes())
        outcome = session.outcome()
        for winner in outcome.winners if outcome is not None else ():
            wins[winner] += 1
        advance()
    if (wins[battle.attacker], wins[battle.defender]) != (
        report.attacker_wins.count,
        report.defender_wins.count,
    ):
        err_console.print(
            f"[red]the logged battles disagree with the simulation[/]: winners {wins}, "
            f"report {report.attacker_wins.count} and {report.defender_wins.count}"
        )
        raise typer.Exit(FAILED)


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
