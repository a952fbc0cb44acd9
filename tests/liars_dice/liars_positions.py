"""Liar's Dice positions for the rule tests: a table set by hand, and the decider's answer."""

from __future__ import annotations

from nataterra_core.game import GameSession, decider_for
from nataterra_core.games.liars_dice import messages as m
from nataterra_core.games.liars_dice.decider import LiarsDice
from nataterra_core.games.liars_dice.state import BidRecord, LiarsState
from nataterra_core.kernel import Command, DiceStream, Event, read_log, seed_from_number
from nataterra_core.kernel.log import StartRecord

DECIDER = LiarsDice()
SEATS = ("red", "blue", "green")


def table(
    *cups: tuple[int, ...],
    bids: tuple[tuple[str, int, int], ...] = (),
    active: str = "red",
    wild_ones: bool = True,
    spot_on: bool = False,
) -> LiarsState:
    """A round in play: ``cups`` in seat order (red, blue, green, ...), ``bids`` made so far."""
    seats = ("red", "blue", "green", "yellow", "purple", "orange")[: len(cups)]
    return LiarsState(
        seats=seats,
        wild_ones=wild_ones,
        spot_on=spot_on,
        cups=tuple(tuple(sorted(cup)) for cup in cups),
        active=seats.index(active),
        round=1,
        bids=tuple(BidRecord(*bid) for bid in bids),
        turn=1 + len(bids),
    )


def dice(counter: int = 0, seed: int = 1) -> DiceStream:
    """The dice stream of a public test seed (``--seed N``), at ``counter``."""
    server_seed, game_id = seed_from_number(seed)
    return DiceStream(server_seed, game_id, "", counter)


def act(state: LiarsState, seat: str, command: Command) -> tuple[tuple[Event, ...], LiarsState]:
    """The events of ``seat``'s ``command`` (checked rule by rule) and the state after them."""
    decided = DECIDER.decide(state, command, dice(state.counter), seat=seat)
    return decided.events, decided.state


def start_events(session: GameSession) -> tuple[Event, ...]:
    """The events of a game's start record (record 1)."""
    record = read_log(session.log_bytes(), decider_for).records[1]
    assert isinstance(record, StartRecord)
    return tuple(record.events)


def lost(events: tuple[Event, ...]) -> list[str]:
    """Who lost a die in ``events``."""
    return [e.seat for e in events if isinstance(e, m.DieLost)]


def opener(events: tuple[Event, ...]) -> str:
    """Who opens the round ``events`` start."""
    return next(e.opener for e in events if isinstance(e, m.RoundStarted))
