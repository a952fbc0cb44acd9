"""Nataterra's observation encoder and action codec (issue 19): set-ups the conformance
test does not reach (advanced structured maps, four seats in teams, the heuristic bots'
tactic cards), and the documented meaning of an index."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from nataterra_core.game import new_game
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.kernel.encoding import FactoredCodec
from nataterra_core.kernel.registry import system

NATATERRA = system("nataterra")


def _play_and_check(seats: int, options: dict[str, Any], bot: str, seed: int) -> FactoredCodec:
    """Play a game checking every legal list against the codec and every view's size."""
    session = new_game(seats, seed=seed, options=options)
    hooks = NATATERRA.hooks
    assert hooks.observation is not None and hooks.action_codec is not None
    encoder = hooks.observation(session.decider, session.setup)
    codec = hooks.action_codec(session.decider, session.setup)
    assert isinstance(codec, FactoredCodec)
    players = {s: NATATERRA.players[bot](seed + i) for i, s in enumerate(session.header.seats)}
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        legal = session.legal_commands(seat)
        numbers = [codec.encode(c) for c in legal]
        assert len(set(numbers)) == len(numbers)
        assert all(codec.decode(n, legal) is c for n, c in zip(numbers, legal, strict=True))
        view = NATATERRA.seat_view(session.state, seat)
        assert len(encoder.encode(view)) == encoder.layout.size
        session.apply(seat, players[seat].choose(view, legal))
    return codec


@pytest.mark.parametrize(
    ("seats", "options", "bot"),
    [
        (2, {"mode": "advanced", "max_turns": 6}, "random"),  # N-MAP-4: the map is built
        (4, {"teams": ["velathi+humans", "beasts+naga"], "max_turns": 6}, "random"),
        (2, {"max_turns": 12}, "heuristic"),  # tactic cards played in every window
    ],
)
def test_every_legal_command_has_its_own_index(
    seats: int, options: dict[str, Any], bot: str
) -> None:
    _play_and_check(seats, options, bot, seed=3)


def test_a_move_is_named_by_its_endpoints_and_decodes_to_the_listed_path() -> None:
    """N-MOV-1: the legal list holds one canonical path per destination, so the index names
    unit, origin, count and destination; decoding returns the listed command."""
    session = new_game(2, seed=4)
    hooks = NATATERRA.hooks
    assert hooks.action_codec is not None
    codec = hooks.action_codec(session.decider, session.setup)
    while session.state.phase != "movement":
        seat = session.acting_seats()[0]
        session.apply(seat, session.legal_commands(seat)[0])
    seat = session.acting_seats()[0]
    legal = session.legal_commands(seat)
    move = next(c for c in legal if isinstance(c, MoveUnits) and len(c.path) > 1)
    detour = msgspec.structs.replace(move, path=(*move.path[:-1][::-1], move.path[-1]))
    assert codec.encode(detour) == codec.encode(move)
    assert codec.decode(codec.encode(detour), legal) is move
    described = codec.describe(codec.encode(move))
    assert described == (
        f"move_units.v1 unit={move.unit} origin={move.origin} count={move.count} "
        f"destination={move.path[-1]}"
    )


def test_the_layout_is_documented_and_a_spectator_sees_no_hand() -> None:
    session = new_game(2, seed=5)
    bot = NATATERRA.players["random"](5)
    while not session.state.player("velathi").tactic_hand:
        seat = session.acting_seats()[0]
        session.apply(seat, bot.choose(None, session.legal_commands(seat)))
    hooks = NATATERRA.hooks
    assert hooks.observation is not None
    encoder = hooks.observation(session.decider, session.setup)
    layout = encoder.layout
    assert len(layout.describe().splitlines()) == len(layout.segments)
    start, size = layout.offsets["my_tactics"], layout.sizes["my_tactics"]
    own = encoder.encode(NATATERRA.seat_view(session.state, "velathi"))
    spectator = encoder.encode(NATATERRA.seat_view(session.state, None))
    assert sum(own[start : start + size]) == len(session.state.player("velathi").tactic_hand)
    assert sum(spectator[start : start + size]) == 0
