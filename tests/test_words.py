"""Words for everything (issue 17 item 1): every command and event type of every registered
system reads as a sentence, never as a raw struct (``tag (field=value, ...)``).

Two walks per system:

* **every type**: one instance of each command and event class the decider declares, built
  from its field types (strings, numbers, tuples, nested structs), worded with no view and
  with a view of a position in play;
* **real play**: a seeded random game, each record worded as ``replay`` words it (the command
  against the view before it, each event against the view of the state it applies to).

A sentence fails if it contains the type's tag or ``field=`` for one of its fields, is only
the class name, or is empty. Systems registered later (Kaladan, BattleLore) are walked without a
change here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from nataterra_adapters.cli.words import worded

from nataterra_core.game import new_game
from nataterra_core.kernel import Command, Event, Outcome
from nataterra_core.kernel.registry import RuleSystem, systems
from nataterra_core.kernel.wording import reason_words

QUICK: dict[str, dict[str, Any]] = {"nataterra": {"max_turns": 6}, "pig": {"target": 20}}


def _ids() -> list[str]:
    return [record.id for record in systems()]


def _system(rules_id: str) -> RuleSystem:
    return next(record for record in systems() if record.id == rules_id)


def sample(kind: Any, depth: int = 0) -> Any:
    """A plain value of a msgspec type description: the first literal, 1, "x", one item."""
    info = kind if isinstance(kind, msgspec.inspect.Type) else msgspec.inspect.type_info(kind)
    match info:
        case msgspec.inspect.LiteralType():
            return info.values[0]
        case msgspec.inspect.BoolType():
            return True
        case msgspec.inspect.IntType():
            return 1
        case msgspec.inspect.FloatType():
            return 1.5
        case msgspec.inspect.StrType():
            return "x"
        case msgspec.inspect.NoneType():
            return None
        case msgspec.inspect.UnionType():
            chosen = [t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)]
            return sample(chosen[0], depth) if chosen else None
        case msgspec.inspect.TupleType():
            return tuple(sample(t, depth + 1) for t in info.item_types)
        case msgspec.inspect.VarTupleType() | msgspec.inspect.ListType():
            return (sample(info.item_type, depth + 1),) if depth < 3 else ()
        case msgspec.inspect.DictType():
            if depth >= 3:
                return {}
            return {sample(info.key_type, depth + 1): sample(info.value_type, depth + 1)}
        case msgspec.inspect.StructType():
            return info.cls(**{f.name: sample(f.type, depth + 1) for f in info.fields})
        case msgspec.inspect.AnyType():
            return "x"
    raise TypeError(f"no sample for {info!r}")


def instances(record: RuleSystem) -> Iterator[Command | Event]:
    decider = record.decider(None)
    for cls in (*decider.command_types, *decider.event_types):
        info = msgspec.inspect.type_info(cls)
        assert isinstance(info, msgspec.inspect.StructType)
        yield cls(**{f.name: sample(f.type) for f in info.fields})


def check_sentence(text: str, value: Command | Event) -> None:
    cls = type(value)
    tag = str(cls.__struct_config__.tag)
    assert text.strip(), f"{cls.__name__}: empty sentence"
    assert tag not in text, f"{cls.__name__} reads as a raw struct: {text!r}"
    fields = [f for f in cls.__struct_fields__ if re.search(rf"\b{f}=", text)]
    assert not fields, f"{cls.__name__} shows raw fields {fields}: {text!r}"
    assert text.strip() != cls.__name__, f"only the class name: {text!r}"


def positions(
    record: RuleSystem, seed: int
) -> Iterator[tuple[Any, Any, str, Any, tuple[Any, ...]]]:
    """(state before, command, seat, decider, events) of each command of a random game."""
    options = {**record.default_options, **QUICK.get(record.id, {})}
    seats = record.default_seats[min(record.default_seats)]
    session = new_game(seats, game=record.id, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(1500):
        if session.outcome() is not None:
            return
        seat = rng.choice(list(session.acting_seats()))
        command = rng.choice(session.legal_commands(seat))
        before = session.state
        events = tuple(session.apply(seat, command))
        yield before, command, seat, session.decider, events


@pytest.mark.parametrize("rules_id", _ids())
def test_every_command_and_event_type_has_a_sentence(rules_id: str) -> None:
    record = _system(rules_id)
    presenter = record.presenter
    # A view of a position with something going on: the sandbox's combat, a game's turn.
    mid_game = [before for before, *_ in positions(record, 1)][-1]
    views = [None, record.seat_view(mid_game, None)]
    walked = 0
    for value in instances(record):
        for view in views:
            if isinstance(value, Command):
                check_sentence(presenter.command(value, None, view), value)
                check_sentence(presenter.command(value, "someone", view), value)
            else:
                check_sentence(presenter.event(value, view), value)
        walked += 1
    decider = record.decider(None)
    assert walked == len(decider.command_types) + len(decider.event_types)
    for reason in ("target_reached", "turn_limit"):
        text = presenter.outcome(Outcome(winners=(), reason=reason))
        assert reason_words(reason) in text and "Outcome(" not in text


@pytest.mark.parametrize("seed", (1, 2))
@pytest.mark.parametrize("rules_id", _ids())
def test_real_games_read_as_sentences(rules_id: str, seed: int) -> None:
    record = _system(rules_id)
    seen: set[str] = set()
    for before, command, seat, decider, events in positions(record, seed):
        # As the acting seat and as a spectator read it (cut forms: tests/test_seen_words.py).
        for reader in (seat, None):
            summary, sentences = worded(
                record, command, seat, events, before, decider, reader=reader, revealed=False
            )
            check_sentence(summary, command)
            for event, sentence in zip(events, sentences, strict=True):
                check_sentence(sentence, event)
                seen.add(type(event).__name__)
        seen.add(type(command).__name__)
    assert len(seen) > 3


def test_an_attack_names_both_groups_with_their_units() -> None:
    """The issue's example: an attack names the attacking and the target group with their
    numbers and units (the sandbox's standard battle)."""
    record = _system("nataterra-combat-sandbox")
    for before, command, seat, decider, events in positions(record, 3):
        if type(command).__name__ == "Attack":
            summary, _ = worded(
                record, command, seat, events, before, decider, reader=None, revealed=False
            )
            assert re.fullmatch(
                r"\w+'s? group \d+ \(\d+ [\w ]+\) attacks \w+'s? group \d+ \(\d+ [\w ]+\)",
                summary,
            ), summary
            return
    pytest.fail("no attack in the standard battle")


def test_a_research_names_the_tech_its_cost_and_effect() -> None:
    from nataterra_core.games.nataterra.messages.development import Research

    presenter = _system("nataterra").presenter
    text = presenter.command(Research(tech="velathi_06", option="b"), "velathi")
    assert text == (
        "velathi researches Zealot: Stone Vow (option B: Zealot group card side B), "
        "costs 2 food, 1 wood, 2 metal; bonus: draw tech card no. 9, 3 units to the pool"
    )


def test_header_options_offered_by_a_lobby_read_as_it_offers_them() -> None:
    """A record 0's options name a value the system's lobby offers by its words there
    (``Hooks.option_choices``): a BattleLore scenario by its title, not its id."""
    from nataterra_core.kernel.registry import system
    from nataterra_core.kernel.wording import options_words

    said = options_words({"scenario": "hired-swords", "max_turns": 3}, system("battlelore"))
    assert said == "scenario Hired Swords (mercenaries and creatures), turn limit 3"
    assert options_words({"map": "two_players"}, system("kaladan")) == "map for 2 players"
    unknown = options_words({"scenario": "nowhere"}, system("battlelore"))
    assert unknown == "scenario nowhere"  # a value no lobby offers: as it is
