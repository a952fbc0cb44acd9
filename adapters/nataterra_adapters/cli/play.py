"""``nataterra play``: a hot-seat game in the terminal, with undo and redo, for any game.

The players' side of the table (a screen redrawn in place, or plain lines) is :mod:`.table`.

Each prompt shows the acting seat's view (``system.seat_view``) in the system's words
(``system.presenter.view``) and its legal commands by number, so one seat never sees what
only another may know.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from nataterra_core.game import DEFAULT_GAME, GameSession
from nataterra_core.kernel import (
    Command,
    CommandRecord,
    LogWriter,
    Outcome,
    ReadLog,
    RecordCodec,
    ReplayDiverged,
    RevealRecord,
    Session,
    UndoRefused,
    verify,
)
from nataterra_core.kernel.bounded import LOG_BYTES, read_regular_file
from nataterra_core.kernel.failure_words import verdict_words
from nataterra_core.kernel.registry import RuleSystem
from nataterra_core.kernel.wording import setup_words

from ..local_files import write_private
from .common import (
    ContentOption,
    ForceOption,
    GameOption,
    SeedOption,
    console,
    log_path,
    read,
    rule_system,
)
from .newgame import (
    ModeOption,
    OptionOption,
    PlayersOption,
    ScenarioOption,
    StructuredOption,
    check_client_seeds,
    new_game_id,
    prepare,
    scenario_seats,
    start,
)
from .table import LineTable, ScreenTable, Table, screen_fits
from .words import view_text, worded

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
    scenario: ScenarioOption = None,
    client_seed: Annotated[
        list[str] | None,
        typer.Option(
            "--client-seed",
            help="SEAT=VALUE: a seat's own contribution to the dice (repeat for every seat; "
            "docs/DICE.md).",
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Continue a suspended game from its log (and the secret beside it)."),
    ] = None,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain",
            help="Print each turn as lines even on a terminal (the default when input or "
            "output is not a terminal, or the terminal is smaller than 60x16).",
        ),
    ] = False,
) -> None:
    """Hot-seat game in this terminal: pick commands by number; u undo, r redo, q quit.

    On a terminal the game is one screen redrawn in place: the status line on top, the
    other seats' last moves under it, the board (j/k scroll it, l shows every move so far)
    and the choices (n/p page through them), the last error above the prompt. Elsewhere
    (a pipe; or --plain) each turn is printed as lines.

    Each seat sees only its own view (its hands; counts of everything hidden). ``q`` asks
    whether to suspend the game (resume it later with ``--resume LOG``) or abandon it (the
    log then ends with reveal and end); Ctrl-C suspends. The secret seed of a game in
    progress is kept beside its log (``LOG.secret``, mode 0600) until the game is closed.
    """
    if resume is not None:
        _resume(resume, content, plain)
        return
    record = rule_system(game)
    seats = scenario_seats(record, scenario, players)
    options = prepare(
        record,
        seats,
        content=content,
        out=out,
        turns=turns,
        default_turns=PLAY_TURNS,
        mode=mode,
        structured=structured,
        extra=option or (),
        scenario=scenario,
    )
    check_client_seeds(record, seats, client_seed or ())
    game_id = new_game_id(seed)
    out = log_path(out, game_id, force=force)  # nothing is written before this passes
    out.unlink(missing_ok=True)
    secret = _secret_path(out)
    secret.unlink(missing_ok=True)
    writer = LogWriter(out)
    try:
        session = start(
            record,
            seats,
            seed=seed,
            options=options,
            content=content,
            sink=writer.write,
            client_seeds=client_seed or (),
            game_id=game_id,
            keep_seed=lambda server_seed: _keep_secret(secret, server_seed),
        )
        _finish(record, session, out, plain)
    finally:
        writer.close()


SECRET_BYTES = 1024
"""Largest ``.secret`` file read (a seed in hex is 64 characters and a newline)."""
SEED_BYTES = 32
"""A server seed's length (the log's reveal holds it as 64 hex digits)."""


def _secret_path(log: Path) -> Path:
    return log.with_name(log.name + ".secret")


def _keep_secret(path: Path, server_seed: bytes) -> None:
    """Write the seed of a game in progress beside its log, readable by this user only."""
    write_private(path, server_seed.hex().encode() + b"\n")


def _resume(log_file: Path, content: Path | None, plain: bool) -> None:
    """Continue a suspended hot-seat game: re-execute its log with the kept seed.

    A game a crash left behind after it ended is tidied instead: a log cut after its reveal
    gets its end record, and a finished game's leftover secret is removed once the log
    verifies; either way the game's end is shown."""
    secret = _secret_path(log_file)
    if not log_file.is_file() or not secret.is_file():
        raise typer.BadParameter(
            f"{log_file} is not a suspended game (it needs {secret.name} beside it)",
            param_hint="--resume",
        )
    record, log = read(log_file, content)
    server_seed = _kept_seed(log, secret)
    try:
        session = Session.from_log(
            log.decider, log.header, log.records, log.lines, server_seed, finish=True
        )
    except (ReplayDiverged, ValueError) as exc:  # ValueError: a seed the header did not commit to
        raise typer.BadParameter(f"{log_file} does not re-execute: {exc}") from exc
    missing = session.lines[len(log.lines) :]
    if missing:  # a crash between the reveal and the end: the game had ended, finish its log
        with LogWriter(log_file) as writer:
            writer.write_all(missing)
        console.print(f"{log.header.game_id} had ended; its log lacked the end record, now written")
        _over(record, session, log_file)
        return
    if session.closed:
        _drop_leftover_secret(log_file, log)
        _over(record, session, log_file)
        return
    with LogWriter(log_file) as writer:
        session.attach_sink(writer.write)
        console.print(f"resuming {log.header.game_id} after record {len(session.lines) - 1}")
        _finish(record, session, log_file, plain)


def _kept_seed(log: ReadLog, secret: Path) -> bytes:
    """The game's server seed as its secret file keeps it; if that file cannot be read, its
    log's reveal (the seed is public once revealed), else a usage error naming the file."""
    try:
        seed = bytes.fromhex(read_regular_file(secret, SECRET_BYTES).decode("ascii").strip())
        if len(seed) != SEED_BYTES:
            raise ValueError(f"{len(seed)} bytes, not {SEED_BYTES}")
        return seed
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        reveal = next((r for r in log.records if isinstance(r, RevealRecord)), None)
        if reveal is not None:
            return bytes.fromhex(reveal.server_seed)  # read_log checked it is hex
        raise typer.BadParameter(
            f"{secret} does not hold a server seed in hex ({exc})", param_hint="--resume"
        ) from exc


def _drop_leftover_secret(log_file: Path, log: ReadLog) -> None:
    """A finished game whose secret is still there (a crash after its end record was written,
    before the secret was removed): once the whole log verifies, remove the secret, whose seed
    the log's reveal has made public; a log that does not verify keeps it and is refused."""
    try:
        data = read_regular_file(log_file, LOG_BYTES)
    except OSError as exc:
        raise typer.BadParameter(f"cannot read {log_file}: {exc}", param_hint="--resume") from exc
    verdict = verify(data, lambda header: log.decider)
    if not verdict.valid:
        said = verdict_words(verdict)
        raise typer.BadParameter(
            f"{log_file} is a finished game that does not verify "
            f"({verdict.status} at record {verdict.seq}: {said}); "
            f"its secret {_secret_path(log_file).name} is kept",
            param_hint="--resume",
        )
    _secret_path(log_file).unlink(missing_ok=True)
    console.print(
        f"{log.header.game_id} is a finished game (its log verifies); removed its leftover "
        f"{_secret_path(log_file).name}, whose seed the log's reveal has made public",
        soft_wrap=True,
        highlight=False,
        markup=False,
    )


def _finish(record: RuleSystem, session: GameSession, out: Path, plain: bool) -> None:
    """Play on until the game ends, is abandoned (closed) or suspended (left open)."""
    table = _table(plain)
    options = session.decider.redact_options(session.header.options, None)
    table.note(f"{record.title}: {setup_words(options, record)}")  # what is being played
    try:
        ending = _hot_seat(record, session, table)
    finally:
        table.close()
    if ending == "suspended":
        console.print(
            f"suspended after record {len(session.lines) - 1}; continue with "
            f"nataterra play --resume {out}"
        )
        return
    session.close()
    _over(record, session, out)


def _over(record: RuleSystem, session: GameSession, out: Path) -> None:
    """A closed game: drop its secret file (its log's reveal holds the seed now) and show
    the final position, the result and the log."""
    _secret_path(out).unlink(missing_ok=True)
    result = session.outcome() or Outcome(reason="abandoned")
    console.rule("game over")
    console.print(view_text(record, session.state, None, revealed=True), soft_wrap=True)
    console.print(f"result: {record.presenter.outcome(result)}")
    console.print(f"{len(session.lines)} records; log {out}; head {session.head}")


def _table(plain: bool) -> Table:
    """The full screen on a terminal of a usable size (both ends a terminal), else lines."""
    on_terminal = sys.stdin.isatty() and sys.stdout.isatty() and console.is_terminal
    if plain or not on_terminal or not screen_fits(console):
        return LineTable(console)
    return ScreenTable(console)


def _hot_seat(record: RuleSystem, session: GameSession, table: Table) -> str:
    """Prompt the acting seat until the game ends (``over``) or someone quits: ``suspended``
    (Ctrl-C, or ``q`` then ``s``) or ``abandoned``."""
    try:
        return _prompt_loop(record, session, table)
    except KeyboardInterrupt:
        console.print()
        return "suspended"


class Menu:
    """Stable command numbers for one seat (issue 17: a number never silently changes its
    meaning between screens).

    A command keeps its number while it stays offered, and a number is not reused for
    another command; the menu starts again from 1 only when none of its commands is offered
    any more (a new phase or decision), and says so.
    """

    def __init__(self) -> None:
        self.numbers: dict[Command, int] = {}

    def number(self, commands: Sequence[Command]) -> tuple[list[tuple[int, Command]], bool]:
        """The commands with their numbers, in number order, and whether the menu restarted."""
        restarted = bool(self.numbers) and not any(c in self.numbers for c in commands)
        if restarted:
            self.numbers.clear()
        for command in commands:
            if command not in self.numbers:
                self.numbers[command] = len(self.numbers) + 1
        return sorted((self.numbers[c], c) for c in commands), restarted


def _prompt_loop(record: RuleSystem, session: GameSession, table: Table) -> str:
    words = record.presenter
    menus: dict[str, Menu] = {}
    shown: str | None = None  # the seat whose view is on the screen
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        if shown is not None and seat != shown and not table.hand_over(seat):
            outcome = _quit(table)
            if outcome != "continue":
                return outcome
            continue
        shown = seat
        numbered, restarted = menus.setdefault(seat, Menu()).number(session.legal_commands(seat))
        by_number = dict(numbered)
        view = record.seat_view(session.state, seat)
        offers = [(n, words.offer(c, seat, view)) for n, c in numbered]
        keys = ["a number", "q quit"]
        keys += ["u undo"] if session.can_undo(seat) else []
        keys += ["r redo"] if session.can_redo(seat) else []
        try:
            answer = table.ask(
                seat, view_text(record, session.state, seat), offers, restarted, keys
            )
        except EOFError:  # input closed: the same as abandoning
            return "abandoned"
        if answer == "q":
            outcome = _quit(table)
            if outcome != "continue":
                return outcome
        elif answer in ("u", "r"):
            _undo_or_redo(record, session, seat, answer, table)
        elif answer.isdigit() and int(answer) in by_number:
            command, before = by_number[int(answer)], session.state
            events = session.apply(seat, command)
            said, facts = worded(
                record, command, seat, events, before, session.decider, reader=seat, revealed=False
            )
            # The other seats read the move later on the same screen: a spectator's words.
            seen = worded(
                record, command, seat, events, before, session.decider, reader=None, revealed=False
            )
            table.moved(seat, said, facts, seen=seen)
        else:
            numbers = ", ".join(str(n) for n, _ in numbered[:3]) + (
                ", …" if len(numbered) > 3 else ""
            )
            table.error(f"type a number from the menu ({numbers}), u, r or q")
    return "over"


def _quit(table: Table) -> str:
    """``q``: suspend (resumable), abandon (closed now, after a confirmation) or go back to
    the game (``continue``); the end of input abandons, as it always has."""
    try:
        answer = table.choose(
            "s suspend (resume later), a abandon (the game ends now), c continue", "c"
        )
        answer = answer.strip().lower()
        if answer.startswith("s"):
            return "suspended"
        if not answer.startswith("a"):
            return "continue"
        sure = table.choose("abandon the game for good? (y/n)", "n")
    except EOFError:
        return "abandoned"
    return "abandoned" if sure.strip().lower().startswith("y") else "continue"


def _undo_or_redo(
    record: RuleSystem, session: GameSession, seat: str, answer: str, table: Table
) -> None:
    try:
        if answer == "u":
            undone = session.undo(seat)
            table.moved(seat, f"{seat} takes back a move (record {undone})", ())
            table.note(f"undone: record {undone}")
        else:
            before = session.state
            events = session.redo(seat)
            redone = RecordCodec(session.decider.command_types, session.decider.event_types)
            logged = redone.decode(session.lines[-1], len(session.lines) - 1)
            assert isinstance(logged, CommandRecord)  # redo appends the command again
            # As the seat sees them, each against the position it applies to (as the move
            # was echoed the first time): a unit named as players see it, never by its id.
            _, said = worded(
                record,
                logged.command,
                seat,
                events,
                before,
                session.decider,
                reader=seat,
                revealed=False,
            )
            table.note(f"redone: {'; '.join(said)}")
    except UndoRefused as exc:
        table.error(exc.reason)
