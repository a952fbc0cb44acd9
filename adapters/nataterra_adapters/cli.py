"""The ``nataterra`` command line.

``nataterra demo`` plays a seeded game between random legal players, prints a summary,
writes the log and verifies it. ``nataterra verify`` checks logs and exits with the code
of the most severe failure.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from nataterra_core.bots import RandomPlayer, play
from nataterra_core.game import DEFAULT_SEATS, new_game, verify_log
from nataterra_core.kernel import LogWriter, Verdict
from nataterra_core.rules.state import GameState

app = typer.Typer(
    help="Nataterra rules engine: play, replay and verify games.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()

EXIT_CODES = {
    "valid": 0,
    "incomplete": 2,
    "torn": 3,
    "version": 4,
    "content": 5,
    "read": 6,
    "head": 7,
    "seed": 8,
    "chain": 9,
    "replay": 10,
}
"""Exit codes of ``verify`` by failure class; with several logs the highest code wins."""

ContentOption = Annotated[
    Path | None, typer.Option(help="A user content pack overlaid on the provisional one.")
]


def verdict_line(name: str, verdict: Verdict) -> str:
    """One line of rich markup for a verdict."""
    if verdict.valid:
        result = verdict.result
        if result is None or not result.winners:
            outcome = f"drawn ({result.reason if result else 'no result'})"
        else:
            outcome = f"won by {', '.join(result.winners)} ({result.reason})"
        return f"[green]VALID[/] {name}: {verdict.records} records, {outcome}"
    where = f"record {verdict.seq}" if verdict.seq is not None else "log"
    label = "INCOMPLETE" if verdict.status == "incomplete" else f"INVALID ({verdict.failure})"
    return f"[red]{label}[/] {name}: {where}: {verdict.reason}"


def summary_table(state: GameState) -> Table:
    """Each civilisation's stock and units on the map."""
    table = Table("civilisation", "food", "wood", "metal", "units on the map", "zones held")
    for player in state.players:
        stacks = list(state.stacks_of(player.civ))
        table.add_row(
            player.civ,
            str(player.stock.food),
            str(player.stock.wood),
            str(player.stock.metal),
            str(sum(s.count for s in stacks)),
            str(len({s.zone for s in stacks})),
        )
    return table


@app.command()
def demo(
    seed: Annotated[int, typer.Option(help="Game seed (design.md §3 --seed derivation).")] = 1,
    out: Annotated[Path, typer.Option(help="Where to write the game's log.")] = Path(
        "demo-game.jsonl"
    ),
    turns: Annotated[int, typer.Option(help="Player turns to play (max_turns).", min=1)] = 30,
    players: Annotated[int, typer.Option(help="Number of players, 2 to 4.", min=2, max=4)] = 2,
    content: ContentOption = None,
) -> None:
    """Play a seeded game between random legal players, write its log and verify it."""
    out.unlink(missing_ok=True)
    with LogWriter(out) as writer:
        session = new_game(
            players,
            seed=seed,
            options={"max_turns": turns},
            content=content,
            sink=writer.write,
        )
        bots = {seat: RandomPlayer(seed * 16 + i) for i, seat in enumerate(session.header.seats)}
        commands = play(session, bots)
        result = session.close()
    state = session.state
    console.print(
        f"[bold]Nataterra[/] learning game, seed {seed}: {', '.join(DEFAULT_SEATS[players])}; "
        f"{state.turn} turns, {commands} commands by random legal players"
    )
    console.print(
        "Movement, resources and combat are played; development is not in the engine "
        "yet, so that phase is only ended."
    )
    console.print(summary_table(state))
    console.print(f"result: {result.reason}; log {out} ({len(session.lines)} records)")
    console.print(f"head {session.head}")
    console.print(verdict_line(str(out), verify_log(out.read_bytes(), content=content)))


@app.command("verify")
def verify_command(
    logs: Annotated[list[Path], typer.Argument(help="Log files to verify.")],
    expect_head: Annotated[
        str | None, typer.Option(help="Published head (hex) the log must end in.")
    ] = None,
    content: ContentOption = None,
) -> None:
    """Verify logs: read, chain, seed commitment, re-execution. Exit code: worst failure."""
    worst = 0
    for path in logs:
        verdict = verify_log(path.read_bytes(), content=content, expect_head=expect_head)
        console.print(verdict_line(str(path), verdict))
        worst = max(worst, EXIT_CODES[verdict.failure or verdict.status])
    raise typer.Exit(worst)


def main() -> None:
    """Console-script entry point."""
    sys.exit(app())
