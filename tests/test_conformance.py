"""Conformance: every registered rule system honours the kernel's contract.

Modelled on OpenSpiel's ``random_sim_test``: for each registered system and a few seeds,
random legal play to the end, and at every step

* every listed command is accepted, and a command outside the list is rejected with a rule
  id, state and log unchanged;
* a decider that hands back its state (``Decided``) agrees with folding its events;
* replay from events equals the live state;
* undo then redo round-trips where undo is allowed;

and at the end the log verifies. Systems registered later (Kaladan, BattleLore) are picked up
without a change here; ``QUICK`` only shortens games that would otherwise run long.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs
import msgspec
import pytest

from nataterra_core.game import GameSession, decider_for, new_game, verify_log
from nataterra_core.kernel import (
    Command,
    CommandRejected,
    Decided,
    DiceStream,
    MalformedCommand,
    read_log,
    replay_states,
    seed_from_number,
)
from nataterra_core.kernel.encoding import CodecError
from nataterra_core.kernel.log import split_lines
from nataterra_core.kernel.registry import RuleSystem, systems
from nataterra_core.kernel.secrets import twins

QUICK: dict[str, dict[str, Any]] = {
    "nataterra": {"max_turns": 10},
    "pig": {"target": 20},
    "battlelore": {"max_turns": 40},
}
"""Options that keep a random game short (a turn limit is an end like any other)."""

SEEDS = (1, 2, 3)
MAX_STEPS = 3000


def _ids() -> list[str]:
    return [record.id for record in systems()]


def _system(rules_id: str) -> RuleSystem:
    return next(record for record in systems() if record.id == rules_id)


def _start(record: RuleSystem, seed: int) -> GameSession:
    options = {**record.default_options, **QUICK.get(record.id, {})}
    seats = record.default_seats[min(record.default_seats)]
    return new_game(seats, game=record.id, seed=seed, options=options)


def _dice(session: GameSession, seed: int) -> DiceStream:
    server_seed, game_id = seed_from_number(seed)
    counter = session.decider.dice_counter(session.state)
    return DiceStream(server_seed, game_id, session.header.client_seed, counter)


def _outsider(
    session: GameSession, seat: str, legal: tuple[Command, ...], seen: list[Command], rng: Any
) -> Command | None:
    """A command seen earlier in the game that is not legal now, if there is one."""
    outside = [c for c in seen if c not in legal and isinstance(c, session.decider.command_types)]
    return rng.choice(outside) if outside else None


def _check_rejected(session: GameSession, seat: str, command: Command) -> None:
    state, lines = session.state, session.lines
    with pytest.raises(CommandRejected) as raised:
        session.apply(seat, command)
    error = raised.value
    assert error.rule_id, f"{command!r} was rejected without a rule id: {error}"
    assert session.state is state and session.lines == lines


def _check_decided_fold(session: GameSession, seed: int, seat: str, command: Command) -> None:
    decider = session.decider
    decided = decider.decide(session.state, command, _dice(session, seed), seat=seat, legal=True)
    if isinstance(decided, Decided):
        folded = session.state
        for event in decided.events:
            folded = decider.evolve(folded, event)
        assert folded == decided.state, "folding the events differs from the state decide gave"
        if decided.decision is not None:  # the decision handed back is the state's own
            fresh = decider.decision(decided.state)
            assert decided.decision.acting == fresh.acting
            for seat_ in fresh.acting:
                assert decided.decision.legal(seat_) == fresh.legal(seat_)


def _check_undo_redo(session: GameSession, seat: str) -> None:
    if not session.can_undo(seat):
        return
    after = session.state
    session.undo(seat)
    session.redo(seat)
    assert session.state == after


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("rules_id", _ids())
def test_random_legal_play_keeps_the_kernel_contract(rules_id: str, seed: int) -> None:
    record = _system(rules_id)
    session = _start(record, seed)
    rng = random.Random(seed)
    seen: list[Command] = []
    live = {1: session.state}
    rejected = 0
    for _ in range(MAX_STEPS):
        if session.outcome() is not None:
            break
        seat = rng.choice(list(session.acting_seats()))
        legal = tuple(session.legal_commands(seat))
        assert legal, f"{seat} may act but has no legal command"
        outsider = _outsider(session, seat, legal, seen, rng)
        if outsider is not None:
            _check_rejected(session, seat, outsider)
            rejected += 1
        command = rng.choice(legal)
        _check_decided_fold(session, seed, seat, command)
        session.apply(seat, command)
        seen.extend(c for c in legal if c not in seen)
        del seen[:-200]
        live[len(session.lines) - 1] = session.state
        if rng.random() < 0.2:
            _check_undo_redo(session, seat)
            live[len(session.lines) - 1] = session.state
    assert session.outcome() is not None, f"no end after {MAX_STEPS} commands"
    assert rejected > 0, "no command outside the legal list was ever tried"

    read = read_log(session.log_bytes(), decider_for)
    for seq, state in replay_states(read.decider, read.header, read.records):
        if seq in live:
            assert state == live[seq], f"replay differs from live play after record {seq}"

    session.close()
    verdict = verify_log(session.log_bytes())
    assert verdict.valid, verdict.reason
    assert len(split_lines(session.log_bytes()).lines) == len(session.lines)


@pytest.mark.parametrize("rules_id", _ids())
def test_wrongly_typed_commands_are_refused_before_anything_is_logged(rules_id: str) -> None:
    """Issue 13 item 8: a command whose fields have the wrong type never reaches the log."""
    record = _system(rules_id)
    session = _start(record, 5)
    rng = random.Random(5)
    refused = 0
    for _ in range(400):
        if session.outcome() is not None:
            break
        seat = session.acting_seats()[0]
        legal = list(session.legal_commands(seat))
        for command in legal[:10]:
            for bad in _mistyped(command):
                lines, state = session.lines, session.state
                with pytest.raises(MalformedCommand):
                    session.apply(seat, bad)
                assert session.lines == lines and session.state is state
                refused += 1
        session.apply(seat, rng.choice(legal))
    assert refused > 0, "no command with a field to mistype was ever offered"
    session.close()
    assert verify_log(session.log_bytes()).valid


def _mistyped(command: Command) -> list[Command]:
    """Copies of ``command`` with one field of a wrong type: float, bool, unknown literal,
    wrong container."""
    bad: list[Command] = []
    for name in command.__struct_fields__:
        value = getattr(command, name)
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            bad.append(msgspec.structs.replace(command, **{name: value + 0.5}))
            bad.append(msgspec.structs.replace(command, **{name: value == 0}))
        elif isinstance(value, str):
            bad.append(msgspec.structs.replace(command, **{name: 7}))
        elif isinstance(value, tuple):
            bad.append(msgspec.structs.replace(command, **{name: {"not": "a list"}}))
    literal = _unknown_literal(command)
    if literal is not None:
        bad.append(literal)
    return bad


def _unknown_literal(command: Command) -> Command | None:
    info = msgspec.inspect.type_info(type(command))
    assert isinstance(info, msgspec.inspect.StructType)
    for field in info.fields:
        if isinstance(field.type, msgspec.inspect.LiteralType):
            return msgspec.structs.replace(command, **{field.name: "no-such-value"})
    return None


def _nataterra_window(state: Any) -> bool:
    """A Nataterra combat in which someone holds tactic cards: its windows (N-COMBAT-9)."""
    combat = state.combat
    return combat is not None and any(state.player(s).tactic_hand for s in combat.seats)


def _random_states(session: GameSession, rng: random.Random) -> Iterator[Any]:
    """Each state of a game played by random legal commands to its end."""
    while session.outcome() is None:
        yield session.state
        seat = rng.choice(list(session.acting_seats()))
        session.apply(seat, rng.choice(tuple(session.legal_commands(seat))))


def _assert_same_decision(decider: Any, state: Any, twin: Any, seat: str) -> None:
    """Who acts, and ``seat``'s legal commands, are the same in both states."""
    ours, theirs = decider.decision(state), decider.decision(twin)
    assert ours.acting == theirs.acting
    assert list(ours.legal(seat)) == list(theirs.legal(seat))


def test_N_COMBAT_9_tactic_windows_do_not_reveal_hands() -> None:
    """The conformance clause for Nataterra's tactic windows: heuristic games with three
    tactic cards dealt to each hand, every combat state perturbed behind each seat's back."""
    record = _system("nataterra")
    leaks = 0
    for seed in (1, 2, 3):
        session = _start(record, seed)
        state = session.state
        session.state = msgspec.structs.replace(
            state,
            players=tuple(
                msgspec.structs.replace(
                    p, tactic_hand=p.tactic_deck[:3], tactic_deck=p.tactic_deck[3:]
                )
                for p in state.players
            ),
        )
        bots = {seat: record.players["heuristic"](seed) for seat in session.header.seats}
        rng = random.Random(seed)
        while session.outcome() is None:
            state = session.state
            if _nataterra_window(state):
                for seat in session.header.seats:
                    twin = twins(state, seat, rng)
                    assert record.seat_view(twin, seat) == record.seat_view(state, seat)
                    ours, theirs = session.decider.decision(state), session.decider.decision(twin)
                    if ours.acting != theirs.acting or list(ours.legal(seat)) != list(
                        theirs.legal(seat)
                    ):
                        leaks += 1
            seat = session.acting_seats()[0]
            session.apply(seat, _bot_choice(bots[seat], session, seat))
    assert leaks == 0, f"{leaks} perturbations of hidden hands changed a decision"


def _bot_choice(bot: Any, session: GameSession, seat: str) -> Command:
    view = _system(session.header.rules.id).seat_view(session.state, seat)
    command: Command = bot.choose(view, session.legal_commands(seat))
    return command


@pytest.mark.parametrize("rules_id", _ids())
def test_every_command_and_event_type_declares_its_visibility(rules_id: str) -> None:
    """Undeclared means hidden (the log shows only the type); every system declares all."""
    decider = _system(rules_id).decider(None)
    undeclared = [
        cls.__name__
        for cls in (*decider.command_types, *decider.event_types)
        if cls.visibility is None
    ]
    assert not undeclared, f"{rules_id}: no visibility declared on {undeclared}"


def _determinising() -> list[str]:
    return [record.id for record in systems() if record.hooks.determiniser is not None]


@pytest.mark.parametrize("seed", SEEDS[:2])
@pytest.mark.parametrize("rules_id", _determinising())
def test_determinised_states_are_consistent_with_the_seat_view(rules_id: str, seed: int) -> None:
    """The registry's determiniser (``kernel.determinise``): from a seat's view it samples a
    state whose view for that seat is the same view, on which the seat's decision (who acts,
    its legal commands) is the same; the same seed gives the same sample."""
    record = _system(rules_id)
    determiniser = record.hooks.determiniser
    assert determiniser is not None
    pack = record.load_pack(None) if record.load_pack is not None else None
    session = _start(record, seed)
    rng = random.Random(seed)
    checked = 0
    for state in _random_states(session, rng):
        for seat in session.header.seats:
            view = record.seat_view(state, seat)
            sampled = determiniser(view, pack, checked)
            assert record.seat_view(sampled, seat) == view
            assert determiniser(view, pack, checked) == sampled
            _assert_same_decision(session.decider, state, sampled, seat)
            checked += 1
    assert checked > 20


def _offering(hook: str) -> list[str]:
    """The systems that offer ``hook`` (a slot of ``Hooks``): its clauses run for them only."""
    return [record.id for record in systems() if getattr(record.hooks, hook) is not None]


def test_a_system_with_only_the_required_parts_is_checked_by_every_clause_it_can_be() -> None:
    """Hooks are optional for real: the bare test system (``tests/kernel/dicegame.py``)
    offers none, runs through every clause over all systems above, and is left out only of
    the clauses of the hooks it does not offer."""
    bare = _system("pig-bare")
    assert all(getattr(bare.hooks, slot) is None for slot in attrs.fields_dict(type(bare.hooks)))
    assert bare.load_pack is None and set(bare.players) == {"random"}
    assert "pig-bare" in _ids()
    for hook in ("observation", "action_codec", "determiniser"):
        assert "pig-bare" not in _offering(hook) and _offering(hook), hook


def _random_play(record: RuleSystem, seed: int) -> Iterator[tuple[GameSession, str | None]]:
    """Random play to the end: each state with the seat that acts next (``None`` at the end)."""
    session = _start(record, seed)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if session.outcome() is not None:
            yield session, None
            return
        seat = rng.choice(list(session.acting_seats()))
        yield session, seat
        session.apply(seat, rng.choice(tuple(session.legal_commands(seat))))
    raise AssertionError(f"no end after {MAX_STEPS} commands")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("rules_id", _offering("observation"))
def test_the_observation_encoder_encodes_every_view(rules_id: str, seed: int) -> None:
    """Issue 19 item 2, where ``Hooks.observation`` is offered (``kernel/encoding.py``): in
    random play every seat's and a spectator's view encodes to the layout's size."""
    record = _system(rules_id)
    assert record.hooks.observation is not None
    encoder = None
    for session, _seat in _random_play(record, seed):
        encoder = encoder or record.hooks.observation(session.decider, session.setup)
        size = encoder.layout.size
        assert size == sum(s.size for s in encoder.layout.segments)
        for seat in (*session.header.seats, None):
            features = encoder.encode(record.seat_view(session.state, seat))
            assert len(features) == size and all(isinstance(x, float) for x in features)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("rules_id", _offering("action_codec"))
def test_the_action_codec_numbers_every_legal_command(rules_id: str, seed: int) -> None:
    """Issue 19 item 3, where ``Hooks.action_codec`` is offered: every legal command has an
    index, no two share one, ``decode(encode(c), legal) is c``, the mask is exactly the legal
    indices, an index outside the mask is refused, and a command keeps its index from state
    to state."""
    record = _system(rules_id)
    assert record.hooks.action_codec is not None
    codec = None
    indices: dict[Command, int] = {}
    for session, seat in _random_play(record, seed):
        if seat is None:
            break
        codec = codec or record.hooks.action_codec(session.decider, session.setup)
        actions = codec.size
        assert actions > 0
        legal = tuple(session.legal_commands(seat))
        numbers = [codec.encode(command) for command in legal]
        assert len(set(numbers)) == len(numbers), "two legal commands share an index"
        for number, command in zip(numbers, legal, strict=True):
            assert 0 <= number < actions
            assert codec.decode(number, legal) is command
            assert indices.setdefault(command, number) == number, f"{command!r} changed index"
            assert codec.describe(number)
        mask = codec.mask(legal)
        assert len(mask) == actions
        # the set bits are exactly the legal indices (counted in C: action spaces run to millions)
        assert all(mask[i] for i in numbers) and len(mask) - mask.count(0) == len(set(numbers))
        illegal = mask.find(0)
        if illegal >= 0:
            with pytest.raises(CodecError):
                codec.decode(illegal, legal)
    assert codec is not None
