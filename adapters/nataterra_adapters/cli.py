"""The ``nataterra`` command line.

``nataterra demo`` shows the kernel end to end: a seeded game is played, its log written
and verified, then a copy is tampered with and a copy cut short, and both are verified
again to show how the first bad record is named. ``nataterra verify`` checks logs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from nataterra_core.kernel import (
    Decider,
    Header,
    LogWriter,
    Session,
    UnsupportedVersion,
    Verdict,
    seed_from_number,
    verify,
)

from .highroll import HighRoll

app = typer.Typer(
    help="Nataterra rules engine: play, replay and verify games.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()

# Exit codes of `verify`, most severe last; several logs failing differently: the highest wins.
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


def rule_system(header: Header) -> Decider[Any, Any, Any]:
    """The decider a log's header asks for."""
    if header.rules == HighRoll.rules:
        return HighRoll()
    raise UnsupportedVersion(
        f"rules {header.rules.id!r} v{header.rules.version} are not known to this version", 0
    )


def _verdict_line(name: str, verdict: Verdict) -> str:
    if verdict.valid:
        result = verdict.result
        winners = ", ".join(result.winners) if result and result.winners else "none (draw)"
        return f"[green]VALID[/]   {name}: {verdict.records} records, winner {winners}"
    where = f"record {verdict.seq}" if verdict.seq is not None else "log"
    label = "INCOMPLETE" if verdict.status == "incomplete" else f"INVALID ({verdict.failure})"
    return f"[red]{label}[/] {name}: {where}: {verdict.reason}"


@app.command()
def demo(
    seed: Annotated[int, typer.Option(help="Game seed (server seed derived from it).")] = 1,
    out: Annotated[Path, typer.Option(help="Where to write the game's log.")] = Path(
        "demo-game.jsonl"
    ),
    turns: Annotated[int, typer.Option(help="Turns to play.", min=1)] = 12,
) -> None:
    """Play a seeded kernel demo game, write its log, verify it, then tamper and verify again."""
    server_seed, game_id = seed_from_number(seed)
    out.unlink(missing_ok=True)
    with LogWriter(out) as writer:
        session = Session.new(
            HighRoll(),
            seats=("north", "south"),
            server_seed=server_seed,
            game_id=game_id,
            options={"turns": turns},
            sink=writer.write,
        )
        while session.outcome() is None:
            seat = session.acting_seats()[0]
            session.apply(seat, session.legal_commands(seat)[0])
        result = session.close()

    console.print(
        "[bold]Kernel demo[/] (the Nataterra rules are not on the kernel yet; "
        "this toy game High Roll stands in)"
    )
    table = Table("seat", "total")
    for seat, total in result.scores.items():
        table.add_row(seat, str(total))
    console.print(table)
    console.print(f"result: {result.reason}, winners {list(result.winners)}")
    console.print(f"log written to {out} ({len(session.lines)} records), head {session.head}")

    data = out.read_bytes()
    console.print(_verdict_line(str(out), verify(data, rule_system)))
    tampered = bytearray(data)
    middle = data.index(b'"value":', len(data) // 2) + len(b'"value":')
    tampered[middle] = ord("0") if tampered[middle] != ord("0") else ord("1")
    console.print(_verdict_line("tampered copy", verify(bytes(tampered), rule_system)))
    torn = data[: len(data) - 10]
    console.print(_verdict_line("copy cut mid-record", verify(torn, rule_system)))


@app.command("verify")
def verify_command(
    logs: Annotated[list[Path], typer.Argument(help="Log files to verify.")],
    expect_head: Annotated[
        str | None, typer.Option(help="Published head (hex) the log must end in.")
    ] = None,
) -> None:
    """Verify logs: read, chain, seed commitment, re-execution. Exit code: worst failure."""
    worst = 0
    for path in logs:
        verdict = verify(path.read_bytes(), rule_system, expect_head=expect_head)
        console.print(_verdict_line(str(path), verdict))
        key = verdict.failure or verdict.status
        worst = max(worst, EXIT_CODES[key])
    raise typer.Exit(worst)


def main() -> None:
    """Console-script entry point."""
    sys.exit(app())
