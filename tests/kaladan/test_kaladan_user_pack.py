"""A Kaladan game played with a user pack that adds a map is shown, drawn and told with that
pack's map (K-SET-1), not the provisional pack's; an abandoned game says it has no winner."""

from __future__ import annotations

from pathlib import Path

from nataterra_adapters.cli import app
from typer.testing import CliRunner

from nataterra_core.game import new_game
from nataterra_core.kernel.registry import system

runner = CliRunner()

DUEL = """\
[[maps]]
id = "duel"
players = 2
tiles = [
  { at = [0, 0], terrain = "plain", castle = "red" },
  { at = [1, 0], terrain = "plain" },
  { at = [2, 0], terrain = "forest" },
  { at = [3, 0], terrain = "plain", castle = "blue" },
  { at = [1, -1], terrain = "mountain" },
  { at = [2, -1], terrain = "plain" },
]
"""


def duel_pack(folder: Path) -> Path:
    """A user pack adding the six-tile map ``duel``."""
    folder.mkdir()
    (folder / "pack.toml").write_text('[pack]\nid = "duel-pack"\nversion = "1"\n')
    (folder / "maps.toml").write_text(DUEL)
    return folder


def test_K_SET_1_show_draws_a_game_on_a_user_pack_map(tmp_path: Path) -> None:
    pack = duel_pack(tmp_path / "pack")
    out = tmp_path / "duel.jsonl"
    args = ["demo", "--game", "kaladan", "--seed", "3", "--option", "map=duel"]
    played = runner.invoke(app, [*args, "--content", str(pack), "--out", str(out)])
    assert played.exit_code == 0, played.output
    assert b'"content":{"id":"duel-pack"' in out.read_bytes().splitlines()[0]
    shown = runner.invoke(app, ["show", str(out), "--content", str(pack)])
    assert shown.exit_code == 0, shown.output
    rows = [line for line in shown.output.splitlines() if line.strip().startswith(("A", "B"))]
    assert sum(line.count("#") for line in rows) == 2  # the duel map's two castles
    replayed = runner.invoke(app, ["replay", str(out), "--content", str(pack)])
    assert replayed.exit_code == 0, replayed.output


def test_K_SET_1_geometry_and_words_read_the_pack_in_play(tmp_path: Path) -> None:
    record = system("kaladan")
    session = new_game(
        ("red", "blue"),
        game="kaladan",
        seed=1,
        options={"map": "duel"},
        content=duel_pack(tmp_path / "pack"),
    )
    view = record.seat_view(session.state, "red")
    boards = record.hooks.board_geometry
    assert boards is not None and record.hooks.svg is not None
    (board,) = boards.geometry(view).boards
    assert len(board.cells) == 6
    assert record.hooks.svg(view).startswith("<svg")
    assert "Kaladan, turn" in record.presenter.view(view)


def test_K_END_4_an_abandoned_game_has_no_winner_in_its_words() -> None:
    session = new_game(("red", "blue"), game="kaladan", seed=1)
    outcome = session.close()
    assert not outcome.winners and not outcome.draw
    assert system("kaladan").presenter.outcome(outcome) == "no winner (abandoned)"
