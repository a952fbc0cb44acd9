"""A BattleLore game of a user pack's scenario is shown, drawn and told with that pack
(B-SCN-1), its header names the user pack, and an abandoned game has no winner."""

from __future__ import annotations

from pathlib import Path

from nataterra_adapters.cli import app
from typer.testing import CliRunner

from nataterra_core.game import new_game
from nataterra_core.kernel.registry import system

runner = CliRunner()

SKIRMISH = """\
[[scenarios]]
id = "skirmish"
name = "Skirmish at the Mill"
sides = ["english", "french"]
first = "english"
hands = { english = 4, french = 4 }
medals = 2
terrain = [{ hex = [6, 4], terrain = "hill" }]
units = [
  { hex = [5, 6], side = "english", unit = "foot_blue" },
  { hex = [7, 6], side = "english", unit = "archers_green_bow" },
  { hex = [5, 2], side = "french", unit = "foot_blue" },
  { hex = [7, 2], side = "french", unit = "mounted_blue" },
]
"""


def skirmish_pack(folder: Path) -> Path:
    """A user pack adding the four-unit scenario ``skirmish``."""
    folder.mkdir()
    (folder / "pack.toml").write_text('[pack]\nid = "skirmish-pack"\nversion = "1"\n')
    (folder / "scenarios.toml").write_text(SKIRMISH)
    return folder


def test_B_SCN_1_show_draws_a_game_of_a_user_pack_scenario(tmp_path: Path) -> None:
    pack = skirmish_pack(tmp_path / "pack")
    out = tmp_path / "skirmish.jsonl"
    args = ["demo", "--game", "battlelore", "--scenario", "skirmish", "--seed", "3"]
    played = runner.invoke(app, [*args, "--turns", "6", "--content", str(pack), "--out", str(out)])
    assert played.exit_code == 0, played.output
    header = out.read_bytes().splitlines()[0]
    assert b'"content":{"id":"skirmish-pack"' in header  # the user pack's id, as Kaladan's
    shown = runner.invoke(app, ["show", str(out), "--content", str(pack)])
    assert shown.exit_code == 0, shown.output
    assert "Skirmish at the Mill" in shown.output
    replayed = runner.invoke(app, ["replay", str(out), "--content", str(pack)])
    assert replayed.exit_code == 0, replayed.output


def test_B_SCN_1_geometry_and_words_read_the_pack_in_play(tmp_path: Path) -> None:
    record = system("battlelore")
    session = new_game(
        ("english", "french"),
        game="battlelore",
        seed=1,
        options={"scenario": "skirmish"},
        content=skirmish_pack(tmp_path / "pack"),
    )
    view = record.seat_view(session.state, "english")
    boards = record.hooks.board_geometry
    assert boards is not None and record.hooks.svg is not None
    (board,) = boards.geometry(view).boards
    assert len(board.pieces) == 4
    assert record.hooks.svg(view).startswith("<svg")
    assert record.presenter.view(view).startswith("Skirmish at the Mill")
    for command in session.legal_commands("english"):
        boards.targets(view, command)


def test_B_TURN_2_an_abandoned_game_has_no_winner_in_its_words() -> None:
    session = new_game(("english", "french"), game="battlelore", seed=1)
    outcome = session.close()
    assert system("battlelore").presenter.outcome(outcome) == "no winner (abandoned)"
