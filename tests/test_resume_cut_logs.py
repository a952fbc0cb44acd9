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
from nataterra_adapters.cli import app
from typer.testing import CliRunner

from nataterra_core.game import decider_for, verify_log
from nataterra_core.kernel import LogEndsEarly, Session, read_log
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
