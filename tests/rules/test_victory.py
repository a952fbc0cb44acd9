"""Learning-mode victory (rules §10): Battlefield Dominance and base destruction."""

from __future__ import annotations

import msgspec
import pytest
from positions import Table, grid_map, position

from nataterra_core.game import new_game
from nataterra_core.games.nataterra.messages.combat import (
    CombatEnded,
    DeployGroup,
    Retreat,
    StartCombat,
)
from nataterra_core.games.nataterra.messages.turns import EndPhase, GameEnded
from nataterra_core.games.nataterra.messages.victory import BaseDestroyed, CubeScored


def table(units: list[tuple[str, str, str, int]], *, cubes: int = 0, target: int = 4) -> Table:
    ctx, state = position(grid_map(["V . . . . E", ". . . . . ."]), units, phase="combat")
    state = msgspec.structs.replace(state, cubes={"velathi": cubes}, dominance_cubes=target)
    return Table(ctx, state, seed_number=5)


STRONG = [("velathi", "zealot", "z30", 3), ("velathi", "disciple", "z30", 3)]


def test_N_WIN_2_winning_a_combat_scores_a_cube() -> None:
    t = table([*STRONG, ("beasts", "woodcutter", "z30", 1)])
    t.play(StartCombat(zone="z30", defender="beasts"))
    t.fight_out()
    ended = [e for e in t.events if isinstance(e, CombatEnded)]
    assert ended[-1].winner == "velathi"
    scored = [e for e in t.events if isinstance(e, CubeScored)]
    assert [(e.seat, e.cubes) for e in scored] == [("velathi", 1)]
    assert t.state.phase == "combat"  # not yet won


def test_N_WIN_2_N_WIN_4_the_fourth_cube_ends_the_game_at_once() -> None:
    t = table([*STRONG, ("beasts", "woodcutter", "z30", 1)], cubes=3)
    t.play(StartCombat(zone="z30", defender="beasts"))
    t.fight_out()
    assert isinstance(t.events[-1], GameEnded)
    assert t.events[-1].winners == ("velathi",) and t.events[-1].reason == "battlefield_dominance"
    outcome = t.decider.outcome(t.state)
    assert outcome is not None and outcome.scores == {"velathi": 4, "beasts": 0}


def test_N_WIN_2_the_cube_target_is_configurable() -> None:
    t = table([*STRONG, ("beasts", "woodcutter", "z30", 1)], cubes=3, target=7)
    t.play(StartCombat(zone="z30", defender="beasts"))
    t.fight_out()
    assert t.state.phase != "over" and t.state.cubes["velathi"] == 4
    with pytest.raises(ValueError, match="N-WIN-2"):
        new_game(2, seed=1, options={"dominance_cubes": 0})


def test_N_WIN_2_a_retreat_scores_for_the_side_that_stayed() -> None:
    t = table([*STRONG, ("beasts", "orc", "z30", 3)])
    t.play(StartCombat(zone="z30", defender="beasts"))
    while t.state.combat is not None:
        seat = t.decider.acting_seats(t.state)[0]
        options = t.decider.legal_commands(t.state, seat)
        if Retreat(retreat=True) in options and seat == "beasts":
            t.play(Retreat(retreat=True), seat)
        elif isinstance(options[0], DeployGroup):
            t.play(max(options, key=lambda c: c.size), seat)  # type: ignore[attr-defined]
        else:
            t.play(options[-1], seat)
    assert [(e.seat, e.cubes) for e in t.events if isinstance(e, CubeScored)] == [("velathi", 1)]


def test_N_WIN_1_standing_in_the_enemy_base_at_the_end_of_the_turn_wins() -> None:
    # z50 is the Beasts' base; Velathi stands there alone (the Beasts are elsewhere).
    t = table([("velathi", "disciple", "z50", 1), ("beasts", "orc", "z21", 1)])
    t.play(EndPhase(phase="combat"))
    assert t.state.phase == "development"  # not destroyed before the turn ends
    events = t.play(EndPhase(phase="development"))
    assert [e for e in events if isinstance(e, BaseDestroyed)] == [
        BaseDestroyed(owner="beasts", by="velathi")
    ]
    assert isinstance(events[-1], GameEnded) and events[-1].winners == ("velathi",)
    assert t.state.bases_destroyed == ("beasts",)


def test_N_WIN_1_own_base_and_empty_enemy_base_do_not_count() -> None:
    t = table([("velathi", "disciple", "z00", 1), ("beasts", "orc", "z21", 1)])
    t.play(EndPhase(phase="combat"))
    events = t.play(EndPhase(phase="development"))
    assert not any(isinstance(e, BaseDestroyed | GameEnded) for e in events)
    assert t.state.active_seat == "beasts"


def test_random_learning_games_mostly_end_in_a_real_result() -> None:
    from nataterra_core.games.nataterra.bots import RandomPlayer, play

    reasons = []
    for seed in range(6):
        session = new_game(2, seed=seed, options={"max_turns": 200})
        play(session, {s: RandomPlayer(seed * 2 + i) for i, s in enumerate(session.header.seats)})
        outcome = session.outcome()
        assert outcome is not None
        reasons.append(outcome.reason)
    assert sum(r != "turn_limit" for r in reasons) >= 4, reasons


def three_player_table(units: list[tuple[str, str, str, int]]) -> Table:
    ctx, state = position(
        grid_map(["V . E . H .", ". . . . . ."]),
        units,
        seats=("velathi", "beasts", "humans"),
        phase="development",
    )
    return Table(ctx, state, seed_number=5)


def test_N_WIN_1_with_three_players_the_owner_is_eliminated() -> None:
    # z20 is the Beasts' base, z40 the Humans'.
    t = three_player_table(
        [
            ("velathi", "disciple", "z20", 1),
            ("beasts", "orc", "z11", 2),
            ("humans", "peasant", "z40", 1),
        ]
    )
    events = t.play(EndPhase(phase="development"))
    assert [e for e in events if isinstance(e, BaseDestroyed)] == [
        BaseDestroyed(owner="beasts", by="velathi")
    ]
    assert t.state.eliminated == ("beasts",)
    assert not any(s.owner == "beasts" for s in t.state.units)  # off the map
    assert t.state.active_seat == "humans"  # the Beasts take no more turns
    assert t.state.phase == "movement"


def test_N_WIN_1_the_last_player_standing_wins() -> None:
    t = three_player_table([("velathi", "disciple", "z20", 1), ("velathi", "zealot", "z40", 1)])
    events = t.play(EndPhase(phase="development"))
    assert {e.owner for e in events if isinstance(e, BaseDestroyed)} == {"beasts", "humans"}
    assert isinstance(events[-1], GameEnded)
    assert events[-1].winners == ("velathi",) and events[-1].reason == "last_player_standing"
