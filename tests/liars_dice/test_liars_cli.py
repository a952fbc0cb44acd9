"""Issue 29's must-show for Liar's Dice at the command line: ``nataterra demo --game
liars-dice`` with each of its bots writes a log ``nataterra verify`` finds VALID, and a
``nataterra tournament`` of its bots verifies every log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from nataterra_adapters.cli import app
from typer.testing import CliRunner

from nataterra_core.game import verify_log

runner = CliRunner()


@pytest.mark.parametrize("bot", ("random", "heuristic", "search:4"))
def test_demo_with_each_bot_writes_a_log_verify_finds_valid(bot: str, tmp_path: Path) -> None:
    log = tmp_path / f"{bot}.jsonl"
    demo = runner.invoke(
        app,
        ["demo", "--game", "liars-dice", "--bot", bot, "--seed", "4", "--players", "3",
         "--option", "dice=2", "--out", str(log)],
    )  # fmt: skip
    assert demo.exit_code == 0, demo.output
    assert "won by" in demo.output
    verify = runner.invoke(app, ["verify", str(log)])
    assert verify.exit_code == 0 and "VALID" in verify.output, verify.output


def test_a_tournament_of_its_bots_verifies_every_log(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["tournament", "--game", "liars-dice", "--players", "random,heuristic,search:4",
         "--games", "2", "--seed", "1", "--option", "dice=2", "--json", "--out", str(tmp_path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    table = json.loads(result.stdout)  # stderr names the folder and each game
    assert table["logs_verified"] == 6 and table["logs_invalid"] == []
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 6 and all(verify_log(p.read_bytes()).valid for p in logs)
