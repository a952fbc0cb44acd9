"""The server is game-neutral: ``game.create`` takes any registered rule system by id.

A combat-sandbox battle and a Kaladan game are created, played to their end by legal
commands and verified, all over the dispatcher; ``server.info`` lists every registered
system with its options schema; an unknown system or a bad option is refused with the
reason.
"""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest
from nataterra_adapters.rpc.errors import GameErrorCode
from nataterra_adapters.rpc.server import Server

from nataterra_core.games.nataterra.rules.combat.sandbox import Battle, ForceSpec, battle_option
from nataterra_core.kernel.registry import system, systems

SANDBOX = "nataterra-combat-sandbox"

SKIRMISH = Battle(
    attacker="velathi",
    defender="beasts",
    biome="hills",
    forces=(
        ForceSpec(owner="velathi", unit="zealot", count=3),
        ForceSpec(owner="velathi", unit="hunter", count=2),
        ForceSpec(owner="beasts", unit="orc", count=3),
        ForceSpec(owner="beasts", unit="goblin", count=2),
    ),
)


@pytest.fixture
def server() -> Server:
    return Server(test_seeds=True)


def call(server: Server, method: str, **params: Any) -> dict[str, Any]:
    message = {"jsonrpc": "2.0", "method": method, "params": params, "id": 1}
    reply = server.dispatcher.handle(json.dumps(message).encode())
    assert reply is not None
    answer: dict[str, Any] = json.loads(reply)
    return answer


def ok(server: Server, method: str, **params: Any) -> Any:
    answer = call(server, method, **params)
    assert "result" in answer, answer
    return answer["result"]


def fails(server: Server, code: GameErrorCode, method: str, **params: Any) -> dict[str, Any]:
    answer = call(server, method, **params)
    assert "error" in answer, answer
    error: dict[str, Any] = answer["error"]
    assert error["code"] == int(code) and error["data"]["error"] == code.label, error
    return error


def play_randomly(server: Server, game: dict[str, Any], seed: int, steps: int = 3000) -> Any:
    """Random legal commands over the dispatcher until the game ends; its result."""
    rng = random.Random(seed)
    game_id, tokens = game["game_id"], game["tokens"]
    version, acting_seats, result = game["version"], game["acting"], None
    for _ in range(steps):
        if not acting_seats:
            break
        seat = acting_seats[0]
        legal = ok(server, "game.legal_commands", game_id=game_id, token=tokens[seat])
        assert legal["version"] == version and legal["commands"]
        answer = ok(
            server,
            "game.apply",
            game_id=game_id,
            token=tokens[seat],
            command=rng.choice(legal["commands"]),
            expected_version=version,
        )
        version, acting_seats, result = answer["version"], answer["acting"], answer["result"]
    assert result is not None, f"no end after {steps} commands"
    return result


def test_K_HID_1_a_kaladan_game_over_rpc_hides_hands_and_verifies(server: Server) -> None:
    """Kaladan (issue 15) by its rules id: each seat's view and log cut for that seat, played
    to its end by legal commands, the log verified."""
    game = ok(server, "game.create", rules="kaladan", players=3, seed=5)
    game_id, tokens = game["game_id"], game["tokens"]
    assert game["seats"] == ["red", "blue", "green"]
    view = ok(server, "game.view", game_id=game_id, token=tokens["red"])["view"]
    hands = {p["seat"]: p["hand"] for p in view["players"]}
    assert hands["red"] and len(hands["red"]) == 2 and hands["blue"] is None
    records = ok(server, "game.log", game_id=game_id, token=tokens["red"])["records"]
    drawn = [e for e in records[1]["events"] if e["type"] == "magic_drawn.v1"]
    assert drawn and all(("cards" in e) == (e["seat"] == "red") for e in drawn)
    result = play_randomly(server, game, 5)
    assert result["reason"] in ("deck_used_up", "last_crown")
    log = ok(server, "game.log", game_id=game_id)
    verdict = ok(server, "log.verify", log=log["log"], expect_head=log["head"])
    assert verdict["status"] == "valid" and verdict["result"] == result


def _json(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_N_COMBAT_10_a_sandbox_battle_over_rpc_is_played_to_the_end_and_verifies(
    server: Server, seed: int
) -> None:
    game = ok(
        server,
        "game.create",
        rules=SANDBOX,
        seed=seed,
        options={"battle": battle_option(SKIRMISH)},
    )
    game_id, tokens = game["game_id"], game["tokens"]
    assert game["seats"] == ["velathi", "beasts"]  # the sandbox's default seats
    view = ok(server, "game.view", game_id=game_id, token=tokens["velathi"])
    assert view["view"]["attacker"] == "velathi" and view["view"]["defender"] == "beasts"
    # The command union is the sandbox's: a Nataterra command does not decode here.
    acting = game["acting"][0]
    fails(
        server,
        GameErrorCode.MALFORMED_COMMAND,
        "game.apply",
        game_id=game_id,
        token=tokens[acting],
        command={"type": "end_phase.v1", "phase": "movement"},
    )
    result = play_randomly(server, game, seed)
    assert result["reason"] == "battle_won", result
    final = ok(server, "game.view", game_id=game_id)
    assert final["view"]["winner"] in ("velathi", "beasts") and final["result"] == result
    log = ok(server, "game.log", game_id=game_id)
    assert log["revealed"]
    verdict = ok(server, "log.verify", log=log["log"], expect_head=log["head"])
    assert verdict["status"] == "valid", verdict
    assert verdict["seats"] == ["velathi", "beasts"] and verdict["result"] == result
    header = json.loads(log["log"].splitlines()[0])
    assert header["rules"] == {"id": SANDBOX, "version": system(SANDBOX).rules.version}


def test_a_sandbox_game_without_options_fights_the_systems_default_battle(server: Server) -> None:
    game = ok(server, "game.create", rules=SANDBOX, seed=4)
    log = ok(server, "game.log", game_id=game["game_id"], token=game["tokens"]["velathi"])
    assert log["records"][0]["options"] == dict(system(SANDBOX).default_options)


def test_server_info_lists_every_registered_system_with_its_options(server: Server) -> None:
    info = ok(server, "server.info")
    assert info["default_rules"] == "nataterra"
    listed = {entry["id"]: entry for entry in info["systems"]}
    assert {"nataterra", SANDBOX} <= set(listed)
    assert list(listed) == [record.id for record in systems()]
    for record in systems():
        entry = listed[record.id]
        assert entry["version"] == record.rules.version and entry["title"] == record.title
        assert entry["player_counts"] == list(record.player_counts)
        assert entry["default_seats"] == {
            str(n): list(seats) for n, seats in record.default_seats.items()
        }
        assert entry["default_options"] == dict(record.default_options)
        schema = entry["options_schema"]
        name = schema["$ref"].rsplit("/", 1)[-1]
        properties = schema["$defs"][name]["properties"]
        struct = msgspec.inspect.type_info(record.options)
        assert isinstance(struct, msgspec.inspect.StructType)
        fields = struct.fields
        assert list(properties) == [field.name for field in fields]
        for field in fields:
            if field.required:
                assert "default" not in properties[field.name]
            elif field.default is not msgspec.NODEFAULT:
                assert properties[field.name]["default"] == _json(field.default)
    nataterra = listed["nataterra"]["options_schema"]["$defs"]["GameOptions"]["properties"]
    assert nataterra["max_turns"] == {"type": "integer", "default": 0}
    sandbox = listed[SANDBOX]["options_schema"]["$defs"]["SandboxOptions"]
    assert sandbox["required"] == ["battle"] and sandbox["properties"]["battle"]["type"] == "string"


def test_an_unknown_rule_system_is_refused_naming_the_known_ones(server: Server) -> None:
    error = fails(server, GameErrorCode.SETUP_REJECTED, "game.create", rules="chess", seed=1)
    known = [record.id for record in systems()]
    assert error["data"]["known_rules"] == known
    assert "'chess'" in error["message"] and all(rules in error["message"] for rules in known)


def test_bad_options_are_refused_with_the_reason(server: Server) -> None:
    wrong_type = fails(
        server, GameErrorCode.SETUP_REJECTED, "game.create", rules=SANDBOX, options={"battle": 3}
    )
    assert SANDBOX in wrong_type["message"] and "$.battle" in wrong_type["message"]
    unknown = fails(
        server,
        GameErrorCode.SETUP_REJECTED,
        "game.create",
        rules=SANDBOX,
        options={"battle": battle_option(SKIRMISH), "colour": "red"},
    )
    assert "colour" in unknown["message"]
    missing = fails(server, GameErrorCode.SETUP_REJECTED, "game.create", rules=SANDBOX, options={})
    assert "battle" in missing["message"]
    bad_battle = fails(
        server,
        GameErrorCode.SETUP_REJECTED,
        "game.create",
        rules=SANDBOX,
        options={"battle": "{}"},
    )
    assert "battle" in bad_battle["message"]
    nataterra = fails(server, GameErrorCode.SETUP_REJECTED, "game.create", options={"mode": 3})
    assert "nataterra" in nataterra["message"] and "$.mode" in nataterra["message"]


def test_N_SETUP_1_player_counts_are_the_systems(server: Server) -> None:
    error = fails(server, GameErrorCode.SETUP_REJECTED, "game.create", rules=SANDBOX, players=3)
    assert "2 players" in error["message"]
    error = fails(server, GameErrorCode.SETUP_REJECTED, "game.create", players=5)
    assert "2 to 4 players" in error["message"]
    assert ok(server, "game.create", players=4, seed=2)["seats"] == list(
        system("nataterra").default_seats[4]
    )


def test_a_game_the_adapters_never_heard_of_is_served_too(server: Server) -> None:
    """Pig, registered by the tests only (``tests/conftest.py``), over the same methods."""
    pig = system("pig")
    game = ok(server, "game.create", rules="pig", players=3, seed=8, options={"target": 12})
    assert game["seats"] == list(pig.default_seats[3])
    assert "pig" in [entry["id"] for entry in ok(server, "server.info")["systems"]]
    tokens, acting, result = game["tokens"], game["acting"], None
    rng = random.Random(8)
    for _ in range(2000):
        if not acting:
            break
        legal = ok(server, "game.legal_commands", game_id=game["game_id"], token=tokens[acting[0]])
        by_type = {command["type"].split(".")[0]: command for command in legal["commands"]}
        choice = "hold" if "hold" in by_type and rng.random() < 0.4 else "roll"
        answer = ok(
            server,
            "game.apply",
            game_id=game["game_id"],
            token=tokens[acting[0]],
            command=by_type[choice],
        )
        acting, result = answer["acting"], answer["result"]
    assert result is not None and result["reason"] == "target_reached"
    view = ok(server, "game.view", game_id=game["game_id"])
    session = server.games.session(game["game_id"])
    assert view["view"] == _json(pig.seat_view(session.state, None))
    log = ok(server, "game.log", game_id=game["game_id"])
    assert ok(server, "log.verify", log=log["log"])["status"] == "valid"


def _scenarios() -> list[tuple[str, str]]:
    """Every scenario of every registered system: its scenario book, or (a system with a
    ``scenario`` option and no book, as BattleLore) the scenarios of its built-in pack."""
    found = []
    for record in systems():
        book = record.hooks.scenarios
        if book:
            found += [(record.id, name) for name in book]
        elif any(f.name == "scenario" for f in msgspec.structs.fields(record.options)):
            assert record.load_pack is not None
            found += [(record.id, name) for name in record.load_pack(None).scenarios]
    return found


def test_game_create_takes_every_scenario_of_every_system(server: Server) -> None:
    """Issue 28 item 4: ``{"rules": "battlelore", "scenario": "hired-swords"}`` was refused
    with "known: " (BattleLore's scenarios are its pack's, not a scenario book)."""
    scenarios = _scenarios()
    assert ("battlelore", "hired-swords") in scenarios
    for seed, (rules, name) in enumerate(scenarios):
        game = ok(server, "game.create", rules=rules, scenario=name, seed=seed, seat_seeds=False)
        options = server.games.session(game["game_id"]).header.options
        assert options["scenario"] == name, (rules, name)
        assert game["acting"], (rules, name)
    error = fails(
        server,
        GameErrorCode.SETUP_REJECTED,
        "game.create",
        rules="battlelore",
        scenario="nope",
        seed=99,
        seat_seeds=False,
    )
    assert "B-SCN-1" in error["message"] and "hired-swords" in error["message"]
