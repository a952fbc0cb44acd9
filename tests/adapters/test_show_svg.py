"""``nataterra show LOG --at N --as SEAT --svg FILE``: a mid-game board as SVG (issue 17 item 4).

The picture of a heuristic game after structures were built is parsed as XML: one polygon per
zone of the map (empty zones too), one piece mark per unit stack (and per combat group while a
combat runs) and one mark per structure, each carrying its id for a browser to hit-test.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from nataterra_adapters.cli import app
from typer.testing import CliRunner

from nataterra_core.game import decider_for
from nataterra_core.games.nataterra.geometry import game_map
from nataterra_core.kernel import read_log, replay_states
from nataterra_core.kernel.registry import system

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"


def test_show_writes_the_board_of_a_mid_game_position_as_svg(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    made = runner.invoke(app, ["demo", "--seed", "6", "--turns", "18", "--out", str(log)])
    assert made.exit_code == 0, made.output
    read = read_log(log.read_bytes(), decider_for)
    states = dict(replay_states(read.decider, read.header, read.records))
    # The first position with two structures on the map and units of both players.
    seq, state = next(
        (n, s)
        for n, s in sorted(states.items())
        if len(s.structures) >= 2 and len({u.owner for u in s.units}) == 2
    )
    picture = tmp_path / "board.svg"
    shown = runner.invoke(
        app, ["show", str(log), "--at", str(seq), "--as", "beasts", "--svg", str(picture)]
    )
    assert shown.exit_code == 0, shown.output
    assert f"board written to {picture}" in shown.output

    root = ET.fromstring(picture.read_text())
    assert root.tag == f"{SVG}svg"
    groups = root.findall(f".//{SVG}g")
    view = system("nataterra").seat_view(state, "beasts")
    zones = game_map(view.map_id)
    assert zones is not None
    cells = {g.get("data-cell") for g in groups if "cell" in g.get("class", "").split()}
    slots = {c for c in cells if c.startswith(("slot:", "reserve:"))}  # a combat board's
    assert set(zones.zone_ids) == cells - slots
    outlines = [p for p in root.findall(f".//{SVG}polygon") if p.get("class") != "held"]
    assert len(outlines) == len(cells)
    pieces = {g.get("data-piece") for g in groups if "data-piece" in g.attrib}
    stacks = {f"stack:{s.owner}/{s.unit}@{s.zone}" for s in view.units}
    assert stacks <= pieces
    marks = [g.get("data-structure") for g in groups if "data-structure" in g.attrib]
    assert sorted(marks) == sorted(f"structure:{p.structure}@{p.zone}" for p in view.structures)
    assert len(marks) >= 2


def test_show_refuses_an_svg_for_a_game_without_a_board(tmp_path: Path) -> None:
    """A system without the hook (the tests' Pig game) says so instead of writing nothing."""
    log = tmp_path / "pig.jsonl"
    made = runner.invoke(app, ["demo", "--game", "pig", "--seed", "1", "--out", str(log)])
    assert made.exit_code == 0, made.output
    shown = runner.invoke(app, ["show", str(log), "--svg", str(tmp_path / "pig.svg")])
    assert shown.exit_code != 0
    assert "has no board to draw" in shown.output
    assert not (tmp_path / "pig.svg").exists()
