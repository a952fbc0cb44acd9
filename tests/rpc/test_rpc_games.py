"""The game methods: tokens, optimistic concurrency, idempotent retries, undo, the log."""

from __future__ import annotations

import json
from typing import Any

import pytest
from nataterra_adapters.rpc.errors import GameErrorCode
from nataterra_adapters.rpc.server import Server

from nataterra_core.game import verify_log


class Rpc:
    """Calls through the in-process dispatcher (the wire is covered by the subprocess tests)."""

    def __init__(self) -> None:
        self.server = Server(test_seeds=True)
        self.next_id = 0

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "method": method, "params": params, "id": self.next_id}
        reply = self.server.dispatcher.handle(json.dumps(message).encode())
        assert reply is not None
        answer: dict[str, Any] = json.loads(reply)
        assert answer["id"] == self.next_id
        return answer

    def ok(self, method: str, **params: Any) -> Any:
        answer = self.call(method, **params)
        assert "result" in answer, answer
        return answer["result"]

    def fails(self, code: GameErrorCode, method: str, **params: Any) -> dict[str, Any]:
        answer = self.call(method, **params)
        assert "error" in answer, answer
        error: dict[str, Any] = answer["error"]
        assert error["code"] == int(code), error
        assert error["data"]["error"] == code.label
        return error


@pytest.fixture
def rpc() -> Rpc:
    return Rpc()


def new(rpc: Rpc, **params: Any) -> tuple[str, dict[str, str], str, str]:
    """game id, tokens, the acting seat and the other seat."""
    game = rpc.ok("game.create", players=2, seed=4, **params)
    acting = game["acting"][0]
    other = next(seat for seat in game["seats"] if seat != acting)
    return game["game_id"], game["tokens"], acting, other


def end_phase(phase: str) -> dict[str, Any]:
    return {"type": "end_phase.v1", "phase": phase}


def test_create_gives_one_distinct_token_per_seat_and_a_commitment(rpc: Rpc) -> None:
    game = rpc.ok("game.create", players=3)
    assert game["seats"] == ["velathi", "beasts", "humans"]
    assert len(set(game["tokens"].values())) == 3
    assert game["game_id"].startswith("g-") and len(game["seed_commitment"]) == 64
    assert game["version"] == 0  # nothing is written until every seat has contributed
    assert game["acting"] == []
    again = rpc.ok("game.create", players=3)
    assert again["seed_commitment"] != game["seed_commitment"]  # a fresh secret seed each time


def test_create_errors(rpc: Rpc) -> None:
    rpc.ok("game.create", seed=9)
    rpc.fails(GameErrorCode.GAME_EXISTS, "game.create", seed=9)
    error = rpc.fails(GameErrorCode.SETUP_REJECTED, "game.create", seats=["velathi", "naga"])
    assert error["data"]["rule_id"] == "N-SETUP-1"
    rpc.fails(GameErrorCode.SETUP_REJECTED, "game.create", options={"max_turns": 1.5})
    rpc.fails(GameErrorCode.SETUP_REJECTED, "game.create", options={"colour": "red"})
    rpc.fails(GameErrorCode.SETUP_REJECTED, "game.create", game_id="no spaces allowed")
    rpc.fails(GameErrorCode.SETUP_REJECTED, "game.create", players=2, seats=["velathi", "beasts"])


def test_unknown_game_and_bad_token(rpc: Rpc) -> None:
    game_id, tokens, acting, _ = new(rpc)
    rpc.fails(GameErrorCode.UNKNOWN_GAME, "game.view", game_id="nope", token=tokens[acting])
    error = rpc.fails(GameErrorCode.BAD_TOKEN, "game.legal_commands", game_id=game_id, token="x")
    assert error["data"]["version"] == 1
    rpc.fails(GameErrorCode.BAD_TOKEN, "game.view", game_id=game_id, token="\u00e9")


def test_the_token_decides_the_seat(rpc: Rpc) -> None:
    game_id, tokens, acting, other = new(rpc)
    mine = rpc.ok("game.view", game_id=game_id, token=tokens[other])["view"]
    assert mine["seat"] == other
    hands = {p["civ"]: p["tech_hand"] for p in mine["players"]}
    assert hands[other] and hands[acting] is None
    assert rpc.ok("game.legal_commands", game_id=game_id, token=tokens[other])["commands"] == []
    error = rpc.fails(
        GameErrorCode.NOT_YOUR_TURN,
        "game.apply",
        game_id=game_id,
        token=tokens[other],
        command=end_phase("movement"),
    )
    assert error["data"]["rule_id"] == "N-TURN-1"


def test_illegal_and_malformed_commands_name_the_rule_and_change_nothing(rpc: Rpc) -> None:
    game_id, tokens, acting, _ = new(rpc)
    token = tokens[acting]
    error = rpc.fails(
        GameErrorCode.ILLEGAL_COMMAND,
        "game.apply",
        game_id=game_id,
        token=token,
        command=end_phase("combat"),
    )
    assert error["data"] == {"error": "illegal_command", "rule_id": "N-TURN-1", "version": 1}
    for bad in (
        {"type": "end_phase.v9"},
        {"phase": "movement"},
        "end",
        {"type": "end_phase.v1", "phase": 3},
    ):
        error = rpc.fails(
            GameErrorCode.MALFORMED_COMMAND, "game.apply", game_id=game_id, token=token, command=bad
        )
        assert error["data"]["rule_id"] is None
    error = rpc.fails(
        GameErrorCode.ILLEGAL_COMMAND,
        "game.apply",
        game_id=game_id,
        token=token,
        command={"type": "start_game.v1"},
    )
    assert error["data"]["rule_id"] == "N-SETUP-2"
    assert rpc.ok("game.log", game_id=game_id)["version"] == 1


def test_stale_expected_version_is_refused(rpc: Rpc) -> None:
    game_id, tokens, acting, _ = new(rpc)
    token = tokens[acting]
    done = rpc.ok(
        "game.apply",
        game_id=game_id,
        token=token,
        command=end_phase("movement"),
        expected_version=1,
    )
    assert done["version"] == 2
    error = rpc.fails(
        GameErrorCode.VERSION_CONFLICT,
        "game.apply",
        game_id=game_id,
        token=token,
        command=end_phase("resources"),
        expected_version=1,
    )
    assert error["data"] == {
        "error": "version_conflict",
        "rule_id": None,
        "version": 2,
        "expected_version": 1,
    }
    rpc.fails(
        GameErrorCode.VERSION_CONFLICT,
        "game.undo",
        game_id=game_id,
        token=token,
        expected_version=1,
    )
    assert rpc.ok("game.log", game_id=game_id)["version"] == 2


def test_a_retried_command_id_returns_the_first_answer_and_applies_once(rpc: Rpc) -> None:
    game_id, tokens, acting, other = new(rpc)
    token = tokens[acting]
    params = {
        "game_id": game_id,
        "token": token,
        "command": end_phase("movement"),
        "expected_version": 1,
    }
    first = rpc.ok("game.apply", **params, command_id="c-1")
    retry = rpc.ok("game.apply", **params, command_id="c-1")  # the answer was lost; same request
    assert retry == first and first["version"] == 2
    assert rpc.ok("game.log", game_id=game_id)["version"] == 2  # applied once
    error = rpc.fails(
        GameErrorCode.COMMAND_ID_REUSED,
        "game.apply",
        game_id=game_id,
        token=token,
        command=end_phase("resources"),
        command_id="c-1",
    )
    assert error["data"]["version"] == 2
    # Ids are per seat, and a refused request is not remembered.
    rpc.fails(
        GameErrorCode.NOT_YOUR_TURN,
        "game.apply",
        game_id=game_id,
        token=tokens[other],
        command=end_phase("resources"),
        command_id="c-1",
    )
    second = rpc.ok(
        "game.apply", game_id=game_id, token=token, command=end_phase("resources"), command_id="c-2"
    )
    assert second["version"] == 3


def test_undo_and_redo_through_rpc_show_only_the_undo_record(rpc: Rpc) -> None:
    game_id, tokens, acting, other = new(rpc)
    token = tokens[acting]
    move = rpc.ok("game.legal_commands", game_id=game_id, token=token)["commands"][0]
    assert move["type"] == "move_units.v1"
    before = rpc.ok("game.view", game_id=game_id, token=token)
    moved = rpc.ok("game.apply", game_id=game_id, token=token, command=move)
    assert rpc.ok("game.view", game_id=game_id, token=token)["can_undo"] is True
    rpc.fails(GameErrorCode.UNDO_REFUSED, "game.undo", game_id=game_id, token=tokens[other])
    undone = rpc.ok("game.undo", game_id=game_id, token=token, command_id="u")
    assert undone["undone"] == moved["version"]
    assert undone["records"] == [
        {"kind": "undo", "seq": moved["version"] + 1, "seat": acting, "undoes": moved["version"]}
    ]
    assert rpc.ok("game.undo", game_id=game_id, token=token, command_id="u") == undone  # retry
    after = rpc.ok("game.view", game_id=game_id, token=token)
    assert after["view"] == before["view"] and after["can_redo"] is True
    redone = rpc.ok("game.redo", game_id=game_id, token=token)
    assert redone["records"][0]["command"] == move
    rpc.fails(GameErrorCode.UNDO_REFUSED, "game.redo", game_id=game_id, token=token)


def test_undo_is_refused_in_tournament_games(rpc: Rpc) -> None:
    game_id, tokens, acting, _ = new(rpc, options={"tournament": True})
    token = tokens[acting]
    move = rpc.ok("game.legal_commands", game_id=game_id, token=token)["commands"][0]
    rpc.ok("game.apply", game_id=game_id, token=token, command=move)
    error = rpc.fails(GameErrorCode.UNDO_REFUSED, "game.undo", game_id=game_id, token=token)
    assert "tournament" in error["message"]


def test_log_is_redacted_until_the_reveal_then_whole_and_verifiable(rpc: Rpc) -> None:
    game_id, tokens, _, _ = new(rpc, options={"max_turns": 1})
    log = rpc.ok("game.log", game_id=game_id, token=tokens["velathi"])
    assert not log["revealed"] and log["head"] is None and log["log"] is None
    assert all("prev" not in record for record in log["records"])
    shuffles = [e for e in log["records"][1]["events"] if e["type"] == "deck_shuffled.v1"]
    assert shuffles and all(
        "after" not in e and "before" not in e and e["size"] > 0 for e in shuffles
    )
    text = json.dumps(log)
    session = rpc.server.games.session(game_id)
    assert session.header.seed_commitment in text  # the commitment, and nothing else of the seed
    finished = None
    for phase in ("movement", "resources", "combat", "development"):
        finished = rpc.ok(
            "game.apply",
            game_id=game_id,
            token=tokens[session.acting_seats()[0]],
            command=end_phase(phase),
        )
    assert finished is not None
    assert (finished["result"]["draw"], finished["result"]["reason"]) == (True, "turn_limit")
    assert [r["kind"] for r in finished["records"]] == ["command", "reveal", "end"]
    assert all("prev" in record for record in finished["records"])  # the game is over: all public
    rpc.fails(
        GameErrorCode.GAME_OVER,
        "game.apply",
        game_id=game_id,
        token=tokens["velathi"],
        command=end_phase("movement"),
    )
    full = rpc.ok("game.log", game_id=game_id)
    assert full["revealed"] and full["log"].encode() == session.log_bytes()
    assert full["head"] == session.head
    assert verify_log(full["log"].encode()).valid
    verdict = rpc.ok("log.verify", log=full["log"], expect_head=full["head"])
    assert verdict["status"] == "valid"


def test_log_verify_reports_bad_logs_as_verdicts(rpc: Rpc) -> None:
    game_id = new(rpc)[0]
    incomplete = rpc.ok("log.verify", log=rpc.server.games.session(game_id).log_bytes().decode())
    assert incomplete["status"] == "incomplete"
    assert rpc.ok("log.verify", log="not a log\n")["failure"] == "read"
    assert rpc.ok("log.verify", log="")["status"] == "invalid"
    # msgspec refuses a lone surrogate escape: a parse error, never a crash
    reply = rpc.server.dispatcher.handle(
        b'{"jsonrpc":"2.0","method":"log.verify","params":["\\ud800"],"id":1}'
    )
    assert json.loads(reply or b"")["error"]["code"] == -32700


def test_the_view_carries_the_board_and_each_command_its_words_and_targets(rpc: Rpc) -> None:
    """Issue 17 item 2: an app draws the board from ``game.view`` and maps clicks through
    ``game.legal_commands``' targets; every zone is there, empty ones too."""
    game_id, tokens, acting, _ = new(rpc)
    seen = rpc.ok("game.view", game_id=game_id, token=tokens[acting])
    board = seen["board"]
    assert board["seats"] == seen["view"]["seats"]
    main = board["boards"][0]
    cells = {cell["id"]: cell for cell in main["cells"]}
    assert len(cells) >= 20 and all(cell["terrain"] for cell in cells.values())
    assert {c["owner"] for c in cells.values() if "base" in c.get("markers", [])} == {
        "velathi",
        "beasts",
    }
    occupied = {stack["zone"] for stack in seen["view"]["units"]}
    assert set(cells) > occupied  # empty zones are drawn too
    assert {p["cell"] for p in main["pieces"]} == occupied
    assert seen["text"].startswith("turn 1")
    legal = rpc.ok("game.legal_commands", game_id=game_id, token=tokens[acting])
    assert len(legal["words"]) == len(legal["targets"]) == len(legal["commands"])
    moves = [
        (command, targets)
        for command, targets in zip(legal["commands"], legal["targets"], strict=True)
        if command["type"] == "move_units.v1"
    ]
    assert moves
    pieces = {p["id"] for p in main["pieces"]}
    for command, targets in moves:
        assert targets["cell"] == command["path"][-1] and targets["cell"] in cells
        assert set(targets["pieces"]) <= pieces
        assert targets["path"] == [command["origin"], *command["path"]]
    spectator = rpc.ok("game.view", game_id=game_id)
    assert spectator["board"] == board  # nothing on the board is private


def test_a_finished_games_log_comes_in_words(rpc: Rpc) -> None:
    """Issue 17 item 1: the RPC words records with the system's presenter, once nothing is
    hidden any more (the reveal)."""
    game_id, tokens, acting, _ = new(rpc, options={"max_turns": 1})
    assert rpc.ok("game.log", game_id=game_id, token=tokens[acting])["words"] is None
    for phase in ("movement", "resources", "combat", "development"):
        rpc.ok("game.apply", game_id=game_id, token=tokens[acting], command=end_phase(phase))
    log = rpc.ok("game.log", game_id=game_id)
    assert log["revealed"] and len(log["words"]) == len(log["records"])
    assert log["words"][2][0] == f"{acting} ends the movement phase"
    assert "the resources phase begins" in log["words"][2]
    assert log["words"][-1][0].startswith("result: drawn (turn limit)")


def test_apply_answers_with_what_happened_in_words(rpc: Rpc) -> None:
    game_id, tokens, acting, _ = new(rpc)
    done = rpc.ok(
        "game.apply", game_id=game_id, token=tokens[acting], command=end_phase("movement")
    )
    assert len(done["words"]) == len(done["records"]) == 1
    assert done["words"][0][0] == f"{acting} ends the movement phase"
    assert "the resources phase begins" in done["words"][0][1:]
    undone = rpc.ok("game.undo", game_id=game_id, token=tokens[acting])
    assert undone["words"] == [[f"{acting} undoes record 2"]]
