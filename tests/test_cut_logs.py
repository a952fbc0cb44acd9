"""A log cut at a record boundary is incomplete, never invalid (issue 30: the seed is
revealed at the end; issue 31's closing note: a log cut at its reveal read "INVALID … the
log ends early").

Cut before its ``reveal``, a log is what a game in progress is: nothing wrong in the records
there, its dice not checkable yet. Cut between the ``reveal`` and the ``end`` written with it
(a write that stopped at the boundary between the two), every record there re-executes,
dice included, and only the end is missing: incomplete too, in the kernel's verify and so
in everything built on it (``nataterra verify`` and ``replay``, batch verification, RPC
``log.verify`` and ``log.replay``, the browser's replay). A record cut in the middle (torn)
or edited stays invalid. One test per registered game that keeps secrets (a new one is
covered with no edit).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from every_game_logs import short_log
from nataterra_adapters.cli import EXIT_CODES, app
from nataterra_adapters.rpc.server import Server
from typer.testing import CliRunner

from nataterra_core.game import verify_log
from nataterra_core.kernel.registry import systems
from nataterra_core.kernel.replay import NO_END, NO_REVEAL

runner = CliRunner()

SECRET_KEEPING = [record.id for record in systems() if not record.perfect_information]


def _lines(game: str) -> list[bytes]:
    """The finished short log's lines, each with its newline; the last two are reveal, end."""
    lines = short_log(game).splitlines(keepends=True)
    kinds = [json.loads(line)["kind"] for line in lines[-2:]]
    assert kinds == ["reveal", "end"], kinds
    return lines


def _rechained(lines: list[bytes]) -> bytes:
    """``lines`` with every ``prev`` recomputed: an edit a forger hides from the chain."""
    out: list[bytes] = []
    for line in lines:
        record = json.loads(line)
        if out:
            record["prev"] = hashlib.sha256(out[-1].rstrip(b"\n")).hexdigest()
        out.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
    return b"".join(out)


def rpc_result(method: str, **params: Any) -> dict[str, Any]:
    """The result of one JSON-RPC call to a fresh in-process server (its error fails)."""
    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    reply = Server(test_seeds=True).dispatcher.handle(json.dumps(message).encode())
    assert reply is not None
    answer: dict[str, Any] = json.loads(reply)
    assert "result" in answer, answer
    return answer["result"]  # type: ignore[no-any-return]


def test_some_game_keeps_secrets() -> None:
    assert len(SECRET_KEEPING) >= 3, SECRET_KEEPING


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_every_cut_at_a_record_boundary_is_incomplete(game: str) -> None:
    lines = _lines(game)
    reveal = len(lines) - 2
    for cut in range(1, len(lines)):
        verdict = verify_log(b"".join(lines[:cut]))
        assert verdict.status == "incomplete", (cut, verdict)
        assert verdict.failure is None and verdict.seq == cut, (cut, verdict)
        assert verdict.reason == (NO_REVEAL if cut <= reveal else NO_END), (cut, verdict)
    assert verify_log(b"".join(lines)).valid


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_a_log_cut_after_its_reveal_is_still_checked_dice_and_all(game: str) -> None:
    lines = _lines(game)
    cut = lines[:-1]
    # A command edited before the reveal, the chain rebuilt: re-execution still catches it.
    edited = next(
        n for n, line in enumerate(cut) if n > 1 and json.loads(line)["kind"] == "command"
    )
    record = json.loads(cut[edited])
    record["seat"] = next(s for s in json.loads(cut[0])["seats"] if s != record["seat"])
    forged = [*cut[:edited], json.dumps(record).encode() + b"\n", *cut[edited + 1 :]]
    verdict = verify_log(_rechained(forged))
    assert (verdict.status, verdict.failure) == ("invalid", "replay"), verdict
    assert verdict.seq is not None and verdict.seq <= edited, verdict
    # Another seed revealed, the chain rebuilt: it does not hash to the commitment.
    reveal = json.loads(cut[-1])
    reveal["server_seed"] = "ab" * 32
    verdict = verify_log(_rechained([*cut[:-1], json.dumps(reveal).encode() + b"\n"]))
    assert (verdict.status, verdict.failure, verdict.seq) == ("invalid", "seed", len(cut) - 1)


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_a_torn_or_edited_record_at_the_reveal_stays_invalid(game: str) -> None:
    lines = _lines(game)
    reveal, end = lines[-2], lines[-1]
    for torn, seq in (
        ([*lines[:-1], end[: len(end) // 2]], len(lines) - 1),  # the end half-written
        ([*lines[:-2], reveal[: len(reveal) // 2]], len(lines) - 2),  # the reveal half-written
    ):
        verdict = verify_log(b"".join(torn))
        assert (verdict.status, verdict.failure, verdict.seq) == ("invalid", "torn", seq)
    # The reveal, last, edited: no later prev witnesses it, its seed no longer hashes right.
    record = json.loads(reveal)
    seed = record["server_seed"]
    record["server_seed"] = ("1" if seed[0] == "0" else "0") + seed[1:]
    edited = json.dumps(record, separators=(",", ":")).encode() + b"\n"
    verdict = verify_log(b"".join([*lines[:-2], edited]))
    assert (verdict.status, verdict.failure, verdict.seq) == ("invalid", "seed", len(lines) - 2)
    # The last record before the reveal, edited: not canonical any more.
    before = lines[-3].replace(b'"seq":', b'"seq": ', 1)
    verdict = verify_log(b"".join([*lines[:-3], before]))
    assert (verdict.status, verdict.failure, verdict.seq) == ("invalid", "read", len(lines) - 3)


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_the_cli_the_batch_and_the_rpc_call_a_cut_log_incomplete(game: str, tmp_path: Path) -> None:
    lines = _lines(game)
    paths = []
    for name, cut in (("before-reveal", lines[:-2]), ("after-reveal", lines[:-1])):
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(b"".join(cut))
        paths.append(path)
        verified = runner.invoke(app, ["verify", str(path)], terminal_width=400)
        assert verified.exit_code == EXIT_CODES["incomplete"], verified.output
        assert "INCOMPLETE" in verified.output and "INVALID" not in verified.output
        replayed = runner.invoke(app, ["replay", str(path)], terminal_width=400)
        assert replayed.exit_code == 0, replayed.output  # an unfinished log is nothing wrong
        assert replayed.output.startswith("incomplete: "), replayed.output
        assert "INVALID" not in replayed.output
        text = b"".join(cut).decode()
        assert rpc_result("log.verify", log=text)["status"] == "incomplete"
        replay = rpc_result("log.replay", log=text)
        assert replay["stopped"] is None and replay["records"] == len(cut)
    batch = runner.invoke(app, ["verify", *map(str, paths)], terminal_width=400)
    assert batch.exit_code == EXIT_CODES["incomplete"], batch.output
    assert "2 logs: 0 valid, 2 incomplete, 0 invalid" in batch.output
