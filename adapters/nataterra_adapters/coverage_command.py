"""``nataterra coverage``: the rules-coverage report on the command line.

Lists every rule ID of the rules text and every card, structure and victory condition of the
provisional content pack with the tests that exercise it
(:mod:`nataterra_core.games.nataterra.coverage`), as a rich table or as one JSON object
(``--json``), then a count per kind and the summary line ``covered=<n> deferred=<n> pending=<n>
missing=<n>``. Exit code 0 when nothing is missing and the pending list is up to date, 1 otherwise
(also when the report cannot be made). ``docs/COVERAGE.md`` is the reference.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer
from rich.console import Console
from rich.table import Column, Table

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.coverage import (
    KINDS,
    CoverageError,
    CoverageReport,
    Item,
    Status,
    coverage_report,
)
from nataterra_core.kernel import ContentError

__all__ = ["FAILED", "Show", "coverage", "report_table"]

FAILED = 1
"""Exit code when something has no test, the pending list is stale, or the report cannot run."""

DEFAULT_RULES = Path("../shared/rules/nataterra.md")
DEFAULT_TESTS = Path("tests")
SHOWN_TESTS = 3
"""Tests listed per item in the table (``--json`` lists them all)."""

console = Console()
err_console = Console(stderr=True)

_STYLES: dict[Status, str] = {
    "covered": "green",
    "deferred": "blue",
    "pending": "yellow",
    "missing": "red",
}


class Show(StrEnum):
    """Which items the table (or the JSON ``items``) lists."""

    all = "all"
    covered = "covered"
    missing = "missing"


def coverage(
    rules: Annotated[
        Path, typer.Option(help="The rules text (relative to the current directory).")
    ] = DEFAULT_RULES,
    tests: Annotated[
        Path,
        typer.Option(help="The tests directory; its coverage_pending.toml is the pending list."),
    ] = DEFAULT_TESTS,
    json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    show: Annotated[Show, typer.Option(help="Which items to list.")] = Show.all,
) -> None:
    """Rules coverage: every rule, card, structure and victory condition with its tests.

    Rules marked later scope are deferred; items in the pending list wait for their issue.
    Fails (exit 1) when anything else has no test, or when a pending item has a test now.
    Run it from the repository root, or give --rules and --tests.
    """
    try:
        report = coverage_report(rules, tests, load_pack())
    except (CoverageError, ContentError) as exc:
        err_console.print(f"[red]cannot make the coverage report[/]: {_escape(str(exc))}")
        raise typer.Exit(FAILED) from exc
    shown = [item for item in report.items if show is Show.all or item.status == show.value]
    if json:
        typer.echo(msgspec.json.encode(_json_report(report, shown)).decode())
    else:
        console.print(report_table(shown, title=f"rules coverage ({show.value})"))
        console.print(_kinds_table(report))
        for problem in report.problems:
            console.print(f"[red]problem[/]: {_escape(problem)}", soft_wrap=True)
        console.print(report.summary(), soft_wrap=True, markup=False, highlight=False)
    raise typer.Exit(0 if report.ok else FAILED)


def report_table(items: list[Item], title: str = "rules coverage") -> Table:
    """One row per item: kind, id, status, pending issue and the first tests that exercise it."""
    table = Table(
        Column("kind", no_wrap=True),
        Column("id", overflow="fold", max_width=24),
        Column("status", no_wrap=True),
        Column("issue", no_wrap=True),
        Column("tests", overflow="fold"),
        title=title,
    )
    for item in items:
        names = [
            str(e) if e.how in ("name", "string") else f"{e} ({e.how})"
            for e in item.tests[:SHOWN_TESTS]
        ]
        if len(item.tests) > SHOWN_TESTS:
            names.append(f"... {len(item.tests) - SHOWN_TESTS} more")
        table.add_row(
            item.kind,
            item.id,
            f"[{_STYLES[item.status]}]{item.status}[/]",
            "" if item.issue is None else f"#{item.issue}",
            _escape("\n".join(names)),
        )
    return table


def _kinds_table(report: CoverageReport) -> Table:
    table = Table("kind", *_STYLES, title="items per kind")
    for kind in KINDS:
        counts = report.counts(kind)
        table.add_row(kind, *(str(counts[status]) for status in _STYLES))
    return table


def _json_report(report: CoverageReport, shown: list[Item]) -> dict[str, Any]:
    return {
        "ok": report.ok,
        "counts": report.counts(),
        "kinds": {kind: report.counts(kind) for kind in KINDS},
        "problems": list(report.problems),
        "items": shown,
    }


def _escape(text: str) -> str:
    return text.replace("[", r"\[")  # test names and problems may hold "[...]"
