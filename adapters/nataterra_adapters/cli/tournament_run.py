"""What lets a tournament run unattended: its folder, its interruption, its progress.

* :class:`RunFolder`: ``tournament-YYYYMMDD-HHMMSS/`` (or ``--out``) holding
  ``tournament.json`` (the settings ``--resume`` reads back), ``seed.secret`` for a secret
  seed (mode 0600), one ``<game_id>.jsonl`` per finished game and ``summary.json``. Every
  file is written whole or not at all (a temporary file renamed into place), so an
  interrupt never leaves half a log.
* :class:`Interrupts`: Ctrl-C and SIGTERM both become :class:`KeyboardInterrupt`, deferred
  while a log or the summary is being written.
* :class:`Progress`: a bar with the time left on a terminal; one line per finished game
  otherwise (a log file, a CI job), on stderr, so that ``--json`` keeps stdout to itself.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import msgspec
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as Bar

from nataterra_core.kernel.bounded import LOG_BYTES, read_regular_file

from .tournament_games import GameResult, TournamentSeed

__all__ = ["Interrupts", "Progress", "RunFolder", "Settings"]

SETTINGS = "tournament.json"
SECRET = "seed.secret"
SUMMARY = "summary.json"
SETTINGS_BYTES = 1 << 20
"""Largest ``tournament.json`` read back (it holds names and options: a few KiB)."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """What ``tournament.json`` holds: everything that fixes the games but the secret."""

    game: str
    players: tuple[str, ...]
    games_per_pairing: int
    options: dict[str, Any]
    format: str = "round-robin"
    rounds: int | None = None
    seed: int | None = None
    """The public seed, or ``None``: the secret is in ``seed.secret``."""


def _write_whole(path: Path, data: bytes, *, private: bool = False) -> None:
    """``data`` at ``path`` whole or not at all: a temporary file beside it, synced, then
    renamed over it."""
    temporary = path.with_name(f".{path.name}.partial")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    handle = os.open(temporary, flags, 0o600 if private else 0o644)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    os.replace(temporary, path)


class RunFolder:
    """A tournament's folder (see the module)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def create(cls, path: Path | None, settings: Settings, seed: TournamentSeed) -> RunFolder:
        """A new folder: ``path`` (created; it may exist if empty of a tournament) or a
        dated one in the current directory; the settings and the secret written."""
        if path is None:
            stamp = datetime.datetime.now().strftime("tournament-%Y%m%d-%H%M%S")
            path, suffix = Path(stamp), 1
            while path.exists():  # two tournaments started within a second
                suffix += 1
                path = Path(f"{stamp}-{suffix}")
        if path.exists() and not path.is_dir():
            raise ValueError(f"{path} is not a folder")
        if (path / SETTINGS).exists():
            raise ValueError(f"{path} holds a tournament already: --resume {path} goes on")
        path.mkdir(parents=True, exist_ok=True)
        folder = cls(path)
        if seed.secret is not None:
            _write_whole(path / SECRET, seed.secret.hex().encode() + b"\n", private=True)
        _write_whole(path / SETTINGS, msgspec.json.format(msgspec.json.encode(settings)))
        return folder

    @classmethod
    def open(cls, path: Path) -> tuple[RunFolder, Settings, TournamentSeed]:
        """A folder to resume: its settings and seed (``ValueError`` naming what is wrong)."""
        try:
            settings = msgspec.json.decode(
                read_regular_file(path / SETTINGS, SETTINGS_BYTES), type=Settings
            )
        except OSError as exc:
            raise ValueError(f"{path} holds no tournament to resume ({SETTINGS}: {exc})") from None
        except msgspec.DecodeError as exc:
            raise ValueError(f"{path / SETTINGS} is damaged: {exc}") from None
        if settings.seed is not None:
            return cls(path), settings, TournamentSeed(number=settings.seed)
        try:
            secret = bytes.fromhex(read_regular_file(path / SECRET, 1024).decode().strip())
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path / SECRET} is missing or damaged: {exc}") from None
        if len(secret) != 32:
            raise ValueError(f"{path / SECRET} is not a 32-byte secret")
        return cls(path), settings, TournamentSeed(secret=secret)

    def log(self, game_id: str) -> Path:
        return self.path / f"{game_id}.jsonl"

    def kept_log(self, game_id: str) -> bytes | None:
        """The kept log of a game, if there is one to read."""
        try:
            return read_regular_file(self.log(game_id), LOG_BYTES)
        except OSError:
            return None

    def write_log(self, game_id: str, data: bytes) -> None:
        _write_whole(self.log(game_id), data)

    def write_summary(self, summary: object) -> None:
        _write_whole(self.path / SUMMARY, msgspec.json.format(msgspec.json.encode(summary)))


class Interrupts:
    """Ctrl-C (SIGINT) and SIGTERM raise :class:`KeyboardInterrupt` in the main thread,
    except inside :meth:`deferred`, which raises it once its block is done (a log is written
    whole). ``signal`` is the number of the first signal received (``None``: none)."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self._deferring = False
        self._pending = False
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> Interrupts:
        for number in (signal.SIGINT, signal.SIGTERM):
            self._previous[number] = signal.signal(number, self._received)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)

    def _received(self, number: int, frame: FrameType | None) -> None:
        self.signal = self.signal or number
        if self._deferring:
            self._pending = True
        else:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        """A block a signal does not cut: it is raised when the block is done."""
        self._deferring = True
        try:
            yield
        finally:
            self._deferring = False
        if self._pending:
            self._pending = False
            raise KeyboardInterrupt


class Progress:
    """Finished games as they come: a bar with the time left on a terminal, else a line each
    (``--json`` too: the lines go to stderr, the report to stdout)."""

    def __init__(self, console: Console, total: int) -> None:
        self.console, self.total, self.done = console, total, 0
        self.started = time.monotonic()
        self.lines = not console.is_terminal
        self._bar = Bar(
            TextColumn("[bold]games"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=not console.is_terminal,
        )
        self._task = self._bar.add_task("games", total=total)

    def __enter__(self) -> Progress:
        self._bar.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._bar.__exit__(*exc)

    def kept(self, count: int) -> None:
        """``count`` games found finished in the folder (``--resume``)."""
        self.done += count
        self._bar.advance(self._task, count)
        if self.lines and count:
            self._line(f"{count} game(s) already finished in the folder")

    def finished(self, result: GameResult, played: int) -> None:
        """A game finished; ``played``: games played by this run so far (for the estimate)."""
        self.done += 1
        self._bar.advance(self._task)
        if not self.lines:
            return
        winner = ", ".join(result.winners) or "draw"
        verdict = "VALID" if result.valid else f"INVALID ({result.verdict})"
        elapsed = time.monotonic() - self.started
        left = elapsed / played * (self.total - self.done) if played else 0.0
        self._line(
            f"[{self.done}/{self.total}] {result.game_id} {' vs '.join(result.pairing)}: "
            f"{winner} ({result.reason}), {result.records} records, {verdict}; "
            f"{elapsed:.0f} s elapsed, about {left:.0f} s left"
        )

    def _line(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)
