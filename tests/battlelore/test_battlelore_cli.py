"""``nataterra demo --game battlelore --scenario NAME`` and the generic commands on its log."""

from __future__ import annotations

import re
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


def test_a_redone_order_names_the_unit_as_players_see_it(tmp_path: Path) -> None:
    """``play``'s echo of a redo words the events against the position they apply to, as
    the first echo and the log do (issue 31's closing note: without a view a unit was named
    by its id, ``redone: f2 is ordered``)."""
    out = tmp_path / "game.jsonl"
    args = ["play", "--game", "battlelore", "--seed", "3", "--out", str(out)]
    result = runner.invoke(app, args, input="1\n1\nu\nr\nq\n", terminal_width=200)
    assert result.exit_code == 0, result.output
    redone = next(line for line in result.output.splitlines() if "redone: " in line)
    assert redone.endswith("redone: french's red heavy cavalry at 2,1 is ordered"), redone
    assert not re.search(r"\b[ef]\d+\b", redone)  # no unit id (e3, f2)
