"""A store that no single bad file or crash can stop (issue 33 item 5): a game whose files
are damaged is set aside with its reason on one stderr line and every other game resumes;
secrets are written atomically; a secret left without a log belongs to no game."""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from jsonrpcclient import Error
from nataterra_adapters.rpc import store_files as store_module
from nataterra_adapters.rpc.errors import GameErrorCode
from nataterra_adapters.rpc.games import CreateParams, Games, JoinParams, ViewParams
from nataterra_adapters.rpc.store import Secret
from nataterra_adapters.rpc.store_files import DirectoryStore
from rpc_helpers import Client, start_server


def _secret(text: str) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(text.encode())


def _edited(edit: Callable[[dict[str, object]], object]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        kept = json.loads(path.read_text())
        path.write_text(json.dumps(edit(kept)))

    return damage


def _log_is_a_directory(path: Path) -> None:
    log = path.with_suffix(".jsonl")
    log.unlink()
    log.mkdir()


DAMAGES: dict[str, Callable[[Path], None]] = {
    "empty": _secret(""),  # a crash between open and write left this
    "not-json": _secret("{server_seed"),
    "no-server-seed": _edited(lambda kept: {k: v for k, v in kept.items() if k != "server_seed"}),
    "bad-hex": _edited(lambda kept: {**kept, "server_seed": "zz"}),
    "a-list": _edited(lambda kept: [kept]),
    "not-utf8": lambda path: path.write_bytes(b'{"server_seed": "\xff\xfe"}'),
    "tokens-not-an-object": _edited(lambda kept: {**kept, "tokens": ["a", "b"]}),
    "log-is-a-directory": _log_is_a_directory,
}


def _store_with_a_good_game(directory: Path) -> str:
    games = Games(test_seeds=True, store=DirectoryStore(directory))
    return games.create(CreateParams(players=2, seed=4)).game_id


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
def test_a_damaged_game_is_set_aside_and_every_other_game_resumes(
    tmp_path: Path, damage: Callable[[Path], None]
) -> None:
    good = _store_with_a_good_game(tmp_path)
    shutil.copy(tmp_path / f"{good}.secret", tmp_path / "x.secret")
    shutil.copy(tmp_path / f"{good}.jsonl", tmp_path / "x.jsonl")
    damage(tmp_path / "x.secret")

    process = start_server("--store", str(tmp_path))
    assert process.stdin is not None and process.stdout is not None
    client = Client(process.stdout, process.stdin)
    try:
        view = client.ok("game.view", game_id=good)
        assert view["version"] >= 1
        refused = client.call("game.view", game_id="x")
        assert isinstance(refused, Error) and refused.code == GameErrorCode.UNKNOWN_GAME
        taken = client.call("game.create", players=2, game_id="x")
        assert isinstance(taken, Error) and taken.code == GameErrorCode.GAME_EXISTS, taken
    finally:
        _, stderr = process.communicate(timeout=10)
    reported = [line for line in stderr.decode().splitlines() if "x" in line.split(":")[1]]
    assert len(reported) == 1, stderr.decode()
    assert reported[0].startswith("nataterra-rpc: not resuming x: ")
    assert "Traceback" not in stderr.decode()
    if damage is not _log_is_a_directory:
        assert (tmp_path / "x.jsonl").read_bytes() == (tmp_path / f"{good}.jsonl").read_bytes()


def test_a_secret_is_written_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """File fsynced, renamed into place, then the directory fsynced; mode 0600."""
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        mode = os.fstat(descriptor).st_mode
        synced.append("directory" if stat.S_ISDIR(mode) else "file")
        real_fsync(descriptor)

    monkeypatch.setattr(store_module.os, "fsync", fsync)
    DirectoryStore(tmp_path).create("g", Secret(b"\x01" * 32, {"a": "t"}), [])
    assert synced[:2] == ["file", "directory"]
    secret = tmp_path / "g.secret"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert json.loads(secret.read_text())["server_seed"] == "01" * 32
    assert sorted(path.name for path in tmp_path.iterdir()) == ["g.jsonl", "g.secret"]


def test_a_crash_while_writing_a_secret_leaves_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(descriptor: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(store_module.os, "fsync", crash)
    with pytest.raises(OSError):
        DirectoryStore(tmp_path).create("g", Secret(b"\x01" * 32, {"a": "t"}), [])
    assert list(tmp_path.iterdir()) == []


def test_an_orphaned_secret_does_not_stop_a_game_of_its_id(tmp_path: Path) -> None:
    """A crash between the secret and the header leaves a secret with no log: ``game.create``
    with that id, and the ``game.join`` that starts such a game, replace it."""
    (tmp_path / "solo.secret").write_bytes(b"")
    (tmp_path / "joined.secret").write_bytes(b'{"server_seed": "00", "tokens": {}}')
    games = Games(test_seeds=True, store=DirectoryStore(tmp_path))

    solo = games.create(CreateParams(players=2, seed=5, game_id="solo"))
    assert games.view(ViewParams(game_id="solo")).version >= 1
    assert json.loads((tmp_path / "solo.secret").read_text())["tokens"] == solo.tokens

    waiting = games.create(CreateParams(players=2, game_id="joined", seat_seeds=True))
    for seat, token in waiting.tokens.items():
        games.join(JoinParams(game_id="joined", token=token, client_seed=f"c-{seat}"))
    assert games.view(ViewParams(game_id="joined")).version >= 1
    assert json.loads((tmp_path / "joined.secret").read_text())["tokens"] == waiting.tokens

    resumed = Games(test_seeds=True, store=DirectoryStore(tmp_path))
    assert resumed.view(ViewParams(game_id="joined")).version >= 1
    assert not resumed.host.reader.set_aside
