"""Run the battle calculator from Python and print a summary.

    python examples/battle_calculator.py [BATTLE_JSON] [--runs N] [--seed S] [--workers K]

Loads a battle description (default: ``examples/standard_battle.json``), simulates it, and
prints the win odds with their 95 % intervals and the mean survivors of each unit type.
The same seed gives the same numbers for any ``--workers``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from nataterra_core.games.nataterra.odds import OddsReport, load_battle, simulate

STANDARD_BATTLE = Path(__file__).resolve().parent / "standard_battle.json"


def summary(report: OddsReport) -> list[str]:
    """A few lines of plain text: outcomes with intervals, then survivors per unit type."""
    lines = [f"{report.attacker} attacks {report.defender}: {report.runs} battles"]
    for label, estimate in (
        (f"{report.attacker} wins", report.attacker_wins),
        (f"{report.defender} wins", report.defender_wins),
        ("no winner", report.no_winner),
    ):
        lines.append(
            f"{label}: {estimate.p:.1%} (95% CI {estimate.low:.1%} to {estimate.high:.1%})"
        )
    lines.append(f"mean rounds: {report.mean_rounds:.2f}")
    lines.extend(
        f"{unit.owner} {unit.unit}: {unit.mean:.2f} of {unit.start} survive"
        for unit in report.survivors
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("battle", type=Path, nargs="?", default=STANDARD_BATTLE)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    battle = load_battle(args.battle)
    report = simulate(battle, args.runs, seed=args.seed, workers=args.workers)
    print("\n".join(summary(report)))


if __name__ == "__main__":  # the guard matters: worker processes re-import this file
    main()
