"""Client seeds from every seat (docs/DICE.md): the ceremony, and a whole game's dice
recomputed from the revealed seed and every seat's contribution."""

from __future__ import annotations

import msgspec
import pytest

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.nataterra.bots import RandomPlayer, play
from nataterra_core.kernel import DiceStream
from nataterra_core.kernel.seed_ceremony import SeedCeremony


def test_contributions_are_checked_and_joined_in_seat_order() -> None:
    ceremony = SeedCeremony(bytes(range(32)), ("velathi", "beasts", "humans"))
    ceremony.contribute("humans", "h")
    with pytest.raises(ValueError, match="already"):
        ceremony.contribute("humans", "again")
    with pytest.raises(ValueError, match="unknown seat"):
        ceremony.contribute("naga", "n")
    with pytest.raises(ValueError, match="contribution must match"):
        ceremony.contribute("velathi", "has;semicolon")
    with pytest.raises(ValueError, match="waiting"):
        ceremony.client_seed()
    assert ceremony.contributed("humans") and not ceremony.contributed("beasts")
    ceremony.contribute("velathi", "v1")
    ceremony.contribute("beasts", "b.2")
    assert ceremony.client_seed() == "velathi:v1;beasts:b.2;humans:h"


def test_a_game_started_after_the_ceremony_uses_the_joined_seed_and_verifies() -> None:
    seed = bytes(range(1, 33))
    ceremony = SeedCeremony(seed, ("velathi", "beasts"))
    for seat, contribution in (("beasts", "Bz9"), ("velathi", "v-0")):
        ceremony.contribute(seat, contribution)
    session = new_game(
        ceremony.seats,
        server_seed=ceremony.server_seed,
        game_id="fair-1",
        client_seed=ceremony.client_seed(),
        options={"max_turns": 2},
    )
    assert session.header.seed_commitment == ceremony.commitment
    assert session.header.client_seed == "velathi:v-0;beasts:Bz9"
    play(session, {s: RandomPlayer(i) for i, s in enumerate(session.header.seats)})
    session.close()
    assert verify_log(session.log_bytes())
    # The first player was drawn from the stream keyed by the joined client seed.
    first = DiceStream(seed, "fair-1", "velathi:v-0;beasts:Bz9").draw(2)
    events = msgspec.json.decode(session.lines[1])["events"]
    drawn = next(e for e in events if e["type"] == "first_player_drawn.v1")
    assert (drawn["counter_before"], drawn["value"]) == (0, first)
