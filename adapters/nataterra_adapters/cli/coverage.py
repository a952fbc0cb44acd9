"""``nataterra coverage``: rules coverage of every registered rule system that describes its
own (``Hooks.coverage``): each clause of its rules text and each content item with the tests
that exercise it (:mod:`nataterra_core.tools.coverage`). Fails on a gap."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer
from rich.table import Column, Table

from nataterra_core.game import DEFAULT_GAME
from nataterra_core.kernel.errors import ContentError
from nataterra_core.kernel.registry import RuleSystem, systems
from nataterra_core.tools.coverage import (
    CoverageError,
    CoverageReport,
    CoverageSpec,
    Item,
    Status,
    coverage_report,
)

from .common import console, err_console

__all__ = ["FAILED", "Show", "coverage", "report_table"]

FAILED = 1
"""Exit code when a report finds a gap or cannot be made."""

DEFAULT_RULES_DIR = Path("docs/rules")
"""The repository's clause-level rules texts (a development tool: run from the checkout's root)."""
DEFAULT_TESTS = Path("tests")
SHOWN_TESTS = 3
"""Tests listed per item in the coverage table (``--json`` lists them all)."""

_STYLES: dict[Status, str] = {
    "covered": "green",
    "deferred": "blue",
    "pending": "yellow",
    "missing": "red",
}


class Show(StrEnum):
    """Which items the coverage table (or the JSON ``items``) lists."""

    all = "all"
    covered = "covered"
    missing = "missing"


def _escape(text: str) -> str:
    return text.replace("[", r"\[")  # test names (`test_x[a]`) are no rich markup


def _covered_systems(
    game: list[str] | None, rules: Path | None
) -> list[tuple[RuleSystem, CoverageSpec]]:
    chosen = [r for r in systems() if r.hooks.coverage is not None]
    if rules is not None and not game:
        game = [DEFAULT_GAME]  # one rules text: the default game's, unless --game says
    if game:
        known = {r.id: r for r in chosen}
        unknown = [g for g in game if g not in known]
        if unknown:
            raise typer.BadParameter(
                f"no rules coverage for {unknown} (systems with one: {sorted(known)})",
                param_hint="--game",
            )
        chosen = [known[g] for g in game]
    if rules is not None and len(chosen) != 1:
        raise typer.BadParameter("--rules needs exactly one --game", param_hint="--rules")
    found = []
    for record in chosen:
        hook = record.hooks.coverage
        assert hook is not None
        found.append((record, hook()))
    return found


def coverage(
    game: Annotated[
        list[str] | None,
        typer.Option(help="Only this rule system (repeatable; default: every one with a spec)."),
    ] = None,
    rules: Annotated[
        Path | None,
        typer.Option(help="The rules text of the one --game (default: its file in docs/rules)."),
    ] = None,
    rules_dir: Annotated[
        Path, typer.Option(help="Where the rules texts are (relative to the current directory).")
    ] = DEFAULT_RULES_DIR,
    tests: Annotated[
        Path,
        typer.Option(help="The tests directory; its coverage_pending.toml is the pending list."),
    ] = DEFAULT_TESTS,
    json: Annotated[bool, typer.Option("--json", help="Print each report as JSON.")] = False,
    show: Annotated[Show, typer.Option(help="Which items to list.")] = Show.all,
) -> None:
    """Rules coverage: every clause and content item of each rule system with its tests.

    Clauses marked later scope are deferred; items in the pending list wait for their issue.
    Fails (exit 1) when anything else has no test, or when a pending item has a test now.
    Run it from the repository root, or give --rules-dir (or --game and --rules) and --tests.
    """
    ok = True
    for record, spec in _covered_systems(game, rules):
        path = rules if rules is not None else rules_dir / spec.rules
        try:
            report = coverage_report(spec, path, tests)
        except (CoverageError, ContentError) as exc:
            err_console.print(
                f"[red]cannot make the coverage report[/] of {record.id}: {_escape(str(exc))}"
            )
            raise typer.Exit(FAILED) from exc
        ok = ok and report.ok
        shown = [item for item in report.items if show is Show.all or item.status == show.value]
        if json:
            typer.echo(msgspec.json.encode(_json_report(record.id, report, shown)).decode())
            continue
        title = f"rules coverage of {record.title} ({show.value})"
        console.print(report_table(shown, title=title))
        console.print(_kinds_table(report))
        for problem in report.problems:
            console.print(f"[red]problem[/]: {_escape(problem)}", soft_wrap=True)
        console.print(report.summary(), soft_wrap=True, markup=False, highlight=False)
    raise typer.Exit(0 if ok else FAILED)


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
    for kind in report.kinds:
        counts = report.counts(kind)
        table.add_row(kind, *(str(counts[status]) for status in _STYLES))
    return table


def _json_report(game: str, report: CoverageReport, shown: list[Item]) -> dict[str, Any]:
    return {
        "game": game,
        "ok": report.ok,
        "counts": report.counts(),
        "kinds": {kind: report.counts(kind) for kind in report.kinds},
        "problems": list(report.problems),
        "items": shown,
    }
