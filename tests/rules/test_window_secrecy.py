"""N-COMBAT-9's ruling as a property: tactic windows never reveal what a hand holds.

Whole games between heuristic players (2, 3 and 4 players, one of them a team game), each
seat dealt tactic cards at the start so that combats have cards in play. At every combat
state, and at every few states outside combat, the position is perturbed behind each seat's
back: the other seats' tactic and tech hands dealt afresh from hand plus deck (sizes kept),
every deck reordered (a combat keeps no copy of the hands: they are the players'). The
seat must not be able to tell: its view, who acts, its own legal list and the errors a few
probe commands get are all the same in the perturbed twin (issue 14 item 4).
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from nataterra_core.game import GameSession, new_game
from nataterra_core.games.nataterra.bots import HeuristicPlayer
from nataterra_core.games.nataterra.messages.combat import (
    Attack,
    PassTactics,
    PlayTactic,
    StandingPass,
)
from nataterra_core.games.nataterra.messages.turns import EndPhase
from nataterra_core.games.nataterra.state import GameState
from nataterra_core.games.nataterra.views import seat_view
from nataterra_core.kernel import Command, DiceStream, EngineError, seed_from_number
from nataterra_core.kernel.secrets import twins

DEALT = 4
"""Tactic cards dealt into each hand at the start (from the top of the seat's deck)."""

OUTSIDE_EVERY = 7
"""Outside combat, every this many states is checked (the windows are the point)."""

# (players, seed, options): 2, 3 and 4 players, and allies on each side (N-TEAM-4).
TEAMS = {"teams": ["velathi+humans", "beasts+naga"]}
GAMES: list[tuple[int, int, dict[str, Any]]] = [
    (2, 5, {"max_turns": 24}),
    (2, 8, {"max_turns": 24}),
    (3, 2, {"max_turns": 18}),
    (3, 5, {"max_turns": 18}),
    (4, 3, {"max_turns": 14}),
    (4, 6, {"max_turns": 14}),
    (4, 2, {**TEAMS, "max_turns": 14}),
    (4, 7, {**TEAMS, "max_turns": 14}),
]


def probes(session: GameSession, state: GameState, seat: str) -> list[Command]:
    """Commands ``seat`` might try: the window's passes, a card of its own hand and one it
    does not hold, an attack, ending the phase."""
    own = state.player(seat).tactic_hand
    foreign = next(c for c in sorted(session.decider.pack.tactics) if c not in own)
    commands: list[Command] = [
        PassTactics(),
        StandingPass(),
        PlayTactic(card=foreign, option=0),
        Attack(target=0),
        EndPhase(phase=state.phase) if state.phase != "over" else PassTactics(),
    ]
    if own:
        commands.append(PlayTactic(card=own[0], option=0))
    return commands


def answer(session: GameSession, seed: int, state: GameState, seat: str, command: Command) -> str:
    """What the engine says to ``seat`` sending ``command`` in ``state``, as the session
    would: not its turn, listed, or the refusal (its class, rule and words)."""
    decider = session.decider
    decision = decider.decision(state)
    if seat not in decision.acting:
        return "not acting"
    if decision.find(seat, command) is not None:
        return "listed"
    server_seed, game_id = seed_from_number(seed)
    dice = DiceStream(server_seed, game_id, session.header.client_seed, decider.dice_counter(state))
    try:
        decider.decide(state, command, dice, seat=seat)
    except EngineError as refused:
        return f"{type(refused).__name__}: {refused}"
    return "accepted unlisted"


def _start(players: int, seed: int, options: dict[str, Any]) -> GameSession:
    session = new_game(players, seed=seed, options=options)
    state = session.state
    session.state = msgspec.structs.replace(
        state,
        players=tuple(
            msgspec.structs.replace(
                p,
                tactic_hand=p.tactic_hand + p.tactic_deck[:DEALT],
                tactic_deck=p.tactic_deck[DEALT:],
            )
            for p in state.players
        ),
    )
    return session


@pytest.mark.parametrize("players,seed,options", GAMES)
def test_N_COMBAT_9_windows_keep_hands_secret(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    session = _start(players, seed, options)
    seats = session.header.seats
    bots = {seat: HeuristicPlayer(seed * 4 + i) for i, seat in enumerate(seats)}
    rng = random.Random(seed)
    windows = step = 0
    while session.outcome() is None:
        state = session.state
        combat = state.combat
        if combat is not None and combat.pending and combat.pending[0][1].startswith("tactic_"):
            windows += 1
        if state.combat is not None or step % OUTSIDE_EVERY == 0:
            ours = session.decider.decision(state)
            for seat in seats:
                twin = twins(state, seat, rng)
                assert seat_view(twin, seat) == seat_view(state, seat)
                theirs = session.decider.decision(twin)
                assert theirs.acting == ours.acting, (step, seat)
                assert list(theirs.legal(seat)) == list(ours.legal(seat)), (step, seat)
                for probe in probes(session, state, seat):
                    said = answer(session, seed, state, seat, probe)
                    assert answer(session, seed, twin, seat, probe) == said, (step, seat, probe)
        seat = session.acting_seats()[0]
        view = seat_view(session.state, seat)
        session.apply(seat, bots[seat].choose(view, session.legal_commands(seat)))
        step += 1
    assert windows >= 5, f"only {windows} tactic windows asked: the test proves little"
