"""A game's setup in words (issue 31 items 3 and 4): ``Hooks.setup_words`` words a game's
header options for a reader, defaults included, and every place a header is shown says it:
``replay``'s header line, the browser feed's first line (the log's words over RPC),
``play``'s opening and ``demo``'s first line. Options by their labels, never their ids.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from nataterra_adapters.cli import app
from nataterra_adapters.rpc.server import Server
from test_no_raw_ids import raw_ids
from typer.testing import CliRunner

from nataterra_core.game import new_game
from nataterra_core.kernel.registry import system, system_ids
from nataterra_core.kernel.wording import options_words, setup_words

runner = CliRunner()


def _rpc(method: str, **params: Any) -> Any:
    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    reply = Server(test_seeds=True).dispatcher.handle(json.dumps(message).encode())
    assert reply is not None
    return json.loads(reply)["result"]


@pytest.mark.parametrize("rules_id", system_ids())
def test_every_header_shows_the_setup_in_words(rules_id: str, tmp_path: Path) -> None:
    record = system(rules_id)
    seats = record.default_seats[min(record.default_seats)]
    session = new_game(seats, game=rules_id, seed=1, options=dict(record.default_options))
    said = setup_words(session.header.options, record)
    assert said and not raw_ids(said), said
    log = tmp_path / "game.jsonl"
    log.write_bytes(session.log_bytes())
    replayed = runner.invoke(app, ["replay", str(log)], terminal_width=1000)
    header = " ".join(replayed.output.split("\n    1 ")[0].split())
    assert header.endswith(f"; {said}"), header
    fed = _rpc("log.replay", log=session.log_bytes().decode())["words"][0][0]
    assert fed.endswith(f"; {said}"), fed  # the browser feed's first line


def test_the_sandbox_says_who_attacks_whom_where_with_what() -> None:
    record = system("nataterra-combat-sandbox")
    said = setup_words(record.default_options, record)
    assert said.startswith("velathi attacks beasts in the hills with 3 Disciples, ")
    assert "; beasts defends with 3 Orcs, 4 Goblins, " in said
    assert options_words(record.default_options, record) == "battle as the header gives it"


def test_battlelore_names_its_scenario_by_title() -> None:
    record = system("battlelore")
    assert record.hooks.option_choices is not None
    for scenario, title in record.hooks.option_choices()["scenario"]:
        said = setup_words({"scenario": scenario, "max_turns": 12}, record)
        assert said.startswith(f"scenario {title}: ") and said.endswith("; turn limit 12")
        assert scenario not in said
        # The kernel's words for the options alone read the title as well (item 3).
        assert options_words({"scenario": scenario}, record) == f"scenario {title}"
    assert setup_words({}, record).startswith("scenario Agincourt (scenario 1): ")


def test_a_hook_that_cannot_read_the_options_falls_back_to_their_labels() -> None:
    record = system("nataterra-combat-sandbox")
    assert setup_words({"battle": "{not json"}, record) == "options battle as the header gives it"


def test_play_opens_with_the_setup(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    played = runner.invoke(
        app,
        ["play", "--game", "nataterra-combat-sandbox", "--seed", "1", "--plain", "--out", str(out)],
        input="q\na\n",
        terminal_width=1000,
    )
    first = " ".join(played.output.split("\n")[0:4])
    assert "Nataterra combat sandbox: velathi attacks beasts in the hills with " in " ".join(
        first.split()
    ), played.output


def test_demo_says_the_options_by_their_labels(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    shown = runner.invoke(app, ["demo", "--seed", "1", "--turns", "2", "--out", str(out)])
    assert shown.exit_code == 0, shown.output
    first = " ".join(shown.output.split())
    assert "; options turn limit 2; " in first and "max_turns" not in first
