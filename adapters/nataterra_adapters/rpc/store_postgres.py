"""The PostgreSQL store: the games of several server processes, on one or more machines.

psycopg 3 with its connection pool (the optional extra ``postgres``), the tables and
queries of :mod:`.store_sql` (as SQLite): two processes can never both append record ``n``,
and the loser learns it (:class:`~.store.StaleAppend`). Each append also sends
``NOTIFY nataterra_games, '<game_id> <records>'``, delivered at its commit, which the other
processes LISTEN for (:mod:`.sharing`). The schema is made under an advisory lock, so
processes starting at once make it once. Every driver failure (the database down, a lost
connection) is a :class:`~.store.StoreError` naming it; the pool reconnects on the next call.
"""

from __future__ import annotations

import re
import select
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .store import (
    ANSWERS_KEPT,
    Answer,
    StaleAppend,
    StoreError,
    StoreUnavailable,
    UnknownStoredGame,
    is_end,
)
from .store_sql import SqlStore

__all__ = ["CHANNEL", "PostgresStore", "redacted"]

CHANNEL = "nataterra_games"
"""The LISTEN/NOTIFY channel: ``<game_id> <records>`` after each append."""
SCHEMA_LOCK = 0x6E617461  # any constant: one advisory lock while the schema is made
WRITERS = 4
"""Appends of different games made at once (:mod:`.writes`), and as many reads."""
POOL_SIZE = 2 * WRITERS
CONNECT_SECONDS = 10.0

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
        game_id TEXT PRIMARY KEY,
        records INTEGER NOT NULL,
        finished BOOLEAN NOT NULL DEFAULT FALSE,
        bots BOOLEAN NOT NULL DEFAULT FALSE,
        set_aside TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS records (
        game_id TEXT NOT NULL REFERENCES games (game_id),
        seq INTEGER NOT NULL,
        line BYTEA NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
    """CREATE TABLE IF NOT EXISTS secrets (
        game_id TEXT PRIMARY KEY REFERENCES games (game_id),
        secret BYTEA NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS waiting (
        game_id TEXT PRIMARY KEY,
        pending BYTEA NOT NULL,
        expires DOUBLE PRECISION
    )""",
    # A database made before waiting games expired: its rows keep no expiry (NULL: never).
    "ALTER TABLE waiting ADD COLUMN IF NOT EXISTS expires DOUBLE PRECISION",
    # The waiting games that expired (added after the tables above: made here if missing).
    """CREATE TABLE IF NOT EXISTS expired (
        game_id TEXT PRIMARY KEY,
        expires DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS expired_by_time ON expired (expires)",
    """CREATE TABLE IF NOT EXISTS answers (
        game_id TEXT NOT NULL REFERENCES games (game_id),
        seat TEXT NOT NULL,
        command_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        request BYTEA NOT NULL,
        answer BYTEA NOT NULL,
        PRIMARY KEY (game_id, seat, command_id)
    )""",
    """CREATE TABLE IF NOT EXISTS server (
        name TEXT PRIMARY KEY,
        value BYTEA NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS leases (
        game_id TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        expires TIMESTAMPTZ NOT NULL
    )""",
)


_APPEND = """
WITH moved AS (
    UPDATE games SET records = ?, finished = (finished OR ?)
    WHERE game_id = ? AND records = ?
    RETURNING game_id
), added AS (
    INSERT INTO records (game_id, seq, line)
    SELECT moved.game_id, ? + added.n - 1, added.line
    FROM moved, unnest(?::bytea[]) WITH ORDINALITY AS added (line, n)
), kept AS (
    INSERT INTO answers (game_id, seat, command_id, version, request, answer)
    SELECT moved.game_id, kept.seat, kept.command_id, kept.version, kept.request, kept.answer
    FROM moved, unnest(?::text[], ?::text[], ?::integer[], ?::bytea[], ?::bytea[])
         AS kept (seat, command_id, version, request, answer)
    ON CONFLICT (game_id, seat, command_id) DO NOTHING
), let_go AS (
    DELETE FROM answers
    WHERE ? AND game_id IN (SELECT game_id FROM moved) AND version < ?
)
SELECT pg_notify(?, ?)::text FROM moved
"""
"""An append as one statement: the record count moved from
``seq`` (no row when another writer got there first: nothing else happens), the records and
their answers inserted, the answers of older acts let go, and the NOTIFY (sent at commit)."""


def redacted(url: str) -> str:
    """``url`` without its password (for messages and logs)."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


class PostgresStore(SqlStore):
    """A PostgreSQL database of games (:class:`~.store.Store`)."""

    writers = WRITERS
    """Threads that may write at once (:mod:`.writes`), and as many that read: one pooled
    connection each."""

    def __init__(self, url: str) -> None:
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError as exc:
            raise StoreError(
                f"PostgreSQL stores need the postgres extra ({exc.name} is missing): "
                "pip install 'nataterra-core[postgres]'"
            ) from None
        self.url = url
        self.location = redacted(url)
        self._errors: tuple[type[Exception], ...] = (psycopg.Error,)
        # The database is away (down, restarting, no connection free), not a game damaged.
        self._away: tuple[type[Exception], ...] = (psycopg.OperationalError, TimeoutError)
        # autocommit: a read is one statement, one round trip (no BEGIN and COMMIT around
        # it; each statement sees what was committed when it began, as in a READ COMMITTED
        # transaction); a write opens its transaction itself (_transaction).
        # check: a pooled connection on which the server spoke while it was idle (a
        # shutdown's FATAL, a closed socket) is tried before it is lent, so the first read
        # after PostgreSQL restarts gets a fresh connection, not the dead one.
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=POOL_SIZE,
            open=False,
            timeout=CONNECT_SECONDS,
            check=_check_idle,
            kwargs={"autocommit": True},
        )
        try:
            self._pool.open(wait=True, timeout=CONNECT_SECONDS)
            with self._transaction() as db:
                db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                for statement in _SCHEMA:
                    db.execute(statement)
        except (StoreError, *self._errors) as exc:
            self._pool.close()
            raise StoreError(f"{self.location}: {exc}") from None

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """One transaction on a pooled connection (committed at the end, rolled back on
        an error); every driver error a :class:`~.store.StoreError`."""
        try:
            with self._pool.connection() as connection, connection.transaction():
                yield connection
        except StoreError:
            raise
        except self._away as exc:  # a lost connection, or none within the pool's timeout
            raise StoreUnavailable(f"the database: {_said(exc)}") from exc
        except self._errors as exc:
            raise StoreError(f"the database: {_said(exc)}") from exc

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        """A pooled connection whose every statement is a transaction of its own
        (autocommit); every driver error a :class:`~.store.StoreError` (its cause kept)."""
        try:
            with self._pool.connection() as connection:
                yield connection
        except StoreError:
            raise
        except self._away as exc:
            raise StoreUnavailable(f"the database: {_said(exc)}") from exc
        except self._errors as exc:
            raise StoreError(f"the database: {_said(exc)}") from exc

    def _reading(self) -> Any:
        """Reads, each statement on its own (one round trip: no BEGIN and COMMIT)."""
        return self._connection()

    _for_update = " FOR UPDATE"

    def _sql(self, query: str) -> str:
        return query.replace("?", "%s")

    def _notify(self, db: Any, game_id: str, records: int) -> None:
        db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id} {records}"))

    def append(
        self, game_id: str, seq: int, lines: Sequence[bytes], answers: Sequence[Answer] = ()
    ) -> None:
        """One statement (:data:`_APPEND`) in its transaction instead of one a row: each
        round trip a writer thread makes costs it the GIL back, which a busy event loop
        holds up to 5 ms at a time."""
        import psycopg

        records = seq + len(lines)
        values = (
            records,
            any(map(is_end, lines)),
            game_id,
            seq,
            seq,
            list(lines),
            [answer.seat for answer in answers],
            [answer.command_id for answer in answers],
            [answer.version for answer in answers],
            [answer.request for answer in answers],
            [answer.answer for answer in answers],
            bool(answers),
            records - ANSWERS_KEPT,
            CHANNEL,
            f"{game_id} {records}",
        )
        try:
            with self._transaction() as db:
                moved = self._run(db, _APPEND, *values).rowcount
        except StoreError as exc:
            if not isinstance(exc.__cause__, psycopg.errors.UniqueViolation):
                raise
            moved = 0  # the key's backstop: another writer's record is there
        if moved != 1:
            stored = self._rows("SELECT records FROM games WHERE game_id = %s", game_id)
            if not stored:
                raise UnknownStoredGame(f"no game {game_id!r} in the store")
            raise StaleAppend(game_id, seq, int(stored[0][0]))

    def lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """The database's clock decides expiry (the servers' clocks may differ)."""
        with self._transaction() as db:
            taken = db.execute(
                "INSERT INTO leases (game_id, holder, expires) "
                "VALUES (%s, %s, now() + make_interval(secs => %s)) "
                "ON CONFLICT (game_id) DO UPDATE SET holder = EXCLUDED.holder, "
                "expires = EXCLUDED.expires WHERE leases.holder = EXCLUDED.holder "
                "OR leases.expires < now()",
                (game_id, holder, seconds),
            )
            return bool(taken.rowcount == 1)

    def release(self, game_id: str, holder: str) -> None:
        """Not waiting for the WAL flush: a release lost with a database crash leaves the
        lease to expire (or to its holder, which may take it again), and nobody else waits
        for it; a lease is taken durably."""
        with self._transaction() as db:
            db.execute("SET LOCAL synchronous_commit TO OFF")
            db.execute("DELETE FROM leases WHERE game_id = %s AND holder = %s", (game_id, holder))

    def close(self) -> None:
        self._pool.close()


def _check_idle(connection: Any) -> None:
    """The pool's check before it lends ``connection``: a round trip (its empty query) only
    when the server sent something while the connection was idle, which an idle connection
    never gets but for its end (PostgreSQL's FATAL at a shutdown or restart, a closed
    socket); a connection with nothing to read is lent as it is (a check on every loan
    cost a round trip a query)."""
    from psycopg_pool import ConnectionPool

    if connection.closed or connection.broken:
        ConnectionPool.check_connection(connection)  # raises: the pool makes a new one
        return
    readable, _, _ = select.select([connection.fileno()], [], [], 0)
    if readable:
        ConnectionPool.check_connection(connection)


def _said(exc: Exception) -> str:
    return str(exc).strip() or type(exc).__name__
