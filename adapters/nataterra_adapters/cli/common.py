"""What every command shares: the consoles, common options, reading a log, checking a pack.

Nothing here knows a game: the rule system comes from ``--game`` (through the registry) or
from a log's header, and its words from the system's presenter (:mod:`.words`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from nataterra_adapters.batch_verify import EXIT_CODES
from nataterra_core.game import decider_for
from nataterra_core.kernel import (
    ContentError,
    Decider,
    Header,
    HeaderRefused,
    LogError,
    ReadLog,
    ReplayFailed,
    UnknownContent,
    UnsupportedVersion,
    read_log,
    read_log_prefix,
    replay_prefix,
    split_lines,
)
from nataterra_core.kernel.bounded import LOG_BYTES, read_regular_file
from nataterra_core.kernel.failure_words import failure_words, stopped_words
from nataterra_core.kernel.registry import RuleSystem, system, system_for, system_ids, systems

from ..local_files import data_dir

__all__ = [
    "SETUP_FAILED",
    "ContentOption",
    "GameOption",
    "LogArgument",
    "check_content",
    "check_content_any",
    "console",
    "err_console",
    "escape",
    "read",
    "read_shown",
    "rule_system",
    "states",
    "stopped",
    "unshowable",
]

console = Console()
err_console = Console(stderr=True)
"""Progress, warnings and errors: stdout stays the result, fit for a pipe."""

SETUP_FAILED = 1
"""Exit code when a command cannot run at all (bad content pack, Dask unavailable, …)."""

ContentOption = Annotated[
    Path | None, typer.Option(help="A user content pack overlaid on the game's own.")
]
LogArgument = Annotated[
    Path, typer.Argument(help="A game log.", exists=True, dir_okay=False, readable=True)
]
GameOption = Annotated[
    str,
    typer.Option(
        "--game",
        help="The rule system (a registered id: " + ", ".join(system_ids()) + ").",
    ),
]


SeedOption = Annotated[
    int | None,
    typer.Option(
        min=0,
        max=2**64 - 1,
        help="Public test seed N (docs/DICE.md --seed derivation), 0 <= N < 2**64, for "
        "reproducible demos and tests; the header's game id seed-N says so. Default: a secret "
        "random server seed, revealed at the end.",
    ),
]
"""``--seed N``: a u64, refused with one line outside that range; absent: a secret seed."""


ForceOption = Annotated[bool, typer.Option("--force", help="Overwrite an existing --out file.")]


def games_dir() -> Path:
    """Where ``demo`` and ``play`` keep a game's log when ``--out`` is not given:
    ``$XDG_DATA_HOME/nataterra/games`` (by default ``~/.local/share/nataterra/games``)."""
    return data_dir() / "games"


def log_path(out: Path | None, game_id: str, *, force: bool) -> Path:
    """The file a new game's log goes to: ``out`` (never an existing file unless ``force``),
    or a fresh file named by the game id in :func:`games_dir`. Checked before anything is
    played or written."""
    if out is not None:
        check_out(out)
        if out.exists() and not force:
            raise typer.BadParameter(
                f"{out} exists; pass --force to overwrite it", param_hint="--out"
            )
        return out
    folder = games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path, n = folder / f"{game_id}.jsonl", 1
    while path.exists():  # a public test seed's id repeats: keep every game's log
        path, n = folder / f"{game_id}-{n}.jsonl", n + 1
    return path


def check_out(out: Path | None) -> None:
    """Refuse an ``--out`` that is a directory or lies in a missing folder, before anything
    is played or written (one clear line, never a traceback)."""
    if out is None:
        return
    if out.is_dir():
        raise typer.BadParameter(f"{out} is a directory; give a file name", param_hint="--out")
    if not out.parent.is_dir():
        raise typer.BadParameter(f"the folder {out.parent} does not exist", param_hint="--out")


def escape(text: str) -> str:
    """``text`` safe to print as rich markup.

    Reasons quote logged values, which may hold ``[...]`` that rich would read as markup.
    """
    return text.replace("[", r"\[")


def rule_system(game: str) -> RuleSystem:
    """The registered system ``--game`` names, or a usage error listing the known ones."""
    try:
        return system(game)
    except KeyError as exc:
        raise typer.BadParameter(str(exc.args[0]), param_hint="--game") from exc


def check_content(record: RuleSystem, content: Path | None) -> None:
    """Load a user pack once up front, so a broken pack is one clear error, not one per log."""
    if content is None:
        return
    if record.load_pack is None:
        err_console.print(f"[red]{record.id} takes no content pack[/] (--content {content})")
        raise typer.Exit(SETUP_FAILED)
    try:
        record.load_pack(content)
    except (ContentError, OSError) as exc:
        err_console.print(f"[red]content pack {content}[/]: {escape(str(exc))}")
        raise typer.Exit(SETUP_FAILED) from exc


def check_content_any(content: Path | None) -> None:
    """As :func:`check_content` before the logs' systems are known: some system must load it."""
    if content is None:
        return
    loaders = {id(r.load_pack): r for r in systems() if r.load_pack is not None}
    failure: Exception | None = None
    for record in loaders.values():
        try:
            assert record.load_pack is not None
            record.load_pack(content)
            return
        except (ContentError, OSError) as exc:
            failure = failure or exc
    err_console.print(f"[red]content pack {content}[/]: {escape(str(failure or 'no pack'))}")
    raise typer.Exit(SETUP_FAILED)


def read(path: Path, content: Path | None) -> tuple[RuleSystem, ReadLog]:
    """Read and decode a whole log (no verification), with its system; a record that cannot
    be read is named and ends the command (:func:`log_failed`).

    A torn tail is skipped with a warning: the records before it are intact, and looking at
    a crashed game is exactly when one wants them.
    """
    record, log, _ = _read(path, content, prefix=False)
    return record, log


def read_shown(path: Path, content: Path | None) -> tuple[RuleSystem, ReadLog, LogError | None]:
    """As :func:`read`, for ``show`` and ``replay``: a record after the start record that
    cannot be read ends the log there instead (its error is returned; :func:`stopped`
    reports it once what comes before it is shown)."""
    return _read(path, content, prefix=True)


def _read(
    path: Path, content: Path | None, *, prefix: bool
) -> tuple[RuleSystem, ReadLog, LogError | None]:
    try:
        data = read_regular_file(path, LOG_BYTES)
    except OSError as exc:  # InputRefused included: a FIFO, a device, too large
        err_console.print(f"[red]cannot read {path}[/] (read): {escape(str(exc))}")
        raise typer.Exit(EXIT_CODES["read"]) from exc
    torn = split_lines(data).torn
    if torn is not None:
        err_console.print(
            f"[yellow]warning[/]: {path}: ignoring {len(torn)} bytes after the last newline "
            "(a torn record)"
        )
        data = data[: len(data) - len(torn)]
    found: list[RuleSystem] = []

    def factory(header: Header) -> Decider[Any, Any, Any]:
        record = system_for(header)
        check_content(record, content)
        found.append(record)
        return decider_for(header, content)

    try:
        log, unread = read_log_prefix(data, factory) if prefix else (read_log(data, factory), None)
    except LogError as exc:
        log_failed(path, exc)
    return found[-1], log, unread


def log_failed(path: Path, exc: LogError) -> NoReturn:
    """Name why a log cannot be read, and exit with that failure's code."""
    failure = (
        "version"
        if isinstance(exc, UnsupportedVersion)
        else "content"
        if isinstance(exc, UnknownContent)
        else "header"
        if isinstance(exc, HeaderRefused)
        else "read"
    )
    said = failure_words(failure, exc.seq, exc.reason)
    err_console.print(f"[red]cannot read {path}[/] ({failure}): {escape(said)}")
    raise typer.Exit(EXIT_CODES[failure]) from exc


def states(log: ReadLog) -> tuple[list[Any], ReplayFailed | None]:
    """The state after each record (undo honoured) up to the first whose events do not fold
    (a forged log), and why that one does not (:func:`stopped` reports it)."""
    return replay_prefix(log.decider, log.header, log.records)


def stopped(path: Path, failure: LogError, failure_class: str = "replay") -> NoReturn:
    """After what could be shown: name the record where replaying stopped, as ``verify``
    would name a failure, and exit with that class's code (``replay``: its events do not
    fold; ``read``: it cannot be read)."""
    err_console.print(
        f"[red]cannot {failure_class} {path} past record {(failure.seq or 1) - 1}[/] "
        f"({failure_class}): "
        f"{escape(stopped_words(failure, failure_class))}"
    )
    raise typer.Exit(EXIT_CODES[failure_class]) from failure


def unshowable(path: Path, seq: int, exc: Exception) -> NoReturn:
    """A record whose position folded but cannot be shown or worded (a forged log's events
    can fold into a state the views do not expect): name it, exit as :func:`stopped`."""
    err_console.print(
        f"[red]cannot show record {seq} of {path}[/] (replay): the game it leads to cannot "
        f"be shown, so the log was forged or damaged ({escape(f'{type(exc).__name__}: {exc}')})"
    )
    raise typer.Exit(EXIT_CODES["replay"]) from exc
