"""Hidden information as indistinguishability (docs/LOG_FORMAT.md, boardgame.io's playerView leaks).

For random games and every seat (and a spectator), a second position that differs only in
what that seat may not see — the other seats' hands (tactic and tech), the order of every
deck — must give identical seat views, legal-command lists and error messages, in the
library and over JSON-RPC byte for byte; and a second log whose shuffles came out
differently must give identical log views.
"""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from nataterra_adapters.rpc.errors import rejected
from nataterra_adapters.rpc.games import CreateParams, CreateResult
from nataterra_adapters.rpc.server import Server

from nataterra_core.game import GameSession
from nataterra_core.games.nataterra.bots import RandomPlayer, play
from nataterra_core.games.nataterra.decider import Nataterra
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.messages.tactics import TacticCardDrawn
from nataterra_core.games.nataterra.messages.turns import EndPhase
from nataterra_core.games.nataterra.state import PHASES, GameState, PlayerState
from nataterra_core.games.nataterra.views import seat_view
from nataterra_core.kernel import Command, CommandRejected, Decider, DiceStream, Event, events_of
from nataterra_core.kernel.log import GENESIS, line_hash
from nataterra_core.kernel.visibility import log_view

replace = msgspec.structs.replace
encode = msgspec.json.encode


def permuted(items: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    """A different order of ``items`` whenever one exists."""
    out = list(items)
    rng.shuffle(out)
    if tuple(out) == items and len(set(items)) > 1:
        out = out[1:] + out[:1]
    return tuple(out)


def deal(state: GameState, cards: int) -> GameState:
    """Both positions share this: ``cards`` tactic cards from each deck in each hand."""
    players = tuple(
        replace(p, tactic_hand=p.tactic_deck[:cards], tactic_deck=p.tactic_deck[cards:])
        for p in state.players
    )
    return replace(state, players=players)


def hidden_twin(state: GameState, seat: str | None, rng: random.Random) -> GameState:
    """``state`` changed in everything ``seat`` may not see, and nothing else."""

    def redeal(hand: tuple[str, ...], deck: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        cards = permuted(hand + deck, rng)
        return cards[: len(hand)], cards[len(hand) :]

    players: list[PlayerState] = []
    for p in state.players:
        if p.civ == seat:  # its own hands are its to see, its decks' order is not
            players.append(
                replace(
                    p,
                    tactic_deck=permuted(p.tactic_deck, rng),
                    tech_deck=permuted(p.tech_deck, rng),
                )
            )
            continue
        tactic_hand, tactic_deck = redeal(p.tactic_hand, p.tactic_deck)
        tech_hand, tech_deck = redeal(p.tech_hand, p.tech_deck)
        players.append(
            replace(
                p,
                tactic_hand=tactic_hand,
                tactic_deck=tactic_deck,
                tech_hand=tech_hand,
                tech_deck=tech_deck,
            )
        )
    decks = {biome: permuted(cards, rng) for biome, cards in state.biome_decks.items()}
    return replace(state, players=tuple(players), biome_decks=decks)


def probes(state: GameState, seat: str) -> list[Command]:
    """Commands ``seat`` may not send now (and, for good measure, its legal ones)."""
    wrong_phases: list[Command] = [EndPhase(phase=p) for p in PHASES if p != state.phase]
    stack = next(state.stacks_of(seat))
    return [
        *wrong_phases,
        MoveUnits(unit=stack.unit, origin=stack.zone, count=stack.count + 1, path=(stack.zone,)),
        MoveUnits(unit="no-such-unit", origin=stack.zone, count=1, path=()),
    ]


def outcome(
    decider: Decider[GameState, Command, Event], state: GameState, command: Command, seat: str
) -> Any:
    dice = DiceStream(bytes(32), "probe", "", state.counter)
    try:
        return encode(events_of(decider.decide(state, command, dice, seat=seat)))
    except CommandRejected as exc:
        error = rejected(exc, version=7)
        return (type(exc).__name__, error.code, error.message, encode(error.data))


games = st.fixed_dictionaries(
    {
        "players": st.integers(2, 4),
        "seed": st.integers(0, 2**32),
        "commands": st.integers(0, 40),
        "cards": st.integers(0, 4),
        "rng": st.randoms(use_true_random=False),
    }
)


def random_game(game: dict[str, Any]) -> tuple[Server, CreateResult, GameSession, int]:
    """A game created over the method table and played by random bots for a while."""
    server = Server(test_seeds=True)
    params = CreateParams(players=game["players"], seed=game["seed"], options={"max_turns": 6})
    created = server.games.create(params)
    session = server.games.session(created.game_id)
    bots = {s: RandomPlayer(game["seed"] + i) for i, s in enumerate(session.header.seats)}
    played = play(session, bots, max_commands=game["commands"])
    return server, created, session, played


@settings(max_examples=25)
@given(games)
def test_hidden_differences_are_invisible_to_the_seat(game: dict[str, Any]) -> None:
    server, created, session, played = random_game(game)
    decider = session.decider
    state = deal(session.state, game["cards"])
    rng: random.Random = game["rng"]
    for seat in (*session.header.seats, None):
        twin = hidden_twin(state, seat, rng)
        assert twin != state
        assert encode(seat_view(state, seat)) == encode(seat_view(twin, seat))
        if seat is None:
            continue
        assert encode(decider.legal_commands(state, seat)) == encode(
            decider.legal_commands(twin, seat)
        )
        if state.phase == "over":
            continue
        for command in probes(state, seat):
            assert outcome(decider, state, command, seat) == outcome(decider, twin, command, seat)
        # Over the wire, byte for byte: the same requests against either position.
        replies = []
        for position in (state, twin):
            session.state = position
            replies.append(
                [
                    rpc(server, method, created.game_id, created.tokens[seat], command)
                    for method, command in wire_probes(state, seat)
                ]
            )
        session.state = state
        assert replies[0] == replies[1]
        refusals = replies[0][2:]
        assert all(reply is not None and b'"error"' in reply for reply in refusals)
        assert len(session.lines) - 1 == created.version + played  # no probe was applied


def wire_probes(state: GameState, seat: str) -> list[tuple[str, Any]]:
    commands = [msgspec.to_builtins(c) for c in probes(state, seat)]
    return [
        ("game.view", None),
        ("game.legal_commands", None),
        *(("game.apply", c) for c in commands),
    ]


def rpc(server: Server, method: str, game_id: str, token: str, command: Any) -> bytes | None:
    params: dict[str, Any] = {"game_id": game_id, "token": token}
    if command is not None:
        params["command"] = command
    message = {"jsonrpc": "2.0", "method": method, "params": params, "id": 1}
    reply = server.dispatcher.handle(json.dumps(message).encode())
    assert reply is not None and b'"code":-326' not in reply  # game answers, not protocol errors
    return reply


def other_shuffles(lines: tuple[bytes, ...], rng: random.Random) -> tuple[bytes, ...]:
    """The same log had every shuffle come out differently (chain recomputed)."""
    out: list[bytes] = []
    for line in lines:
        record = json.loads(line)
        for event in record.get("events", ()):
            if event["type"] == "deck_shuffled.v1":
                event["after"] = list(permuted(tuple(event["after"]), rng))
        record["prev"] = line_hash(out[-1]) if out else GENESIS
        out.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode())
    return tuple(out)


@settings(max_examples=15)
@given(games)
def test_log_views_hide_shuffles_and_the_chain_until_the_reveal(game: dict[str, Any]) -> None:
    _, _, session, _ = random_game(game)
    lines = session.lines
    twin = other_shuffles(lines, game["rng"])
    assert twin != lines
    for seat in (*session.header.seats, None):
        view = log_view(lines, seat, session.decider)
        assert not view.revealed and view.head is None and view.text is None
        assert encode(view) == encode(log_view(twin, seat, session.decider))
        assert session.header.seed_commitment.encode() in encode(view)
    session.close()
    full = log_view(session.lines, session.header.seats[0], session.decider)
    assert full.revealed and full.text is not None and full.text.encode() == session.log_bytes()


def test_unclassified_types_fail_closed_and_private_cards_show_only_to_their_owner() -> None:
    line = encode(
        {
            "kind": "command",
            "seq": 5,
            "prev": "0" * 64,
            "seat": "beasts",
            "command": {"type": "secret_plan.v1", "target": "x"},
            "events": [{"type": "mystery.v1", "card": "c"}],
        }
    )
    view = log_view((line,), "beasts", Nataterra).records[0]
    assert view["command"] == {"type": "secret_plan.v1", "redacted": True}
    assert view["events"] == [{"type": "mystery.v1", "redacted": True}]
    drawn = TacticCardDrawn.visibility
    assert drawn is not None
    event = {"type": "tactic_card_drawn.v1", "seat": "beasts", "card": "swarm"}
    assert drawn.redact(event, "beasts", "beasts") == event
    assert drawn.redact(event, "velathi", "beasts") == {
        "type": "tactic_card_drawn.v1",
        "seat": "beasts",
        "redacted": ["card"],
    }
    assert drawn.redact(event, None, "beasts")["redacted"] == ["card"]
