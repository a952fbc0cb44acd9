"""The directory store: each game is two files, for the CLI and anyone who wants plain files.

``<game_id>.jsonl`` is the game's log, appended record by record with one ``fsync`` per record;
``<game_id>.secret`` (mode 0600) its :class:`~.store.Secret`. ``server.key`` (0600) is the
server's identity key and ``<game_id>.aside`` the reason a game is set aside. A game waiting for
its seats' contributions is ``<game_id>.waiting`` (0600, replaced atomically at each
contribution, removed once the game has started or has expired; an expired one leaves
``<game_id>.expired``, its expiry time, for :data:`~.store.EXPIRED_KEPT_SECONDS`); the answers
kept for
``command_id`` retries are ``<game_id>.answers`` (0600, JSON Lines; rewritten without the old
ones once it holds twice :data:`~.store.ANSWERS_KEPT`). An act's answer is written, durably,
before the records it answers, and an answer counts only once its records are in the log (its
version below the log's record count): a crash between the two leaves an answer that is never
read and is cleared before the next records are written (another command may be appended at its
version then), so a retry gets the kept answer exactly when its act is in the log, and the log
file stays the log's exact bytes. A crash can tear the last record of a log (never acknowledged:
its reply was not sent), which :meth:`DirectoryStore.log` cuts off. Secrets are written
atomically (a temporary file in the store, fsync, rename, fsync of the directory), so a crash
leaves the old secret or the new one, never half of one; a secret without a log (the crash came
before the header) belongs to no game and is replaced by the next game of its id.

One process at a time: two servers on one directory would each count the records from
their own writes (use SQLite or PostgreSQL for that).
"""

from __future__ import annotations

import base64
import json
import math
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from nataterra_core.kernel.log import split_lines

from ..local_files import write_private
from .store import (
    ANSWERS_KEPT,
    EXPIRED_KEPT_SECONDS,
    MAX_ANSWER_BYTES,
    MAX_PENDING_BYTES,
    MAX_SECRET_BYTES,
    Answer,
    DamagedSecret,
    GameExists,
    KeyFileError,
    Listing,
    NotWaiting,
    Pending,
    Secret,
    StaleAppend,
    UnknownStoredGame,
    is_end,
)

__all__ = ["DirectoryStore"]

SERVER_KEY_FILE = "server.key"
"""The server's long-term identity key in the store directory (hex, mode 0600)."""


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` (mode 0600) so a crash leaves the old file or the new one:
    a temporary file in the same directory, fsync, rename over ``path``, fsync of the
    directory (which makes the rename itself durable)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view) :]
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


class DirectoryStore:
    """A directory of game logs and their secrets (:class:`~.store.Store`)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        os.chmod(self.directory, 0o700)
        self.location = str(self.directory)
        self.shared = False
        self._counts: dict[str, int] = {}  # records on disk, as this process wrote or read them
        self._answer_lines: dict[str, int] = {}  # lines in each .answers file

    def _log_path(self, game_id: str) -> Path:
        return self.directory / f"{game_id}.jsonl"

    def _has_log(self, game_id: str) -> bool:
        """Whether the game has a log with something in it (or a directory in its place)."""
        path = self._log_path(game_id)
        return path.is_dir() or (path.exists() and path.stat().st_size > 0)

    def create(
        self, game_id: str, secret: Secret, lines: Sequence[bytes], answers: Sequence[Answer] = ()
    ) -> None:
        """Write the secret (first, so any log on disk can be resumed) and the answers, then
        the records; the waiting game's file goes last (a crash before leaves it, started or
        not, and the log wins)."""
        if self._has_log(game_id):
            raise GameExists(f"game {game_id!r} is in the store already")
        waiting = self.pending(game_id)
        if waiting is not None and waiting.secret.server_seed != secret.server_seed:
            raise GameExists(f"game {game_id!r} waits for its seats in the store already")
        write_atomically(self._path(game_id, "secret"), secret.encode())
        answers_path = self._path(game_id, "answers")
        if answers or answers_path.exists():  # one there belongs to no game (a crash
            write_atomically(answers_path, _answer_lines(answers))  # before its header)
        self._answer_lines[game_id] = len(answers)
        self._write_records(game_id, lines)
        self._counts[game_id] = len(lines)
        self._path(game_id, "waiting").unlink(missing_ok=True)
        self._path(game_id, "expired").unlink(missing_ok=True)

    def append(
        self, game_id: str, seq: int, lines: Sequence[bytes], answers: Sequence[Answer] = ()
    ) -> None:
        """The answers first, durably, then the records with an fsync per record (a crash
        tears at most the last one): an answer whose records never landed is not read
        (:meth:`answers`) and is gone before the next records are written."""
        stored = self._counts.get(game_id)
        if stored is None:
            stored = len(split_lines(self.log(game_id)).lines)
        if stored != seq:
            raise StaleAppend(game_id, seq, stored)
        self._keep_answers(game_id, seq, answers)
        self._write_records(game_id, lines)
        self._counts[game_id] = seq + len(lines)

    def _write_records(self, game_id: str, lines: Sequence[bytes]) -> None:
        try:
            self._write(self._log_path(game_id), lines)
        except BaseException:
            # Some of the records, and the answers before them, may be on disk: the next
            # append counts the records and clears the answers file again.
            self._counts.pop(game_id, None)
            self._answer_lines.pop(game_id, None)
            raise

    def _path(self, game_id: str, suffix: str) -> Path:
        return self.directory / f"{game_id}.{suffix}"

    def _keep_answers(self, game_id: str, stored: int, answers: Sequence[Answer]) -> None:
        """Add ``answers`` to the game's answers file, durably, before the records they
        answer are written (the game has ``stored`` records). The first time this process
        writes the file, what a crash may have left in it goes first: a torn line, and the
        answers whose records never landed (which a retry must not get: another command may
        be appended at their version now)."""
        path = self._path(game_id, "answers")
        lines = self._answer_lines.get(game_id)
        if lines is None:
            kept, clean = self._read_answers(game_id, stored)
            if not clean:
                write_atomically(path, _answer_lines(kept))
            lines = len(kept)
        if not answers:
            self._answer_lines[game_id] = lines
            return
        if lines + len(answers) > 2 * ANSWERS_KEPT:  # let the old ones go
            kept, _ = self._read_answers(game_id, stored)
            fresh = [a for a in kept if a.version >= stored - ANSWERS_KEPT] + list(answers)
            write_atomically(path, _answer_lines(fresh))
            self._answer_lines[game_id] = len(fresh)
            return
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        self._write(path, [_answer_line(answer) for answer in answers])
        self._answer_lines[game_id] = lines + len(answers)

    def _read_answers(self, game_id: str, records: int) -> tuple[list[Answer], bool]:
        """The answers in the file whose records are among the game's ``records``, and
        whether the file holds nothing else (no torn or damaged line, no answer whose
        records never landed)."""
        path = self._path(game_id, "answers")
        if not path.exists():
            return [], True
        split = split_lines(path.read_bytes())
        read = [_answer(line) for line in split.lines]
        kept = [a for a in read if a is not None and a.version < records]
        return kept, not split.torn and len(kept) == len(split.lines)

    def answers(self, game_id: str) -> list[Answer]:
        """The answers of the acts of the last :data:`~.store.ANSWERS_KEPT` records (not
        one whose records never landed, nor a torn or damaged line: what a crash leaves)."""
        records = self.records(game_id)
        kept, _ = self._read_answers(game_id, records)
        return [a for a in kept if a.version >= records - ANSWERS_KEPT]

    def wait(self, game_id: str, pending: Pending) -> None:
        if self._has_log(game_id):
            raise GameExists(f"game {game_id!r} is in the store already")
        try:
            write_private(self._path(game_id, "waiting"), pending.encode())
        except FileExistsError:
            raise GameExists(f"game {game_id!r} waits for its seats in the store already") from None
        self._path(game_id, "expired").unlink(missing_ok=True)

    def pending(self, game_id: str) -> Pending | None:
        path = self._path(game_id, "waiting")
        if not path.exists():
            return None
        with path.open("rb") as file:
            return Pending.decode(file.read(MAX_PENDING_BYTES + 1))

    def waiting_games(self) -> list[str]:
        """A waiting game's file left beside its log (a crash before it was removed) is not
        listed: the log wins."""
        return [
            path.stem
            for path in sorted(self.directory.glob("*.waiting"))
            if not self._has_log(path.stem)
        ]

    def expire_waiting(self, now: float, game_id: str | None = None) -> list[str]:
        """One process a directory: the file removed is this call's (a damaged one is left
        for ``pending`` to report). Its ``.expired`` file is written first, so a crash
        between leaves the expired game to the next sweep, never a game forgotten."""
        removed = []
        for waiting_id in self.waiting_games() if game_id is None else [game_id]:
            try:
                pending = self.pending(waiting_id)
            except DamagedSecret:
                continue
            if pending is not None and pending.expires is not None and pending.expired(now):
                write_atomically(self._path(waiting_id, "expired"), repr(pending.expires).encode())
                self._path(waiting_id, "waiting").unlink(missing_ok=True)
                removed.append(waiting_id)
        if game_id is None:
            for path in self.directory.glob("*.expired"):
                expires = self.expired(path.stem)
                if expires is None or expires <= now - EXPIRED_KEPT_SECONDS:
                    path.unlink(missing_ok=True)
        return removed

    def expired(self, game_id: str) -> float | None:
        """A damaged ``.expired`` file (not a number) counts as none, and goes at the next
        sweep."""
        path = self._path(game_id, "expired")
        try:
            with path.open("rb") as file:
                expires = float(file.read(64))
        except (OSError, ValueError):
            return None
        return expires if math.isfinite(expires) else None

    def contribute(self, game_id: str, seat: str, contribution: str) -> tuple[Pending, bool]:
        pending = self.pending(game_id)
        if pending is None:
            raise NotWaiting(f"no game {game_id!r} waits for contributions")
        if seat in pending.contributions:
            return pending, False
        pending = replace(pending, contributions={**pending.contributions, seat: contribution})
        write_atomically(self._path(game_id, "waiting"), pending.encode())
        return pending, True

    def give_up(self, game_id: str, seat: str, player: str) -> None:
        secret = self.secret(game_id)
        secret = replace(secret, bots={**secret.bots, seat: player})
        write_atomically(self._path(game_id, "secret"), secret.encode())

    @staticmethod
    def _write(path: Path, lines: Sequence[bytes]) -> None:
        with path.open("ab") as file:
            for line in lines:
                file.write(line + b"\n")
                file.flush()
                os.fsync(file.fileno())

    def log(self, game_id: str) -> bytes:
        path = self._log_path(game_id)
        if not path.exists():
            raise UnknownStoredGame(f"no game {game_id!r} in {self.location}")
        data = path.read_bytes()
        split = split_lines(data)
        if split.torn:
            data = data[: len(data) - len(split.torn)]
            with path.open("r+b") as file:
                file.truncate(len(data))
        self._counts[game_id] = len(split.lines)
        return data

    def records(self, game_id: str) -> int:
        if game_id not in self._counts:
            try:
                self.log(game_id)
            except UnknownStoredGame:
                return 0
        return self._counts[game_id]

    def secret(self, game_id: str) -> Secret:
        path = self.directory / f"{game_id}.secret"
        if not path.exists():
            raise UnknownStoredGame(f"no secret of {game_id!r} in {self.location}")
        with path.open("rb") as file:
            data = file.read(MAX_SECRET_BYTES + 1)
        return Secret.decode(data)

    def games(self) -> list[Listing]:
        listed = []
        for secret_path in sorted(self.directory.glob("*.secret")):
            game_id = secret_path.stem
            log_path = self._log_path(game_id)
            if not log_path.exists():
                continue  # the crash came between the secret and the header
            listed.append(self._listing(game_id, log_path))
        return listed

    def _listing(self, game_id: str, log_path: Path) -> Listing:
        aside = self.directory / f"{game_id}.aside"
        try:
            lines = split_lines(log_path.read_bytes()).lines
            bots = bool(self.secret(game_id).bots)
        except (OSError, DamagedSecret) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return Listing(game_id, "set aside", 0, False, reason)
        if aside.exists():
            reason = aside.read_text(encoding="utf-8", errors="replace").strip()
            return Listing(game_id, "set aside", len(lines), bots, reason)
        finished = bool(lines) and is_end(lines[-1])
        return Listing(game_id, "finished" if finished else "live", len(lines), bots)

    def lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """One process per directory: its bots need no lease."""
        return True

    def release(self, game_id: str, holder: str) -> None:
        """Nothing to give up."""

    def set_aside(self, game_id: str, reason: str | None) -> None:
        path = self.directory / f"{game_id}.aside"
        if reason is None:
            path.unlink(missing_ok=True)
        else:
            write_atomically(path, reason.encode() + b"\n")

    def server_key(self) -> bytes | None:
        path = self.directory / SERVER_KEY_FILE
        if not path.exists():
            return None
        try:
            text = path.read_text(encoding="ascii").strip()
            if len(text) != 64:
                raise ValueError(f"{len(text)} characters")
            return bytes.fromhex(text)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise KeyFileError(
                f"{path}: not this server's identity key (64 hex digits): {exc}; restore it "
                "from a backup (a new key would be another server to the players)"
            ) from None

    def keep_server_key(self, secret: bytes) -> bytes:
        try:
            write_private(self.directory / SERVER_KEY_FILE, secret.hex().encode())
        except FileExistsError:
            kept = self.server_key()
            assert kept is not None
            return kept
        return secret

    def close(self) -> None:
        """Nothing is held open between calls."""


def _answer_lines(answers: Sequence[Answer]) -> bytes:
    return b"".join(_answer_line(answer) + b"\n" for answer in answers)


def _answer_line(answer: Answer) -> bytes:
    kept = {
        "seat": answer.seat,
        "command_id": answer.command_id,
        "version": answer.version,
        "request": base64.b64encode(answer.request).decode(),
        "answer": base64.b64encode(answer.answer).decode(),
    }
    return json.dumps(kept).encode()


def _answer(line: bytes) -> Answer | None:
    if len(line) > 2 * MAX_ANSWER_BYTES:
        return None
    try:
        kept = json.loads(line)
        return Answer(
            str(kept["seat"]),
            str(kept["command_id"]),
            int(kept["version"]),
            base64.b64decode(kept["request"], validate=True),
            base64.b64decode(kept["answer"], validate=True),
        )
    except (ValueError, TypeError, KeyError):
        return None
