"""What a user of an installed wheel gets (issue 17 item 6): ``--version`` and ``-h``, the
battle calculator's example shipped as package data, and no user command reading the
repository's ``docs`` folder at run time (``coverage`` is a development tool)."""

from __future__ import annotations

from pathlib import Path

import pytest
from nataterra_adapters.cli import app
from typer.testing import CliRunner

from nataterra_core import __version__
from nataterra_core.games.nataterra.battles import STANDARD_BATTLE_FILE, standard_battle
from nataterra_core.kernel.build import BUILD
from nataterra_core.kernel.registry import systems

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def test_version_names_the_library_and_every_rule_system() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"nataterra {__version__} ({BUILD} build; ")  # pure/compiled
    for record in systems():
        assert f"{record.id} v{record.rules.version}" in result.output


@pytest.mark.parametrize("args", [["-h"], ["--help"], ["show", "-h"], ["odds", "-h"]])
def test_h_is_help(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Usage: " in result.output and "Show this message and exit" in result.output


def test_the_standard_battle_ships_inside_the_package() -> None:
    package = ROOT / "nataterra_core"
    assert STANDARD_BATTLE_FILE.is_relative_to(package)
    assert (
        STANDARD_BATTLE_FILE.read_bytes() == (ROOT / "examples/standard_battle.json").read_bytes()
    )
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"**/*.json"' in pyproject  # package data: the wheel carries the file
    assert standard_battle().attacker == "velathi"


def test_user_commands_need_nothing_beside_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run from a folder with no ``docs`` (nor ``examples``) in it: odds without a
    FILE uses the shipped battle, and demo, show, replay and verify work."""
    work = tmp_path / "somewhere"
    work.mkdir()
    monkeypatch.chdir(work)
    assert not Path("docs").exists() and not Path("examples").exists()
    odds = runner.invoke(app, ["odds", "--runs", "20", "--json"])
    assert odds.exit_code == 0, odds.output
    assert '"runs":20' in odds.output.replace(" ", "")
    log = work / "game.jsonl"
    steps = [
        ["demo", "--seed", "2", "--turns", "2", "--out", str(log)],
        ["show", str(log), "--as", "velathi", "--svg", str(work / "board.svg")],
        ["replay", str(log), "--to", "5"],
        ["verify", str(log)],
        ["rules", "--game", "kaladan", "--plain"],  # the page ships inside the package
    ]
    for args in steps:
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
    assert (work / "board.svg").read_text().startswith("<svg")
