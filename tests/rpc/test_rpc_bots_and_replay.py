"""Seats the server plays (``game.create``'s ``bots``), the log in words (``game.log``'s
``words``) and ``log.replay``: what the browser client needs, offered to every RPC client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from nataterra_adapters.rpc.errors import GameErrorCode
from nataterra_adapters.rpc.games import Games
from nataterra_adapters.rpc.store_files import DirectoryStore
from test_rpc_games import Rpc

from nataterra_core.game import verify_log
from nataterra_core.kernel.registry import system, system_ids


def test_a_bot_seat_gets_no_token_and_answers_as_soon_as_it_may_act() -> None:
    rpc = Rpc()
    made = rpc.ok(
        "game.create", players=2, seed=11, options={"max_turns": 4}, bots={"beasts": "random"}
    )
    assert made["bots"] == {"beasts": "random"}
    assert set(made["tokens"]) == {"velathi"}
    token = made["tokens"]["velathi"]
    view = rpc.ok("game.view", game_id=made["game_id"], token=token)
    assert view["seat"] == "velathi" and view["bots"] == {"beasts": "random"}
    for _ in range(400):  # whatever velathi does, the bot answers within the same call
        view = rpc.ok("game.view", game_id=made["game_id"], token=token)
        if view["result"] is not None:
            break
        assert view["acting"] == ["velathi"]
        legal = rpc.ok("game.legal_commands", game_id=made["game_id"], token=token)
        rpc.ok("game.apply", game_id=made["game_id"], token=token, command=legal["commands"][-1])
    assert view["result"] is not None
    log = rpc.ok("game.log", game_id=made["game_id"])
    assert verify_log(log["log"].encode()).valid
    assert any(r.get("seat") == "beasts" for r in log["records"] if r["kind"] == "command")


def test_a_game_of_bots_alone_plays_to_its_end_at_creation_with_seat_seeds() -> None:
    rpc = Rpc()
    made = rpc.ok(
        "game.create",
        players=2,
        options={"max_turns": 3},
        bots={"velathi": "random", "beasts": "heuristic"},
    )
    assert made["tokens"] == {}  # nobody may act for the server
    log = rpc.ok("game.log", game_id=made["game_id"])
    assert log["revealed"]
    verdict = verify_log(log["log"].encode())
    assert verdict.valid and verdict.result is not None
    # The bots' contributions to the dice are in the header like any seat's (docs/DICE.md).
    header = json.loads(log["log"].splitlines()[0])
    assert header["client_seed"].startswith("velathi:") and ";beasts:" in header["client_seed"]


def test_bots_naming_an_unknown_seat_or_player_are_refused_before_anything_is_written() -> None:
    rpc = Rpc()
    error = rpc.fails(GameErrorCode.SETUP_REJECTED, "game.create", bots={"elves": "random"})
    assert "no seat 'elves'" in error["message"]
    error = rpc.fails(GameErrorCode.SETUP_REJECTED, "game.create", bots={"beasts": "oracle"})
    assert "no player 'oracle'" in error["message"] and "heuristic" in error["message"]
    assert "random" in rpc.ok("server.info")["systems"][0]["players"]


def test_stored_bot_seats_play_on_after_a_restart(tmp_path: Path) -> None:
    games = Games(test_seeds=True, store=DirectoryStore(tmp_path))
    methods = games.methods()
    made = methods["game.create"].handler(
        methods["game.create"].params(players=2, seed=5, bots={"beasts": "random"})
    )
    resumed = Games(store=DirectoryStore(tmp_path))
    view = resumed.view(resumed.methods()["game.view"].params(game_id=made.game_id))
    assert view.bots == {"beasts": "random"}
    assert view.acting == ("velathi",) or view.result is not None


def _finished(rpc: Rpc, **options: Any) -> str:
    made = rpc.ok(
        "game.create", players=2, seed=3, options={"max_turns": 3}, bots={"beasts": "random"}
    )
    token, game_id = made["tokens"]["velathi"], made["game_id"]
    while rpc.ok("game.view", game_id=game_id)["result"] is None:
        legal = rpc.ok("game.legal_commands", game_id=game_id, token=token)
        rpc.ok("game.apply", game_id=game_id, token=token, command=legal["commands"][-1])
    return str(rpc.ok("game.log", game_id=game_id)["log"])


def test_the_log_in_words_matches_the_records_and_hides_what_the_seat_may_not_see() -> None:
    rpc = Rpc()
    # Advanced mode: three opening tactic cards each (N-SETUP-8), hidden from the others.
    made = rpc.ok(
        "game.create", players=2, seed=9, options={"mode": "advanced"}, bots={"beasts": "random"}
    )
    token, game_id = made["tokens"]["velathi"], made["game_id"]
    session = rpc.server.games.session(game_id)
    secret = [
        event["card"]
        for line in session.lines
        for event in json.loads(line).get("events", [])
        if event["type"] == "tactic_card_drawn.v1" and event["seat"] == "beasts"
    ]
    assert secret, "beasts drew no tactic card"
    log = rpc.ok("game.log", game_id=game_id, token=token, words=True)
    assert not log["revealed"]
    assert len(log["words"]) == len(log["records"])
    text = json.dumps(log["words"])
    assert "beasts draws a tactic card" in text
    assert not any(card in text for card in secret)


def test_log_replay_steps_through_a_finished_log_with_board_and_words() -> None:
    rpc = Rpc()
    log = _finished(rpc)
    lines = log.splitlines()
    whole = rpc.ok("log.replay", log=log)
    assert whole["records"] == len(lines) and whole["at"] == len(lines) - 1
    assert whole["rules"] == "nataterra" and whole["seats"] == ["velathi", "beasts"]
    assert len(whole["words"]) == len(lines)
    assert whole["words"][-1][0].startswith("result: ")
    assert whole["result"] is not None
    assert len(whole["board"]["boards"][0]["cells"]) == 20
    first = rpc.ok("log.replay", log=log, at=0, seat="velathi", words=False)
    assert first["at"] == 0 and first["words"] is None and first["seat"] == "velathi"
    assert first["view"] != whole["view"]
    rpc.fails(GameErrorCode.UNREADABLE_LOG, "log.replay", log=log, at=len(lines))
    rpc.fails(GameErrorCode.BAD_TOKEN, "log.replay", log=log, seat="naga")
    error = rpc.fails(GameErrorCode.UNREADABLE_LOG, "log.replay", log="not a log\n")
    assert "record 0" in error["message"] or "cannot be replayed" in error["message"]


def test_log_since_gives_only_the_newer_records_and_their_words() -> None:
    rpc = Rpc()
    log = _finished(rpc)
    game_id = json.loads(log.splitlines()[0])["game_id"]
    whole = rpc.ok("game.log", game_id=game_id, words=True)
    tail = rpc.ok("game.log", game_id=game_id, words=True, since=5)
    assert tail["records"] == whole["records"][5:] and tail["words"] == whole["words"][5:]
    assert tail["revealed"] and tail["log"] is None and tail["head"] is None
    end = rpc.ok("game.log", game_id=game_id, since=len(whole["records"]) - 1)
    assert end["revealed"] and [r["kind"] for r in end["records"]] == ["end"]


_ANSWER_OPTIONS: dict[str, dict[str, Any]] = {"nataterra": {"mode": "advanced"}}


@pytest.mark.parametrize("rules", system_ids())
def test_an_answer_words_its_records_as_the_log_in_words_does(rules: str) -> None:
    """``game.apply``'s ``words`` and ``game.log``'s follow one rule (the records' declared
    visibility, each against the position it applies to): a bot's records appended by the
    same call read the same in both (issue 31's closing note: they were worded without a
    position, so BattleLore named the bot's units by their ids, ``french moves f10``)."""
    rpc = Rpc()
    seats = system(rules).default_seats[min(system(rules).default_seats)]
    human, bots = seats[0], {seat: "random" for seat in seats[1:]}
    options = {"options": _ANSWER_OPTIONS[rules]} if rules in _ANSWER_OPTIONS else {}
    for seed in range(9, 29):  # a game the bots ended before the seat's turn: another seed
        made = rpc.ok(
            "game.create", rules=rules, seats=list(seats), seed=seed, bots=bots, **options
        )
        token, game_id = made["tokens"][human], made["game_id"]
        if rpc.ok("game.view", game_id=game_id, token=token)["result"] is None:
            break
    compared = 0
    for _ in range(40):
        view = rpc.ok("game.view", game_id=game_id, token=token)
        if view["result"] is not None:
            break
        legal = rpc.ok("game.legal_commands", game_id=game_id, token=token)
        since = view["version"] + 1
        done = rpc.ok("game.apply", game_id=game_id, token=token, command=legal["commands"][-1])
        log = rpc.ok("game.log", game_id=game_id, token=token, words=True, since=since)
        assert done["words"] == log["words"]
        assert "(hidden)" not in json.dumps(done["words"])  # every cut form has words
        compared += len(done["words"])
    assert compared >= 10, (compared, view["result"])
