"""The page reconnects by itself (issue 31 item 5): the server is stopped in the middle of a
game and started again on the same port and store; the page shows a banner while it is away,
comes back without a reload, catches up from its version and the seat plays on."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_browser import MAX_STEPS, board_move, decide_in_words, version, wait_for_turn

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class StoredServer:
    """``nataterra serve --store DIR`` in a thread of this process, restartable on its port."""

    def __init__(self, store: Path) -> None:
        self.store = store
        probe = socket.create_server(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        uvicorn = pytest.importorskip("uvicorn")
        from nataterra_adapters.rpc.store_files import DirectoryStore
        from nataterra_adapters.web import create_app

        sock = socket.create_server(("127.0.0.1", self.port))  # SO_REUSEADDR on POSIX
        config = uvicorn.Config(create_app(store=DirectoryStore(self.store)), log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the web server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        assert self.thread is not None
        self.thread.join(15)
        assert not self.thread.is_alive(), "the web server did not stop"


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[StoredServer]:
    server = StoredServer(tmp_path / "games")
    server.start()
    yield server
    if server.thread is not None and server.thread.is_alive():
        server.stop()


def test_the_page_reconnects_after_a_server_restart_and_plays_on(
    page: Any, stored: StoredServer, screenshots: Path
) -> None:
    url = f"http://127.0.0.1:{stored.port}"
    page.goto(url + "/")
    page.select_option("select[name=rules]", "liars-dice")
    page.select_option("select[name=players]", "2")
    page.select_option("select[data-seat='blue']", "heuristic")
    page.click("#create")
    page.click("[data-seat-link='red']")
    wait_for_turn(page)
    if not board_move(page):
        decide_in_words(page)
    wait_for_turn(page)
    shown = version(page)

    stored.stop()
    page.wait_for_selector("#away:not([hidden])")
    assert "Reconnecting" in page.inner_text("#away")
    page.screenshot(path=str(screenshots / "reconnecting.png"))
    stored.start()
    page.wait_for_selector("#away", state="hidden", timeout=30_000)
    assert page.inner_text("#connection") == "connected"
    page.wait_for_function(
        "v => document.getElementById('app').dataset.version === v", arg=shown, timeout=30_000
    )
    assert not page.locator("#error").count()

    for _ in range(MAX_STEPS):  # the seat plays on, to the end
        if wait_for_turn(page).startswith("Game over"):
            break
        if not board_move(page):
            decide_in_words(page)
    else:
        pytest.fail("the game did not end after the restart")
    assert int(version(page)) > int(shown)
