"""Who may see each command and event: every class declares it, and undeclared ones fail closed.

The kernel cuts a log for a seat by the visibility each class declares (docs/LOG_FORMAT.md); a
class that declares nothing shows only its type, so a forgotten declaration hides too much
rather than leaking. The RPC hidden-information tests (tests/rpc) check the Nataterra views.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import pytest
from dicegame import Pig

from nataterra_core.games.nataterra.decider import Nataterra
from nataterra_core.games.nataterra.rules.combat.sandbox import Sandbox
from nataterra_core.kernel import (
    HIDDEN,
    PUBLIC,
    Command,
    Event,
    MessageTypes,
    Session,
    hidden_order,
    hide_from_others,
    log_view,
    record_view,
    visibility_of,
)
from nataterra_core.kernel.registry import systems

encode = msgspec.json.encode

DECIDERS: dict[str, MessageTypes] = {
    "nataterra": Nataterra,
    "nataterra-combat-sandbox": Sandbox,
    "pig": Pig,
}
# The classes themselves list their messages; every registered system's decider is checked
# too, so a game added later is covered without being named here.
for _system in systems():
    DECIDERS.setdefault(_system.id, _system.decider(None))


@pytest.mark.parametrize("name", sorted(DECIDERS))
def test_every_command_and_event_class_declares_its_visibility(name: str) -> None:
    decider = DECIDERS[name]
    types = (*decider.command_types, *decider.event_types)
    assert decider.command_types and decider.event_types
    undeclared = sorted(cls.__name__ for cls in types if cls.visibility is None)
    assert not undeclared, f"declare `visibility = ...` on these {name} classes: {undeclared}"


class Plan(Command, frozen=True, tag="plan.v1"):
    """Declares nothing, so it is hidden."""

    target: str


class Drawn(Event, frozen=True, tag="drawn.v1"):
    """Shows ``card`` to ``seat`` only."""

    visibility = hide_from_others("card")

    seat: str
    card: str


class Shuffled(Event, frozen=True, tag="shuffled.v1"):
    """A deck's order, hidden from everyone."""

    visibility = hidden_order("before", "after", size_of="after")

    before: tuple[str, ...]
    after: tuple[str, ...]


class Moved(Event, frozen=True, tag="moved.v1"):
    """Seen by everyone."""

    visibility = PUBLIC

    to: str


class Messages:
    """A rule system's classes, as the log views read them."""

    command_types: Sequence[type[Command]] = (Plan,)
    event_types: Sequence[type[Event]] = (Drawn, Shuffled, Moved)

    def redact_options(self, options: Mapping[str, Any], seat: str | None) -> dict[str, Any]:
        return dict(options)


TYPES: MessageTypes = Messages()


def line(command: Any, *events: Any, seat: str = "ann") -> bytes:
    record = {"kind": "command", "seq": 5, "prev": "0" * 64, "seat": seat, "command": command}
    return encode({**record, "events": list(events)})


def test_an_undeclared_class_shows_only_its_type() -> None:
    assert Plan.visibility is None and visibility_of(Plan) is HIDDEN
    plan = {"type": "plan.v1", "target": "x"}
    moved = {"type": "moved.v1", "to": "z"}
    for seat in ("ann", "bob", None):
        view = record_view(line(plan, moved), seat, TYPES)
        assert view["command"] == {"type": "plan.v1", "redacted": True}
        assert view["events"] == [moved]
        assert "prev" not in view and view["seat"] == "ann"


def test_a_type_the_rule_system_does_not_list_is_hidden() -> None:
    only_plan = Messages()
    only_plan.event_types = ()
    view = record_view(line({"type": "moved.v1", "to": "z"}), "ann", only_plan)
    assert view["command"] == {"type": "moved.v1", "redacted": True}
    stray = record_view(line({"type": "mystery.v1", "card": "c"}), "ann", TYPES)
    assert stray["command"] == {"type": "mystery.v1", "redacted": True}


def test_hide_from_others_shows_the_fields_to_their_owner_only() -> None:
    drawn = {"type": "drawn.v1", "seat": "ann", "card": "swarm"}
    cut = {"type": "drawn.v1", "seat": "ann", "redacted": ["card"]}
    assert record_view(line(drawn), "ann", TYPES)["command"] == drawn
    assert record_view(line(drawn), "bob", TYPES)["command"] == cut
    assert record_view(line(drawn), None, TYPES)["command"] == cut
    by_owner = hide_from_others("card", owner="holder")
    held = {"type": "drawn.v1", "holder": "bob", "seat": "ann", "card": "swarm"}
    assert by_owner.redact(held, "bob", "ann") == held
    assert by_owner.redact(held, "ann", "ann")["redacted"] == ["card"]


def test_hide_from_others_when_cuts_only_the_values_that_name_a_secret() -> None:
    rule = hide_from_others("card", when=("kind", ("draw",)))
    drawn = {"type": "bonus.v1", "seat": "ann", "kind": "draw", "card": "swarm"}
    unlocked = {"type": "bonus.v1", "seat": "ann", "kind": "unlock", "card": "tower"}
    assert rule.redact(drawn, "ann", "ann") == drawn
    assert rule.redact(drawn, "bob", "ann") == {**without(drawn, "card"), "redacted": ["card"]}
    assert rule.redact(drawn, None, "ann")["redacted"] == ["card"]
    assert rule.redact(unlocked, "bob", "ann") == unlocked


def test_n_dev_4_a_tech_card_drawn_by_a_bonus_is_seen_by_its_drawer_only() -> None:
    """Nataterra's tech hands are private (seat views show only their size), so a bonus that
    draws a tech card names the card to its drawer alone; an unlocked structure is public."""
    from nataterra_core.games.nataterra.messages.development import BonusResolved

    drawn = msgspec.to_builtins(
        BonusResolved(seat="velathi", tech="t", kind="draw_tech", card="tech-7")
    )
    unlocked = msgspec.to_builtins(
        BonusResolved(seat="velathi", tech="t", kind="unlock_structure", card="tower")
    )
    visibility = BonusResolved.visibility
    assert visibility.redact(drawn, "velathi", "velathi")["card"] == "tech-7"
    for other in ("beasts", None):
        assert "card" not in visibility.redact(drawn, other, "velathi")
        assert visibility.redact(unlocked, other, "velathi")["card"] == "tower"


def without(value: dict[str, Any], *fields: str) -> dict[str, Any]:
    return {k: v for k, v in value.items() if k not in fields}


def test_hidden_order_hides_both_orders_from_everyone_and_keeps_the_size() -> None:
    shuffled = {"type": "shuffled.v1", "before": ["a", "b", "c"], "after": ["c", "a", "b"]}
    for seat in ("ann", "bob", None):
        view = record_view(line(shuffled, shuffled), seat, TYPES)
        cut = {"type": "shuffled.v1", "redacted": ["after", "before"], "size": 3}
        assert view["command"] == cut and view["events"] == [cut]


def test_log_view_cuts_every_record_until_the_reveal_then_gives_the_log_whole() -> None:
    session = Session.new(Pig(), seats=("ann", "bob"), server_seed=bytes(32), game_id="pig-3")
    rng = random.Random(3)
    for _ in range(20):
        seat = session.acting_seats()[0]
        session.apply(seat, rng.choice(session.legal_commands(seat)))
    types = session.decider
    hidden = log_view(session.lines, "ann", types)
    assert not hidden.revealed and hidden.head is None and hidden.text is None
    assert hidden.records == [record_view(x, "ann", types) for x in session.lines]
    assert all("prev" not in record for record in hidden.records)
    session.close()
    whole = log_view(session.lines, None, types)
    assert whole.revealed and whole.text is not None
    assert whole.text.encode() == session.log_bytes()
    assert whole.records == [msgspec.json.decode(x) for x in session.lines]
    # Revealed, even a type declared hidden is shown whole.
    nothing = Messages()
    nothing.command_types = nothing.event_types = ()
    assert log_view(session.lines, None, nothing).records == whole.records


def test_a_cut_marker_says_no_more_than_the_declaration() -> None:
    """``redacted`` names every declared cut field, whether or not the value has it: a field
    left out as a default would otherwise tell a seat something about what was cut (a bonus
    that found no tech card to draw, issue 30 item 4)."""
    rule = hide_from_others("card", when=("kind", ("draw",)))
    found = {"type": "bonus.v1", "seat": "ann", "kind": "draw", "card": "swarm"}
    none_found = without(found, "card")
    assert rule.redact(found, "bob", "ann") == rule.redact(none_found, "bob", "ann")
    order = hidden_order("before", "after", size_of="after")
    assert order.redact({"after": ["a"]}, None, None) == {
        "redacted": ["after", "before"],
        "size": 1,
    }


def _placeholder(info: Any) -> Any:
    if info.default is not msgspec.NODEFAULT:
        return msgspec.to_builtins(info.default)
    if info.default_factory is not msgspec.NODEFAULT:
        return msgspec.to_builtins(info.default_factory())
    return "x"


@pytest.mark.parametrize("name", sorted(DECIDERS))
def test_no_cut_form_depends_on_whether_a_cut_field_was_left_out(name: str) -> None:
    """For every class of every registered system: a value whose cut field holds its default
    (left out of the line) and one whose field holds something else are cut to forms that
    differ in nothing but the public fields, for a seat that is not the owner and a spectator."""
    decider = DECIDERS[name]
    for cls in (*decider.command_types, *decider.event_types):
        visibility = visibility_of(cls)
        cut_fields = getattr(visibility, "fields", ())
        info = {f.name: f for f in msgspec.structs.fields(cls)}
        value = {"type": cls.__struct_config__.tag, **{n: _placeholder(f) for n, f in info.items()}}
        when = getattr(visibility, "when", None)
        if when is not None:
            value[when[0]] = sorted(when[1])[0]
        value[getattr(visibility, "owner", "seat")] = "owner"
        for field in cut_fields:
            if info[field].default is msgspec.NODEFAULT and info[field].default_factory is (
                msgspec.NODEFAULT
            ):
                continue  # always in the line
            left_out = {k: v for k, v in value.items() if k != field}
            held = {**value, field: "secret"}
            for viewer in ("someone-else", None):
                assert visibility.redact(left_out, viewer, "owner") == visibility.redact(
                    held, viewer, "owner"
                ), f"{name} {cls.__name__}: the cut form says whether {field} was left out"
