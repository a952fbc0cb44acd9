"""The rule-system registry: records, lookup by id and by header, and the checks every
front end relies on."""

from __future__ import annotations

import subprocess
import sys

import attrs
import msgspec
import pytest
from dicegame import PIG_SYSTEM

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.nataterra.bots import RandomPlayer
from nataterra_core.kernel import UnsupportedVersion, play
from nataterra_core.kernel.decider import RulesRef
from nataterra_core.kernel.registry import (
    OptionsError,
    RuleSystem,
    register,
    register_lazily,
    system,
    system_for,
    systems,
)


def test_the_shipped_systems_and_the_test_game_are_registered() -> None:
    ids = [record.id for record in systems()]
    assert ids == sorted(ids)
    assert {"nataterra", "nataterra-combat-sandbox", "pig"} <= set(ids)
    assert system("nataterra").player_counts == (2, 3, 4)


def test_every_system_offers_the_random_player() -> None:
    for record in systems():
        assert "random" in record.players
    assert "heuristic" in system("nataterra").players


def test_an_unknown_id_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="nataterra"):
        system("chess")


def test_registering_a_second_system_under_a_taken_id_is_refused() -> None:
    other = attrs.evolve(PIG_SYSTEM, title="another pig")
    with pytest.raises(ValueError, match="already registered"):
        register(other)
    register(PIG_SYSTEM)  # the same record again is harmless


def test_a_system_registered_lazily_is_imported_on_its_first_lookup() -> None:
    # A fresh interpreter: looking up one shipped system imports no other system's modules.
    probe = (
        "import sys\n"
        "from nataterra_core.kernel.registry import system, system_ids\n"
        "assert 'kaladan' in system_ids()\n"
        "assert system('battlelore').id == 'battlelore'\n"
        "games = {m.split('.')[2] for m in sys.modules if m.startswith('nataterra_core.games.')}\n"
        "print(sorted(games))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["['battlelore']"]


def test_a_lazy_registration_names_its_record_and_cannot_take_an_id() -> None:
    with pytest.raises(ValueError, match=r"package\.module:NAME"):
        register_lazily("toy", "dicegame.PIG_SYSTEM")
    with pytest.raises(ValueError, match="already registered"):
        register_lazily("nataterra", "nataterra_core.games.nataterra.system:NATATERRA")


def test_system_for_refuses_an_unknown_system_or_version() -> None:
    session = new_game(seed=1)
    header = session.header
    assert system_for(header).id == "nataterra"
    for rules in (RulesRef(id="go", version=1), RulesRef(id="nataterra", version=999)):
        with pytest.raises(UnsupportedVersion):
            system_for(msgspec.structs.replace(header, rules=rules))


@pytest.mark.parametrize(
    ("seats", "options", "match"),
    [
        (5, {}, "2 to 4 players"),
        (("velathi", "velathi"), {}, "distinct"),
        (2, {"max_turns": "ten"}, "Expected `int`"),
        (2, {"unheard_of": True}, "unknown options"),
        (2, {"max_turns": -3}, "N-WIN-6"),
    ],
)
def test_creation_checks_seats_and_options_through_the_record(
    seats: object, options: dict[str, object], match: str
) -> None:
    with pytest.raises(OptionsError, match=match):
        new_game(seats, seed=1, options=options)  # type: ignore[arg-type]


def test_a_sandbox_battle_is_a_game_like_any_other() -> None:
    session = new_game(game="nataterra-combat-sandbox", seed=3)  # the standard battle
    record = system("nataterra-combat-sandbox")
    bots = {seat: RandomPlayer(i) for i, seat in enumerate(session.header.seats)}
    play(session, bots, record.seat_view)
    assert session.outcome() is not None
    session.close()
    verdict = verify_log(session.log_bytes())
    assert verdict and verdict.result == session.outcome()
    text = record.presenter.view(record.seat_view(session.state, None))
    assert text.startswith("battle: velathi attacks beasts")


def test_the_records_are_frozen() -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        system("nataterra").title = "changed"  # type: ignore[misc]
    assert isinstance(system("nataterra"), RuleSystem)


def test_a_game_in_its_own_distribution_registers_through_its_entry_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ``nataterra.games`` group is read at the first lookup; an entry point naming a taken
    id is skipped with a warning, and the library's game keeps its record."""
    import importlib.metadata

    from nataterra_core.kernel import registry

    points = importlib.metadata.EntryPoints(
        (
            importlib.metadata.EntryPoint("plugin-game", "plugin.system:RECORD", "nataterra.games"),
            importlib.metadata.EntryPoint("liars-dice", "plugin.system:OTHER", "nataterra.games"),
        )
    )
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "_LAZY", dict(registry._LAZY))
    monkeypatch.setattr(registry, "_SYSTEMS", dict(registry._SYSTEMS))
    monkeypatch.setattr(
        importlib.metadata,
        "entry_points",
        lambda group: points if group == "nataterra.games" else (),
    )
    with pytest.warns(UserWarning, match="liars-dice"):
        ids = registry.system_ids()
    assert "plugin-game" in ids
    assert registry._LAZY["plugin-game"] == "plugin.system:RECORD"
    assert registry.system("liars-dice").rules.id == "liars-dice"


def test_threads_looking_up_a_lazy_system_at_once_all_find_it() -> None:
    # A server looks systems up from its event loop, store and bot threads at once; the
    # first lookups of a lazily registered game used to race its import ("no rule system
    # 'liars-dice' (known: …, liars-dice, …)", or a KeyError from the second thread to
    # finish the import). A fresh interpreter, so every system is still lazy.
    probe = (
        "import threading\n"
        "from nataterra_core.kernel.registry import system, system_ids\n"
        "ids = [i for i in system_ids() if i != 'pig']\n"
        "start = threading.Barrier(8)\n"
        "found, failed = [], []\n"
        "def look():\n"
        "    start.wait()\n"
        "    try:\n"
        "        found.append(tuple(system(i).id for i in ids))\n"
        "    except Exception as exc:\n"
        "        failed.append(repr(exc))\n"
        "threads = [threading.Thread(target=look) for _ in range(8)]\n"
        "for t in threads: t.start()\n"
        "for t in threads: t.join()\n"
        "print(len(found), len(set(found)), failed)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "8 1 []"
