"""The author's contract in the open (issue 28 item 3): one ``Decider`` protocol whose
optional members are declared, with defaults in ``DeciderDefaults`` (the kernel looks no
member up by name), and ``tournament`` as a kernel option every system has without
declaring it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import new_session
from dicegame import Pig

from nataterra_core.game import new_game
from nataterra_core.kernel import (
    KERNEL_OPTIONS,
    TOURNAMENT,
    DeciderDefaults,
    NotYourTurn,
    UndoRefused,
    rules_options,
)
from nataterra_core.kernel.registry import OptionsError, RuleSystem, systems

KERNEL = Path(__file__).resolve().parents[2] / "nataterra_core" / "kernel"

# Every ``getattr``/``hasattr`` in the kernel, by module and the source of its first argument:
# none asks a decider, a record or a presenter whether it has a member.
ALLOWED_LOOKUPS = {
    ("registry.py", "importlib.import_module(module)"),  # a lazily registered record
    ("registry.py", "importlib.import_module(where)"),  # a deprecated alias's new home
    ("encoding.py", "command"),  # a command's fields, by the codec's field names
    ("secrets.py", "value"),  # a state's fields, by their declared names
    ("secrets.py", "struct"),  # the sibling field an ``owned`` secret names
    ("seen.py", "message"),  # a command's or event's fields, by their declared names
}


def test_the_kernel_discovers_no_member_by_name() -> None:
    found = set()
    for path in sorted(KERNEL.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
            ):
                found.add((path.name, ast.unparse(node.args[0])))
    assert found == ALLOWED_LOOKUPS


def test_a_decider_without_extras_has_the_defaults() -> None:
    """Pig declares no turn rule, folds or option redaction: DeciderDefaults gives them."""
    pig = Pig()
    assert isinstance(pig, DeciderDefaults)
    assert pig.turn_rule is None and dict(pig.folds) == {}
    assert pig.redact_options({"target": 20}, "ann") == {"target": 20}
    session = new_session(3)
    idle = next(s for s in session.header.seats if s not in session.acting_seats())
    with pytest.raises(NotYourTurn) as raised:
        session.apply(idle, session.legal_commands(session.acting_seats()[0])[0])
    assert raised.value.rule_id is None


def test_each_shipped_decider_names_its_turn_rule() -> None:
    for record in systems():
        if record.id.startswith("pig"):
            continue
        rule = record.decider(None).turn_rule
        assert rule is not None and rule.split("-")[0] in "NKBL", record.id


def _start(record: RuleSystem, **options: object) -> object:
    seats = record.default_seats[min(record.default_seats)]
    return new_game(seats, game=record.id, seed=4, options={**record.default_options, **options})


@pytest.mark.parametrize("record", systems(), ids=lambda r: r.id)
def test_tournament_is_a_kernel_option_every_system_has_without_declaring_it(
    record: RuleSystem,
) -> None:
    assert TOURNAMENT in KERNEL_OPTIONS
    assert TOURNAMENT not in record.options.__struct_fields__, "the kernel's, not the system's"
    session = _start(record, tournament=True)
    assert session.header.options[TOURNAMENT] is True  # logged, so a verifier sees it
    assert TOURNAMENT not in session.setup.options  # the rules never see it
    assert session.setup.options == rules_options(session.header.options)
    seat = session.acting_seats()[0]
    session.apply(seat, session.legal_commands(seat)[0])
    assert not session.can_undo(seat)
    with pytest.raises(UndoRefused, match="tournament"):
        session.undo(seat)
    casual = _start(record)
    assert casual.setup == session.setup


@pytest.mark.parametrize("record", systems(), ids=lambda r: r.id)
def test_a_tournament_option_that_is_not_a_boolean_is_refused(record: RuleSystem) -> None:
    with pytest.raises(OptionsError, match="'tournament' must be a bool"):
        _start(record, tournament="yes")
