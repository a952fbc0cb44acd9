"""The SQLite store: every game in one ``games.sqlite3`` file (the servers' default).

The standard library's ``sqlite3`` in WAL mode (readers never wait for the writer) with
``synchronous=FULL`` (a commit is on disk before the reply is sent, as the directory store's
fsync per record). Records sit under a unique ``(game_id, seq)`` key, each line the log's
exact bytes; an append is one transaction that first moves the game's record count from
``seq`` on (no row moves when another writer got there first: :class:`~.store.StaleAppend`),
so two processes on one file can never both append record ``n`` and a half-written append
cannot exist. The secret sits in its own table, never readable through a log. The schema is
made in one ``BEGIN IMMEDIATE`` transaction, so processes starting at once make it once.

The file and its directory are the server user's alone (0600, 0700): it holds secrets.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from .store import (
    DamagedSecret,
    GameExists,
    KeyFileError,
    Listing,
    Secret,
    StaleAppend,
    Status,
    StoreError,
    UnknownStoredGame,
    is_end,
)

__all__ = ["SCHEMA_VERSION", "SqliteStore"]

SCHEMA_VERSION = 1
"""``PRAGMA user_version`` of the schema below; a file with a newer one is refused."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    records INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    bots INTEGER NOT NULL DEFAULT 0,
    set_aside TEXT
);
CREATE TABLE IF NOT EXISTS records (
    game_id TEXT NOT NULL REFERENCES games (game_id),
    seq INTEGER NOT NULL,
    line BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS secrets (
    game_id TEXT PRIMARY KEY REFERENCES games (game_id),
    secret BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS server (
    name TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
"""

BUSY_MILLISECONDS = 10_000
"""How long a writer waits for another process's transaction before giving up."""


class SqliteStore:
    """A ``*.sqlite3`` file of games (:class:`~.store.Store`); one connection, shared by the
    threads of a process under a lock (the server uses one thread for its store)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.location = str(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600))
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=0
            )
            self._db.execute(f"PRAGMA busy_timeout = {BUSY_MILLISECONDS}")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA foreign_keys = ON")
            self._make_schema()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a games database ({exc})") from None

    def _make_schema(self) -> None:
        with self._transaction() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: schema version {version} is newer than this build's "
                    f"({SCHEMA_VERSION}); run a newer nataterra on it"
                )
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``: the write lock at once, so two
        writers queue instead of failing at commit), rolled back on any error."""
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _read(self, query: str, *args: object) -> list[tuple[object, ...]]:
        with self._lock:
            return self._db.execute(query, args).fetchall()

    def create(self, game_id: str, secret: Secret, lines: Sequence[bytes]) -> None:
        with self._transaction() as db:
            row = db.execute("SELECT records FROM games WHERE game_id = ?", (game_id,)).fetchone()
            if row is not None and row[0] > 0:
                raise GameExists(f"game {game_id!r} is in the store already")
            db.execute(
                "INSERT OR REPLACE INTO games (game_id, records, finished, bots) "
                "VALUES (?, 0, 0, ?)",
                (game_id, int(bool(secret.bots))),
            )
            db.execute(
                "INSERT OR REPLACE INTO secrets (game_id, secret) VALUES (?, ?)",
                (game_id, secret.encode()),
            )
            self._insert(db, game_id, 0, lines)

    def append(self, game_id: str, seq: int, lines: Sequence[bytes]) -> None:
        with self._transaction() as db:
            self._insert(db, game_id, seq, lines)

    @staticmethod
    def _insert(db: sqlite3.Connection, game_id: str, seq: int, lines: Sequence[bytes]) -> None:
        moved = db.execute(
            "UPDATE games SET records = ?, finished = finished OR ? "
            "WHERE game_id = ? AND records = ?",
            (seq + len(lines), int(any(map(is_end, lines))), game_id, seq),
        )
        if moved.rowcount != 1:
            row = db.execute("SELECT records FROM games WHERE game_id = ?", (game_id,)).fetchone()
            if row is None:
                raise UnknownStoredGame(f"no game {game_id!r} in the store")
            raise StaleAppend(game_id, seq, int(row[0]))
        db.executemany(
            "INSERT INTO records (game_id, seq, line) VALUES (?, ?, ?)",
            [(game_id, seq + offset, line) for offset, line in enumerate(lines)],
        )

    def log(self, game_id: str) -> bytes:
        rows = self._read("SELECT line FROM records WHERE game_id = ? ORDER BY seq", game_id)
        if not rows:
            raise UnknownStoredGame(f"no game {game_id!r} in {self.location}")
        return b"".join(_blob(row[0]) + b"\n" for row in rows)

    def secret(self, game_id: str) -> Secret:
        rows = self._read("SELECT secret FROM secrets WHERE game_id = ?", game_id)
        if not rows:
            raise UnknownStoredGame(f"no secret of {game_id!r} in {self.location}")
        value = rows[0][0]
        if not isinstance(value, bytes):
            raise DamagedSecret("the secret is not stored as bytes")
        return Secret.decode(value)

    def games(self) -> list[Listing]:
        rows = self._read(
            "SELECT game_id, records, finished, bots, set_aside FROM games "
            "WHERE records > 0 ORDER BY game_id"
        )
        listed = []
        for game_id, records, finished, bots, aside in rows:
            status: Status = (
                "set aside" if aside is not None else "finished" if finished else "live"
            )
            count = records if isinstance(records, int) else 0
            listed.append(Listing(str(game_id), status, count, bool(bots), _text(aside)))
        return listed

    def set_aside(self, game_id: str, reason: str | None) -> None:
        with self._transaction() as db:
            db.execute("UPDATE games SET set_aside = ? WHERE game_id = ?", (reason, game_id))

    def server_key(self) -> bytes | None:
        rows = self._read("SELECT value FROM server WHERE name = 'key'")
        if not rows:
            return None
        value = rows[0][0]
        if not isinstance(value, bytes) or len(value) != 32:
            raise KeyFileError(
                f"{self.path}: the server's identity key is not 32 bytes; restore the file "
                "from a backup (a new key would be another server to the players)"
            )
        return value

    def keep_server_key(self, secret: bytes) -> bytes:
        with self._transaction() as db:
            db.execute("INSERT OR IGNORE INTO server (name, value) VALUES ('key', ?)", (secret,))
        kept = self.server_key()
        assert kept is not None
        return kept

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _blob(value: object) -> bytes:
    if not isinstance(value, bytes):
        raise StoreError("a stored record is not bytes")
    return value


def _text(value: object) -> str | None:
    return None if value is None else str(value)
