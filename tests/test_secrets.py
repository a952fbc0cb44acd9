"""Secrets declared once (issue 30 item 1): every state field of every registered system
declares who may see it, and each game's typed view is a function of what the declarations
let a seat know."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec
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


def _differences(a: Any, b: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The paths at which two states (or parts of them) differ."""
    if type(a) is not type(b):
        yield path
    elif isinstance(a, msgspec.Struct):
        for name in a.__struct_fields__:
            yield from _differences(getattr(a, name), getattr(b, name), (*path, name))
    elif isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key in a and key in b:
                yield from _differences(a[key], b[key], (*path, key))
            else:
                yield (*path, key)
    elif isinstance(a, (tuple, list)) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from _differences(x, y, (*path, i))
    elif a != b:
        yield path


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = (
            getattr(value, step) if isinstance(step, str) and hasattr(value, step) else value[step]
        )
    return value


def _with_determiniser() -> list[str]:
    return [record.id for record in systems() if record.hooks.determiniser is not None]


@pytest.mark.parametrize("rules_id", _with_determiniser())
def test_a_determinised_state_redacts_to_what_the_seat_knows(rules_id: str) -> None:
    """The determiniser's consistency with the declarations: for every seat along random
    games, the state sampled from its view redacts, for that seat, to the redaction of the
    state the view came from, and the samples do differ in hidden parts.

    One difference is allowed, by what it is rather than by name: the dice counter, which
    no seat view carries (the kernel's ``Determiniser`` contract: a search player rolls its
    own dice), so a sampled state holds another; it is told by both values being the
    decider's ``dice_counter`` of their states."""
    record = _system(rules_id)
    determinise = record.hooks.determiniser
    assert determinise is not None
    pack = record.load_pack(None) if record.load_pack is not None else None
    sampled = 0
    for count in record.player_counts:
        session = new_game(
            record.default_seats[count], game=record.id, seed=count,
            options=dict(record.default_options),
        )  # fmt: skip
        decider = session.decider
        for n, state in enumerate(_states(session, random.Random(count), 120)):
            for seat in session.header.seats:
                sample = determinise(record.seat_view(state, seat), pack, n)
                known, guessed = redact(state, seat), redact(sample, seat)
                wrong = [
                    path
                    for path in _differences(known, guessed)
                    if not (
                        _at(known, path) == decider.dice_counter(state)
                        and _at(guessed, path) == decider.dice_counter(sample)
                    )
                ]
                assert not wrong, (
                    f"{rules_id} {count}p, position {n}, seat {seat}: the sampled state "
                    f"redacts otherwise at {wrong}"
                )
                sampled += sample != state
    assert sampled, f"{rules_id}: no sampled state differed from the real one"
