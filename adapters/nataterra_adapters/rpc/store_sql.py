"""What the SQL stores (SQLite, PostgreSQL) share: their tables and every query but how a
transaction is opened, how an append is announced and how a lease's clock is read.

``games`` (one row a game: its record count, finished, whether it has bots, why it is set
aside), ``records`` (one row a record under the unique key ``(game_id, seq)``, the line's
exact bytes), ``secrets`` (the secret, apart from the log), ``waiting`` (a game waiting for
its seats' contributions, as secret, and when it expires), ``expired`` (the ids of the
waiting games that expired, and when, for :data:`~.store.EXPIRED_KEPT_SECONDS`), ``answers``
(the answers kept for ``command_id`` retries, each a seat's view, written in the transaction
of the records they answer), ``server`` (the identity key) and ``leases`` (who moves a
game's bots, until when). An append is one transaction that first moves the game's record
count from ``seq`` on: no row moves when another writer got there first
(:class:`~.store.StaleAppend`), and the insert under the unique key is the backstop.
Queries are written with ``?`` placeholders; a backend with another style converts them
(:meth:`SqlStore._sql`).
"""

from __future__ import annotations

import abc
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any

from .store import (
    ANSWERS_KEPT,
    EXPIRED_KEPT_SECONDS,
    Answer,
    DamagedSecret,
    GameExists,
    KeyFileError,
    Listing,
    NotWaiting,
    Pending,
    Secret,
    StaleAppend,
    Status,
    StoreError,
    Tail,
    UnknownStoredGame,
    is_end,
)

__all__ = ["SqlStore"]


class SqlStore(abc.ABC):
    """The queries of a SQL store (:class:`~.store.Store`) over a backend's transactions
    (each backend says how one is opened, :meth:`_transaction`; how the other processes are
    told of an append, :meth:`_notify`; and whose clock a lease's expiry is read by,
    :meth:`lease`)."""

    location: str
    shared = True
    """Other processes may open the same database."""

    @abc.abstractmethod
    def _transaction(self) -> AbstractContextManager[Any]:
        """One transaction: a connection whose ``execute`` takes ``?`` queries converted by
        :meth:`_sql`, committed at the end, rolled back on an error."""

    def _reading(self) -> AbstractContextManager[Any]:
        """A connection for reads that change nothing (by default a transaction)."""
        return self._transaction()

    _for_update = ""
    """What locks a row read for a change until the transaction ends (SQLite's
    ``BEGIN IMMEDIATE`` locks the whole file already)."""

    def _sql(self, query: str) -> str:
        """``query`` in the backend's placeholder style."""
        return query

    def _run(self, db: Any, query: str, *args: object) -> Any:
        return db.execute(self._sql(query), args)

    def _rows(self, query: str, *args: object) -> list[tuple[Any, ...]]:
        with self._reading() as db:
            rows: list[tuple[Any, ...]] = self._run(db, query, *args).fetchall()
            return rows

    @abc.abstractmethod
    def _notify(self, db: Any, game_id: str, records: int) -> None:
        """Tell the other processes a game has ``records`` records now, in ``db``'s
        transaction (a backend that cannot leaves them to find it on their next read)."""

    def create(
        self, game_id: str, secret: Secret, lines: Sequence[bytes], answers: Sequence[Answer] = ()
    ) -> None:
        with self._transaction() as db:
            row = self._run(db, "SELECT records FROM games WHERE game_id = ?", game_id).fetchone()
            if row is not None and row[0] > 0:
                raise GameExists(f"game {game_id!r} is in the store already")
            waiting = self._waiting(db, game_id)
            if waiting is not None and waiting.secret.server_seed != secret.server_seed:
                raise GameExists(f"game {game_id!r} waits for its seats in the store already")
            self._run(db, "DELETE FROM waiting WHERE game_id = ?", game_id)
            self._run(db, "DELETE FROM expired WHERE game_id = ?", game_id)
            self._run(
                db,
                "INSERT INTO games (game_id, records, finished, bots) VALUES (?, 0, FALSE, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET bots = excluded.bots",
                game_id,
                bool(secret.bots),
            )
            self._run(
                db,
                "INSERT INTO secrets (game_id, secret) VALUES (?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET secret = excluded.secret",
                game_id,
                secret.encode(),
            )
            try:
                self._insert(db, game_id, 0, lines, answers)
            except StaleAppend:  # another process's create of this id committed first
                raise GameExists(f"game {game_id!r} is in the store already") from None

    def append(
        self, game_id: str, seq: int, lines: Sequence[bytes], answers: Sequence[Answer] = ()
    ) -> None:
        with self._transaction() as db:
            self._insert(db, game_id, seq, lines, answers)

    def _insert(
        self, db: Any, game_id: str, seq: int, lines: Sequence[bytes], answers: Sequence[Answer]
    ) -> None:
        records = seq + len(lines)
        moved = self._run(
            db,
            "UPDATE games SET records = ?, finished = (finished OR ?) "
            "WHERE game_id = ? AND records = ?",
            records,
            any(map(is_end, lines)),
            game_id,
            seq,
        )
        if moved.rowcount != 1:
            row = self._run(db, "SELECT records FROM games WHERE game_id = ?", game_id).fetchone()
            if row is None:
                raise UnknownStoredGame(f"no game {game_id!r} in the store")
            raise StaleAppend(game_id, seq, int(row[0]))
        for offset, line in enumerate(lines):
            self._run(
                db,
                "INSERT INTO records (game_id, seq, line) VALUES (?, ?, ?)",
                game_id,
                seq + offset,
                line,
            )
        for answer in answers:
            self._run(
                db,
                "INSERT INTO answers (game_id, seat, command_id, version, request, answer) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat, command_id) DO NOTHING",
                game_id,
                answer.seat,
                answer.command_id,
                answer.version,
                answer.request,
                answer.answer,
            )
        if answers:
            self._run(
                db,
                "DELETE FROM answers WHERE game_id = ? AND version < ?",
                game_id,
                records - ANSWERS_KEPT,
            )
        self._notify(db, game_id, records)

    def answers(self, game_id: str) -> list[Answer]:
        rows = self._rows(f"{_ANSWERS} WHERE game_id = ? ORDER BY version", game_id)
        return [_answer(row) for row in rows]

    def since(self, game_id: str, seq: int) -> Tail:
        with self._reading() as db:
            rows = self._run(
                db,
                "SELECT seq, line FROM records WHERE game_id = ? AND seq >= ? ORDER BY seq",
                game_id,
                seq,
            ).fetchall()
            if not rows:
                return Tail((), ())
            if [row[0] for row in rows] != list(range(seq, seq + len(rows))):
                raise StoreError(f"game {game_id!r}: its records from {seq} on are not in order")
            # After the records, as read_game does: the answers of every record read.
            answers = self._run(
                db, f"{_ANSWERS} WHERE game_id = ? AND version >= ? ORDER BY version", game_id, seq
            ).fetchall()
        lines = tuple(_bytes(row[1], "a stored record") for row in rows)
        return Tail(lines, tuple(_answer(row) for row in answers))

    def wait(self, game_id: str, pending: Pending) -> None:
        with self._transaction() as db:
            row = self._run(db, "SELECT records FROM games WHERE game_id = ?", game_id).fetchone()
            if row is not None and row[0] > 0:
                raise GameExists(f"game {game_id!r} is in the store already")
            added = self._run(
                db,
                "INSERT INTO waiting (game_id, pending, expires) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                game_id,
                pending.encode(),
                pending.expires,
            )
            if added.rowcount != 1:
                raise GameExists(f"game {game_id!r} waits for its seats in the store already")
            self._run(db, "DELETE FROM expired WHERE game_id = ?", game_id)

    def pending(self, game_id: str) -> Pending | None:
        with self._transaction() as db:
            return self._waiting(db, game_id)

    def _waiting(self, db: Any, game_id: str, lock: str = "") -> Pending | None:
        row = self._run(
            db, f"SELECT pending FROM waiting WHERE game_id = ?{lock}", game_id
        ).fetchone()
        return None if row is None else Pending.decode(_bytes(row[0], "a waiting game"))

    def waiting_games(self) -> list[str]:
        return [str(row[0]) for row in self._rows("SELECT game_id FROM waiting ORDER BY game_id")]

    def expire_waiting(self, now: float, game_id: str | None = None) -> list[str]:
        """One ``DELETE … RETURNING``: of processes sweeping at once, each row is returned
        to one (a row kept with no expiry, NULL, never matches), which remembers it as
        expired in the same transaction."""
        args: tuple[object, ...]
        query, args = "DELETE FROM waiting WHERE expires <= ?", (now,)
        if game_id is not None:
            query, args = f"{query} AND game_id = ?", (now, game_id)
        with self._transaction() as db:
            removed = self._run(db, f"{query} RETURNING game_id, expires", *args).fetchall()
            for gone, expires in removed:
                self._run(
                    db,
                    "INSERT INTO expired (game_id, expires) VALUES (?, ?) ON CONFLICT "
                    "(game_id) DO UPDATE SET expires = excluded.expires",
                    gone,
                    expires,
                )
            if game_id is None:
                self._run(db, "DELETE FROM expired WHERE expires <= ?", now - EXPIRED_KEPT_SECONDS)
        return sorted(str(row[0]) for row in removed)

    def expired(self, game_id: str) -> float | None:
        rows = self._rows("SELECT expires FROM expired WHERE game_id = ?", game_id)
        return float(rows[0][0]) if rows else None

    def contribute(self, game_id: str, seat: str, contribution: str) -> tuple[Pending, bool]:
        with self._transaction() as db:
            pending = self._waiting(db, game_id, self._for_update)
            if pending is None:
                raise NotWaiting(f"no game {game_id!r} waits for contributions")
            if seat in pending.contributions:
                return pending, False
            pending = replace(pending, contributions={**pending.contributions, seat: contribution})
            self._run(
                db,
                "UPDATE waiting SET pending = ? WHERE game_id = ?",
                pending.encode(),
                game_id,
            )
            return pending, True

    def give_up(self, game_id: str, seat: str, player: str) -> None:
        with self._transaction() as db:
            row = self._run(
                db, f"SELECT secret FROM secrets WHERE game_id = ?{self._for_update}", game_id
            ).fetchone()
            if row is None:
                raise UnknownStoredGame(f"no secret of {game_id!r} in {self.location}")
            secret = Secret.decode(_bytes(row[0], "a secret"))
            secret = replace(secret, bots={**secret.bots, seat: player})
            self._run(
                db, "UPDATE secrets SET secret = ? WHERE game_id = ?", secret.encode(), game_id
            )

    def log(self, game_id: str) -> bytes:
        rows = self._rows("SELECT line FROM records WHERE game_id = ? ORDER BY seq", game_id)
        if not rows:
            raise UnknownStoredGame(f"no game {game_id!r} in {self.location}")
        return b"".join(_bytes(row[0], "a stored record") + b"\n" for row in rows)

    def records(self, game_id: str) -> int:
        rows = self._rows("SELECT records FROM games WHERE game_id = ?", game_id)
        return int(rows[0][0]) if rows else 0

    def secret(self, game_id: str) -> Secret:
        rows = self._rows("SELECT secret FROM secrets WHERE game_id = ?", game_id)
        if not rows:
            raise UnknownStoredGame(f"no secret of {game_id!r} in {self.location}")
        if not isinstance(rows[0][0], bytes | memoryview):
            raise DamagedSecret("the secret is not stored as bytes")
        return Secret.decode(bytes(rows[0][0]))

    def games(self) -> list[Listing]:
        rows = self._rows(
            "SELECT game_id, records, finished, bots, set_aside FROM games "
            "WHERE records > 0 ORDER BY game_id"
        )
        listed = []
        for game_id, records, finished, bots, aside in rows:
            status: Status = (
                "set aside" if aside is not None else "finished" if finished else "live"
            )
            reason = None if aside is None else str(aside)
            listed.append(Listing(str(game_id), status, int(records), bool(bots), reason))
        return listed

    @abc.abstractmethod
    def lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """Take or renew the lease on the game's bot decisions (:meth:`.store.Store.lease`),
        by the clock the backend trusts for every process of the store."""

    def release(self, game_id: str, holder: str) -> None:
        with self._transaction() as db:
            self._run(db, "DELETE FROM leases WHERE game_id = ? AND holder = ?", game_id, holder)

    def set_aside(self, game_id: str, reason: str | None) -> None:
        with self._transaction() as db:
            self._run(db, "UPDATE games SET set_aside = ? WHERE game_id = ?", reason, game_id)

    def server_key(self) -> bytes | None:
        rows = self._rows("SELECT value FROM server WHERE name = 'key'")
        if not rows:
            return None
        value = rows[0][0]
        if not isinstance(value, bytes | memoryview) or len(value) != 32:
            raise KeyFileError(
                f"{self.location}: the server's identity key is not 32 bytes; restore it "
                "from a backup (a new key would be another server to the players)"
            )
        return bytes(value)

    def keep_server_key(self, secret: bytes) -> bytes:
        with self._transaction() as db:
            self._run(
                db,
                "INSERT INTO server (name, value) VALUES ('key', ?) ON CONFLICT DO NOTHING",
                secret,
            )
        kept = self.server_key()
        assert kept is not None
        return kept


_ANSWERS = "SELECT seat, command_id, version, request, answer FROM answers"


def _answer(row: tuple[Any, ...]) -> Answer:
    seat, command_id, version, asked, answer = row
    return Answer(
        str(seat),
        str(command_id),
        int(version),
        _bytes(asked, "a request"),
        _bytes(answer, "an answer"),
    )


def _bytes(value: object, what: str) -> bytes:
    if not isinstance(value, bytes | memoryview):
        raise StoreError(f"{what} is not bytes")
    return bytes(value)


def statements(schema: str) -> Iterator[str]:
    """The statements of a schema script, one by one."""
    return (statement for statement in schema.split(";") if statement.strip())
