"""`nataterra store migrate` and `export` carry what a client could still ask for (issue 33
item 3): a migration copies the games waiting for their seats and the answers kept for
`command_id` retries with the games, between any two backends, resumably; an export writes a
waiting game's setup and nothing secret. Checked through the server's own calls on the
target: a retry is answered with the first answer and acts once, the waiting game takes its
last seat's contribution and starts."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
from nataterra_adapters.cli import app
from nataterra_adapters.rpc.games import (
    ApplyParams,
    CreateParams,
    Games,
    JoinParams,
    SeatParams,
    ViewParams,
)
from nataterra_adapters.rpc.store import Answer, Pending, Secret, Store
from nataterra_adapters.rpc.store_files import DirectoryStore
from nataterra_adapters.rpc.store_tools import (
    copy_games,
    export_games,
    open_store,
)
from typer.testing import CliRunner

from nataterra_core.game import verify_log

BACKENDS = ("directory", "sqlite", "postgres")
PAIRS = [(source, target) for source in BACKENDS for target in BACKENDS if source != target]
RETRIED = 3
"""Acts applied with a command_id in the played game (each answer kept for a retry)."""


def _where(backend: str, name: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new store of ``backend``: a directory, a SQLite file or a fresh PostgreSQL database
    (skipped saying why without PostgreSQL)."""
    if backend == "directory":
        return str(tmp_path / name)
    if backend == "sqlite":
        return str(tmp_path / f"{name}.sqlite3")
    cluster = request.getfixturevalue("postgres_cluster")
    return str(cluster.new_database())


@dataclass
class Filled:
    """A store holding a game in play with kept answers, a finished one and a game waiting
    for one person's contribution."""

    where: str
    played: str
    retries: list[tuple[ApplyParams, Any]]
    """Each act applied with a command_id, and its answer."""
    waiting: str
    late_token: str
    """The token of the waiting game's seat that has not contributed yet."""


def _fill(where: str) -> Filled:
    store = open_store(where)
    games = Games(test_seeds=True, store=store)
    made = games.create(CreateParams(rules="liars-dice", seed=5, game_id="played"))
    retries = []
    for n in range(RETRIED):
        token = made.tokens[games.view(ViewParams(game_id=made.game_id)).acting[0]]
        legal = games.legal_commands(SeatParams(game_id=made.game_id, token=token))
        params = ApplyParams(
            game_id=made.game_id,
            token=token,
            command=msgspec.to_builtins(legal.commands[0]),
            command_id=f"act-{n}",
        )
        retries.append((params, games.apply(params)))
    both = {"red": "random", "blue": "random"}
    games.create(CreateParams(rules="liars-dice", seed=6, game_id="finished", bots=both))
    bots = {"blue": "random"}
    waiting = Games(store=store).create(
        CreateParams(rules="liars-dice", seat_seeds=True, bots=bots, game_id="waiting")
    )
    store.close()
    late = next(seat for seat in waiting.tokens if seat not in bots)
    return Filled(where, made.game_id, retries, waiting.game_id, waiting.tokens[late])


def _answers(store: Store, game_id: str) -> set[Answer]:
    return set(store.answers(game_id))


def _check_served(filled: Filled, target_where: str) -> None:
    """The target serves what a client could still ask for: each retry gets its first
    answer and acts once; the waiting game takes its last contribution and starts."""
    target = open_store(target_where)
    records = target.records(filled.played)
    games = Games(store=target)
    for params, first in filled.retries:
        assert games.apply(params) == first
    assert target.records(filled.played) == records  # nothing applied twice
    joined = games.join(
        JoinParams(game_id=filled.waiting, token=filled.late_token, client_seed="late-seat")
    )
    assert joined.started
    header = json.loads(target.log(filled.waiting).splitlines()[0])
    assert "late-seat" in header["client_seed"]
    target.close()


@pytest.mark.parametrize(("source_backend", "target_backend"), PAIRS)
def test_migrate_carries_waiting_games_and_kept_answers(
    source_backend: str, target_backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    filled = _fill(_where(source_backend, "source", request, tmp_path))
    target_where = _where(target_backend, "target", request, tmp_path)
    source, target = open_store(filled.where), open_store(target_where)
    copied = {copy.game_id: copy for copy in copy_games(source, target)}
    assert {game_id: (c.done, c.verified, c.waiting) for game_id, c in copied.items()} == {
        "finished": (True, True, False),
        "played": (True, True, False),
        "waiting": (True, True, True),
    }, copied
    assert copied["played"].answers == RETRIED == len(_answers(source, "played"))
    assert _answers(target, "played") == _answers(source, "played")
    assert target.pending("waiting") == source.pending("waiting") is not None
    assert target.waiting_games() == ["waiting"]
    for game_id in ("played", "finished"):
        assert target.log(game_id) == source.log(game_id)
    source.close()
    target.close()
    _check_served(filled, target_where)


class _Interrupted(Exception):
    """The copy is stopped here (the operator's Ctrl-C, a lost connection)."""


class _Stopping:
    """A store that stops the copy after ``writes`` of its writes (each done first)."""

    def __init__(self, store: Store, writes: int) -> None:
        self._store, self._left = store, writes

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name not in ("create", "wait", "append"):
            return found

        def written(*args: Any) -> Any:
            answer = found(*args)
            self._left -= 1
            if self._left == 0:
                raise _Interrupted
            return answer

        return written


@pytest.mark.parametrize("target_backend", BACKENDS)
@pytest.mark.parametrize("stopped_after", [1, 2, 3])
def test_an_interrupted_migration_is_finished_by_running_it_again(
    target_backend: str, stopped_after: int, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Stopped after each of its writes in turn (the game's, then the waiting game's), the
    migration run again counts what is there as copied and copies the rest, the answers
    and the waiting game too; nothing is doubled."""
    filled = _fill(str(tmp_path / "source.sqlite3"))
    target_where = _where(target_backend, "target", request, tmp_path)
    source = open_store(filled.where)
    stopping = _Stopping(open_store(target_where), stopped_after)
    with pytest.raises(_Interrupted):
        copy_games(source, stopping, resume=True)  # type: ignore[arg-type]
    target = open_store(target_where)
    again = copy_games(source, target, resume=True)
    assert all(c.done and c.verified for c in again), again
    notes = sorted(c.game_id for c in again if c.note == "in the target already")
    assert notes == sorted(["finished", "played", "waiting"][:stopped_after])
    assert _answers(target, "played") == _answers(source, "played")
    assert target.pending("waiting") == source.pending("waiting")
    assert target.records("played") == source.records("played")
    source.close()
    target.close()
    _check_served(filled, target_where)


def test_a_game_migrated_without_its_answers_gets_them_when_the_migration_is_resumed(
    tmp_path: Path,
) -> None:
    """A target filled by a migration that did not carry the kept answers (before this
    one): resumed, the answers are added to the game already there, nothing else."""
    filled = _fill(str(tmp_path / "source.sqlite3"))
    source, target = open_store(filled.where), DirectoryStore(tmp_path / "target")
    stored = source.log("played")
    target.create("played", source.secret("played"), stored.splitlines())
    [copied] = copy_games(source, target, ["played"], resume=True)
    assert copied.done and copied.answers == RETRIED and copied.note == "in the target already"
    assert _answers(target, "played") == _answers(source, "played")
    assert target.log("played") == stored
    [refused] = copy_games(source, target, ["played"])  # without resume: left, said so
    assert not refused.done and "already" in refused.note


def test_a_waiting_game_the_target_has_otherwise_is_not_copied(tmp_path: Path) -> None:
    filled = _fill(str(tmp_path / "source.sqlite3"))
    source, target = open_store(filled.where), DirectoryStore(tmp_path / "target")
    other = source.pending("waiting")
    assert other is not None
    target.wait("waiting", Pending(other.rules, other.seats, None, other.secret))
    [copied] = copy_games(source, target, ["waiting"], resume=True)
    assert copied.waiting and not copied.done
    assert copied.note == "the target has a game of this id already"


def _secrets(store: Store, filled: Filled) -> list[bytes]:
    """Every secret byte string of the filled store (seeds not yet revealed, tokens,
    contributions, the answers' seat views)."""
    found = []
    pending = store.pending(filled.waiting)
    assert pending is not None
    for secret in (store.secret(filled.played), pending.secret):
        found.append(secret.server_seed.hex().encode())
        found.extend(token.encode() for token in secret.tokens.values())
        if secret.receipt_key is not None:
            found.append(secret.receipt_key.hex().encode())
    found.extend(c.encode() for c in pending.contributions.values())
    found.extend(answer.answer for answer in store.answers(filled.played))
    return found


@pytest.mark.parametrize("backend", BACKENDS)
def test_export_writes_a_waiting_games_setup_and_nothing_secret(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    filled = _fill(_where(backend, "source", request, tmp_path))
    store = open_store(filled.where)
    out = tmp_path / "out"
    done = {c.game_id: c for c in export_games(store, out)}
    assert all(c.done and c.verified for c in done.values()), done
    assert done["played"].answers == RETRIED and done["waiting"].waiting
    assert sorted(path.name for path in out.iterdir()) == [
        "finished.jsonl",
        "played.jsonl",
        "waiting.waiting.json",
    ]
    for game_id in ("played", "finished"):
        exported = (out / f"{game_id}.jsonl").read_bytes()
        assert exported == store.log(game_id)
        assert verify_log(exported).status in ("valid", "incomplete")
    setup = json.loads((out / "waiting.waiting.json").read_text())
    pending = store.pending("waiting")
    assert pending is not None
    assert setup["rules"] == "liars-dice" and setup["seats"] == list(pending.seats)
    assert setup["contributed"] == ["blue"] and setup["waiting_for"] == ["red"]
    assert setup["bots"] == {"blue": "random"}
    written = b"".join(path.read_bytes() for path in out.iterdir())
    for secret in _secrets(store, filled):
        assert secret not in written
    store.close()


runner = CliRunner()


def test_the_cli_says_what_it_copied_and_what_it_exported(tmp_path: Path) -> None:
    filled = _fill(str(tmp_path / "source.sqlite3"))
    target = tmp_path / "target"
    migrated = runner.invoke(app, ["store", "migrate", filled.where, str(target)])
    assert migrated.exit_code == 0, migrated.output
    assert "waiting (waiting for its seats): verified" in migrated.output
    assert (
        f"2 of 2 games copied into {target} with {RETRIED} answers kept for command_id "
        "retries; 1 of 1 games waiting for their seats"
    ) in " ".join(migrated.output.split())
    again = runner.invoke(app, ["store", "migrate", filled.where, str(target)])
    assert again.exit_code == 0, again.output
    assert "played: verified (in the target already)" in again.output
    exported = runner.invoke(app, ["store", "export", str(target), "--out", str(tmp_path / "o")])
    assert exported.exit_code == 0, exported.output
    assert (
        "2 of 2 games exported to" in exported.output
        and f"{RETRIED} answers kept for command_id retries not exported"
        in " ".join(exported.output.split())
    ), exported.output


def test_a_waiting_game_this_build_cannot_take_up_is_copied_and_exported_said_so(
    tmp_path: Path,
) -> None:
    source = DirectoryStore(tmp_path / "source")
    secret = Secret(b"\x01" * 32, {"a": "t", "b": "u"}, {}, b"\x02" * 32)
    source.wait("later", Pending("rules-of-a-later-build", ("a", "b"), None, secret))
    source.wait("tokenless", Pending("liars-dice", ("a", "c"), None, secret))
    target = open_store(tmp_path / "target.sqlite3")
    copied = {c.game_id: c for c in copy_games(source, target)}
    assert copied["later"].done and not copied["later"].verified
    assert "'rules-of-a-later-build' are not run by this build" in copied["later"].note
    assert copied["tokenless"].done and copied["tokenless"].note == "no token for seat(s) c"
    assert target.pending("later") == source.pending("later")
    [exported] = export_games(source, tmp_path / "out", ["later"])
    assert exported.done and not exported.verified and exported.waiting
    [unknown] = export_games(source, tmp_path / "out", ["nothing"])
    assert not unknown.done and unknown.note == "no such game"


WAITING_SECRET = Secret(b"\x01" * 32, {"a": "t", "b": "u"}, {}, b"\x02" * 32)


@pytest.mark.parametrize("backend", BACKENDS)
def test_migrate_leaves_the_expired_waiting_games_and_counts_them(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Nobody can join a waiting game that has expired: it is not copied (the target's
    sweep would only remove it), and it is no failure."""
    source = open_store(_where(backend, "source", request, tmp_path))
    source.wait("stale", Pending("liars-dice", ("a", "b"), None, WAITING_SECRET, {}, 1000.0))
    source.wait("fresh", Pending("liars-dice", ("a", "b"), None, WAITING_SECRET, {}, 3000.0))
    target = open_store(tmp_path / "target.sqlite3")
    copied = {c.game_id: c for c in copy_games(source, target, now=2000.0)}
    stale, fresh = copied["stale"], copied["fresh"]
    assert (stale.expired, stale.done, stale.waiting) == (True, False, True)
    assert "expired" in stale.note
    assert (fresh.expired, fresh.done) == (False, True)
    assert target.waiting_games() == ["fresh"] and target.pending("stale") is None
    assert source.waiting_games() == ["fresh", "stale"]  # FROM is left as it was
    source.close()
    target.close()


def test_the_cli_says_how_many_expired_waiting_games_it_left(tmp_path: Path) -> None:
    source = DirectoryStore(tmp_path / "source")
    source.wait("stale", Pending("liars-dice", ("a", "b"), None, WAITING_SECRET, {}, 1000.0))
    later = time.time() + 3600
    source.wait("fresh", Pending("liars-dice", ("a", "b"), None, WAITING_SECRET, {}, later))
    target = tmp_path / "target"
    migrated = runner.invoke(app, ["store", "migrate", str(tmp_path / "source"), str(target)])
    assert migrated.exit_code == 0, migrated.output
    said = " ".join(migrated.output.split())
    assert "stale (waiting for its seats): expired waiting for its seats: not copied" in said
    assert "1 of 1 games waiting for their seats; 1 expired waiting games not copied" in said, said
    assert DirectoryStore(target).waiting_games() == ["fresh"]
