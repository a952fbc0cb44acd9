"""Session: apply, rejections, undo and redo (docs/LOG_FORMAT.md), with properties over random
play."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from conftest import PigSession, new_session, pig_factory, play_random
from dicegame import Hold, Pig, Roll, Stake
from hypothesis import given, settings
from hypothesis import strategies as st

from nataterra_core.kernel import (
    Command,
    GameOver,
    IllegalCommand,
    LogError,
    MalformedCommand,
    NotYourTurn,
    ReplayDiverged,
    Session,
    UndoRecord,
    UndoRefused,
    read_log,
    replay,
    replay_states,
)

SETTINGS = settings(max_examples=200, deadline=None)


def snapshot(session: PigSession) -> tuple[object, tuple[bytes, ...]]:
    return session.state, session.lines


def replayed(session: PigSession) -> object:
    log = read_log(session.log_bytes(), pig_factory)
    return replay(log.decider, log.header, log.records)


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 80))
def test_replay_of_logged_events_equals_live_state(seed: int, steps: int) -> None:
    session = new_session(seed, target=40)
    rng = random.Random(seed)
    states = [session.state]
    for _ in range(steps):
        if session.outcome() is not None:
            break
        seat = session.acting_seats()[0]
        session.apply(seat, rng.choice(session.legal_commands(seat)))
        states.append(session.state)
    log = read_log(session.log_bytes(), pig_factory)
    folded = [state for seq, state in replay_states(log.decider, log.header, log.records) if seq]
    assert folded == states


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60))
def test_every_legal_command_is_accepted(seed: int, steps: int) -> None:
    session = new_session(seed, target=40)
    play_random(session, random.Random(seed), steps)
    if session.outcome() is not None:
        return
    seat = session.acting_seats()[0]
    for command in session.legal_commands(seat):
        fork = new_session(seed, target=40)
        play_random(fork, random.Random(seed), steps)
        fork.apply(seat, command)


ANY_COMMAND = st.one_of(
    st.just(Roll()), st.just(Hold()), st.builds(Stake, multiplier=st.integers(-2, 5))
)


@SETTINGS
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 60),
    command=ANY_COMMAND,
    seat=st.sampled_from(["ann", "bob", "eve"]),
)
def test_rejected_command_changes_nothing(
    seed: int, steps: int, command: Command, seat: str
) -> None:
    session = new_session(seed, target=40)
    play_random(session, random.Random(seed), steps)
    legal = seat in session.acting_seats() and command in session.legal_commands(seat)
    before = snapshot(session)
    if legal:
        session.apply(seat, command)
        return
    with pytest.raises(ValueError) as info:
        session.apply(seat, command)
    assert isinstance(info.value, IllegalCommand | NotYourTurn | MalformedCommand | GameOver)
    assert snapshot(session) == before


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60), stake=st.integers(1, 3))
def test_undo_then_redo_restores_state_and_events(seed: int, steps: int, stake: int) -> None:
    session = new_session(seed, target=40)
    play_random(session, random.Random(seed), steps)
    if session.outcome() is not None:
        return
    seat = session.acting_seats()[0]
    command = Stake(multiplier=stake)
    if command not in session.legal_commands(seat):
        return
    before_command = session.state
    events = session.apply(seat, command)
    before_undo = session.state
    length = len(session.lines)
    undone = session.undo(seat)
    assert undone == length - 1
    assert session.state == before_command
    redone = session.redo(seat)
    assert session.state == before_undo
    assert redone == events
    assert len(session.lines) == length + 2
    record = msgspec.json.decode(session.lines[-1])
    undone_record = msgspec.json.decode(session.lines[undone])
    assert record["events"] == undone_record["events"]
    assert replayed(session) == session.state


def at_turn_start(seed: int = 1) -> PigSession:
    session = new_session(seed, target=1000)
    return session


def test_undo_only_by_the_seat_that_issued_the_last_command() -> None:
    session = at_turn_start()
    seat = session.acting_seats()[0]
    other = "bob" if seat == "ann" else "ann"
    session.apply(seat, Stake(multiplier=2))
    with pytest.raises(UndoRefused, match="only seat"):
        session.undo(other)
    session.undo(seat)


def test_undo_never_crosses_dice() -> None:
    session = at_turn_start()
    seat = session.acting_seats()[0]
    session.apply(seat, Stake(multiplier=3))
    session.apply(seat, Roll())
    before = snapshot(session)
    with pytest.raises(UndoRefused, match="used dice"):
        session.undo(seat)
    assert snapshot(session) == before


def test_undo_never_crosses_a_turn() -> None:
    session = at_turn_start(5)
    rng = random.Random(0)
    while True:  # roll until points are banked, which ends the turn without dice
        seat = session.acting_seats()[0]
        if session.state.turn_total > 0:
            session.apply(seat, Hold())
            break
        session.apply(seat, Roll())
    rng.random()
    with pytest.raises(UndoRefused, match="ended the turn"):
        session.undo(seat)


def test_undo_refused_in_tournament_mode() -> None:
    session = new_session(1, tournament=True)
    seat = session.acting_seats()[0]
    session.apply(seat, Stake(multiplier=2))
    with pytest.raises(UndoRefused, match="tournament"):
        session.undo(seat)


def test_repeated_undo_walks_back_and_new_command_clears_redo() -> None:
    session = at_turn_start()
    seat = session.acting_seats()[0]
    start = session.state
    session.apply(seat, Stake(multiplier=2))
    session.apply(seat, Stake(multiplier=3))
    session.undo(seat)
    session.undo(seat)
    assert session.state == start
    with pytest.raises(UndoRefused):
        session.undo(seat)  # only the start record is left, and it is not undoable
    session.redo(seat)
    assert session.can_redo(seat)
    session.apply(seat, Stake(multiplier=1))
    assert not session.can_redo(seat)
    with pytest.raises(UndoRefused, match="nothing to redo"):
        session.redo(seat)
    assert replayed(session) == session.state


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 80))
def test_replay_follows_undo_and_redo_record_by_record(seed: int, steps: int) -> None:
    """Replay keeps only the states a later undo returns to (issue 20): with undos and redos
    mixed into random play, it still gives the live state after every record."""
    session = new_session(seed, target=1000)
    rng = random.Random(seed)
    states = {len(session.lines) - 1: session.state}
    for _ in range(steps):
        _random_step(session, rng)
        states[len(session.lines) - 1] = session.state
    log = read_log(session.log_bytes(), pig_factory)
    folded = dict(replay_states(log.decider, log.header, log.records))
    assert {seq: folded[seq] for seq in states} == states


def _random_step(session: PigSession, rng: random.Random) -> None:
    """An undo, a redo or a random legal command of the acting seat."""
    seat = session.acting_seats()[0]
    move = rng.random()
    if move < 0.25 and session.can_undo(seat):
        session.undo(seat)
    elif move < 0.4 and session.can_redo(seat):
        session.redo(seat)
    else:
        session.apply(seat, rng.choice(session.legal_commands(seat)))


def test_replay_refuses_an_undo_of_a_record_that_is_not_the_last_command() -> None:
    session = at_turn_start()
    seat = session.acting_seats()[0]
    session.apply(seat, Stake(multiplier=2))
    session.apply(seat, Stake(multiplier=3))
    session.undo(seat)
    log = read_log(session.log_bytes(), pig_factory)
    undo = log.records[-1]
    assert isinstance(undo, UndoRecord)
    wrong = msgspec.structs.replace(undo, undoes=undo.undoes - 1)
    with pytest.raises(LogError, match="cannot be undone"):
        replay(log.decider, log.header, (*log.records[:-1], wrong))


def test_illegal_command_names_rule_id() -> None:
    session = at_turn_start()
    seat = session.acting_seats()[0]
    with pytest.raises(IllegalCommand) as info:
        session.apply(seat, Hold())
    assert info.value.rule_id == "PIG-3"
    assert "PIG-3" in str(info.value)


def test_commands_after_close_are_refused() -> None:
    session = at_turn_start()
    session.close()
    seat = "ann"
    with pytest.raises(GameOver):
        session.apply(seat, Roll())
    assert session.acting_seats() == ()
    assert session.legal_commands(seat) == ()


def test_foreign_objects_and_unknown_seats_are_malformed() -> None:
    session = at_turn_start()
    seat = session.acting_seats()[0]
    with pytest.raises(MalformedCommand):
        session.apply(seat, "roll")  # type: ignore[arg-type]
    with pytest.raises(MalformedCommand):
        session.apply("eve", Roll())


def test_sink_receives_every_line() -> None:
    lines: list[bytes] = []
    session = Session.new(
        Pig(), seats=("a", "b"), server_seed=bytes(32), game_id="sink", sink=lines.append
    )
    play_random(session, random.Random(2), 30)
    session.close()
    assert b"".join(line + b"\n" for line in lines) == session.log_bytes()


def test_seed_never_appears_before_reveal() -> None:
    session = new_session(99)
    play_random(session, random.Random(9), 40)
    secret = (99).to_bytes(32, "big").hex()
    assert secret not in session.log_bytes().decode()
    assert secret not in repr(session.state)
    session.close()
    assert secret in session.lines[-2].decode()


class _BrokenPig(Pig):
    """Pig whose rules now crash on a roll, with an exception whose text holds a secret."""

    def decide(self, state: Any, command: Command, dice: Any, **kwargs: Any) -> Any:
        if isinstance(command, Roll):
            raise RuntimeError("the hidden deck is 7, 3, 9")
        return super().decide(state, command, dice, **kwargs)


def _rolled_log(*, closed: bool) -> tuple[bytes, bytes]:
    session = new_session(5)
    seat = session.acting_seats()[0]
    session.apply(seat, Roll())
    if closed:
        session.close()
    return session.log_bytes(), (5).to_bytes(32, "big")


class _RefusingPig(Pig):
    """Pig whose rules now refuse a roll, in words made from a hidden value."""

    def decide(self, state: Any, command: Command, dice: Any, **kwargs: Any) -> Any:
        if isinstance(command, Roll):
            raise IllegalCommand("PIG-9", "the hidden deck is 7, 3, 9")
        return super().decide(state, command, dice, **kwargs)


RE_EXECUTION_ERRORS = [(_BrokenPig, "RuntimeError"), (_RefusingPig, "IllegalCommand: PIG-9")]
"""Rules whose re-execution of a logged roll raises, and how the error names it before the
reveal: a crash by its class, a refusal (worded from the whole state) by its kind and rule."""


@pytest.mark.parametrize("rules,named", RE_EXECUTION_ERRORS)
def test_a_re_execution_error_names_the_record_never_its_text_before_the_reveal(
    rules: type[Pig], named: str
) -> None:
    """Issue 30 item 2: errors name the record, never a hidden value; an exception's or a
    refusal's text may hold one, so before the reveal only its class and rule are named."""
    data, seed = _rolled_log(closed=False)
    log = read_log(data, pig_factory)
    with pytest.raises(ReplayDiverged) as raised:
        Session.from_log(rules(), log.header, log.records, log.lines, seed)
    said = str(raised.value)
    assert raised.value.seq == 2 and named in said, said
    assert "7, 3, 9" not in said, said


@pytest.mark.parametrize("rules,named", RE_EXECUTION_ERRORS)
def test_a_re_execution_error_of_a_revealed_log_shows_its_text(
    rules: type[Pig], named: str
) -> None:
    data, seed = _rolled_log(closed=True)
    log = read_log(data, pig_factory)
    with pytest.raises(ReplayDiverged) as raised:
        Session.from_log(rules(), log.header, log.records, log.lines, seed)
    said = str(raised.value)
    assert named in said and "the hidden deck is 7, 3, 9" in said, said


def _prefix_session(session: PigSession, records: int) -> PigSession:
    """A copy of ``session``'s game made from its first ``records`` records."""
    log = read_log(b"".join(line + b"\n" for line in session.lines[:records]), pig_factory)
    return Session.from_log(log.decider, log.header, log.records, log.lines, session._seed)


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60), data=st.data())
def test_a_copy_extended_by_the_records_appended_elsewhere_is_the_game_itself(
    seed: int, steps: int, data: st.DataObject
) -> None:
    """Issue 33 (catch-up): a copy that holds the first records of a game and re-executes
    the rest (undos, redos, the reveal included) has the game's lines and state, and sends
    the records it re-executed to its sink."""
    session = new_session(seed, target=1000)
    rng = random.Random(seed)
    for _ in range(steps):
        _random_step(session, rng)
    if data.draw(st.booleans()):
        session.close()
    held = data.draw(st.integers(2, len(session.lines)))
    if session.closed and held == len(session.lines) - 1:
        held += 1  # reveal and end are written together: no copy holds one without the other
    copy = _prefix_session(session, held)
    sent: list[bytes] = []
    copy.attach_sink(sent.append)
    copy.extend(session.lines[held:])
    assert copy.lines == session.lines and copy.state == session.state
    assert copy.closed == session.closed and sent == list(session.lines[held:])


def test_an_extension_that_differs_from_the_game_is_named() -> None:
    session = at_turn_start()
    seat = session.acting_seats()[0]
    session.apply(seat, Stake(multiplier=2))
    session.apply(seat, Roll())
    held = len(session.lines) - 2
    altered = session.lines[-1].replace(b'"seat"', b'"seat" ', 1)  # same JSON, other bytes
    copy = _prefix_session(session, held)
    with pytest.raises(ReplayDiverged) as raised:
        copy.extend([session.lines[-2], altered])
    assert raised.value.seq == held + 1
    with pytest.raises(LogError, match="seq is"):  # a line out of its place
        _prefix_session(session, held).extend(session.lines[held + 1 :])
