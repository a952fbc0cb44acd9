"""``nataterra demo --game battlelore --scenario NAME`` and the generic commands on its log."""

from __future__ import annotations

from pathlib import Path

import pytest
from nataterra_adapters.cli import app
from typer.testing import CliRunner

from nataterra_core.game import verify_log

runner = CliRunner()


def test_demo_plays_a_scenario_then_show_replay_and_verify_read_its_log(tmp_path: Path) -> None:
    out = tmp_path / "war.jsonl"
    args = ["demo", "--game", "battlelore", "--scenario", "war-council", "--seed", "3"]
    result = runner.invoke(app, [*args, "--turns", "12", "--out", str(out)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "scenario The War Council (lore, scenario 5): " in said and "VALID" in said
    assert verify_log(out.read_bytes()).valid
    for command in (["show", str(out)], ["replay", str(out)], ["verify", str(out)]):
        shown = runner.invoke(app, command)
        assert shown.exit_code == 0, shown.output
    assert "The War Council" in runner.invoke(app, ["show", str(out)]).output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--scenario", "nowhere"], "B-SCN-1"),
        (["--game", "nataterra", "--scenario", "agincourt"], "no scenario 'agincourt'"),
    ],
)
def test_a_bad_scenario_is_a_usage_error(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["demo", "--game", "battlelore", *args])
    assert result.exit_code == 2
    assert words in " ".join(result.output.replace("│", " ").split())
