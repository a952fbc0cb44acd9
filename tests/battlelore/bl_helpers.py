"""Positions for BattleLore rule tests: a scenario's state with units placed by hand, and a
scripted dice stream that hands out chosen faces (green, blue, red, flag, bonus_strike, lore)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from nataterra_core.games.battlelore.board import to_hex
from nataterra_core.games.battlelore.content import load_pack
from nataterra_core.games.battlelore.content.schema import BattleLorePack
from nataterra_core.games.battlelore.decider import BattleLore
from nataterra_core.games.battlelore.rules.world import World
from nataterra_core.games.battlelore.state import BattleLoreState, Unit
from nataterra_core.kernel import Command, Decided, Event, Setup

FACES = ("green", "blue", "red", "flag", "bonus_strike", "lore")


class Scripted:
    """A dice stream whose draws are the values given, in order: a face name for a battle die
    (``draw(6)``), a number for any other draw (an error when it runs dry)."""

    def __init__(self, *faces: str | int) -> None:
        self.values = [FACES.index(f) if isinstance(f, str) else f for f in faces]
        self.counter = 0

    def draw(self, m: int) -> int:
        value = self.values.pop(0)
        assert 0 <= value < m, (value, m)
        self.counter += 1
        return value

    def shuffle(self, items: list[str] | tuple[str, ...]) -> list[str]:
        """A "shuffle" that reverses (tests of what a shuffle does, not of its order)."""
        self.counter += len(items)
        return list(reversed(items))


def pt(column: int, row: int) -> tuple[int, int]:
    """The axial point of offset ``[column, row]``."""
    h = to_hex(column, row)
    return (h.q, h.r)


def unit(uid: str, side: str, kind: str, at: tuple[int, int], figures: int | None = None) -> Unit:
    """A unit of type ``kind`` on offset hex ``at``."""
    start = load_pack().unit_types[kind].figures
    return Unit(id=uid, side=side, type=kind, hex=pt(*at), figures=figures or start, start=start)


def position(
    *units: Unit,
    scenario: str = "agincourt",
    pack: BattleLorePack | None = None,
    **changes: Any,
) -> tuple[BattleLore, BattleLoreState]:
    """A decider and a state: the scenario's start with only ``units`` on the board, the
    English to act in the ``changes`` phase (default: battle step with every unit ordered)."""
    game = BattleLore(pack or load_pack())
    state = game.initial_state(
        Setup(game_id="t", seats=("english", "french"), options={"scenario": scenario})
    )
    defaults: dict[str, Any] = {
        "phase": "battle",
        "turn": 1,
        "active": 0,
        "card": "assault_centre",
        "ordered": tuple(u.id for u in units if u.side == "english"),
    }
    return game, replace(state, units=units, **{**defaults, **changes})


def world(scenario: str = "agincourt") -> World:
    """The scenario's world."""
    return World(load_pack(), scenario)


def act(
    game: BattleLore, state: BattleLoreState, seat: str, command: Command, *faces: str | int
) -> tuple[BattleLoreState, tuple[Event, ...]]:
    """Apply a legal command with scripted dice; the state after and the events."""
    assert command in game.decision(state).legal(seat), (command, game.decision(state).legal(seat))
    dice = Scripted(*faces)
    decided = game.decide(state, command, dice, seat=seat)  # type: ignore[arg-type]
    assert isinstance(decided, Decided)
    assert not dice.values, f"unused dice {dice.values}"
    return decided.state, decided.events
