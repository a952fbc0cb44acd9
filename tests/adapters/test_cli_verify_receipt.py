"""``nataterra verify LOG --receipt SEAT:SEQ:HEAD:SIGNATURE`` (docs/RECEIPTS.md): its verdicts
and exit codes (docs/CLI.md)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from nataterra_adapters.cli import EXIT_CODES, app
from typer.testing import CliRunner

from nataterra_core.game import new_game
from nataterra_core.kernel import RandomPlayer
from nataterra_core.kernel.receipts import KeyPair, ViewChains

runner = CliRunner()
KEY = KeyPair(bytes(range(32)))


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ViewChains]:
    """A finished Kaladan game served with receipts, and every viewer's chain of it."""
    session = new_game(2, game="kaladan", seed=5, receipt_key=KEY.public)
    player = RandomPlayer(5)
    for _ in range(6):
        seat = session.acting_seats()[0]
        session.apply(seat, player.choose(None, session.legal_commands(seat)))
    session.close()
    path = tmp_path_factory.mktemp("receipts") / "game.jsonl"
    path.write_bytes(session.log_bytes())
    chains = ViewChains(session.header.game_id, session.header.seats, session.decider)
    chains.extend(session.lines)
    return path, chains


def test_receipts_that_belong_to_the_log_pass(game: tuple[Path, ViewChains]) -> None:
    path, chains = game
    red = chains.receipt(KEY, "red", 4).text()
    spectator = chains.receipt(KEY, "", 7).text()
    result = runner.invoke(app, ["verify", str(path), "--receipt", red, "--receipt", spectator])
    assert result.exit_code == EXIT_CODES["valid"] == 0, result.output
    assert "VALID" in result.output


def test_a_receipt_for_another_seat_exits_11(game: tuple[Path, ViewChains]) -> None:
    path, chains = game
    reds = chains.receipt(KEY, "red", 4)
    claimed = f"blue:4:{reds.head}:{reds.signature}"
    result = runner.invoke(app, ["verify", str(path), "--receipt", claimed, "--json"])
    assert result.exit_code == EXIT_CODES["receipt"] == 11
    verdict = json.loads(result.stdout.splitlines()[0])
    assert verdict["failure"] == "receipt" and verdict["seq"] == 4
    assert "the receipt is seat 'red''s, not seat 'blue''s" in verdict["reason"]


def test_a_forged_receipt_exits_11(game: tuple[Path, ViewChains]) -> None:
    path, chains = game
    head = chains.head("blue", 3)
    forged = f"blue:3:{head}:{KeyPair(bytes(32)).sign(b'forged')}"
    result = runner.invoke(app, ["verify", str(path), "--receipt", forged])
    assert result.exit_code == 11
    assert "INVALID (receipt)" in result.output
    assert "forged, or a receipt of another game" in result.output


def test_a_malformed_receipt_or_several_logs_is_a_usage_error(
    game: tuple[Path, ViewChains],
) -> None:
    path, chains = game
    result = runner.invoke(app, ["verify", str(path), "--receipt", "red:4:abc"])
    assert result.exit_code == 2 and "SEAT:SEQ:HEAD:SIGNATURE" in result.output
    good = chains.receipt(KEY, "red", 4).text()
    result = runner.invoke(app, ["verify", str(path), str(path), "--receipt", good])
    assert result.exit_code == 2 and "give exactly one" in result.output


def test_a_receipts_file_from_the_browser_is_checked(
    game: tuple[Path, ViewChains], tmp_path: Path
) -> None:
    """``--receipts FILE``: the file the play page offers (docs/WEB.md), its ``receipts``."""
    path, chains = game
    kept = [msgspec.to_builtins(chains.receipt(KEY, "blue", seq)) for seq in (2, 5)]
    downloaded = tmp_path / "receipts.json"
    downloaded.write_text(json.dumps({"game_id": "seed-5", "seat": "blue", "receipts": kept}))
    result = runner.invoke(app, ["verify", str(path), "--receipts", str(downloaded)])
    assert result.exit_code == 0, result.output
    kept[1]["seat"] = "red"
    downloaded.write_text(json.dumps({"receipts": kept}))
    result = runner.invoke(app, ["verify", str(path), "--receipts", str(downloaded)])
    assert result.exit_code == 11 and "seat 'blue''s, not seat 'red''s" in result.output
    downloaded.write_text("{}")
    result = runner.invoke(app, ["verify", str(path), "--receipts", str(downloaded)])
    assert result.exit_code == 2 and "receipts" in result.output
