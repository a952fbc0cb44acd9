"""The heuristic player: it finishes learning games well inside the turn limit, only ever
picks legal commands, and is deterministic for its seeds."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from nataterra_core.game import GameSession, new_game, verify_log
from nataterra_core.games.nataterra.bots import HeuristicPlayer, RandomPlayer, play
from nataterra_core.games.nataterra.views import SeatView
from nataterra_core.kernel import Command

MAX_TURNS = 200
SEEDS = range(20)


class LegalOnly:
    """Wraps a player and checks that every choice is one of the offered commands."""

    def __init__(self, player: HeuristicPlayer) -> None:
        self.player = player
        self.choices = 0

    def choose(self, view: object, legal_commands: Sequence[Command]) -> Command:
        assert isinstance(view, SeatView)  # never the state
        choice = self.player.choose(view, legal_commands)
        assert any(choice is c for c in legal_commands), choice
        self.choices += 1
        return choice


def heuristic_game(seed: int, players: int = 2, mode: str = "learning") -> GameSession:
    session = new_game(players, seed=seed, options={"max_turns": MAX_TURNS, "mode": mode})
    bots = {
        seat: LegalOnly(HeuristicPlayer(seed * 16 + i))
        for i, seat in enumerate(session.header.seats)
    }
    play(session, bots)
    session.close()
    return session


def test_heuristic_learning_games_end_in_real_results() -> None:
    """N-WIN-1/N-WIN-2 decide at least 15 of 20 games, median at most 60 turns; every log
    verifies against its claimed result."""
    reasons: list[str] = []
    turns: list[int] = []
    for seed in SEEDS:
        session = heuristic_game(seed)
        outcome = session.outcome()
        assert outcome is not None
        reasons.append(outcome.reason)
        turns.append(session.state.turn)
        verdict = verify_log(session.log_bytes())
        assert verdict.valid, (seed, verdict)
        assert verdict.result == outcome
    decided = sum(reason != "turn_limit" for reason in reasons)
    assert decided >= 15, reasons
    assert statistics.median(turns) <= 60, turns


def test_N_TAC_1_heuristic_bots_play_tactic_cards_and_their_games_verify() -> None:
    """Over 6 games the bots play options in the phases (N-TURN-2) and in combats, and
    every log, cards included, verifies."""
    outside = in_combat = 0
    for seed in range(6):
        log = heuristic_game(seed).log_bytes()
        outside += log.count(b'"type":"tactic_option_played.v1"')
        in_combat += log.count(b'"type":"tactic_played.v1"')
        assert verify_log(log).valid
    assert outside >= 6 and in_combat >= 3, (outside, in_combat)


def test_N_SETUP_8_N_WIN_3_heuristic_advanced_games_end_in_real_results() -> None:
    """Advanced mode, 10 seeds: at most 2 turn-limit draws; every log verifies."""
    reasons: list[str] = []
    for seed in range(10):
        session = heuristic_game(seed, mode="advanced")
        outcome = session.outcome()
        assert outcome is not None
        reasons.append(outcome.reason)
        verdict = verify_log(session.log_bytes())
        assert verdict.valid, (seed, verdict)
        assert verdict.result == outcome
    assert sum(reason == "turn_limit" for reason in reasons) <= 2, reasons


def test_heuristic_player_is_deterministic() -> None:
    for seed in (3, 11):
        assert heuristic_game(seed).log_bytes() == heuristic_game(seed).log_bytes()


def test_N_WIN_1_four_player_free_for_all_games_end_and_verify() -> None:
    """4 players, every one for themselves, 10 seeds: at most 2 turn-limit draws."""
    reasons = []
    for seed in range(10):
        session = heuristic_game(seed, 4)
        outcome = session.outcome()
        assert outcome is not None
        reasons.append(outcome.reason)
        assert verify_log(session.log_bytes()).valid
    assert sum(r == "turn_limit" for r in reasons) <= 2, reasons


def test_heuristic_player_handles_three_and_four_players() -> None:
    for players in (3, 4):
        session = heuristic_game(5, players)
        outcome = session.outcome()
        assert outcome is not None and outcome.reason != "turn_limit"
        assert verify_log(session.log_bytes()).valid


def test_heuristic_player_beats_the_random_player() -> None:
    wins = 0
    for seed in range(10):
        session = new_game(2, seed=seed, options={"max_turns": MAX_TURNS})
        seats = session.header.seats
        smart = seats[seed % 2]
        bots = {
            seat: HeuristicPlayer(seed) if seat == smart else RandomPlayer(seed) for seat in seats
        }
        play(session, bots)
        outcome = session.outcome()
        assert outcome is not None
        wins += smart in outcome.winners
    assert wins >= 8
