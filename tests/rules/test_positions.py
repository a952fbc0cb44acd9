"""The position format ``nataterra-position`` v1 (issue 18, ``docs/POSITIONS.md``): reading
JSON and TOML, the checks (every problem with its path), starting a game from a position,
verification from it, and hidden hands and deck orders in views and log views."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from nataterra_adapters.cli import app
from typer.testing import CliRunner

from nataterra_core.game import decider_for, new_game, verify_log
from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.rules.positions import (
    POSITIONS,
    PositionError,
    checked,
    parse,
    position_of,
)
from nataterra_core.kernel import log_view, read_log
from nataterra_core.kernel.receipts import view_line
from nataterra_core.kernel.registry import OptionsError, system


def _start(players: int = 3, seed: int = 5) -> Any:
    return new_game(players, seed=seed)


def _data(session: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(POSITIONS.export(session.state))
    return data


def test_a_position_round_trips_through_json_and_toml() -> None:
    game = _start()
    position = position_of(game.state)
    assert parse(POSITIONS.export(game.state)) == position
    assert parse(POSITIONS.export(game.state, toml=True)) == position


def test_a_game_starts_from_a_position_and_verifies() -> None:
    game = _start()
    again = new_game(seed=5, position=POSITIONS.export(game.state))
    assert again.state == game.state
    assert again.header.options["position"] == POSITIONS.export(game.state)
    start = json.loads(again.log_bytes().splitlines()[1])
    assert start["command"]["type"] == "start_position.v2"
    seat = again.acting_seats()[0]
    again.apply(seat, again.legal_commands(seat)[0])
    again.close()
    assert verify_log(again.log_bytes()).valid


def test_the_start_record_hashes_only_what_a_spectator_sees_of_the_position() -> None:
    """Issue 30 item 4: ``start_position.v1`` hashed the whole position, hidden hands and
    deck orders included, so a seat could find a small hidden hand by hashing each guess.
    v2's hash is the same whatever the hidden cards, and is the hash of the position as the
    spectator's view of the header shows it (anyone can recompute it)."""
    data = _data(_start())
    swapped = json.loads(json.dumps(data))
    beasts = swapped["players"]["beasts"]
    beasts["tech_hand"][0], beasts["tech_deck"][0] = beasts["tech_deck"][0], beasts["tech_hand"][0]
    starts = []
    for position in (data, swapped):
        game = new_game(seed=5, position=position)
        command = json.loads(game.lines[1])["command"]
        seen = json.loads(view_line(game.lines[0], "", game.decider))["options"]["position"]
        public = json.dumps(seen, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert command["public_sha256"] == hashlib.sha256(public.encode()).hexdigest()
        assert "beasts_01" not in public and "position_sha256" not in command
        starts.append(command)
    assert starts[0] == starts[1]
    assert game.state.player("beasts").tech_hand[0] == "beasts_04"


def test_a_forged_position_in_the_header_fails_verification_at_the_start_record() -> None:
    game = new_game(seed=5, position=POSITIONS.export(_start().state))
    game.close()
    lines = game.log_bytes().splitlines()
    header = json.loads(lines[0])
    forged = json.loads(header["options"]["position"])
    forged["players"]["velathi"]["stock"]["food"] = 40
    header["options"]["position"] = json.dumps(forged, separators=(",", ":"), sort_keys=True)
    tampered = b"\n".join([json.dumps(header, separators=(",", ":")).encode(), *lines[1:]]) + b"\n"
    verdict = verify_log(tampered)
    assert not verdict.valid


def test_set_up_position_without_a_first_player_starts_like_a_standard_game() -> None:
    """N-SETUP-2/3: the first player drawn, every deck shuffled, the second player's food."""
    data = _data(_start(2))
    data.update(turn=0, phase="setup", first=None, active=None)
    game = new_game(seed=9, position=data)
    kinds = [e["type"] for e in json.loads(game.log_bytes().splitlines()[1])["events"]]
    assert kinds[0] == "first_player_drawn.v1" and kinds[-1] == "turn_started.v1"
    assert "starting_bonus.v1" in kinds and kinds.count("deck_shuffled.v1") > 2
    data["shuffle"] = ["tactic:velathi"]
    with pytest.raises(OptionsError, match="N-SETUP-2"):
        new_game(seed=9, position=data)


def test_set_up_position_shuffles_only_the_decks_it_names() -> None:
    data = _data(_start())
    data.update(turn=0, phase="setup", active=None, shuffle=["tactic:velathi"])
    game = new_game(seed=9, position=data)
    start = json.loads(game.log_bytes().splitlines()[1])
    kinds = [e["type"] for e in start["events"]]
    assert kinds == ["deck_shuffled.v1", "turn_started.v1"]
    assert start["command"]["shuffle"] == ["tactic:velathi"]
    assert game.state.turn == 1


def test_malformed_position_lists_every_problem_with_its_path() -> None:
    """Issue 18: a unit on a lake, two armies in one zone outside the combat phase, a hand
    card missing from the pack and a negative stock, refused in one error."""
    data = _data(_start())
    data["phase"] = "development"
    lake = len(data["units"])
    data["units"] += [
        {"zone": "t3.z4", "owner": "velathi", "unit": "hunter", "count": 2},
        {"zone": "t1.z1", "owner": "velathi", "unit": "hunter", "count": 1},
        {"zone": "t1.z1", "owner": "beasts", "unit": "orc", "count": 1},
    ]
    data["players"]["beasts"]["tactic_hand"] = ["no_such_card"]
    data["players"]["humans"]["stock"]["wood"] = -1
    with pytest.raises(PositionError) as caught:
        checked(load_pack(), data)
    paths = {p.path: p.message for p in caught.value.problems}
    assert "N-MOV-2" in paths[f"$.units[{lake}].zone"]
    assert "N-COMBAT-1" in paths["$.units"]
    assert "not in this civilisation's deck" in paths["$.players.beasts.tactic_hand[0]"]
    assert "negative" in paths["$.players.humans.stock.wood"]
    assert len(caught.value.problems) == 4
    text = str(caught.value)
    assert all(path in text for path in paths)
    with pytest.raises(OptionsError, match=r"\$\.players\.humans\.stock\.wood"):
        new_game(seed=1, position=data)


def test_a_value_of_the_wrong_type_is_named_by_its_path() -> None:
    data = _data(_start())
    data["units"][0]["count"] = "three"
    with pytest.raises(PositionError) as caught:
        parse(data)
    assert caught.value.problems[0].path == "$.units[0].count"


def test_a_position_takes_no_other_set_up_options() -> None:
    text = POSITIONS.export(_start().state)
    with pytest.raises(OptionsError, match="drop the options"):
        new_game(3, seed=1, options={"position": text, "max_turns": 4})


def test_hands_and_deck_orders_in_a_position_stay_hidden_in_log_views() -> None:
    game = new_game(seed=5, position=POSITIONS.export(_start().state))
    lines = game.log_bytes().splitlines()
    decider = decider_for(read_log(game.log_bytes(), decider_for).header)
    seen = log_view(lines, "beasts", decider).records[0]["options"]["position"]
    assert seen["players"]["beasts"]["tech_hand"] == ["beasts_01", "beasts_02", "beasts_03"]
    assert "tech_hand" not in seen["players"]["velathi"]
    assert seen["players"]["velathi"]["sizes"]["tech_hand"] == 3
    assert all("tactic_deck" not in p and "tech_deck" not in p for p in seen["players"].values())
    assert isinstance(seen["biome_decks"]["forest"], int)
    spectator = log_view(lines, None, decider).records[0]["options"]["position"]
    assert all("tech_hand" not in p for p in spectator["players"].values())
    view = system("nataterra").seat_view(game.state, "beasts")
    assert view.players[0].tech_hand is None


def test_show_prints_the_position_after_a_record(tmp_path: Any) -> None:
    game = _start(2)
    log = tmp_path / "game.jsonl"
    log.write_bytes(game.log_bytes())
    result = CliRunner().invoke(app, ["show", str(log), "--at", "1", "--position"])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("incomplete: ")  # the verdict, off the position's stdout
    assert parse(result.stdout) == position_of(game.state)
    again = new_game(seed=5, position=result.stdout)
    assert again.state == game.state
