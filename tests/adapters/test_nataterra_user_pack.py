"""A Nataterra game played with a user pack that adds a map is shown, drawn and told with that
pack's map (N-SETUP-1, issue 28 item 4), not the provisional pack's (which has no such map)."""

from __future__ import annotations

from pathlib import Path

from nataterra_adapters.cli import app
from typer.testing import CliRunner

from nataterra_core.game import new_game
from nataterra_core.games.nataterra.geometry import game_map
from nataterra_core.kernel.registry import system

runner = CliRunner()

RIDGE = """\
[[maps]]
id = "ridge"
title = "Ridge"
players = ["velathi", "beasts"]
tiles = [
  { tile = "t1", at = [0, 0], rotation = 0 },
  { tile = "t2", at = [-3, 2], rotation = 5 },
  { tile = "velathi", at = [1, -2], rotation = 1 },
  { tile = "beasts", at = [-2, 4], rotation = 4 },
]
modifiers = [{ side = "mountain", zone = "t1.z3" }]
"""


def ridge_pack(folder: Path) -> Path:
    """A user pack adding the map ``ridge``: the learning map's tiles, one mountain on t1.z3."""
    folder.mkdir()
    (folder / "pack.toml").write_text('[pack]\nid = "ridge-pack"\nversion = "1"\n')
    (folder / "maps.toml").write_text(RIDGE)
    return folder


def test_show_draws_a_game_on_a_user_pack_map(tmp_path: Path) -> None:
    pack = ridge_pack(tmp_path / "pack")
    out = tmp_path / "ridge.jsonl"
    args = ["demo", "--game", "nataterra", "--seed", "3", "--option", "map=ridge"]
    played = runner.invoke(app, [*args, "--content", str(pack), "--out", str(out)])
    assert played.exit_code == 0, played.output
    assert b'"map":"ridge"' in out.read_bytes().splitlines()[0]
    shown = runner.invoke(app, ["show", str(out), "--content", str(pack)])
    assert shown.exit_code == 0, shown.output
    drawing = shown.output.splitlines()
    names = next(i for i, line in enumerate(drawing) if "t1.z1" in line and "t1.z3" in line)
    cells = [cell.strip() for cell in drawing[names + 1].split("|") if cell.strip()]
    assert cells[-1] == "M"  # the ridge's mountain on t1.z3, drawn in its hex
    svg = tmp_path / "ridge.svg"
    drawn = runner.invoke(app, ["show", str(out), "--content", str(pack), "--svg", str(svg)])
    assert drawn.exit_code == 0, drawn.output
    assert svg.read_text().startswith("<svg")


def test_geometry_and_words_read_the_pack_in_play(tmp_path: Path) -> None:
    record = system("nataterra")
    session = new_game(2, seed=1, options={"map": "ridge"}, content=ridge_pack(tmp_path / "p"))
    view = record.seat_view(session.state, "velathi")
    assert view.pack == session.state.pack != ""
    ridge = game_map("ridge", view.pack)
    assert ridge is not None and ridge.zones["t1.z3"].biome == "mountain"
    assert game_map("ridge") is None  # the provisional pack has no such map
    boards = record.hooks.board_geometry
    assert boards is not None
    board = boards.geometry(view).boards[0]
    assert {c.id for c in board.cells} == set(ridge.zones)
    assert "t1.z3" in record.presenter.view(view)
