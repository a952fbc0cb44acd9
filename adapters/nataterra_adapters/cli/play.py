"""``nataterra play``: a hot-seat game in the terminal, with undo and redo, for any game.

Each prompt shows the acting seat's view (``system.seat_view``) in the system's words
(``system.presenter.view``) and its legal commands by number, so one seat never sees what
only another may know.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.prompt import Prompt
from rich.text import Text

from nataterra_core.game import DEFAULT_GAME, GameSession
from nataterra_core.kernel import LogWriter, UndoRefused
from nataterra_core.kernel.registry import Presenter, RuleSystem

from .common import (
    ContentOption,
    ForceOption,
    GameOption,
    SeedOption,
    check_content,
    check_out,
    console,
    log_path,
    rule_system,
)
from .newgame import (
    ModeOption,
    OptionOption,
    PlayersOption,
    StructuredOption,
    check_client_seeds,
    check_start,
    game_options,
    new_game_id,
    start,
)
from .words import view_text

__all__ = ["play_command"]

PLAY_TURNS = 30
"""The turn limit of a hot-seat game (of a system with one) when ``--turns`` is not given."""


def play_command(
    game: GameOption = DEFAULT_GAME,
    players: PlayersOption = None,
    seed: SeedOption = None,
    turns: Annotated[
        int | None,
        typer.Option(
            help=f"Player turns before the game ends drawn (max_turns; {PLAY_TURNS}; 0: no limit).",
            min=0,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Write the log here, record by record (default: a fresh file per "
            "game in the user's data folder, $XDG_DATA_HOME/nataterra/games)."
        ),
    ] = None,
    force: ForceOption = False,
    content: ContentOption = None,
    mode: ModeOption = None,
    structured: StructuredOption = None,
    option: OptionOption = None,
    client_seed: Annotated[
        list[str] | None,
        typer.Option(
            "--client-seed",
            help="SEAT=VALUE: a seat's own contribution to the dice (repeat for every seat; "
            "design.md §3).",
        ),
    ] = None,
) -> None:
    """Hot-seat game in this terminal: pick commands by number; u undo, r redo, q quit.

    Each seat sees only its own view (its hands; counts of everything hidden). Quitting
    closes the game as abandoned; the log then ends with reveal and end.
    """
    record = rule_system(game)
    check_content(record, content)
    check_out(out)
    options = game_options(
        record,
        turns=turns,
        default_turns=PLAY_TURNS,
        mode=mode,
        structured=structured,
        extra=option or (),
    )
    check_start(record, players, options, content)
    check_client_seeds(record, players, client_seed or ())
    game_id = new_game_id(seed)
    out = log_path(out, game_id, force=force)  # nothing is written before this passes
    out.unlink(missing_ok=True)
    writer: LogWriter | None = LogWriter(out)
    try:
        session = start(
            record,
            players,
            seed=seed,
            options=options,
            content=content,
            sink=writer.write if writer is not None else None,
            client_seeds=client_seed or (),
            game_id=game_id,
        )
        _hot_seat(record, session)
        result = session.close()
    finally:
        if writer is not None:
            writer.close()
    console.rule("game over")
    console.print(view_text(record, session.state, None))
    console.print(f"result: {record.presenter.outcome(result)}")
    where = f"; log {out}"
    console.print(f"{len(session.lines)} records{where}; head {session.head}")


def _hot_seat(record: RuleSystem, session: GameSession) -> None:
    """Prompt the acting seat until the game ends or someone quits."""
    words = record.presenter
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        commands = session.legal_commands(seat)
        console.rule(f"{seat} to play")
        console.print(view_text(record, session.state, seat))
        console.print(
            Columns(
                [
                    Text.assemble((f"{i:>3} ", "bold"), words.command(c))
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
            _undo_or_redo(words, session, seat, answer)
        elif answer.isdigit() and 1 <= int(answer) <= len(commands):
            command = commands[int(answer) - 1]
            events = session.apply(seat, command)
            for line in _new_facts(words, words.command(command, seat), events):
                console.print(Text(f"  -> {line}"))
        else:
            console.print(f"[yellow]type a number from 1 to {len(commands)}, u, r or q[/]")


def _new_facts(words: Presenter, said: str, events: Sequence[Any]) -> list[str]:
    """The events' sentences, without one that only repeats the command's own sentence."""
    return [text for text in map(words.event, events) if text != said]


def _undo_or_redo(words: Presenter, session: GameSession, seat: str, answer: str) -> None:
    try:
        if answer == "u":
            console.print(f"  undone: record {session.undo(seat)}")
        else:
            events = session.redo(seat)
            console.print(Text(f"  redone: {'; '.join(words.event(e) for e in events)}"))
    except UndoRefused as exc:
        console.print(Text(f"  {exc.reason}", style="yellow"))
