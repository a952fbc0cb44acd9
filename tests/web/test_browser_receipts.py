"""The browser page keeps the receipts it is given and the lines it was shown, and offers
them for download (docs/RECEIPTS.md): a seat plays Liar's Dice against a bot to the end,
downloads the file, and every receipt in it checks against its lines and the final log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from receipt_client import Holder, check_game_key

from nataterra_core.game import verify_log
from nataterra_core.kernel.receipts import parse_receipt

from .test_browser import MAX_STEPS, board_move, decide_in_words, wait_for_turn
from .test_web_server import Socket


def test_the_page_offers_its_receipts_and_lines_for_download(
    page: Any, server_url: str, tmp_path: Path
) -> None:
    page.goto(server_url + "/")
    page.select_option("select[name=rules]", "liars-dice")
    page.select_option("select[name=players]", "2")
    page.select_option("select[data-seat='blue']", "heuristic")
    page.fill("input[name=option-dice]", "2")
    page.dispatch_event("input[name=option-dice]", "change")
    page.click("#create")
    page.click("[data-seat-link='red']")
    page.wait_for_selector("#receipts")
    for _ in range(MAX_STEPS):
        if wait_for_turn(page).startswith("Game over"):
            break
        if not board_move(page):
            decide_in_words(page)
    else:
        pytest.fail("the game did not end")
    page.click("#receipts summary")  # folded until asked for
    page.click("#ask-receipt")
    page.wait_for_function(
        "() => !/Download 0 /.test(document.getElementById('receipts').innerText)"
    )
    with page.expect_download() as download:
        page.click("#download-receipts")
    path = tmp_path / "receipts.json"
    download.value.save_as(path)
    kept = json.loads(path.read_text())
    assert kept["seat"] == "red" and kept["receipts"]

    socket = Socket(server_url)
    try:
        server_key = socket.ok("server.info")["server_key"]
        log = socket.ok("game.log", game_id=kept["game_id"])
    finally:
        socket.close()
    game_id = kept["game_id"]
    check_game_key(server_key, game_id, kept["receipt_key"], kept["receipt_key_signature"])
    holder = Holder(game_id, "red", kept["receipt_key"])
    holder.take(kept["lines"])
    assert len(holder.lines) == log["version"] + 1
    for receipt in kept["receipts"]:
        holder.check(receipt)
    receipts = [parse_receipt(text) for text in kept["verify"]]
    verdict = verify_log(log["log"].encode(), receipts=receipts)
    assert verdict.valid, verdict
