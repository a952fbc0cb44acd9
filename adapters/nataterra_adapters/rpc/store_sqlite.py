"""The SQLite store: every game in one ``games.sqlite3`` file (the servers' default).

The standard library's ``sqlite3`` in WAL mode (readers never wait for the writer) with
``synchronous=FULL`` (a commit is on disk before the reply is sent, as the directory store's
fsync per record), the tables and queries of :mod:`.store_sql`: two processes on one file can
never both append record ``n``, and a half-written append cannot exist. The schema is made in
one ``BEGIN IMMEDIATE`` transaction, so processes starting at once make it once.

The file and its directory are the server user's alone (0600, 0700): it holds secrets.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .store import StoreError
from .store_sql import SqlStore, statements

__all__ = ["SCHEMA_VERSION", "SqliteStore"]

SCHEMA_VERSION = 4
"""``PRAGMA user_version`` of the schema below; a file with a newer one is refused (version
1 had no ``waiting`` and ``answers``, version 2 no ``waiting.expires``, version 3 no
``expired``: they are added to it; the waiting games kept before have no expiry)."""

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
CREATE TABLE IF NOT EXISTS waiting (
    game_id TEXT PRIMARY KEY,
    pending BLOB NOT NULL,
    expires REAL
);
CREATE TABLE IF NOT EXISTS expired (
    game_id TEXT PRIMARY KEY,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS expired_by_time ON expired (expires);
CREATE TABLE IF NOT EXISTS answers (
    game_id TEXT NOT NULL REFERENCES games (game_id),
    seat TEXT NOT NULL,
    command_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    request BLOB NOT NULL,
    answer BLOB NOT NULL,
    PRIMARY KEY (game_id, seat, command_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS server (
    name TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS leases (
    game_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires REAL NOT NULL
);
"""

BUSY_MILLISECONDS = 10_000
"""How long a writer waits for another process's transaction before giving up."""


class SqliteStore(SqlStore):
    """A ``*.sqlite3`` file of games (:class:`~.store.Store`); one connection, shared by the
    threads of a process under a lock (the server uses one thread for its store)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.location = str(self.path)  # other processes of this machine may open it too
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
            for statement in statements(_SCHEMA):
                db.execute(statement)
            waiting = {row[1] for row in db.execute("PRAGMA table_info(waiting)")}
            if "expires" not in waiting:  # a file of version 2
                db.execute("ALTER TABLE waiting ADD COLUMN expires REAL")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``: the write lock at once, so two
        writers queue instead of failing at commit), rolled back on any error."""
        with self._lock:
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    yield db
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
            except sqlite3.Error as exc:  # locked past the timeout, a disk failing, a full disk
                raise StoreError(f"{self.path}: {exc}") from None

    def _notify(self, db: Any, game_id: str, records: int) -> None:
        """SQLite cannot tell the other processes of the file: each finds the records on
        its next read of the game (a request's catch-up, the sweep)."""

    def lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """This machine's clock decides expiry (every process of the file runs on it)."""
        now = time.time()
        with self._transaction() as db:
            taken = db.execute(
                "INSERT INTO leases (game_id, holder, expires) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET holder = excluded.holder, "
                "expires = excluded.expires WHERE leases.holder = excluded.holder "
                "OR leases.expires < ?",
                (game_id, holder, now + seconds, now),
            )
            return bool(taken.rowcount == 1)

    def close(self) -> None:
        with self._lock:
            self._db.close()
