"""The browser client in a real browser (issue 17's must-show): a person creates a game
against a bot, plays it to the end by clicking the board's SVG zones and units for every
move, undoes one command, then steps through the finished log in the replay view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

MAX_TURNS = 10
"""A short game (``max_turns``, N-WIN-6): it ends drawn or won within a minute."""
MAX_STEPS = 600
"""Actions before the test gives up (a game of MAX_TURNS needs far fewer)."""

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def version(page: Any) -> str:
    return str(page.get_attribute("#app", "data-version"))


def wait_past(page: Any, before: str) -> None:
    """Wait until the page shows a later (or earlier, after an undo) version than ``before``."""
    page.wait_for_function(
        "before => document.getElementById('app').dataset.version !== before"
        " || document.getElementById('error') !== null",
        arg=before,
    )
    assert not page.locator("#error").count(), page.inner_text("#error")


def wait_for_turn(page: Any) -> str:
    """Wait until the seat may act or the game is over (the bots' commands follow the
    person's: issue 32 item 1); the status line then."""
    try:
        page.wait_for_function(
            "() => /Your move|^Game over/.test(document.getElementById('status').innerText)"
            " || document.getElementById('error') !== null"
        )
    except Exception:
        raise AssertionError(page.inner_text("#app")) from None
    assert not page.locator("#error").count(), page.inner_text("#error")
    return str(page.inner_text("#status"))


def click_target(page: Any, target: Any) -> None:
    """Click a highlighted zone or piece; if it stands for several commands (how many units
    go), click the first disc of the picker drawn there on the board."""
    before = version(page)
    choices = int(target.get_attribute("data-choices"))
    target.click(force=True)  # where a person would: on the zone, maybe on a unit standing there
    if choices > 1:
        options = page.locator("svg .picker [data-option]")
        try:
            options.first.wait_for(timeout=5000)
        except Exception:
            if version(page) != before:  # another seat moved meanwhile: a new position
                return
            raise
        assert options.count() == choices
        options.first.click()
    wait_past(page, before)


def board_move(page: Any, check_path: bool = False) -> bool:
    """Make one command by clicking the board's SVG: a highlighted piece (which sends its one
    command, or selects it), then a highlighted zone or piece, or a sentence offered with the
    selection. False if the board offers nothing to click. ``check_path``: a move on the
    ``map`` board lights its path when hovered (every one does in Nataterra)."""
    direct = page.locator("svg .reachable")
    if direct.count():
        click_target(page, direct.first)
        return True
    pieces = page.locator("svg g.piece.selectable")
    ids = [pieces.nth(index).get_attribute("data-piece") for index in range(pieces.count())]
    for piece_id in ids:
        before = version(page)
        page.click(f"svg g.piece[data-piece='{piece_id}']", force=True)
        page.wait_for_function(
            "before => document.getElementById('app').dataset.version !== before"
            " || document.querySelector('svg g.piece.selected') !== null"
            " || document.getElementById('error') !== null",
            arg=before,
        )
        assert not page.locator("#error").count(), page.inner_text("#error")
        if version(page) != before:  # the piece's one command was sent
            return True
        targets = page.locator("svg .reachable")
        if targets.count():
            # The last reachable zone: usually the farthest, so the units spread out.
            target = targets.nth(targets.count() - 1)
            target.hover(force=True)  # shows its path
            board = target.evaluate("element => element.closest('[data-board]').dataset.board")
            is_cell = "cell" in str(target.get_attribute("class")).split()
            if check_path and is_cell and board == "map":  # a move: its path lit
                assert page.locator("svg .cell.on-path").count() >= 2
            click_target(page, target)
            return True
        if page.inner_text("#choices h2").startswith("With the selection"):
            buttons = page.locator("#choices button")
            buttons.first.click()  # the selection's own sentences come first
            wait_past(page, before)
            return True
        page.click(f"svg g.piece[data-piece='{piece_id}']", force=True)  # deselect
    return False


def play_card(page: Any) -> bool:
    """Click a highlighted card of the hand: it is played, or selected (its places on the
    board light up). False if no card is playable."""
    cards = page.locator("#hand .card.playable")
    if not cards.count():
        return False
    before = version(page)
    cards.first.click()
    page.wait_for_function(
        "before => document.getElementById('app').dataset.version !== before"
        " || document.querySelector('#hand .card.selected') !== null"
        " || document.getElementById('error') !== null",
        arg=before,
    )
    assert not page.locator("#error").count(), page.inner_text("#error")
    return True


def decide_in_words(page: Any) -> str:
    """A decision with no place on the board, chosen from its sentence (ending the phase
    when that is offered, so the short game moves on)."""
    buttons = page.locator("#choices button")
    assert buttons.count(), page.inner_text("#app")
    texts = buttons.all_inner_texts()
    pick = next((i for i, t in enumerate(texts) if " ends " in t or " passes" in t), 0)
    before = version(page)
    buttons.nth(pick).click()
    wait_past(page, before)
    return texts[pick]


def test_a_game_against_a_bot_played_on_the_board_then_replayed(
    page: Any, server_url: str, screenshots: Path
) -> None:
    page.goto(server_url + "/")
    page.select_option("select[name=rules]", "nataterra")
    page.select_option("select[name=players]", "2")
    assert page.locator("select[data-seat='beasts']").input_value() == ""  # a person by default
    page.select_option("select[data-seat='beasts']", "heuristic")
    page.fill("input[name=option-max_turns]", str(MAX_TURNS))
    page.dispatch_event("input[name=option-max_turns]", "change")
    assert f'"max_turns": {MAX_TURNS}' in page.input_value("textarea[name=options]")
    page.click("#create")
    watch = str(page.get_attribute("[data-watch-link]", "href"))
    page.click("[data-seat-link='velathi']")
    page.wait_for_selector("svg.board g.cell")
    assert "You play velathi" in page.inner_text("#status")
    # The seat's own hand by title in its panel; the other seat's only counted.
    titles = page.locator("#hand .card .title").all_inner_texts()
    assert titles and all(title and "_" not in title for title in titles), titles
    assert "tech cards" in page.inner_text("#seats [data-seat='beasts']")
    spectator = page.context.new_page()
    spectator.goto(server_url + "/" + watch)
    spectator.wait_for_selector("svg.board g.cell")
    assert "You are watching" in spectator.inner_text("#status")
    assert spectator.locator("#choices, #undo, #hand").count() == 0
    assert spectator.locator("#seats .seat-panel").count() == 2
    zones = page.locator("[data-board='map'] g.cell")
    assert zones.count() == 20  # the learning map (N-MAP-1): every zone, empty ones too
    assert page.locator("svg g.cell[data-cell='velathi.z1']").count() == 1
    assert page.locator("svg [data-piece^='stack:velathi/']").count() >= 1

    on_board = undone = 0
    shot = False
    words: list[str] = []
    combat_shot = False
    for _ in range(MAX_STEPS):
        if wait_for_turn(page).startswith("Game over"):
            break
        if not combat_shot and page.locator("[data-board='combat'] g.cell").count():
            page.screenshot(path=str(screenshots / "play-combat.png"), full_page=True)
            combat_shot = True
        if board_move(page, check_path=True):
            on_board += 1
            if on_board == 2:  # the spectator's page follows by game.changed notifications
                spectator.wait_for_function(
                    "v => document.getElementById('app').dataset.version === v", arg=version(page)
                )
                spectator.close()
            if on_board >= 5 and not shot and page.locator("svg .piece.selectable").count():
                page.locator("svg .piece.selectable").first.click()  # its reach lights up
                page.screenshot(path=str(screenshots / "play-mid-game.png"))
                page.locator("svg .piece.selected").first.click()
                shot = True
            if on_board == 3 and not undone and page.is_enabled("#undo"):
                before = version(page)
                page.click("#undo")
                wait_past(page, before)
                assert "undoes record" in page.inner_text("#feed")
                undone += 1
                assert page.is_enabled("#redo")
                before = version(page)
                page.click("#redo")  # and back: the same move again
                wait_past(page, before)
                assert not page.is_enabled("#redo")
        else:
            words.append(decide_in_words(page))
    else:
        pytest.fail("the game did not end")

    assert on_board >= 20, f"only {on_board} commands were made on the board"
    assert undone == 1
    status = page.inner_text("#status")
    assert status.startswith("Game over: result: ")
    assert "turn limit" in status or "won by" in status
    page.screenshot(path=str(screenshots / "play-game-over.png"))

    page.click("#open-replay")
    slider = page.wait_for_selector("#replay-slider")
    last = int(str(slider.get_attribute("max")))
    assert page.inner_text("#replay-result").endswith(status.removeprefix("Game over: "))
    slider.evaluate("(el) => { el.value = 0; el.dispatchEvent(new Event('input')); }")
    page.wait_for_function("() => document.querySelector('.replay').dataset.at === '0'")
    assert page.inner_text("#replay-sentence").startswith("0. game ")
    seen = set()
    for at in range(1, last + 1):
        page.click("#replay-forward")
        page.wait_for_function(
            "at => document.querySelector('.replay').dataset.at === String(at)", arg=at
        )
        seen.add(page.inner_text("#replay-sentence"))
    assert page.locator("[data-board='map'] g.cell").count() == 20
    assert page.inner_text("#replay-sentence").startswith(f"{last}. result: ")
    assert any("moves" in sentence for sentence in seen)
    page.screenshot(path=str(screenshots / "replay-end.png"))


def test_the_combat_sandbox_is_played_on_its_own_board_by_the_same_client(
    page: Any, server_url: str, screenshots: Path
) -> None:
    """Nothing in the client knows Nataterra's map: the sandbox's battle board (slots,
    reserves, groups) is drawn and clicked through the same hook."""
    page.goto(server_url + "/")
    page.select_option("select[name=rules]", "nataterra-combat-sandbox")
    page.select_option("select[data-seat='beasts']", "random")
    page.click("#create")
    page.click("[data-seat-link='velathi']")
    page.wait_for_selector("[data-board='combat'] g.cell[data-cell^='slot:']")
    on_board = 0
    for _ in range(MAX_STEPS):
        if wait_for_turn(page).startswith("Game over"):
            break
        if board_move(page):
            on_board += 1
            if on_board == 2:
                page.screenshot(path=str(screenshots / "sandbox-battle.png"))
        else:
            decide_in_words(page)
    else:
        pytest.fail("the battle did not end")
    assert on_board >= 2  # groups deployed to their slots by clicking
    assert page.inner_text("#status").startswith("Game over: result: ")
    page.screenshot(path=str(screenshots / "sandbox-over.png"))


def test_liars_dice_draws_the_cups_and_a_game_is_played_to_the_end(
    page: Any, server_url: str, screenshots: Path
) -> None:
    """Liar's Dice through the same client: the table's cups are drawn from its geometry,
    the player's own dice by face, the other cup as a count of hidden dice (L-HID-1); bids
    are chosen from their sentences, a call by clicking the bidder's cup."""
    page.goto(server_url + "/")
    page.select_option("select[name=rules]", "liars-dice")
    page.select_option("select[name=players]", "2")
    page.select_option("select[data-seat='blue']", "heuristic")
    page.fill("input[name=option-dice]", "2")
    page.dispatch_event("input[name=option-dice]", "change")
    page.click("#create")
    page.click("[data-seat-link='red']")
    page.wait_for_selector("[data-board='table'] g.cell[data-cell='red']")
    assert page.locator("svg g.cell[data-cell='blue']").count() == 1
    assert page.locator("svg [data-piece^='die:red/']").count() >= 1
    assert page.locator("svg [data-piece='cup:blue']").count() == 1
    assert page.locator("svg [data-piece^='die:blue/']").count() == 0
    page.screenshot(path=str(screenshots / "liars-dice-table.png"))
    for _ in range(MAX_STEPS):
        if wait_for_turn(page).startswith("Game over"):
            break
        if not board_move(page):
            decide_in_words(page)
    else:
        pytest.fail("the game did not end")
    assert page.inner_text("#status").startswith("Game over: result: won by ")
    assert page.locator("[data-board='last'] [data-piece^='last:']").count() >= 1
