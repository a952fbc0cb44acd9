"""The directory store keeps an act's answer crash-safely (issue 33): a server killed at each
durable step of the append that carries a `command_id`'s answer (its answer, each of its
records) and started again on the same directory answers the client's retry of that command
with the act's answer, and the act is in the log once: never a stale error, never twice.
An answer whose records never landed is never read, also once another command is appended
at its version."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from nataterra_adapters.rpc.store import Answer, Secret
from nataterra_adapters.rpc.store_files import DirectoryStore
from rpc_helpers import SERVER, Client

from nataterra_core.game import verify_log

# A server whose process dies (os._exit: no clean-up, as kill -9) after the KILL_AT-th fsync
# of an append that carries an answer, counting each such append's fsyncs (and saying how
# many it made, when it lives through one: stderr "fsyncs N").
_DYING_SERVER = """
import os, sys
from nataterra_adapters.rpc import store_files
from nataterra_adapters.rpc.server import main

kill_at = int(sys.argv[2])
real_fsync, real_append = os.fsync, store_files.DirectoryStore.append
armed = []

def fsync(descriptor):
    real_fsync(descriptor)
    if armed:
        armed.append(descriptor)
        if len(armed) - 1 == kill_at:
            os._exit(9)

def append(self, game_id, seq, lines, answers=()):
    if answers:
        armed.append(None)
    try:
        return real_append(self, game_id, seq, lines, answers)
    finally:
        if armed:
            print(f"fsyncs {len(armed) - 1}", file=sys.stderr, flush=True)
        armed.clear()

os.fsync = fsync
store_files.DirectoryStore.append = append
sys.exit(main(["--test-seeds", "--store", sys.argv[1]]))
"""


def _server(store: Path, kill_at: int | None) -> tuple[subprocess.Popen[bytes], Client]:
    command = (
        [*SERVER, "--test-seeds", "--store", str(store)]
        if kill_at is None
        else [sys.executable, "-c", _DYING_SERVER, str(store), str(kill_at)]
    )
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdin is not None and process.stdout is not None
    return process, Client(process.stdout, process.stdin)


def _act(store: Path, kill_at: int) -> tuple[dict[str, Any], dict[str, Any], Any, str]:
    """A game made and moved twice, then its next act sent with a command_id, by a server
    that dies after ``kill_at`` fsyncs of that act's append: the act's params, the game,
    the reply (``None``: the server died first) and the server's stderr."""
    process, client = _server(store, kill_at)
    try:
        game = client.ok("game.create", rules="liars-dice", seed=11, game_id="g")
        for _ in range(2):
            params = _next_act(client, game)
            client.ok("game.apply", **params)
        params = {**_next_act(client, game), "command_id": "the-retried-act"}
        client.send_raw(json.dumps(_request(params)).encode())
        assert process.stdout is not None
        line = process.stdout.readline()
        reply = json.loads(line)["result"] if line else None
    finally:
        _, err = process.communicate(timeout=60)  # closes its input: the server ends
    return params, game, reply, err.decode()


def _next_act(client: Client, game: dict[str, Any]) -> dict[str, Any]:
    view = client.ok("game.view", game_id=game["game_id"])
    token = game["tokens"][view["acting"][0]]
    legal = client.ok("game.legal_commands", game_id=game["game_id"], token=token)
    return {
        "game_id": game["game_id"],
        "token": token,
        "command": legal["commands"][0],
        "expected_version": view["version"],
    }


def _request(params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "game.apply", "params": params}


def _without_receipt(reply: dict[str, Any]) -> dict[str, Any]:
    """A reply less its receipt (each run's game has a receipt key of its own)."""
    return {key: value for key, value in reply.items() if key != "receipt"}


def test_a_retry_after_a_crash_at_each_step_of_the_append_gets_the_acts_answer(
    tmp_path: Path,
) -> None:
    _, _, reference, said = _act(tmp_path / "reference", kill_at=1_000_000)
    assert reference is not None
    steps = int(said.rsplit("fsyncs ", 1)[1].split()[0])
    assert steps >= 2  # the answer, and at least one record
    reference_log = DirectoryStore(tmp_path / "reference").log("g")
    for kill_at in range(1, steps + 1):
        store = tmp_path / f"killed-after-{kill_at}"
        params, _, reply, _ = _act(store, kill_at)
        assert reply is None, f"the server outlived fsync {kill_at}"
        process, client = _server(store, None)
        try:
            retried = client.ok("game.apply", **params)
            assert client.ok("game.apply", **params) == retried  # and again: the same
        finally:
            process.communicate(timeout=60)
        assert _without_receipt(retried) == _without_receipt(reference), kill_at
        log = DirectoryStore(store).log("g")
        assert len(log.splitlines()) == len(reference_log.splitlines()), kill_at  # once
        assert verify_log(log).status in ("valid", "incomplete")
        kept = [
            a for a in DirectoryStore(store).answers("g") if a.command_id == params["command_id"]
        ]
        assert [a.version for a in kept] == [retried["version"]], kill_at  # kept once


SECRET = Secret(b"\x01" * 32, {"a": "t"})


def _crash_writing_records(monkeypatch: pytest.MonkeyPatch, landed: int) -> None:
    """The next records written fail after ``landed`` of them (a crash between an answer
    and its records, or between two records of one append)."""
    write = DirectoryStore._write

    def failing(path: Path, lines: Any) -> None:
        if path.suffix == ".jsonl":
            write(path, lines[:landed])
            raise OSError(5, "the disk went away")
        write(path, lines)

    monkeypatch.setattr(DirectoryStore, "_write", staticmethod(failing))


@pytest.mark.parametrize("restart", [True, False], ids=["restarted", "same process"])
@pytest.mark.parametrize("landed", [0, 1])
def test_an_answer_whose_records_never_landed_is_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restart: bool, landed: int
) -> None:
    """Two acts in one append (a person's and a bot's), the write stopped before their
    records or between them: the answer of an act whose record landed is read, the other
    never, also once another command's record is appended at its version."""
    store = DirectoryStore(tmp_path)
    store.create("g", SECRET, [b"h", b"r1"], [Answer("a", "c-1", 1, b"[1]", b"{}")])
    acts = [Answer("a", "c-2", 2, b"[2]", b"{}"), Answer("b", "c-3", 3, b"[3]", b"{}")]
    with monkeypatch.context() as crashing:
        _crash_writing_records(crashing, landed)
        with pytest.raises(OSError):
            store.append("g", 2, [b"r2", b"r3"], acts)
    kept = ["c-1", "c-2"][: 1 + landed]
    assert [a.command_id for a in DirectoryStore(tmp_path).answers("g")] == kept
    if restart:
        store = DirectoryStore(tmp_path)
    seq = 2 + landed
    store.append("g", seq, [b"other"], [Answer("b", "c-other", seq, b"[4]", b"{}")])
    assert [a.command_id for a in store.answers("g")] == [*kept, "c-other"]
    assert [a.command_id for a in DirectoryStore(tmp_path).answers("g")] == [*kept, "c-other"]
    assert store.log("g") == b"h\nr1\n" + b"r2\n" * landed + b"other\n"
    assert b"c-3" not in (tmp_path / "g.answers").read_bytes()  # cleared before "other"


def test_a_torn_answer_line_is_cleared_before_the_next_answer(tmp_path: Path) -> None:
    """A crash inside the answer's write tears its line: the next answer is not joined to
    it (which lost both)."""
    store = DirectoryStore(tmp_path)
    store.create("g", SECRET, [b"h"], [])
    with (tmp_path / "g.answers").open("ab") as file:
        file.write(b'{"seat": "a", "command_id": "torn", "ver')
    again = DirectoryStore(tmp_path)
    again.append("g", 1, [b"r1"], [Answer("a", "c-1", 1, b"[1]", b"{}")])
    assert [a.command_id for a in DirectoryStore(tmp_path).answers("g")] == ["c-1"]


def test_a_new_game_does_not_take_the_answers_of_one_whose_header_never_landed(
    tmp_path: Path,
) -> None:
    store = DirectoryStore(tmp_path)
    (tmp_path / "g.secret").write_bytes(SECRET.encode())  # a crash before the header
    ghost = Answer("a", "c-ghost", 1, b"[1]", b"{}")  # its game's header never landed
    store._write(tmp_path / "g.answers", [json.dumps(_fields(ghost)).encode()])
    store.create("g", SECRET, [b"h", b"r1"])
    store.append("g", 2, [b"r2"], [Answer("a", "c-2", 2, b"[2]", b"{}")])
    assert [a.command_id for a in DirectoryStore(tmp_path).answers("g")] == ["c-2"]


def _fields(answer: Answer) -> dict[str, object]:
    """An answer as the answers file has it."""
    return {
        "seat": answer.seat,
        "command_id": answer.command_id,
        "version": answer.version,
        "request": base64.b64encode(answer.request).decode(),
        "answer": base64.b64encode(answer.answer).decode(),
    }
