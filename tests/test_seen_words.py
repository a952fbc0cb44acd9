"""Words from what the reader may see (issue 30 item 2): a presenter is handed each command
and event as its reader may see it (:func:`nataterra_core.kernel.seen.as_seen`), and every
cut form of every registered system has a sentence of its own.

For each command and event class whose visibility can cut it, an instance is built from its
field types (``tests/test_words.py``'s samples; a conditional cut, ``when=``, gets the value
that triggers it) with a marker in every field, then cut for a seat that does not own it and
for a spectator. The sentence must exist, show no ``(hidden)`` tag, no type tag or class
name, no ``field=``, no id-like token (``x#2``) and none of the hidden fields' values.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import attrs
import msgspec
import pytest
from test_words import positions, sample

from nataterra_core.kernel import Command, Event
from nataterra_core.kernel.registry import RuleSystem, systems
from nataterra_core.kernel.seen import Cut, as_seen, cut_of, message_class
from nataterra_core.kernel.visibility import PUBLIC, hide_from_others, visibility_of
from nataterra_core.kernel.wording import worded

SECRET = "zq7secret"
"""Put in every string field of a sampled message: a sentence showing it shows a field."""


def _ids() -> list[str]:
    return [record.id for record in systems()]


def _system(rules_id: str) -> RuleSystem:
    return next(record for record in systems() if record.id == rules_id)


def _marked(kind: Any, name: str) -> Any:
    """A sample of ``kind`` whose strings are ``SECRET`` plus the field's name."""
    value = sample(kind)
    marker = f"{SECRET}{name}"
    if isinstance(value, str):
        return marker
    if isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
        return (marker,) * len(value)
    return value


def _instance(cls: type[Command | Event]) -> Command | Event:
    """One instance of ``cls``, every field sampled and marked; a conditional cut's field
    set to a value that triggers it."""
    fields = {f.name: _marked(f.type, f.name) for f in msgspec.structs.fields(cls)}
    visibility = visibility_of(cls)
    when = getattr(visibility, "when", None)
    if when is not None:
        fields[when[0]] = sorted(when[1])[0]
    owner = getattr(visibility, "owner", "seat")
    if owner in fields:
        fields[owner] = "owner"
    return cls(**fields)


def _cut_classes(record: RuleSystem) -> list[type[Command | Event]]:
    decider = record.decider(None)
    return [
        cls
        for cls in (*decider.command_types, *decider.event_types)
        if visibility_of(cls) is not PUBLIC
    ]


def check_cut_sentence(text: str, cut: Cut[Any]) -> None:
    """A cut form's sentence: words, not a type tag or a field, and no hidden value."""
    name = cut.of.__name__
    assert text.strip(), f"{name}: empty sentence"
    assert "(hidden)" not in text, f"{name}: {text!r}"
    assert cut.tag not in text and not re.search(r"\b\w+\.v\d+\b", text), f"{name}: {text!r}"
    assert not re.search(r"\w#\d", text), f"{name}: an id-like token in {text!r}"
    assert text.strip() != name and not re.search(r"\b\w+=", text), f"{name}: {text!r}"
    assert SECRET not in text or all(f"{SECRET}{f}" not in text for f in cut.hidden), (
        f"{name} shows a hidden field: {text!r}"
    )


@pytest.mark.parametrize("rules_id", _ids())
def test_every_cut_form_has_a_sentence(rules_id: str) -> None:
    record = _system(rules_id)
    presenter = record.presenter
    mid_game = [before for before, *_ in positions(record, 1)][-1]
    worded_cuts = 0
    for cls in _cut_classes(record):
        message = _instance(cls)
        for reader in ("another", None):
            seen = as_seen(message, reader, "owner")
            assert isinstance(seen, Cut), f"{cls.__name__} is not cut for {reader}"
            assert seen.of is cls and message_class(seen) is cls
            assert "type" not in seen.seen and "redacted" not in seen.seen
            for view in (None, record.seat_view(mid_game, None)):
                if isinstance(message, Command):
                    for actor in ("owner", None):
                        check_cut_sentence(presenter.command(seen, actor, view), seen)
                else:
                    check_cut_sentence(presenter.event(seen, view), seen)
            worded_cuts += 1
        # Its owner, and everyone once the seed is revealed, is handed the message whole
        # (a hidden order is hidden from its owner too).
        assert as_seen(message, "another", "owner", revealed=True) is message
    assert worded_cuts == 2 * len(_cut_classes(record))


@pytest.mark.parametrize("rules_id", _ids())
def test_real_games_are_worded_from_what_each_reader_sees(rules_id: str) -> None:
    """Each record of a random game, worded for every seat and a spectator: no ``(hidden)``
    tag, and a seat's words differ from the spectator's only where a message is cut for
    the spectator and not for the seat."""
    record = _system(rules_id)
    seats = record.default_seats[min(record.default_seats)]
    cuts = 0
    for before, command, seat, decider, events in positions(record, 2):
        messages = (command, *events)
        spectator = _words(record, command, seat, events, before, decider, None)
        for reader in seats:
            said = _words(record, command, seat, events, before, decider, reader)
            assert not any("(hidden)" in s for s in said), said
            for message, mine, theirs in zip(messages, said, spectator, strict=True):
                whole = as_seen(message, reader, seat) is message
                if whole and as_seen(message, None, seat) is message:
                    assert mine == theirs  # a message both see whole reads the same
                cuts += not whole
    if _cut_classes(record):
        assert cuts > 0, "a random game of a system with secrets cut nothing"


def _words(
    record: RuleSystem,
    command: Any,
    seat: str,
    events: Any,
    before: Any,
    decider: Any,
    reader: str | None,
) -> list[str]:
    summary, sentences = worded(
        record, command, seat, events, before, decider, reader=reader, revealed=False
    )
    return [summary, *sentences]


def test_a_cut_form_names_the_record_and_field_it_lacks() -> None:
    """Reaching for a hidden field is a clear error naming the record and the field, never
    its value."""

    class Drawn(Event, frozen=True, tag="test_drawn.v1"):
        visibility = hide_from_others("card")
        seat: str
        card: str

    seen = as_seen(Drawn(seat="ann", card="ace_of_spades"), "bob", None)
    assert cut_of(seen, Drawn) and seen.seat == "ann" and seen.hidden == ("card",)
    with pytest.raises(AttributeError, match=r"test_drawn\.v1: field 'card' is hidden") as e:
        _ = seen.card
    assert "ace_of_spades" not in str(e.value)
    assert as_seen(Drawn(seat="ann", card="ace"), "ann", None) == Drawn(seat="ann", card="ace")


@pytest.mark.parametrize("rules_id", _ids())
def test_a_readers_words_are_made_from_that_readers_view(rules_id: str) -> None:
    """Issue 30 item 2: a seat's sentences are worded against that seat's view, a
    spectator's against a spectator's, never another reader's."""
    record = _system(rules_id)
    handed: list[Any] = []

    class Recording:
        """The system's presenter, noting every view it is handed."""

        def __getattr__(self, name: str) -> Any:
            return getattr(record.presenter, name)

        def command(self, command: Any, seat: str | None = None, view: Any = None) -> str:
            handed.append(view)
            return str(record.presenter.command(command, seat, view.view))

        def event(self, event: Any, view: Any = None) -> str:
            handed.append(view)
            return str(record.presenter.event(event, view.view))

    @attrs.frozen
    class Tagged:
        reader: str | None
        view: Any

    recording = attrs.evolve(
        record,
        presenter=Recording(),
        seat_view=lambda state, seat: Tagged(seat, record.seat_view(state, seat)),
    )
    seats = record.default_seats[min(record.default_seats)]
    for before, command, seat, decider, events in itertools.islice(positions(record, 3), 20):
        for reader in (*seats, None):
            handed.clear()
            worded(recording, command, seat, events, before, decider, reader=reader, revealed=False)
            assert handed and {tagged.reader for tagged in handed} == {reader}
