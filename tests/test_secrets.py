"""Secrets declared once (issue 30 item 1): every state field of every registered system
declares who may see it, and each game's typed view is a function of what the declarations
let a seat know."""

from __future__ import annotations

import random
from typing import Any

import pytest

from nataterra_core.game import GameSession, new_game
from nataterra_core.kernel.registry import RuleSystem, systems
from nataterra_core.kernel.secrets import redact, secret_fields, twins, undeclared


def _ids() -> list[str]:
    return [record.id for record in systems()]


def _system(rules_id: str) -> RuleSystem:
    return next(record for record in systems() if record.id == rules_id)


def _start(record: RuleSystem, seed: int) -> GameSession:
    seats = record.default_seats[min(record.default_seats)]
    return new_game(seats, game=record.id, seed=seed, options=dict(record.default_options))


@pytest.mark.parametrize("rules_id", _ids())
def test_every_state_field_declares_its_secrecy(rules_id: str) -> None:
    """Fail closed: a field with no declaration (nested structs included) names itself."""
    state_class = type(_start(_system(rules_id), 1).state)
    missing = undeclared(state_class)
    assert not missing, f"{rules_id}: no secrecy declared on {missing}"


@pytest.mark.parametrize("rules_id", _ids())
def test_a_game_without_secrets_says_it_has_perfect_information(rules_id: str) -> None:
    record = _system(rules_id)
    state_class = type(_start(record, 1).state)
    assert bool(secret_fields(state_class)) != record.perfect_information, (
        f"{rules_id}: declares no secret field and does not say it is a perfect-information "
        "game (or says so and declares secrets)"
    )


def _states(session: GameSession, rng: random.Random, limit: int) -> list[Any]:
    states = []
    while session.outcome() is None and len(states) < limit:
        states.append(session.state)
        seat = rng.choice(list(session.acting_seats()))
        session.apply(seat, rng.choice(tuple(session.legal_commands(seat))))
    return states


@pytest.mark.parametrize("seed", (1, 2))
@pytest.mark.parametrize("rules_id", _ids())
def test_the_view_is_a_function_of_the_redacted_state(rules_id: str, seed: int) -> None:
    """The view of a state, of its redaction and of any twin the declarations allow are equal
    for every seat and a spectator; twins do differ where something is hidden."""
    record = _system(rules_id)
    session = _start(record, seed)
    rng = random.Random(seed)
    differed = 0
    for state in _states(session, rng, 150):
        for seat in (*session.header.seats, None):
            view = record.seat_view(state, seat)
            assert record.seat_view(redact(state, seat), seat) == view
            twin = twins(state, seat, rng)
            assert redact(twin, seat) == redact(state, seat)
            assert record.seat_view(twin, seat) == view
            differed += twin != state
    if not record.perfect_information:
        assert differed, f"{rules_id}: no twin differed from its state"


def test_a_spectator_sees_only_public_fields() -> None:
    record = _system("kaladan")
    state = _start(record, 3).state
    spectator = redact(state, None)
    assert all(card == "" for card in spectator.magic_deck)
    assert all(not any(p.hand) for p in spectator.players)
    seat = state.seats[0]
    mine = redact(state, seat)
    assert mine.player(seat).hand == state.player(seat).hand
    assert not any(mine.player(state.seats[1]).hand)
