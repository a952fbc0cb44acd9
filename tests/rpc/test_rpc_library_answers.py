"""Used as a library (``Games(store=…)`` without a server, issue 33), an act's records and
the answer kept for its ``command_id`` retries reach the store in one write, as a server's
batch does: one ``append`` (one transaction; the directory store's one durable write), so a
crash cannot keep the records and lose the answer. On every backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import msgspec
import pytest
from nataterra_adapters.rpc.errors import GameError, GameErrorCode
from nataterra_adapters.rpc.games import ApplyParams, CreateParams, Games, SeatParams
from nataterra_adapters.rpc.store import Answer, Secret, Store, StoreError
from nataterra_adapters.rpc.store_files import DirectoryStore
from nataterra_adapters.rpc.store_postgres import PostgresStore
from nataterra_adapters.rpc.store_sqlite import SqliteStore

Opener = Callable[[], Store]
"""Opens the store under test once more (a restart's, or another process's, view of it)."""


@pytest.fixture(params=["directory", "sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    if request.param == "directory":
        return lambda: DirectoryStore(tmp_path / "games")
    if request.param == "sqlite":
        return lambda: SqliteStore(tmp_path / "games.sqlite3")
    url = request.getfixturevalue("postgres_url")
    return lambda: PostgresStore(url)


class Writes:
    """Notes each write of records or answers to a real store (its ``create`` and
    ``append``, wrapped), and can make it crash: the process dies, nothing of that write nor
    of any later one reaches the store."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.store = store
        self.writes: list[tuple[str, int, int]] = []
        """``(method, records, answers)`` of each write."""
        self.crash_after: int | None = None
        """Writes let through before the crash (``None``: no crash)."""
        create, append = store.create, store.append

        def creating(
            game_id: str, secret: Secret, lines: Sequence[bytes], answers: Sequence[Answer] = ()
        ) -> None:
            self._note("create", lines, answers)
            create(game_id, secret, lines, answers)

        def appending(
            game_id: str, seq: int, lines: Sequence[bytes], answers: Sequence[Answer] = ()
        ) -> None:
            self._note("append", lines, answers)
            append(game_id, seq, lines, answers)

        monkeypatch.setattr(store, "create", creating)
        monkeypatch.setattr(store, "append", appending)

    def _note(self, method: str, lines: Sequence[bytes], answers: Sequence[Answer]) -> None:
        if self.crash_after is not None:
            if self.crash_after == 0:
                raise StoreError("the process died here")
            self.crash_after -= 1
        self.writes.append((method, len(lines), len(answers)))


@pytest.fixture
def counted(opener: Opener, monkeypatch: pytest.MonkeyPatch) -> Iterator[Writes]:
    writes = Writes(opener(), monkeypatch)
    yield writes
    writes.store.close()


def _started(games: Games) -> tuple[str, str, ApplyParams]:
    """A Kaladan game against a bot (its answer to each act comes in the same call), and
    the person's first act with a ``command_id``."""
    made = games.create(
        CreateParams(rules="kaladan", seed=7, seat_seeds=False, bots={"blue": "random"})
    )
    token = made.tokens["red"]
    legal = games.legal_commands(SeatParams(game_id=made.game_id, token=token)).commands
    params = ApplyParams(
        game_id=made.game_id,
        token=token,
        command=msgspec.to_builtins(legal[0]),
        expected_version=made.version,
        command_id="first",
    )
    return made.game_id, token, params


def test_an_acts_records_and_kept_answer_are_one_write(counted: Writes, opener: Opener) -> None:
    games = Games(store=counted.store, test_seeds=True)
    game_id, _, params = _started(games)
    before = counted.store.records(game_id)
    counted.writes.clear()
    answer = games.apply(params)
    appended = answer.version + 1 - before
    assert appended >= 1
    assert counted.writes == [("append", appended, 1)]  # records and answer: one append
    assert games.apply(params) == answer  # a retry: the kept answer, nothing written
    assert counted.writes == [("append", appended, 1)]
    again = Games(store=opener(), test_seeds=True)  # a restart, or another process
    assert again.apply(params) == answer
    assert again.host.store is not None and again.host.store.records(game_id) == answer.version + 1
    [kept] = [a for a in again.host.store.answers(game_id) if a.command_id == "first"]
    assert kept.version == answer.version


def test_a_crash_at_the_acts_write_keeps_neither_its_records_nor_its_answer(
    counted: Writes, opener: Opener
) -> None:
    games = Games(store=counted.store, test_seeds=True)
    game_id, _, params = _started(games)
    store = counted.store
    records, answers = store.records(game_id), store.answers(game_id)
    counted.crash_after = 0
    with pytest.raises(GameError) as refused:
        games.apply(params)
    assert refused.value.code == GameErrorCode.STORE_FAILED
    assert store.records(game_id) == records and store.answers(game_id) == answers
    # The retry (here, or through another process) acts once, and its answer is kept.
    again = Games(store=opener(), test_seeds=True)
    answer = again.apply(params)
    assert answer.version >= records
    assert Games(store=opener(), test_seeds=True).apply(params) == answer


def test_a_crash_after_the_acts_first_write_loses_nothing(counted: Writes, opener: Opener) -> None:
    """The process dies once the act's first write is done: with the records and the
    answer in that one write, a retry through another process gets the act's answer (two
    writes would have kept the records alone: the retry refused as stale, or acting twice)."""
    games = Games(store=counted.store, test_seeds=True)
    game_id, _, params = _started(games)
    counted.crash_after = 1
    answer = games.apply(params)
    again = Games(store=opener(), test_seeds=True)
    assert again.apply(params) == answer
    assert counted.store.records(game_id) == answer.version + 1
