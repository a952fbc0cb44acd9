"""Golden logs: complete games that must replay byte for byte, and perft counts at fixed
positions of them. Regenerate with ``python tests/golden/make_goldens.py`` and review the
diff when the rules change on purpose."""

from __future__ import annotations

import pytest
from make_goldens import GOLDEN_SEEDS, golden_log, golden_path

from nataterra_core.game import decider_for, verify_log
from nataterra_core.kernel import DiceStream, read_log, replay_states

# Legal-command counts at fixed records of the golden games (depth 1 and 2 of the tree).
PERFT_AT: dict[tuple[int, int], tuple[int, int]] = {
    (11, 30): (8, 62),
    (11, 150): (2, 4),
    (12, 150): (27, 558),
    (13, 30): (13, 67),
    (13, 90): (1, 1),
    (13, 150): (2, 2),
}


@pytest.mark.parametrize("seed", GOLDEN_SEEDS)
def test_golden_game_replays_byte_for_byte(seed: int) -> None:
    assert golden_log(seed) == golden_path(seed).read_bytes()


@pytest.mark.parametrize("seed", GOLDEN_SEEDS)
def test_golden_game_verifies_and_ends_with_a_result(seed: int) -> None:
    verdict = verify_log(golden_path(seed).read_bytes())
    assert verdict.valid, verdict
    assert verdict.result is not None


def perft(seed: int, seq: int, depth: int) -> int:
    log = read_log(golden_path(seed).read_bytes(), decider_for)
    decider = log.decider
    state = next(s for q, s in replay_states(decider, log.header, log.records) if q == seq)
    reveal = next(r for r in log.records if type(r).__name__ == "RevealRecord")
    server_seed = bytes.fromhex(reveal.server_seed)  # type: ignore[attr-defined]

    def count(state: object, depth: int) -> int:
        seats = decider.acting_seats(state)
        if depth == 0 or not seats:
            return 1
        total = 0
        for command in decider.legal_commands(state, seats[0]):
            dice = DiceStream(server_seed, log.header.game_id, "", decider.dice_counter(state))
            after = state
            for event in decider.decide(state, command, dice, seat=seats[0]):
                after = decider.evolve(after, event)
            total += count(after, depth - 1)
        return total

    return count(state, depth)


@pytest.mark.parametrize("seed,seq", sorted(PERFT_AT))
def test_perft_at_golden_positions(seed: int, seq: int) -> None:
    assert (perft(seed, seq, 1), perft(seed, seq, 2)) == PERFT_AT[(seed, seq)]
