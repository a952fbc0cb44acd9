"""A bot seat's "thinking…" on the play page (issue 31 item 1), shown while the bot works on
a decision and gone once it has moved, without racing the clock: the bot is a player that
holds each decision it has a choice in until the test lets it go, so the page is looked at
while the server reports the seat in ``thinking`` (``game.changed``, ``game.view``)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from nataterra_core.kernel import Command

from .test_browser import decide_in_words, wait_for_turn
from .test_web_server import Socket

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HELD = "held"
"""The name the test's bot goes by in ``game.create``'s ``bots``."""


class HeldPlayer:
    """Chooses the first legal command, but only once let go (:meth:`let_go`) when it has a
    choice; a forced decision is answered at once (the server shows no thinking for it)."""

    def __init__(self) -> None:
        self.holding = threading.Event()
        self._go = threading.Semaphore(0)

    def choose(self, view: Any, legal_commands: Sequence[Command]) -> Command:
        if len(legal_commands) > 1:
            self.holding.set()
            if not self._go.acquire(timeout=120):
                raise TimeoutError("the test never let the bot go")
            self.holding.clear()
        return legal_commands[0]

    def let_go(self) -> None:
        self._go.release()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldPlayer]:
    """A :class:`HeldPlayer` the server builds for the bot name :data:`HELD` (the other
    names as before); let go at the end so no worker thread stays blocked."""
    from nataterra_adapters.rpc import bots

    player = HeldPlayer()
    named = bots.parse_player

    def parse_player(record: Any, spec: str, **kwargs: Any) -> Callable[..., Any]:
        if spec == HELD:
            return lambda seed, content=None: player
        return named(record, spec, **kwargs)

    monkeypatch.setattr(bots, "parse_player", parse_player)
    yield player
    for _ in range(4):
        player.let_go()


def thinking_shown(page: Any) -> bool:
    return bool(page.locator("#seats .flag.thinking").count()) or "thinking…" in page.inner_text(
        "#status"
    )


def test_a_bot_seat_is_shown_thinking_while_it_thinks_and_not_afterwards(
    page: Any, server_url: str, screenshots: Path, held: HeldPlayer
) -> None:
    maker = Socket(server_url)
    made = maker.ok(
        "game.create", rules="liars-dice", players=2, options={"dice": 2}, bots={"blue": HELD}
    )
    maker.close()
    page.goto(f"{server_url}/#/play/{made['game_id']}/{made['tokens']['red']}")
    page.wait_for_selector("[data-board='table'] g.cell[data-cell='red']")
    assert "blue" not in made["tokens"]

    # Whoever opens (drawn at the start): red's bid first if it is red.
    page.wait_for_function(
        "() => /Your move/.test(document.getElementById('status').innerText)"
        " || document.querySelector('#seats .flag.thinking') !== null"
    )
    if page.inner_text("#status").startswith("You play red. Your move"):
        assert not thinking_shown(page)
        decide_in_words(page)
    # blue's bid is held: the server says blue is thinking, and so does the page.
    assert held.holding.wait(60), "blue's bot was never asked to decide"
    page.wait_for_function(
        "() => document.querySelector(\"#seats [data-seat='blue'] .flag.thinking\") !== null"
    )
    assert "Blue is thinking…" in page.inner_text("#status")
    assert page.locator("#seats [data-seat='red'] .flag.thinking").count() == 0
    page.screenshot(path=str(screenshots / "play-bot-thinking.png"))

    records = page.locator("#feed > li").count()
    held.let_go()
    # Blue's bid is made; red's turn, and nobody is thinking any more.
    assert wait_for_turn(page).startswith("You play red. Your move")
    assert page.locator("#feed > li").count() == records + 1
    assert page.inner_text("#feed > li").startswith(f"{records}. blue bids ")
    assert not thinking_shown(page)
