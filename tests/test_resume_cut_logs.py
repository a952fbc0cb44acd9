"""A game whose log a crash cut between its ``reveal`` and its ``end`` resumes: the end is
written as a game that never stopped writes it, so the log verifies as complete and is the
uncut log byte for byte (the kernel's ``Session.from_log(finish=True)`` and
``nataterra play --resume``; the servers' stores in ``tests/rpc/test_rpc_resume_cut_logs.py``).
One test per registered game that keeps secrets, and the kernel's test for every game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from every_game_logs import game_ids, short_log
from nataterra_adapters.cli import app, play
from typer.testing import CliRunner

from nataterra_core.game import decider_for, verify_log
from nataterra_core.kernel import LogEndsEarly, Session, Verdict, read_log
from nataterra_core.kernel.registry import systems

runner = CliRunner()

SECRET_KEEPING = [record.id for record in systems() if not record.perfect_information]


def cut_after_reveal(game: str) -> tuple[bytes, bytes, bytes]:
    """The finished short log, the same without its end record, and its server seed."""
    whole = short_log(game)
    lines = whole.splitlines(keepends=True)
    reveal = json.loads(lines[-2])
    assert (reveal["kind"], json.loads(lines[-1])["kind"]) == ("reveal", "end")
    return whole, b"".join(lines[:-1]), bytes.fromhex(reveal["server_seed"])


@pytest.mark.parametrize("game", game_ids())
def test_the_kernel_finishes_a_log_cut_after_its_reveal(game: str) -> None:
    whole, cut, seed = cut_after_reveal(game)
    log = read_log(cut, decider_for)
    with pytest.raises(LogEndsEarly):  # verification still calls it incomplete
        Session.from_log(log.decider, log.header, log.records, log.lines, seed)
    session = Session.from_log(log.decider, log.header, log.records, log.lines, seed, finish=True)
    assert session.closed
    assert session.log_bytes() == whole
    assert len(session.lines) == len(log.lines) + 1
    # A whole log, or one cut before its reveal, gains nothing.
    for data in (whole, b"".join(whole.splitlines(keepends=True)[:-2])):
        kept = read_log(data, decider_for)
        again = Session.from_log(
            kept.decider, kept.header, kept.records, kept.lines, seed, finish=True
        )
        assert again.log_bytes() == data


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_play_resume_writes_the_missing_end(game: str, tmp_path: Path) -> None:
    whole, cut, seed = cut_after_reveal(game)
    log, secret = tmp_path / "hot.jsonl", tmp_path / "hot.jsonl.secret"
    log.write_bytes(cut)
    secret.write_text(seed.hex() + "\n")  # the seed is kept until the end is written
    assert verify_log(cut).status == "incomplete"
    resumed = runner.invoke(app, ["play", "--resume", str(log)], terminal_width=400)
    assert resumed.exit_code == 0, resumed.output
    assert "lacked the end record, now written" in resumed.output
    assert "result: " in resumed.output
    assert log.read_bytes() == whole
    assert verify_log(log.read_bytes()).valid
    assert not secret.exists()
    again = runner.invoke(app, ["play", "--resume", str(log)])
    assert again.exit_code == 2 and "not a suspended game" in again.output


@pytest.mark.parametrize("game", SECRET_KEEPING)
def test_play_resume_removes_a_finished_games_leftover_secret(game: str, tmp_path: Path) -> None:
    """A crash after the end record was written, before the secret was deleted."""
    whole, _, seed = cut_after_reveal(game)
    log, secret = tmp_path / "hot.jsonl", tmp_path / "hot.jsonl.secret"
    log.write_bytes(whole)
    secret.write_text(seed.hex() + "\n")
    resumed = runner.invoke(app, ["play", "--resume", str(log)], terminal_width=400)
    assert resumed.exit_code == 0, resumed.output
    assert "is a finished game (its log verifies); removed its leftover" in resumed.output
    assert "hot.jsonl.secret" in resumed.output and "result: " in resumed.output
    assert not secret.exists()
    assert log.read_bytes() == whole  # nothing written to a finished log
    again = runner.invoke(app, ["play", "--resume", str(log)])
    assert again.exit_code == 2 and "not a suspended game" in again.output


@pytest.mark.parametrize("kept", [b"", b"not hex\n", b"\xff\xfe"])
def test_a_leftover_secret_that_is_damaged_is_removed_by_the_reveal(
    kept: bytes, tmp_path: Path
) -> None:
    """The finished log's reveal holds the seed, so a damaged secret file does not matter."""
    whole, _, _ = cut_after_reveal(SECRET_KEEPING[0])
    log, secret = tmp_path / "hot.jsonl", tmp_path / "hot.jsonl.secret"
    log.write_bytes(whole)
    secret.write_bytes(kept)
    resumed = runner.invoke(app, ["play", "--resume", str(log)], terminal_width=400)
    assert resumed.exit_code == 0, resumed.output
    assert "removed its leftover" in resumed.output and not secret.exists()


def test_a_damaged_secret_of_a_game_in_play_is_named(tmp_path: Path) -> None:
    whole, _, _ = cut_after_reveal(SECRET_KEEPING[0])
    lines = whole.splitlines(keepends=True)
    log, secret = tmp_path / "hot.jsonl", tmp_path / "hot.jsonl.secret"
    log.write_bytes(b"".join(lines[:-2]))  # no reveal: the secret is the only seed
    secret.write_bytes(b"not hex\n")
    resumed = runner.invoke(app, ["play", "--resume", str(log)], terminal_width=400)
    assert resumed.exit_code == 2
    assert "does not hold a server seed in hex" in resumed.output
    assert resumed.exception is None or isinstance(resumed.exception, SystemExit)
    assert secret.exists()


def test_a_finished_log_that_does_not_verify_keeps_its_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Re-execution already refuses almost every damaged log; what it lets through and
    ``verify`` refuses (here a verdict standing for one) keeps the secret, and says why."""
    whole, _, seed = cut_after_reveal(SECRET_KEEPING[0])
    log, secret = tmp_path / "hot.jsonl", tmp_path / "hot.jsonl.secret"
    log.write_bytes(whole)
    secret.write_text(seed.hex() + "\n")
    refused = Verdict(status="invalid", failure="read", seq=3, reason="an unsafe integer")
    monkeypatch.setattr(play, "verify", lambda data, deciders: refused)
    resumed = runner.invoke(app, ["play", "--resume", str(log)], terminal_width=400)
    assert resumed.exit_code == 2
    assert "does not verify" in resumed.output and "an unsafe integer" in resumed.output
    assert secret.exists()
