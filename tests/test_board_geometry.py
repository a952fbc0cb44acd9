"""Conformance of the board-geometry hook: for every registered system that offers it.

For a few seeded random games and every position on the way, the geometry computed from each
seat's view (and a spectator's) must be drawable and clickable:

* ids are unique across cells, pieces and structures, and every piece and structure stands on
  a cell of its board;
* every cell has an outline polygon, and adjacency is symmetric and names cells of the board;
* each legal command's targets name ids of the geometry of the acting seat's view, and a move's
  path is a chain of adjacent cells;
* the geometry encodes to JSON and back unchanged (it is what ``game.view`` sends);
* the ``svg`` hook's picture parses as XML with one ``<polygon>`` per cell, one piece element
  per piece and one structure element per structure.

A system without the hook is skipped, saying so: the hook is optional until every game fills
it (issue 17: Kaladan and BattleLore add theirs when they land).
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import msgspec
import pytest

from nataterra_core.game import new_game
from nataterra_core.kernel.geometry import Board, Geometry, Targets
from nataterra_core.kernel.registry import RuleSystem, systems

QUICK: dict[str, dict[str, Any]] = {"nataterra": {"max_turns": 6}}
SEEDS = (1, 2)
SVG = "{http://www.w3.org/2000/svg}"


def _ids() -> list[str]:
    return [record.id for record in systems()]


def _system(rules_id: str) -> RuleSystem:
    return next(record for record in systems() if record.id == rules_id)


def check_geometry(geometry: Geometry) -> dict[str, Board]:
    """The structural checks; the board each id lives on."""
    where: dict[str, Board] = {}
    for board in geometry.boards:
        cells = {cell.id: cell for cell in board.cells}
        for thing in (*board.cells, *board.pieces, *board.structures):
            assert thing.id not in where, f"id {thing.id!r} is used twice"
            where[thing.id] = board
        for cell in board.cells:
            assert len(cell.outline) >= 3, f"{cell.id} has no outline"
            for other in cell.neighbours:
                assert other in cells, f"{cell.id}'s neighbour {other} is not on {board.id}"
                assert cell.id in cells[other].neighbours, f"{cell.id}-{other} is one-way"
        for thing in (*board.pieces, *board.structures):
            assert thing.cell in cells, f"{thing.id} stands on {thing.cell}, not on {board.id}"
    encoded = msgspec.json.encode(geometry)
    assert msgspec.json.decode(encoded, type=Geometry) == geometry
    return where


def check_targets(targets: Targets, where: dict[str, Board], hand: set[str] | None) -> None:
    """Every id a command's targets name is on a board, and the card it plays (if any) is
    in the acting seat's hand as its panel shows it."""
    if targets.card is not None and hand is not None:
        assert targets.card in hand, f"card {targets.card!r} is not in the hand {hand}"
    for name in (*targets.pieces, *targets.path, targets.cell, targets.piece):
        assert name is None or name in where, f"target {name!r} is not on any board"
    for a, b in zip(targets.path, targets.path[1:], strict=False):
        cell = next(c for c in where[a].cells if c.id == a)
        assert b in cell.neighbours, f"path step {a} -> {b} is not between neighbours"


def check_svg(svg: str, geometry: Geometry) -> None:
    root = ET.fromstring(svg)  # raises on anything that is not well-formed XML
    assert root.tag == f"{SVG}svg"
    cells = sum(len(b.cells) for b in geometry.boards)
    pieces = sum(len(b.pieces) for b in geometry.boards)
    structures = sum(len(b.structures) for b in geometry.boards)
    outlines = [p for p in root.findall(f".//{SVG}polygon") if p.get("class") != "held"]
    assert len(outlines) == cells
    groups = root.findall(f".//{SVG}g")
    assert sum(1 for g in groups if "data-piece" in g.attrib) == pieces
    assert sum(1 for g in groups if "data-structure" in g.attrib) == structures
    assert sum(1 for g in groups if "data-cell" in g.attrib and "piece" not in g.get("class", ""))


def _hand(record: RuleSystem, view: object, seat: str) -> set[str] | None:
    """The card ids of ``seat``'s own panel (``None`` for a system without panels); the
    other seats' panels show no cards."""
    if record.hooks.panels is None:
        return None
    panels = record.hooks.panels(view)
    assert [p.seat for p in panels.seats if p.hand is not None] in ([], [seat])
    own = next((p for p in panels.seats if p.seat == seat), None)
    return {card.id for card in own.hand or ()} if own is not None else set()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("rules_id", _ids())
def test_board_geometry_is_drawable_and_clickable(rules_id: str, seed: int) -> None:
    record = _system(rules_id)
    hook = record.hooks.board_geometry
    if hook is None:
        pytest.skip(f"{rules_id} offers no board-geometry hook yet (optional until it lands)")
    options = {**record.default_options, **QUICK.get(rules_id, {})}
    seats = record.default_seats[min(record.default_seats)]
    session = new_game(seats, game=rules_id, seed=seed, options=options)
    rng = random.Random(seed)
    drawn = targeted = 0
    for step in range(400):
        if session.outcome() is not None:
            break
        seat = rng.choice(list(session.acting_seats()))
        legal = session.legal_commands(seat)
        view = record.seat_view(session.state, seat)
        where = check_geometry(hook.geometry(view))
        hand = _hand(record, view, seat)
        for command in legal:
            check_targets(hook.targets(view, command), where, hand)
            targeted += 1
        if step % 7 == 0:
            spectator = record.seat_view(session.state, None)
            geometry = hook.geometry(spectator)
            check_geometry(geometry)
            if record.hooks.svg is not None:
                check_svg(record.hooks.svg(spectator), geometry)
        drawn += 1
        session.apply(seat, rng.choice(legal))
    assert drawn > 10 and targeted > drawn
