"""Small promises of the facade and the kernel (issue 28 item 4): a game without a seed gets a
secret one, an unknown seat's legal commands are an error, a verdict names its rule system,
and a command decodes from its JSON for any system."""

from __future__ import annotations

import msgspec
import pytest

from nataterra_core.game import decode_command_for, new_game, verify_log
from nataterra_core.kernel import MalformedCommand, RulesRef, encode
from nataterra_core.kernel.registry import systems


def test_new_game_without_a_seed_draws_a_secret_one() -> None:
    first, second = new_game(game="pig"), new_game(game="pig")
    assert first.header.seed_commitment != second.header.seed_commitment
    assert first.header.game_id != second.header.game_id
    assert first.header.game_id.startswith("g-")
    first.close()
    verdict = verify_log(first.log_bytes())  # the drawn seed is revealed at close
    assert verdict.valid, verdict.reason


def test_legal_commands_of_an_unknown_seat_is_an_error() -> None:
    session = new_game(game="pig", seed=2)
    seat = session.acting_seats()[0]
    assert session.legal_commands(seat)
    with pytest.raises(ValueError, match=r"unknown seat 'zed'; seats are \['ann', 'bob'\]"):
        session.legal_commands("zed")
    other = next(s for s in session.header.seats if s != seat)
    assert session.legal_commands(other) == ()  # a seat of the game that may not act


def test_a_verdict_names_the_rule_system() -> None:
    session = new_game(game="pig", seed=3)
    session.close()
    verdict = verify_log(session.log_bytes())
    assert verdict.rules == RulesRef(id="pig", version=1)
    assert verify_log(b"not a log\n").rules is None


@pytest.mark.parametrize("record", systems(), ids=lambda r: r.id)
def test_every_legal_command_decodes_from_its_json(record: object) -> None:
    rules_id = record.id  # type: ignore[attr-defined]
    session = new_game(game=rules_id, seed=5)
    seat = session.acting_seats()[0]
    for command in session.legal_commands(seat)[:20]:
        text = encode(command)
        assert decode_command_for(text, rules_id) == command
        assert decode_command_for(text.decode(), rules_id) == command
        assert decode_command_for(msgspec.json.decode(text), rules_id) == command


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"{", "not a command of this rule system"),
        ('{"type": "nothing.v1"}', "not a command of this rule system"),
        ({"type": "stake.v1", "multiplier": True}, "Expected `int`, got `bool`"),
        (b"[" * 100 + b"]" * 100, "nests at most 64 levels"),
        (b" " * 70000 + b"{}", "at most 65536 bytes"),
    ],
)
def test_a_bad_command_json_is_refused_naming_the_problem(data: object, reason: str) -> None:
    with pytest.raises(MalformedCommand, match=reason):
        decode_command_for(data, "pig")  # type: ignore[arg-type]
