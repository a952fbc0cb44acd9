"""The kernel's players on a game that is not Nataterra (Pig): :func:`play` hands each acting
seat's player the game's view of the state and that seat's legal commands, never the state;
:class:`RandomPlayer` draws from its own seeded ``nataterra-dice-v1`` stream."""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from typing import Any

from conftest import new_session
from dicegame import PigState

from nataterra_core.kernel import Command, DiceStream, RandomPlayer, play


class SeatScore:
    """A made-up seat view for Pig: the seat, its own score and whose turn it is."""

    def __init__(self, state: PigState, seat: str) -> None:
        self.seat = seat
        self.score = state.scores[state.seats.index(seat)] if state.scores else 0
        self.active = state.seats[state.active] if state.active >= 0 else None


class Recording:
    """Records what it was given and plays the first legal command."""

    def __init__(self) -> None:
        self.given: list[tuple[Any, Sequence[Command]]] = []

    def choose(self, view: Any, legal_commands: Sequence[Command]) -> Command:
        self.given.append((view, legal_commands))
        return legal_commands[0]


def test_play_gives_each_acting_seat_its_view_and_its_legal_commands() -> None:
    session = new_session(5, target=10)
    players = {"ann": Recording(), "bob": Recording()}
    applied = play(session, players, SeatScore, max_commands=40)
    assert applied == sum(len(p.given) for p in players.values()) > 0
    for seat, player in players.items():
        for view, legal in player.given:
            assert isinstance(view, SeatScore) and view.seat == seat == view.active
            assert legal  # the seat's legal list, never empty
    assert len(session.lines) == applied + 2  # header, start, then one record per command


def test_play_stops_at_the_end_or_at_max_commands() -> None:
    session = new_session(2, target=8)
    random_players = {"ann": RandomPlayer(1), "bob": RandomPlayer(2)}
    assert play(session, random_players, SeatScore, max_commands=3) == 3
    play(session, random_players, SeatScore)
    assert session.outcome() is not None
    assert play(session, random_players, SeatScore) == 0


def test_random_player_draws_from_its_own_seeded_stream() -> None:
    """The stream is ``nataterra-dice-v1`` keyed by SHA-256("nataterra-bot-v1" || seed as
    u64 big-endian), id "random-player": the same sequence as before bots saw views, so
    random-bot benchmarks and golden logs do not change."""
    key = hashlib.sha256(b"nataterra-bot-v1" + struct.pack(">Q", 42)).digest()
    expected = DiceStream(key, "random-player", "")
    player = RandomPlayer(42)
    commands = [Command() for _ in range(7)]
    for size in (7, 3, 5, 2, 7, 6):
        legal = commands[:size]
        assert player.choose(None, legal) is legal[expected.draw(size)]
