"""Random events (kernel.chance): the recording helpers, the auditor's recheck, and the
session keeping the dice counter from the random events themselves (docs/DICE.md)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from dicegame import DieRolled, Pig, PigState, Roll

from nataterra_core.kernel import (
    Command,
    DiceStream,
    DrawEvent,
    DrawsEvent,
    Event,
    RandomEvent,
    Session,
    ShuffleEvent,
    recheck,
    record_draw,
    record_draws,
    record_shuffle,
)

REFERENCE = (bytes(range(32)), "demo-0001", "")  # docs/DICE.md's reference vector


def stream(counter: int = 0) -> DiceStream:
    return DiceStream(*REFERENCE, counter=counter)


class Rolled(DrawEvent, frozen=True, tag="rolled.v1"):
    m: int
    counter_before: int
    counter_after: int
    value: int
    face: int


class Picked(DrawsEvent, frozen=True, tag="picked.v1"):
    items: tuple[str, ...]
    ms: tuple[int, ...]
    values: tuple[int, ...]
    counter_before: int
    counter_after: int


class Shuffled(ShuffleEvent, frozen=True, tag="shuffled.v1"):
    deck: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    counter_before: int
    counter_after: int


class Resolved(DrawEvent, frozen=True, tag="resolved.v1"):
    """Records its die only when no earlier event did: all random fields None otherwise."""

    total: int
    m: int | None = None
    counter_before: int | None = None
    counter_after: int | None = None
    value: int | None = None


# -- the helpers record exactly what the stream did ----------------------------------------


def test_record_draw_gives_the_reference_draws_and_counters() -> None:
    dice = stream()
    drawn = [record_draw(dice, 10) for _ in range(12)]
    assert [d["value"] for d in drawn] == [5, 5, 3, 0, 1, 8, 9, 6, 0, 8, 2, 4]
    assert [(d["counter_before"], d["counter_after"]) for d in drawn[:2]] == [(0, 1), (1, 2)]
    assert all(d["m"] == 10 for d in drawn)


def test_record_draw_counts_rejected_words() -> None:
    # docs/DICE.md: word 0 is rejected by draw(2147483649), word 1 accepted.
    drawn = record_draw(stream(), 2147483649)
    assert drawn == {"m": 2147483649, "value": 452579765, "counter_before": 0, "counter_after": 2}


def test_record_draws_is_the_draws_in_a_row() -> None:
    dice = stream()
    drawn = record_draws(dice, [6] * 12)
    assert drawn["ms"] == (6,) * 12
    assert drawn["values"] == (3, 5, 1, 2, 1, 0, 5, 0, 2, 0, 2, 2)
    assert (drawn["counter_before"], drawn["counter_after"]) == (0, 12) == (0, dice.counter)


def test_record_shuffle_gives_the_reference_shuffle() -> None:
    ids = tuple(str(i) for i in range(10))
    shuffled = record_shuffle(stream(), ids)
    assert shuffled["before"] == ids
    assert shuffled["after"] == tuple(str(i) for i in (7, 6, 0, 4, 3, 1, 2, 8, 9, 5))
    assert (shuffled["counter_before"], shuffled["counter_after"]) == (0, 9)


def test_record_shuffle_of_one_card_consumes_nothing() -> None:
    assert record_shuffle(stream(5), ("a",)) == {
        "before": ("a",),
        "after": ("a",),
        "counter_before": 5,
        "counter_after": 5,
    }


# -- the auditor's recheck -----------------------------------------------------------------


def recorded_events() -> list[RandomEvent]:
    """Three consecutive random events of each kind, made with the helpers."""
    dice = stream()
    drawn = record_draw(dice, 10)
    events: list[RandomEvent] = [Rolled(**drawn, face=drawn["value"] + 1)]
    events.append(Picked(items=("x", "y"), **record_draws(dice, [5, 4])))
    events.append(Shuffled(deck="d", **record_shuffle(dice, tuple("abcdef"))))
    events.append(Resolved(total=3))  # drew nothing
    events.append(Resolved(total=4, **record_draw(dice, 3)))
    return events


def test_recheck_accepts_every_recorded_event_in_order() -> None:
    events = recorded_events()
    auditor = stream()
    assert [recheck(auditor, event) for event in events] == [None] * len(events)
    last = events[-1]
    assert last.counter_after is not None and auditor.counter == last.counter_after > 0


def replaced(event: RandomEvent, **changes: Any) -> RandomEvent:
    return msgspec.structs.replace(event, **changes)


@pytest.mark.parametrize(
    ("index", "changes", "reason"),
    [
        (0, {"value": 6}, "value is 6, draw(10) gives 5"),
        (0, {"m": 0}, "1 <= m"),
        (0, {"counter_after": 2}, "counter_after is 2, the stream ends at 1"),
        (0, {"counter_before": 1, "counter_after": 2}, "counter_before is 1"),
        (1, {"values": (0, 0)}, "the draws give"),
        (1, {"ms": (5,)}, "1 ranges but 2 values"),
        (2, {"after": tuple("abcdef")}, "the shuffle gives"),
        (3, {"counter_before": 3}, "only one counter is set"),
        (4, {"m": None}, "a draw without m or value"),
    ],
)
def test_recheck_names_what_differs(index: int, changes: dict[str, Any], reason: str) -> None:
    events = recorded_events()
    auditor = stream()
    for event in events[:index]:
        assert recheck(auditor, event) is None
    found = recheck(auditor, replaced(events[index], **changes))
    assert found is not None and reason in found


def test_recheck_of_an_event_that_drew_nothing_leaves_the_stream() -> None:
    auditor = stream(7)
    assert recheck(auditor, Resolved(total=1)) is None
    assert auditor.counter == 7


# -- the bases refuse events an auditor could not recheck ----------------------------------


def test_a_random_event_missing_a_field_of_its_kind_is_refused() -> None:
    with pytest.raises(TypeError, match=r"lacks the random-event fields \['m'\]"):

        class NoRange(DrawEvent, frozen=True, tag="no_range.v1"):
            counter_before: int
            counter_after: int
            value: int


def test_a_random_event_of_no_kind_is_refused() -> None:
    with pytest.raises(TypeError, match="subclass DrawEvent, DrawsEvent or ShuffleEvent"):

        class Vague(RandomEvent, frozen=True, tag="vague.v1"):
            counter_before: int
            counter_after: int


def test_the_bases_add_no_fields_so_a_game_keeps_its_field_order() -> None:
    # msgspec writes base fields first: the bases must hold none.
    assert msgspec.json.encode(Shuffled(deck="d", before=(), after=(), **_counters())) == (
        b'{"type":"shuffled.v1","deck":"d","before":[],"after":[],'
        b'"counter_before":0,"counter_after":0}'
    )
    assert DrawEvent.__struct_fields__ == DrawsEvent.__struct_fields__ == ()


def _counters() -> dict[str, int]:
    return {"counter_before": 0, "counter_after": 0}


# -- the session chains random events (docs/DICE.md) ---------------------------------------


class Skewed(Pig):
    """Pig whose die events misreport their counters by ``before`` and ``after`` words."""

    def __init__(self, before: int, after: int) -> None:
        self.before, self.after = before, after

    def decide(
        self,
        state: PigState,
        command: Command,
        dice: DiceStream,
        *,
        seat: str | None,
        legal: bool = False,
    ) -> tuple[Event, ...]:
        events = super().decide(state, command, dice, seat=seat, legal=legal)
        return tuple(
            msgspec.structs.replace(
                e,
                counter_before=e.counter_before + self.before,
                counter_after=e.counter_after + self.after,
            )
            if isinstance(e, DieRolled)
            else e
            for e in events
        )


def skewed_session(before: int, after: int) -> Session[PigState, Command, Event]:
    return Session.new(
        Skewed(before, after), seats=("ann", "bob"), server_seed=bytes(32), game_id="pig-0"
    )


def test_session_accepts_random_events_that_chain() -> None:
    session = skewed_session(0, 0)
    seat = session.acting_seats()[0]
    (rolled, *_) = session.apply(seat, Roll())
    assert isinstance(rolled, RandomEvent) and rolled.counter_before == 1


def test_a_random_event_starting_elsewhere_than_the_last_one_ended_is_a_rules_bug() -> None:
    session = skewed_session(1, 1)
    with pytest.raises(AssertionError, match=r"records words 2\.\.3, the stream was at 1"):
        session.apply(session.acting_seats()[0], Roll())
    assert len(session.lines) == 2  # nothing was written


def test_random_events_ending_elsewhere_than_the_stream_is_a_rules_bug() -> None:
    session = skewed_session(0, 1)
    with pytest.raises(AssertionError, match="used dice up to word 2 but its events record 3"):
        session.apply(session.acting_seats()[0], Roll())


def test_a_draw_recorded_in_no_random_event_is_a_rules_bug() -> None:
    class Unrecorded(Pig):
        def decide(
            self,
            state: PigState,
            command: Command,
            dice: DiceStream,
            *,
            seat: str | None,
            legal: bool = False,
        ) -> tuple[Event, ...]:
            events = super().decide(state, command, dice, seat=seat, legal=legal)
            if isinstance(command, Roll):
                dice.draw(2)  # a draw no event records
            return events

    session = Session.new(Unrecorded(), seats=("ann", "bob"), server_seed=bytes(32), game_id="p")
    with pytest.raises(AssertionError, match="used dice up to word 3 but its events record 2"):
        session.apply(session.acting_seats()[0], Roll())
