"""The lobby's controls for the options a person could only type as JSON before (issue 31
item 4): a team per seat (Nataterra's ``teams``, a seat-groups option) and a starting
position pasted or read from a file (``position``, a text option), both built from the
options schema's ``x-picker`` hints; the rules' reasons shown when they refuse."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nataterra_core.game import new_game
from nataterra_core.games.nataterra.rules.positions import POSITIONS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def options_sent(page: Any) -> dict[str, Any]:
    """The options the lobby will send (its JSON under "advanced")."""
    return dict(json.loads(page.input_value("textarea[name=options]")))


def created(page: Any) -> None:
    """Create the game and wait for the seats' links (or fail with the lobby's error)."""
    page.click("#create")
    page.wait_for_function(
        "() => document.querySelector('[data-seat-link]') !== null"
        " || document.getElementById('lobby-error').innerText !== ''"
    )
    assert page.inner_text("#lobby-error") == ""


def test_teams_are_picked_per_seat_and_a_lone_team_is_refused_with_the_rule(
    page: Any, server_url: str, screenshots: Path
) -> None:
    page.goto(server_url + "/")
    page.select_option("select[name=rules]", "nataterra")
    page.select_option("select[name=players]", "4")
    assert page.inner_text("#group-note") == "No teams: every player for themselves."
    page.select_option("select[data-group-seat='velathi']", "1")
    page.select_option("select[data-group-seat='beasts']", "1")
    assert options_sent(page)["teams"] == ["velathi+beasts"]
    assert page.inner_text("#group-note") == "Give humans and naga a team too (or no seat one)."
    page.select_option("select[data-group-seat='humans']", "1")
    page.select_option("select[data-group-seat='naga']", "1")
    page.click("#create")  # one team for all: the rules refuse it, saying why
    page.wait_for_function("() => document.getElementById('lobby-error').innerText !== ''")
    error = page.inner_text("#lobby-error")
    assert error.startswith("The game was not created: "), error
    assert "N-TURN-3: a team game needs at least two teams" in error

    page.select_option("select[data-group-seat='beasts']", "2")
    page.select_option("select[data-group-seat='naga']", "2")
    assert options_sent(page)["teams"] == ["velathi+humans", "beasts+naga"]
    assert page.inner_text("#group-note") == "Teams: velathi and humans against beasts and naga."
    assert page.locator("#advanced").get_attribute("open") is None  # no JSON was touched
    page.screenshot(path=str(screenshots / "lobby-teams.png"), full_page=True)
    created(page)

    # Back to two players: new seats, no teams (the old ones would name absent seats).
    page.select_option("select[name=players]", "2")
    assert "teams" not in options_sent(page)
    assert page.locator("select[data-group-seat]").count() == 2


def test_a_position_is_pasted_or_read_from_a_file_and_a_bad_one_gets_the_rules_reasons(
    page: Any, server_url: str, screenshots: Path, tmp_path: Path
) -> None:
    page.goto(server_url + "/")
    page.select_option("select[name=rules]", "nataterra")
    box = "textarea[name=option-position]"
    assert "start from a position" in page.inner_text("form.lobby")
    page.fill(box, "a position, I promise")
    page.dispatch_event(box, "change")
    assert options_sent(page)["position"] == "a position, I promise"
    page.click("#create")
    page.wait_for_function("() => document.getElementById('lobby-error').innerText !== ''")
    error = page.inner_text("#lobby-error")
    assert error.startswith("The game was not created: the position has 1 problem"), error
    assert "not a readable position" in error
    page.screenshot(path=str(screenshots / "lobby-position-refused.png"), full_page=True)

    started = new_game(seed=7)  # a learning game of velathi and beasts, as set up
    position = tmp_path / "position.json"
    position.write_text(POSITIONS.export(started.state))
    page.set_input_files("input[name=option-position-file]", str(position))
    page.wait_for_function(
        "() => document.querySelector('textarea[name=option-position]').value.startsWith('{')"
    )
    assert options_sent(page)["position"] == position.read_text()
    page.select_option("select[data-seat='beasts']", "random")
    created(page)
    page.click("[data-seat-link='velathi']")
    page.wait_for_selector("[data-board='map'] g.cell")
    assert page.locator("[data-board='map'] g.cell").count() == 20  # the position's map
