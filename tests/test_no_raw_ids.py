"""No raw id reaches a player (issue 31 item 3).

For every registered system (from the registry: a system registered later is walked without
a change here), everything a player reads in the terminal and the browser is checked for an
id-like token: a message tag (``bl_keep_card.v1``), a ``snake_case`` id (``probe_centre``,
``base_destroyed``, ``max_turns``), a geometry key (``section:left``, ``modifier:mountain``).

* **every type**: one instance of each command and event class (:func:`test_words.instances`),
  worded as a command, an offer and an event, with no view and with a view in play;
* **real play**: seeded random games with a short turn limit where the options have one; at
  every step each legal command as the acting seat's menu offers it, the acting seat's view
  as text and the words on its boards (titles and labels), each command and its events as
  the log words them; the outcome of the games (ended by the rules or abandoned) and the
  final spectator's view;
* **replay**: every line ``nataterra replay`` prints for each of those logs (its header's
  options by their labels: ``turn limit 100``, not ``max_turns=100``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from nataterra_adapters.cli import app
from nataterra_adapters.cli.words import view_text, worded
from test_words import instances
from typer.testing import CliRunner

from nataterra_core.game import GameSession, new_game
from nataterra_core.kernel import Command, Outcome
from nataterra_core.kernel.registry import RuleSystem, system, system_ids

ID_LIKE = re.compile(
    r"\b[a-z][a-z0-9_]*\.v\d+\b"  # a message tag: name.v1
    r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"  # a snake_case id
    r"|\b(?:section|modifier):"  # a geometry key
)

BOARD_ID_LIKE = re.compile(
    ID_LIKE.pattern + r"|\b[a-z][a-z0-9]*\.[a-z]+\d+\b"  # a dotted zone id: t1.z4
    r"|\b[a-z]+\d+\b"  # a key glued to its number: melee1, z4
)
"""What a board's labels must not show besides ``ID_LIKE``: the ids a sentence may still use
as a place name (``t2.z4``) read as ids on a board, where a player looks for a name."""

SEEDS = (1, 2, 3)
STEPS = 400
TURN_LIMIT = 3

runner = CliRunner()


def raw_ids(text: str) -> list[str]:
    """The id-like tokens of ``text``."""
    return ID_LIKE.findall(text)


def check(text: str, where: str) -> None:
    found = raw_ids(text)
    assert not found, f"{where}: {found} in {text!r}"


def board_ids(text: str) -> list[str]:
    """The id-like tokens of a board's label or title."""
    return BOARD_ID_LIKE.findall(text)


def check_board(text: str, where: str) -> None:
    found = board_ids(text)
    assert not found, f"{where}: {found} in {text!r}"


def test_the_board_pattern_finds_ids_used_as_labels() -> None:
    assert board_ids("t1.z4") == ["t1.z4"]
    assert board_ids("velathi melee1") == ["melee1"]
    assert board_ids("beasts.z1 modifier:mountain") == ["beasts.z1", "modifier:"]
    assert board_ids("tile 1, zone 4") == []
    assert board_ids("velathi's melee 1") == []
    assert board_ids("3 Orcs in reserve (from centre tile, zone 2)") == []


def test_the_pattern_finds_what_a_player_must_not_read() -> None:
    assert raw_ids("french sends bl_keep_card.v1 (hidden)") == ["bl_keep_card.v1"]
    assert raw_ids("english plays probe_centre") == ["probe_centre"]
    assert raw_ids("won by beasts (base_destroyed)") == ["base_destroyed"]
    assert raw_ids("options max_turns=100") == ["max_turns"]
    assert raw_ids("a hex section:left, modifier:mountain") == ["section:", "modifier:"]
    assert raw_ids("red moves 2 Orcs from beasts.z1 to t2.z4 (turn limit 100)") == []


Step = tuple[GameSession, str, Command, Any, tuple[Any, ...]]


def play(record: RuleSystem, seed: int) -> Iterator[Step]:
    """(session after, seat, command, state before, events) of each command of a random
    game, every offer and view on the way checked."""
    options = dict(record.default_options)
    if "max_turns" in record.options.__struct_fields__:
        options["max_turns"] = TURN_LIMIT
    seats = record.default_seats[min(record.default_seats)]
    session = new_game(seats, game=record.id, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(STEPS):
        if session.outcome() is not None:
            return
        seat = rng.choice(list(session.acting_seats()))
        view = record.seat_view(session.state, seat)
        commands = session.legal_commands(seat)
        for command in commands:
            check(record.presenter.offer(command, seat, view), f"{record.id} offer to {seat}")
        check(view_text(record, session.state, seat).plain, f"{record.id} {seat}'s view")
        for text in board_words(record, view):
            check_board(text, f"{record.id} {seat}'s board")
        before = session.state
        command = rng.choice(list(commands))
        events = tuple(session.apply(seat, command))
        yield session, seat, command, before, events


def board_words(record: RuleSystem, view: Any) -> list[str]:
    """The words a client draws on the boards (titles and labels; markers and kinds are
    keys the renderer turns into marks and a legend)."""
    if record.hooks.board_geometry is None:
        return []
    said = []
    for board in record.hooks.board_geometry.geometry(view).boards:
        said.append(board.title)
        for part in (*board.cells, *board.pieces, *board.structures):
            said.append(str(getattr(part, "label", "")))
    return said


@pytest.mark.parametrize("rules_id", system_ids())
def test_every_type_reads_without_an_id(rules_id: str) -> None:
    record = system(rules_id)
    presenter = record.presenter
    session = new_game(
        record.default_seats[min(record.default_seats)],
        game=rules_id,
        seed=1,
        options=dict(record.default_options),
    )
    views = [None, record.seat_view(session.state, None)]
    for value in instances(record):
        for view in views:
            where = f"{rules_id} {type(value).__name__}"
            if isinstance(value, Command):
                check(presenter.command(value, "someone", view), where)
                check(presenter.offer(value, "someone", view), where)
            else:
                check(presenter.event(value, view), where)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("rules_id", system_ids())
def test_real_play_and_its_replay_read_without_an_id(
    rules_id: str, seed: int, tmp_path: Path
) -> None:
    record = system(rules_id)
    session: GameSession | None = None
    reasons = {"abandoned", "turn_limit"}
    for session, seat, command, before, events in play(record, seed):
        reasons.update(str(e.reason) for e in events if hasattr(e, "reason"))
        for reader in (seat, None):  # the mover's own words, and everyone else's
            summary, sentences = worded(
                record,
                command,
                seat,
                events,
                before,
                session.decider,
                reader=reader,
                revealed=False,
            )
            for text in (summary, *sentences):
                check(text, f"{rules_id} record of {seat} read by {reader or 'a spectator'}")
    assert session is not None
    result = session.close()
    check(record.presenter.outcome(result), f"{rules_id} outcome")
    for reason in reasons:
        for winners in ((), session.header.seats[:1]):
            outcome = Outcome(winners=winners, draw=not winners, reason=reason)
            check(record.presenter.outcome(outcome), f"{rules_id} outcome {reason}")
    check(view_text(record, session.state, None).plain, f"{rules_id} final view")
    log = tmp_path / "game.jsonl"
    log.write_bytes(session.log_bytes())
    replayed = runner.invoke(app, ["replay", str(log)], terminal_width=400)
    assert replayed.exit_code == 0, replayed.output
    for line in replayed.output.splitlines():
        check(line, f"{rules_id} replay")


@pytest.mark.parametrize("rules_id", system_ids())
def test_outcomes_read_without_an_id(rules_id: str) -> None:
    presenter = system(rules_id).presenter
    seats = system(rules_id).default_seats[min(system(rules_id).default_seats)]
    for reason in ("abandoned", "turn_limit", "target_reached"):
        for outcome in (
            Outcome(winners=(), reason=reason),
            Outcome(winners=(seats[0],), reason=reason),
            Outcome(winners=(), draw=True, reason=reason),
        ):
            check(presenter.outcome(outcome), f"{rules_id} outcome {reason}")
