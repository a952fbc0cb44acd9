"""The play page for people (issue 31), in a real browser: BattleLore and Kaladan played to
their end by clicking (cards of the hand, units and hexes on the board, sentences), set up
with the lobby's pickers only (a BattleLore scenario and turn limit chosen without JSON);
the seat panels show the player's own hand by title and the others' cards only counted; a
tampered log is marked INVALID in the replay view, a pasted one missing its final newline
gets it. Screenshots of each go to out/screenshots/."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from nataterra_core.game import new_game

from .test_browser import MAX_STEPS, board_move, decide_in_words, play_card, wait_for_turn

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HIRED_SWORDS = {"scenario": "hired-swords"}


def play_to_the_end(page: Any, shots: Path, name: str) -> dict[str, int]:
    """Take the seat's turns by clicking until the game is over: the board first, then a
    card of the hand, then a sentence. How many of each were made."""
    made = {"board": 0, "card": 0, "words": 0}
    for _ in range(MAX_STEPS):
        if wait_for_turn(page).startswith("Game over"):
            return made
        if board_move(page):
            made["board"] += 1
            if made["board"] == 4:
                page.screenshot(path=str(shots / f"{name}-mid-game.png"))
        elif not page.locator("#hand .card.selected").count() and play_card(page):
            made["card"] += 1
        else:
            decide_in_words(page)
            made["words"] += 1
    pytest.fail(f"the game did not end: {made}")


def test_a_battlelore_scenario_picked_in_the_lobby_is_played_to_its_end_by_clicking(
    page: Any, server_url: str, screenshots: Path
) -> None:
    page.goto(server_url + "/")
    page.select_option("select[name=rules]", "battlelore")
    scenarios = page.locator("select[name=option-scenario] option").all_inner_texts()
    assert len(scenarios) >= 2 and all("_" not in s and "-" not in s for s in scenarios), scenarios
    page.select_option("select[name=option-scenario]", label=scenarios[1])
    page.fill("input[name=option-max_turns]", "3")
    page.dispatch_event("input[name=option-max_turns]", "change")
    assert page.locator("#advanced").get_attribute("open") is None  # no JSON was touched
    options = json.loads(page.input_value("textarea[name=options]"))
    assert options["max_turns"] == 3 and options["scenario"] != "agincourt", options
    assert page.locator("select[data-seat='english']").input_value() == ""  # you
    assert page.locator("select[data-seat='french']").input_value() == ""  # a person's link
    page.select_option("select[data-seat='french']", "heuristic")
    assert page.locator("#lobby-how-to-play").get_attribute("href") == "#/how-to-play/battlelore"
    page.screenshot(path=str(screenshots / "lobby-battlelore.png"))
    page.click("#create")
    page.click("[data-seat-link='english']")
    page.wait_for_selector("[data-board='battlefield'] g.cell")
    assert page.locator("svg polyline[data-line='section']").count() == 2  # B-BOARD-1
    assert page.locator("svg g.piece .banner").count() >= 1  # banner colours on the units
    assert "section:" not in page.inner_text("#app")

    # The seat's panel and its hand: its own command cards by title, the other's counted.
    titles = page.locator("#hand .card .title").all_inner_texts()
    assert titles and all("_" not in title for title in titles), titles
    assert page.locator("#hand .card.playable").count() >= 1
    french = page.inner_text("#seats [data-seat='french']")
    assert "command cards" in french and "medals" in french
    assert page.locator("#seats [data-seat='french'] .card").count() == 0
    assert page.title().startswith("BattleLore")
    assert page.get_attribute("#how-to-play-link", "href") == "#/how-to-play/battlelore"

    made = play_to_the_end(page, screenshots, "battlelore")
    assert made["card"] >= 1, made  # the command cards were played by clicking them
    assert page.inner_text("#status").startswith("Game over: ")
    page.screenshot(path=str(screenshots / "battlelore-over.png"))


def test_kaladan_is_played_to_its_end_by_clicking(
    page: Any, server_url: str, screenshots: Path
) -> None:
    page.goto(server_url + "/")
    page.select_option("select[name=rules]", "kaladan")
    page.select_option("select[data-seat='blue']", "heuristic")
    page.click("#create")
    page.click("[data-seat-link='red']")
    page.wait_for_selector("[data-board='map'] g.cell")
    assert page.locator("#seats .seat-panel").count() == 2
    assert "gold" in page.inner_text("#seats [data-seat='blue']")
    made = play_to_the_end(page, screenshots, "kaladan")
    assert made["board"] >= 5, made
    assert page.inner_text("#status").startswith("Game over: ")
    page.screenshot(path=str(screenshots / "kaladan-over.png"))


def finished_log() -> bytes:
    """A short Liar's Dice game played to its end by random legal commands, closed (its
    seed revealed, so it verifies as valid)."""
    session = new_game(("red", "blue"), game="liars-dice", seed=5, options={"dice": 1})
    rng = random.Random(5)
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        session.apply(seat, rng.choice(list(session.legal_commands(seat))))
    session.close()
    return session.log_bytes()


def test_a_tampered_log_is_marked_invalid_in_the_replay_view(
    page: Any, server_url: str, screenshots: Path
) -> None:
    lines = finished_log().decode().splitlines()
    page.goto(server_url + "/#/replay")
    page.fill("#log-text", "\n".join(lines))  # as copied from a page: no final newline
    page.click("#open-log")
    page.wait_for_selector("#replay-verdict:not([hidden])")
    assert page.get_attribute("#replay-verdict", "data-status") == "valid"
    assert "final newline was added" in page.inner_text("#replay-note")
    page.wait_for_selector("#replay-slider")

    at = next(i for i, line in enumerate(lines) if json.loads(line)["kind"] == "command")
    record = json.loads(lines[at])
    events = record["events"]
    tampered = dict(record, events=[*events, *events[:1]])  # an event the rules never made
    lines[at] = json.dumps(tampered, separators=(",", ":"))
    page.fill("#log-text", "\n".join(lines) + "\n")
    page.click("#open-log")
    page.wait_for_function(
        "() => document.getElementById('replay-verdict').dataset.status === 'invalid'"
    )
    verdict = page.inner_text("#replay-verdict")
    assert verdict.startswith(f"INVALID at record {at}: "), verdict
    assert page.inner_text("#replay-note") == ""
    page.screenshot(path=str(screenshots / "replay-invalid.png"))


def unfinished_log(commands: int) -> bytes:
    """A Liar's Dice game of random legal commands, stopped after ``commands`` of them: not
    over, so its seed is not revealed and its log verifies as incomplete."""
    session = new_game(("red", "blue"), game="liars-dice", seed=7, options={"dice": 3})
    rng = random.Random(7)
    for _ in range(commands):
        seat = session.acting_seats()[0]
        session.apply(seat, rng.choice(list(session.legal_commands(seat))))
    assert session.outcome() is None
    return session.log_bytes()


def test_an_unfinished_games_log_is_marked_incomplete_and_still_replayed(
    page: Any, server_url: str, screenshots: Path, tmp_path: Path
) -> None:
    """Issue 31 item 6: a log of a game not over (from a file, read as it is) gets the
    verdict "incomplete" with the reason, and its records are still stepped through."""
    log = tmp_path / "unfinished.jsonl"
    log.write_bytes(unfinished_log(4))
    records = len(log.read_bytes().splitlines())
    page.goto(server_url + "/#/replay")
    page.set_input_files("#log-file", str(log))
    page.click("#open-log")
    page.wait_for_selector("#replay-verdict:not([hidden])")
    assert page.get_attribute("#replay-verdict", "data-status") == "incomplete"
    verdict = page.inner_text("#replay-verdict")
    assert verdict.startswith(f"Incomplete: the log stops after record {records - 1}, "), verdict
    assert verdict.endswith("(no reveal record: the seed is not published yet).")
    assert page.inner_text("#replay-note") == ""  # a file is read as it is
    slider = page.wait_for_selector("#replay-slider")
    assert slider.get_attribute("max") == str(records - 1)
    assert page.inner_text("#replay-result").endswith(
        "The log has no result (the game was not finished)."
    )
    page.wait_for_selector("[data-board='table'] g.cell[data-cell='red']")
    page.click("#replay-back")
    page.wait_for_function(
        "at => document.querySelector('.replay').dataset.at === String(at)", arg=records - 2
    )
    assert page.inner_text("#replay-sentence").startswith(f"{records - 2}. ")
    page.screenshot(path=str(screenshots / "replay-incomplete.png"), full_page=True)


def test_a_replayed_battlelore_log_names_its_game_and_scenario_by_title(
    page: Any, server_url: str
) -> None:
    """The replay view's header: the rules by their title, the scenario by its title (the
    system's option choices, as the lobby offers it), not by their ids."""
    session = new_game(("english", "french"), game="battlelore", seed=3, options=HIRED_SWORDS)
    page.goto(server_url + "/#/replay")
    page.fill("#log-text", session.log_bytes().decode())
    page.click("#open-log")
    page.wait_for_selector("#replay-slider")
    assert page.inner_text("#replay-result").startswith("BattleLore: english, french; ")
    page.click("#replay-back")
    page.wait_for_function("() => document.querySelector('.replay').dataset.at === '0'")
    header = page.inner_text("#replay-sentence")
    assert "scenario Hired Swords (mercenaries and creatures): " in header, header
    assert "hired-swords" not in header


def test_a_games_how_to_play_page_opens_from_the_lobby(
    page: Any, server_url: str, screenshots: Path
) -> None:
    page.goto(server_url + "/")
    page.select_option("select[name=rules]", "liars-dice")
    href = str(page.get_attribute("#lobby-how-to-play", "href"))
    assert href == "#/how-to-play/liars-dice"
    page.goto(server_url + "/" + href)
    page.wait_for_selector("#how-to-play h2")
    text = page.inner_text("#how-to-play")
    assert "Liar" in text and "**" not in text and "```" not in text
    page.screenshot(path=str(screenshots / "how-to-play.png"))
