"""Scenarios and positions from the command line and over JSON-RPC, through the registry's
``scenarios`` and ``positions`` hooks (issue 18 item 3): N-SCN-1."""

from __future__ import annotations

import json
from pathlib import Path

from nataterra_adapters.cli import app
from nataterra_adapters.rpc.errors import GameError
from nataterra_adapters.rpc.games import Games
from nataterra_adapters.rpc.wire import CreateParams
from typer.testing import CliRunner

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.nataterra.rules.positions import POSITIONS

runner = CliRunner()


def test_N_SCN_1_scenarios_lists_every_scenario_as_json() -> None:
    result = runner.invoke(app, ["scenarios", "--json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.output)
    ids = {item["id"] for item in listed}
    assert {
        "fergus_grove",
        "peril_of_the_carriage",
        "night_of_flames_and_shadows",
        "what_we_do_best",
        "the_found_fragment",
        "a_new_home",
    } <= ids
    assert all({"id", "kind", "players", "goal"} <= set(item) for item in listed)
    table = runner.invoke(app, ["scenarios"])
    assert table.exit_code == 0 and "fergus_grove" in table.output


def test_demo_and_play_take_a_scenario(tmp_path: Path) -> None:
    out = tmp_path / "night.jsonl"
    result = runner.invoke(
        app, ["demo", "--scenario", "night_of_flames_and_shadows", "--seed", "3", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert verify_log(out.read_bytes()).valid
    header = json.loads(out.read_bytes().splitlines()[0])
    assert header["options"]["scenario"] == "night_of_flames_and_shadows"
    bad = runner.invoke(app, ["demo", "--scenario", "nope", "--out", str(tmp_path / "x.jsonl")])
    assert bad.exit_code != 0 and "fergus_grove" in bad.output
    played = runner.invoke(
        app,
        ["play", "--scenario", "a_new_home", "--seed", "2", "--out", str(tmp_path / "p.jsonl")],
        input="q\na\n",
    )
    assert json.loads((tmp_path / "p.jsonl").read_bytes().splitlines()[0])["seats"] == [
        "beasts",
        "velathi",
        "naga",
    ], played.output


def test_rpc_game_create_takes_a_scenario_or_a_position() -> None:
    games = Games(test_seeds=True)
    made = games.create(CreateParams(scenario="a_new_home", seed=4, seat_seeds=False))
    assert made.seats == ("beasts", "velathi", "naga")
    assert games.session(made.game_id).header.options == {"scenario": "a_new_home"}
    text = POSITIONS.export(new_game(seed=2).state)
    made = games.create(CreateParams(position=json.loads(text), seed=5, seat_seeds=False))
    assert games.session(made.game_id).state == new_game(seed=2).state
    bad = json.loads(text)
    bad["players"]["velathi"]["stock"]["food"] = -3
    try:
        games.create(CreateParams(position=bad, seed=6, seat_seeds=False))
    except GameError as exc:
        assert "$.players.velathi.stock.food" in str(exc)
    else:
        raise AssertionError("a malformed position was accepted")
