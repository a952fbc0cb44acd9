"""The ``nataterra`` command line.

* ``demo`` plays a seeded game between bots (random legal players, or ``--bot heuristic``),
  writes its log and verifies it;
* ``play`` is a hot-seat game in the terminal, with undo and redo;
* ``show`` prints the position after any record of a log, as one seat sees it;
* ``replay`` steps through a log, one sentence per command and event;
* ``verify`` checks logs (in this process, in local worker processes or on a Dask cluster)
  and exits with the code of the most severe failure (:data:`EXIT_CODES`).

``docs/CLI.md`` is the reference.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import msgspec
import typer
from rich.columns import Columns
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from nataterra_core.game import GameSession, decider_for, new_game, verify_log
from nataterra_core.games.nataterra.bots import HeuristicPlayer, Player, RandomPlayer, play
from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.presenter import (
    describe_command,
    describe_event,
    describe_outcome,
    describe_record,
)
from nataterra_core.games.nataterra.rules.game import Nataterra
from nataterra_core.games.nataterra.rules.hexmap import GameMap
from nataterra_core.games.nataterra.rules.map_layout import is_structured
from nataterra_core.games.nataterra.rules.state import GameState
from nataterra_core.games.nataterra.system import DEFAULT_SEATS
from nataterra_core.games.nataterra.views import seat_view
from nataterra_core.kernel import (
    CommandRecord,
    ContentError,
    HeaderRefused,
    LogError,
    LogWriter,
    ReadLog,
    UndoRefused,
    UnknownContent,
    UnsupportedVersion,
    Verdict,
    read_log,
    replay_states,
    split_lines,
)

from .coverage_command import coverage
from .odds_command import odds
from .render import render_view
from .verify_many import (
    EXIT_CODES,
    ClusterUnavailable,
    bundle_pack,
    exit_code,
    verify_many,
)

__all__ = ["EXIT_CODES", "app", "main", "summary_table", "verdict_line"]

app = typer.Typer(
    help="Nataterra rules engine: play, replay and verify games.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)
"""Progress, warnings and errors: stdout stays the result, fit for a pipe."""

SETUP_FAILED = 1
"""Exit code when a command cannot run at all (bad content pack, Dask unavailable, …)."""

ContentOption = Annotated[
    Path | None, typer.Option(help="A user content pack overlaid on the provisional one.")
]
LogArgument = Annotated[
    Path, typer.Argument(help="A game log.", exists=True, dir_okay=False, readable=True)
]


# -- shared helpers ---------------------------------------------------------------------------


def verdict_line(name: str, verdict: Verdict) -> str:
    """One line of rich markup for a verdict."""
    if verdict.valid:
        result = verdict.result
        outcome = describe_outcome(result) if result else "no result"
        return f"[green]VALID[/] {name}: {verdict.records} records, {outcome}"
    where = f"record {verdict.seq}" if verdict.seq is not None else "log"
    label = "INCOMPLETE" if verdict.status == "incomplete" else f"INVALID ({verdict.failure})"
    return f"[red]{label}[/] {name}: {where}: {_escape(verdict.reason)}"


def _escape(text: str) -> str:
    # Reasons quote logged values, which may hold "[...]" that rich would read as markup.
    return text.replace("[", r"\[")


def summary_table(state: GameState) -> Table:
    """Each civilisation's victory cubes, stock and units on the map."""
    table = Table(
        "civilisation", "cubes", "food", "wood", "metal", "units on the map", "zones held"
    )
    for player in state.players:
        stacks = list(state.stacks_of(player.civ))
        table.add_row(
            player.civ,
            str(state.cubes.get(player.civ, 0)),
            str(player.stock.food),
            str(player.stock.wood),
            str(player.stock.metal),
            str(sum(s.count for s in stacks)),
            str(len({s.zone for s in stacks})),
        )
    return table


def _check_content(content: Path | None) -> None:
    """Load a user pack once up front, so a broken pack is one clear error, not one per log."""
    if content is None:
        return
    try:
        load_pack(content)
    except (ContentError, OSError) as exc:
        err_console.print(f"[red]content pack {content}[/]: {_escape(str(exc))}")
        raise typer.Exit(SETUP_FAILED) from exc


def _game_map(decider: object, state: GameState) -> GameMap | None:
    return decider.context(state.map_id).map if isinstance(decider, Nataterra) else None


def _read(path: Path, content: Path | None) -> ReadLog:
    """Read and decode a log for ``show`` and ``replay`` (no verification).

    A torn tail is skipped with a warning: the records before it are intact, and looking at
    a crashed game is exactly when one wants them.
    """
    _check_content(content)
    data = path.read_bytes()
    torn = split_lines(data).torn
    if torn is not None:
        err_console.print(
            f"[yellow]warning[/]: {path}: ignoring {len(torn)} bytes after the last newline "
            "(a torn record)"
        )
        data = data[: len(data) - len(torn)]
    try:
        return read_log(data, lambda header: decider_for(header, content))
    except LogError as exc:
        _log_failed(path, exc)


def _log_failed(path: Path, exc: LogError) -> NoReturn:
    failure = (
        "version"
        if isinstance(exc, UnsupportedVersion)
        else "content"
        if isinstance(exc, UnknownContent)
        else "header"
        if isinstance(exc, HeaderRefused)
        else "read"
    )
    err_console.print(f"[red]cannot read {path}[/] ({failure}): {_escape(str(exc))}")
    raise typer.Exit(EXIT_CODES[failure]) from exc


def _states(path: Path, log: ReadLog) -> dict[int, GameState]:
    """The state after each record (undo honoured)."""
    try:
        return dict(replay_states(log.decider, log.header, log.records))
    except LogError as exc:
        _log_failed(path, exc)


# -- demo -------------------------------------------------------------------------------------


class Mode(StrEnum):
    """The game modes (N-SETUP-1 learning; N-SETUP-8 advanced)."""

    learning = "learning"
    advanced = "advanced"


ModeOption = Annotated[
    Mode,
    typer.Option(
        help="learning: Battlefield Dominance; advanced: one victory condition per category "
        "(N-SETUP-8), 2 to 4 players on a map they build (N-MAP-4)."
    ),
]


StructuredOption = Annotated[
    bool | None,
    typer.Option(
        "--structured/--no-structured",
        help="The players build the map first (N-MAP-4 map structuring); by default only "
        "in advanced mode (N-SETUP-8), where --no-structured plays the fixed advanced map.",
    ),
]


def _options(turns: int, mode: Mode, structured: bool | None = None) -> dict[str, Any]:
    """The header options (``mode`` only when it is not the default learning mode,
    ``map_structuring`` only when asked for either way)."""
    options: dict[str, Any] = {"max_turns": turns}
    if mode is not Mode.learning:
        options["mode"] = mode.value
    if structured is not None:
        options["map_structuring"] = structured
    return options


class Bot(StrEnum):
    """The computer players ``demo`` can seat."""

    heuristic = "heuristic"
    random = "random"


@app.command()
def demo(
    seed: Annotated[int, typer.Option(help="Game seed (design.md §3 --seed derivation).")] = 1,
    out: Annotated[Path, typer.Option(help="Where to write the game's log.")] = Path(
        "demo-game.jsonl"
    ),
    turns: Annotated[
        int, typer.Option(help="At most this many player turns (max_turns).", min=1)
    ] = 100,
    players: Annotated[int, typer.Option(help="Number of players, 2 to 4.", min=2, max=4)] = 2,
    content: ContentOption = None,
    bot: Annotated[
        Bot, typer.Option(help="random: random legal moves; heuristic: purposeful seeded bots.")
    ] = Bot.heuristic,
    mode: ModeOption = Mode.learning,
    structured: StructuredOption = None,
) -> None:
    """Play a seeded game between bots, write its log and verify it."""
    out.unlink(missing_ok=True)
    options = _options(turns, mode, structured)
    with LogWriter(out) as writer:
        session = new_game(
            players,
            seed=seed,
            options=options,
            content=content,
            sink=writer.write,
        )
        pack = session.decider.pack if isinstance(session.decider, Nataterra) else None
        bots: dict[str, Player] = {
            seat: HeuristicPlayer(seed * 16 + i, pack=pack)
            if bot is Bot.heuristic
            else RandomPlayer(seed * 16 + i)
            for i, seat in enumerate(session.header.seats)
        }
        commands = play(session, bots)
        result = session.close()
    state = session.state
    built = is_structured(state.map_id)
    console.print(
        f"[bold]Nataterra[/] {mode.value} game{' on a structured map' if built else ''}, "
        f"seed {seed}: {', '.join(DEFAULT_SEATS[players])}; "
        f"{state.turn} turns, {commands} commands by {bot.value} players"
    )
    console.print(
        "Movement, resources, combat, recruiting, research and structures are played, "
        f"with the {mode.value}-mode victory conditions and base destruction."
    )
    console.print(summary_table(state))
    console.print(f"result: {describe_outcome(result)}; log {out} ({len(session.lines)} records)")
    console.print(f"head {session.head}")
    verdict = verify_log(out.read_bytes(), content=content)
    console.print(verdict_line(str(out), verdict), soft_wrap=True)


# -- play -------------------------------------------------------------------------------------


@app.command("play")
def play_command(
    players: Annotated[int, typer.Option(help="Number of players, 2 to 4.", min=2, max=4)] = 2,
    seed: Annotated[int, typer.Option(help="Game seed (design.md §3 --seed derivation).")] = 1,
    turns: Annotated[
        int, typer.Option(help="Player turns before the game ends drawn (0: no limit).", min=0)
    ] = 30,
    out: Annotated[Path | None, typer.Option(help="Write the log here, record by record.")] = None,
    content: ContentOption = None,
    mode: ModeOption = Mode.learning,
    structured: StructuredOption = None,
) -> None:
    """Hot-seat game in this terminal: pick commands by number; u undo, r redo, q quit.

    Each seat sees only its own view (its hands; counts of everything hidden). Quitting
    closes the game as abandoned; the log (with --out) then ends with reveal and end.
    """
    _check_content(content)
    if out is not None:
        out.unlink(missing_ok=True)
    writer = LogWriter(out) if out is not None else None
    try:
        session = new_game(
            players,
            seed=seed,
            options=_options(turns, mode, structured),
            content=content,
            sink=writer.write if writer is not None else None,
        )
        _hot_seat(session)
        result = session.close()
    finally:
        if writer is not None:
            writer.close()
    console.rule("game over")
    console.print(
        render_view(seat_view(session.state, None), _game_map(session.decider, session.state))
    )
    console.print(f"result: {describe_outcome(result)}")
    where = f"; log {out}" if out is not None else ""
    console.print(f"{len(session.lines)} records{where}; head {session.head}")


def _hot_seat(session: GameSession) -> None:
    """Prompt the acting seat until the game ends or someone quits."""
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        commands = session.legal_commands(seat)
        console.rule(f"{seat} to play")
        game_map = _game_map(session.decider, session.state)  # it grows while structuring
        console.print(render_view(seat_view(session.state, seat), game_map))
        console.print(
            Columns(
                [
                    Text.assemble((f"{i:>3} ", "bold"), describe_command(c))
                    for i, c in enumerate(commands, 1)
                ],
                column_first=True,
            )
        )
        keys = [f"1-{len(commands)}" if len(commands) > 1 else "1", "q quit"]
        keys += ["u undo"] if session.can_undo(seat) else []
        keys += ["r redo"] if session.can_redo(seat) else []
        try:
            answer = Prompt.ask(f"[bold]{seat}[/] ({', '.join(keys)})", console=console)
        except EOFError:  # input closed: the same as quitting
            answer = "q"
        answer = answer.strip().lower()
        if answer == "q":
            return
        if answer in ("u", "r"):
            _undo_or_redo(session, seat, answer)
        elif answer.isdigit() and 1 <= int(answer) <= len(commands):
            command = commands[int(answer) - 1]
            events = session.apply(seat, command)
            for line in _new_facts(describe_command(command, seat), events):
                console.print(Text(f"  -> {line}"))
        else:
            console.print(f"[yellow]type a number from 1 to {len(commands)}, u, r or q[/]")


def _new_facts(said: str, events: Sequence[Any]) -> list[str]:
    """The events' sentences, without one that only repeats the command's own sentence."""
    return [text for text in map(describe_event, events) if text != said]


def _undo_or_redo(session: GameSession, seat: str, answer: str) -> None:
    try:
        if answer == "u":
            console.print(f"  undone: record {session.undo(seat)}")
        else:
            events = session.redo(seat)
            console.print(Text(f"  redone: {'; '.join(describe_event(e) for e in events)}"))
    except UndoRefused as exc:
        console.print(Text(f"  {exc.reason}", style="yellow"))


# -- show and replay --------------------------------------------------------------------------


@app.command()
def show(
    log: LogArgument,
    at: Annotated[
        int | None, typer.Option(help="Show the state after this record (default: the last).")
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option("--as", help="The seat whose view to show (default: a spectator's)."),
    ] = None,
    content: ContentOption = None,
) -> None:
    """Print the position after a record of LOG as one seat sees it (no verification).

    Only that seat's view is printed: its own hands, counts of everything hidden.
    """
    read = _read(log, content)
    last = len(read.records) - 1
    seq = last if at is None else at
    if not 0 <= seq <= last:
        raise typer.BadParameter(f"the log has records 0 to {last}", param_hint="--at")
    if seat is not None and seat not in read.header.seats:
        raise typer.BadParameter(f"seats are {', '.join(read.header.seats)}", param_hint="--as")
    state = _states(log, read)[seq]
    summary, _ = describe_record(read.records[seq])
    console.print(Text(f"{read.header.game_id}, after record {seq} of {last}: {summary}"))
    console.print(render_view(seat_view(state, seat), _game_map(read.decider, state)))


@app.command()
def replay(
    log: LogArgument,
    start: Annotated[int, typer.Option("--from", help="First record to print.", min=0)] = 0,
    stop: Annotated[
        int | None, typer.Option("--to", help="Last record to print (default: the last).")
    ] = None,
    content: ContentOption = None,
) -> None:
    """Step through LOG: each record's seat, command and events in words (no verification).

    Deck orders are never printed, so replaying a game still in progress spoils nothing.
    """
    read = _read(log, content)
    _states(log, read)  # a log whose undo records do not fit fails here, not half-way
    stop = len(read.records) - 1 if stop is None else stop
    for record in read.records[start : stop + 1]:
        summary, events = describe_record(record)
        events = tuple(e for e in events if e != summary)
        line = Text.assemble((f"{record.seq:>5} ", "dim"), summary)
        if isinstance(record, CommandRecord):
            line.stylize("bold", 6, 6 + len(record.seat))
        console.print(line, soft_wrap=True)  # one line per record: fit for grep
        for event in events:
            console.print(Text(f"        -> {event}"), soft_wrap=True)


# -- verify -----------------------------------------------------------------------------------


EXIT_HELP = (
    "Exit codes: "
    + "; ".join(f"{code} {name}" for name, code in sorted(EXIT_CODES.items(), key=lambda i: i[1]))
    + f"; {SETUP_FAILED} the run could not start or complete. With several logs the highest wins."
)


@app.command("verify", epilog=EXIT_HELP)
def verify_command(
    logs: Annotated[list[Path], typer.Argument(help="Log files to verify.")],
    expect_head: Annotated[
        str | None, typer.Option(help="Published head (hex) every log must end in.")
    ] = None,
    content: ContentOption = None,
    workers: Annotated[
        int, typer.Option(help="Local worker processes (1: verify in this process).", min=1)
    ] = 1,
    dask_scheduler: Annotated[
        str | None,
        typer.Option(
            help="Verify on this Dask cluster (tcp://host:8786); needs the cluster extra."
        ),
    ] = None,
    json_lines: Annotated[
        bool, typer.Option("--json", help="Print one JSON verdict per line instead of text.")
    ] = False,
) -> None:
    """Verify logs: read, chain, seed commitment, re-execution; exit with the worst failure.

    One verdict line per log (with the claimed result of a valid one), then a summary.
    """
    if workers > 1 and dask_scheduler is not None:
        raise typer.BadParameter("give --workers or --dask-scheduler, not both")
    _check_content(content)
    verdicts = verify_many(
        logs,
        content=bundle_pack(content) if content is not None else None,
        expect_head=expect_head,
        workers=workers,
        scheduler=dask_scheduler,
    )
    out = err_console if json_lines else console
    counts: Counter[str] = Counter()
    worst = 0
    try:
        with _progress() as progress:
            task = progress.add_task("verifying", total=len(logs))
            for path, verdict in zip(logs, verdicts, strict=True):
                code = exit_code(verdict)
                if json_lines:
                    typer.echo(_json_line(path, verdict, code))
                else:
                    console.print(verdict_line(str(path), verdict), soft_wrap=True)
                counts[verdict.failure or verdict.status] += 1
                worst = max(worst, code)
                progress.advance(task)
    except ClusterUnavailable as exc:
        err_console.print(f"[red]{_escape(str(exc))}[/]")
        raise typer.Exit(SETUP_FAILED) from exc
    except Exception as exc:  # a worker or the cluster failed mid-run: say so, keep the worst
        err_console.print(
            f"[red]verification stopped after {counts.total()} of {len(logs)} logs[/]: "
            f"{type(exc).__name__}: {_escape(str(exc))}"
        )
        _print_summary(out, counts, max(worst, SETUP_FAILED))
        raise typer.Exit(max(worst, SETUP_FAILED)) from exc
    _print_summary(out, counts, worst)
    raise typer.Exit(worst)


def _progress() -> Progress:
    # On a terminal the bar shares stdout with the verdicts, and rich prints them above it;
    # with stdout piped the bar goes to stderr and stdout gets only results.
    on_stdout = console.is_terminal
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console if on_stdout else err_console,
        redirect_stdout=on_stdout,
        redirect_stderr=on_stdout,
    )


def _json_line(path: Path, verdict: Verdict, code: int) -> str:
    record = {"log": str(path), "exit_code": code, **msgspec.to_builtins(verdict)}
    return msgspec.json.encode(record).decode()


def _print_summary(out: Console, counts: Counter[str], worst: int) -> None:
    """A table of logs per verdict class with its exit code, then a one-line total."""
    if len(counts) > 1 or "valid" not in counts:
        table = Table("verdict", "logs", "exit code")
        for name in sorted(counts, key=lambda n: EXIT_CODES[n]):
            table.add_row(name, str(counts[name]), str(EXIT_CODES[name]))
        out.print(table)
    total = counts.total()
    invalid = total - counts["valid"] - counts["incomplete"]
    out.print(
        f"{total} log{'s' if total != 1 else ''}: {counts['valid']} valid, "
        f"{counts['incomplete']} incomplete, {invalid} invalid; exit code {worst}"
    )


app.command("odds")(odds)  # the battle calculator: docs/COMBAT_SANDBOX.md
app.command("coverage")(coverage)  # the rules-coverage report: docs/COVERAGE.md


def main() -> None:
    """Console-script entry point."""
    sys.exit(app())
