"""BattleLore golden logs (one per scenario) replayed byte for byte, and perft pins."""

from __future__ import annotations

import pytest
from make_battlelore_goldens import SCENARIOS, golden_log, golden_path

from nataterra_core.game import decider_for, verify_log
from nataterra_core.kernel import DiceStream, read_log, replay_states

# Legal-command counts at fixed records of the golden games (depth 1 and 2 of the tree).
PERFT_AT: dict[tuple[str, int], tuple[int, int]] = {
    ("agincourt", 3): (5, 30),
    ("agincourt", 50): (4, 16),
    ("agincourt", 90): (4, 8),
    ("hired-swords", 3): (8, 55),
    ("hired-swords", 20): (5, 12),
    ("war-council", 20): (8, 51),
    ("war-council", 50): (5, 30),
}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_golden_battlelore_game_is_reproduced_and_verifies(scenario: str) -> None:
    data = golden_path(scenario).read_bytes()
    assert golden_log(scenario) == data
    verdict = verify_log(data)
    assert verdict.valid, verdict
    assert verdict.result is not None and verdict.result.winners


def perft(scenario: str, seq: int, depth: int) -> int:
    """Leaves of the legal-command tree ``depth`` deep after record ``seq``."""
    log = read_log(golden_path(scenario).read_bytes(), decider_for)
    decider = log.decider
    state = next(s for q, s in replay_states(decider, log.header, log.records) if q == seq)
    reveal = next(r for r in log.records if type(r).__name__ == "RevealRecord")
    server_seed = bytes.fromhex(reveal.server_seed)  # type: ignore[attr-defined]

    def count(state: object, depth: int) -> int:
        decision = decider.decision(state)
        if depth == 0 or not decision.acting:
            return 1
        total = 0
        seat = decision.acting[0]
        for command in decision.legal(seat):
            dice = DiceStream(server_seed, log.header.game_id, "", decider.dice_counter(state))
            decided = decider.decide(state, command, dice, seat=seat)
            total += count(decided.state, depth - 1)  # type: ignore[union-attr]
        return total

    return count(state, depth)


@pytest.mark.parametrize("key", sorted(PERFT_AT))
def test_perft_at_golden_battlelore_positions(key: tuple[str, int]) -> None:
    scenario, seq = key
    assert (perft(scenario, seq, 1), perft(scenario, seq, 2)) == PERFT_AT[key]
