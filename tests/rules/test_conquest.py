"""Conquest mode (N-WIN-5): bases are conquered, can be won back in one last turn, and a
conquered player neither scores nor wins until then."""

from __future__ import annotations

import msgspec
from positions import Table, grid_map, position

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.nataterra.bots import HeuristicPlayer, play
from nataterra_core.games.nataterra.messages.development import ResourcesGathered
from nataterra_core.games.nataterra.messages.tactics import TacticCardDrawn
from nataterra_core.games.nataterra.messages.turns import (
    EndPhase,
    GameEnded,
    PlayerEliminated,
    TurnStarted,
)
from nataterra_core.games.nataterra.messages.victory import (
    BaseConquered,
    BaseDestroyed,
    BaseRetaken,
)
from nataterra_core.games.nataterra.rules.conquest import RETAKE_GAIN
from nataterra_core.games.nataterra.rules.victory import score_combat
from nataterra_core.games.nataterra.state import Resources
from nataterra_core.kernel import Event

ROWS = ["V . . . E"]  # z00 Velathi base, z40 Beasts base
STOCK = Resources(5, 4, 3)


def conquest_table(
    units: list[tuple[str, str, str, int]],
    *,
    seats: tuple[str, ...] = ("velathi", "beasts"),
    rows: list[str] = ROWS,
    active: str = "velathi",
) -> Table:
    ctx, state = position(grid_map(rows), units, seats=seats, active=active, phase="development")
    state = msgspec.structs.replace(state, conquest=True)
    for seat in seats:
        state = state.with_player(msgspec.structs.replace(state.player(seat), stock=STOCK))
    return Table(ctx, state, seed_number=29)


def end_turn(t: Table) -> list[Event]:
    """End the phases until the next turn starts; return what happened."""
    events: list[Event] = []
    while True:
        events += t.play(EndPhase(phase=t.state.phase))
        if any(isinstance(e, TurnStarted | GameEnded) for e in events):
            return events


def test_N_WIN_5_a_base_is_conquered_not_destroyed_and_its_resources_taken() -> None:
    t = conquest_table([("velathi", "disciple", "z40", 1), ("beasts", "orc", "z20", 1)])
    events = end_turn(t)
    (conquered,) = [e for e in events if isinstance(e, BaseConquered)]
    assert (conquered.owner, conquered.by, conquered.taken) == ("beasts", "velathi", STOCK)
    assert not [e for e in events if isinstance(e, BaseDestroyed | GameEnded)]
    assert t.state.conquered == {"beasts": "velathi"}
    assert t.state.player("velathi").stock == STOCK + STOCK
    assert t.state.player("beasts").stock == Resources()


def test_N_WIN_5_the_conquered_player_skips_its_resources_phase() -> None:
    t = conquest_table([("velathi", "disciple", "z40", 1), ("beasts", "woodcutter", "z20", 1)])
    end_turn(t)
    assert t.seat == "beasts"
    events = t.play(EndPhase(phase="movement"))
    assert not [e for e in events if isinstance(e, ResourcesGathered)]


def test_N_WIN_5_without_its_base_back_the_owner_loses_it() -> None:
    t = conquest_table([("velathi", "disciple", "z40", 1), ("beasts", "orc", "z10", 1)])
    end_turn(t)
    events = end_turn(t)  # Beasts' last turn, spent elsewhere
    (ended,) = [e for e in events if isinstance(e, GameEnded)]
    assert ended.winners == ("velathi",) and ended.reason == "conquest"


def test_N_WIN_5_with_three_players_the_owner_is_eliminated() -> None:
    t = conquest_table(
        [
            ("velathi", "disciple", "z40", 1),
            ("beasts", "orc", "z10", 1),
            ("humans", "spearman", "z20", 1),
        ],
        seats=("velathi", "beasts", "humans"),
        rows=["V . H . E"],
    )
    end_turn(t)
    assert t.state.conquered == {"beasts": "velathi"}
    while t.state.active_seat != "beasts":
        end_turn(t)
    events = end_turn(t)
    assert [e.seat for e in events if isinstance(e, PlayerEliminated)] == ["beasts"]
    assert "beasts" in t.state.eliminated and t.state.phase != "over"


def test_N_WIN_5_retaking_the_base_gives_the_starting_resources_and_two_cards() -> None:
    t = conquest_table([("velathi", "hunter", "z40", 1), ("beasts", "orc", "z30", 2)])
    end_turn(t)
    assert t.state.conquered == {"beasts": "velathi"}
    move = next(
        c
        for c in t.legal()
        if getattr(c, "path", ("",))[-1] == "z40" and getattr(c, "count", 0) == 2
    )
    t.play(move)
    while t.state.phase != "development":
        if t.state.combat is not None or t.legal()[0] != EndPhase(phase=t.state.phase):
            if t.state.phase == "combat" and t.state.combat is None:
                t.play(t.legal()[0])  # start the combat for the base
            t.fight_out()
            continue
        t.play(EndPhase(phase=t.state.phase))
    retaken = [e for e in t.events if isinstance(e, BaseRetaken)]
    assert [(e.owner, e.gain) for e in retaken] == [("beasts", RETAKE_GAIN)]
    drawn = [e for e in t.events if isinstance(e, TacticCardDrawn) and e.seat == "beasts"]
    assert len(drawn) == 2
    assert t.state.conquered == {}
    events = end_turn(t)
    assert not [e for e in events if isinstance(e, GameEnded)]


def test_N_WIN_5_a_conquered_player_scores_nothing() -> None:
    t = conquest_table([("velathi", "disciple", "z40", 1)])
    end_turn(t)
    assert score_combat(t.state, "beasts") == ()
    assert score_combat(t.state, "velathi")


def test_N_WIN_5_conquest_games_between_heuristic_bots_finish_and_verify() -> None:
    """4 players, 8 cubes to win (so that armies reach the bases): bases are conquered,
    some retaken; at most 2 of 10 games reach the turn limit; every log verifies."""
    reasons, conquered = [], 0
    options = {"conquest": True, "dominance_cubes": 8, "max_turns": 200}
    for seed in range(10):
        session = new_game(4, seed=seed, options=options)
        bots = {s: HeuristicPlayer(seed * 4 + i) for i, s in enumerate(session.header.seats)}
        play(session, bots)
        session.close()
        outcome = session.outcome()
        assert outcome is not None
        reasons.append(outcome.reason)
        log = session.log_bytes()
        conquered += log.count(b'"type":"base_conquered.v1"')
        assert verify_log(log).valid
    assert sum(r == "turn_limit" for r in reasons) <= 2, reasons
    assert conquered >= 5, conquered
