"""Hand-made positions for rules tests: a small grid map, units placed on it, and a
:class:`Table` that plays commands on such a position through the Nataterra decider."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import msgspec
import pytest

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.content.schema import Biome, ContentPack, Resource
from nataterra_core.games.nataterra.decider import Nataterra
from nataterra_core.games.nataterra.rules.combat.model import Combat, Group
from nataterra_core.games.nataterra.rules.combat.policies import DefaultPolicy
from nataterra_core.games.nataterra.rules.context import Context
from nataterra_core.games.nataterra.rules.hexmap import GameMap, Hex, Zone
from nataterra_core.games.nataterra.rules.setup import GameOptions, initial_state
from nataterra_core.games.nataterra.state import GameState, Phase, UnitStack
from nataterra_core.kernel import (
    Command,
    DiceStream,
    Event,
    IllegalCommand,
    events_of,
    seed_from_number,
)

# One character per zone: biome, and for bases whose base it is.
BIOMES: dict[str, Biome] = {
    ".": "forest",
    "h": "hills",
    "M": "mountain",
    "L": "lake",
    "V": "swamp",
    "E": "forest",
    "N": "lake",
    "H": "hills",
    "D": "desert",
    "s": "swamp",
}
BASES = {"V": "velathi", "E": "beasts", "N": "naga", "H": "humans"}


def zone_id(q: int, r: int) -> str:
    """Zone ids ``z<q><r>``: column then row (single digits on these small maps)."""
    return f"z{q}{r}"


def grid_map(rows: Sequence[str], resources: dict[str, Resource] | None = None) -> GameMap:
    """A map from rows of characters (see :data:`BIOMES`); row r, column q is hex (q, r).

    Spaces are ignored, so rows can be written ``"V . M . E"``. In axial coordinates
    (q, r) touches (q+1, r), (q, r+1) and (q-1, r+1) among others.
    """
    zones = []
    for r, row in enumerate(rows):
        for q, char in enumerate(row.replace(" ", "")):
            zid = zone_id(q, r)
            resource = (resources or {}).get(zid)
            zones.append(
                Zone(
                    id=zid,
                    hex=Hex(q, r),
                    tile="test",
                    biome=BIOMES[char],
                    resource=resource,
                    printed_biome=BIOMES[char],
                    printed_resource=resource,
                    base_owner=BASES.get(char),
                )
            )
    return GameMap("test-grid", zones)


def position(
    game_map: GameMap,
    units: Iterable[tuple[str, str, str, int]],
    *,
    seats: tuple[str, ...] = ("velathi", "beasts"),
    active: str = "velathi",
    phase: Phase = "movement",
    sides: dict[str, dict[str, str]] | None = None,
    pack: ContentPack | None = None,
) -> tuple[Context, GameState]:
    """A context and a state with exactly ``units`` (owner, unit, zone, count) on the map."""
    ctx = Context(pack or load_pack(), game_map)
    state = initial_state(ctx, seats, GameOptions())
    stacks = tuple(sorted(UnitStack(o, u, z, n) for o, u, z, n in units))
    state = msgspec.structs.replace(
        state, units=stacks, active=seats.index(active), turn=1, phase=phase
    )
    for civ, chosen in (sides or {}).items():
        player = state.player(civ)
        state = state.with_player(msgspec.structs.replace(player, sides=chosen))
    return ctx, state


Chooser = Callable[[Combat, str, Sequence[Command]], Command | None]
"""Picks a combat command for ``fight_out`` (``None``: no preference)."""


class Table:
    """A hand-made position played through the Nataterra decider, with the game's dice
    drawn from ``seed_number`` (each test module keeps the seed its assertions rely on)."""

    def __init__(self, ctx: Context, state: GameState, *, seed_number: int) -> None:
        self.ctx = ctx
        self.state = msgspec.structs.replace(state, counter=0)
        self.decider = Nataterra(ctx.pack, contexts=[ctx])
        self.events: list[Event] = []
        self.seed, self.game_id = seed_from_number(seed_number)

    @property
    def seat(self) -> str:
        return self.decider.acting_seats(self.state)[0]

    def legal(self, seat: str | None = None) -> list[Command]:
        return list(self.decider.legal_commands(self.state, seat or self.seat))

    def hand(self, seat: str | None = None) -> tuple[str, ...]:
        """The tactic hand of ``seat`` (default: the deciding seat), which it alone sees."""
        return self.state.player(seat or self.seat).tactic_hand

    def play(
        self, command: Command, seat: str | None = None, dice: DiceStream | None = None
    ) -> list[Event]:
        """Play ``command``; ``dice`` forces the die faces (default: the game's stream)."""
        seat = seat or self.seat
        dice = dice or DiceStream(self.seed, self.game_id, "", self.state.counter)
        events = list(events_of(self.decider.decide(self.state, command, dice, seat=seat)))
        for event in events:
            self.state = self.decider.evolve(self.state, event)
        self.events.extend(events)
        return events

    def refused(self, command: Command, seat: str | None = None) -> str | None:
        """The rule id with which the decider refuses ``command``."""
        with pytest.raises(IllegalCommand) as info:
            self.play(command, seat)
        return info.value.rule_id

    def fight_out(self, choose: Chooser | None = None) -> None:
        """Play the combat in progress: ``choose`` first, else the default policy."""
        policy = DefaultPolicy(self.ctx.pack)
        while self.state.combat is not None:
            seat = self.seat
            options = self.legal(seat)
            chosen = choose(self.state.combat, seat, options) if choose else None
            if chosen is None:
                chosen = policy.choose(self.state.combat, seat, options, hand=self.hand(seat))
            self.play(chosen, seat)

    def groups(self, owner: str) -> list[Group]:
        assert self.state.combat is not None
        return [g for g in self.state.combat.groups if g.owner == owner]

    def of(self, kind: type[Event]) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]

    def count(self, owner: str, unit: str, zone: str) -> int:
        return sum(
            s.count for s in self.state.units if (s.owner, s.unit, s.zone) == (owner, unit, zone)
        )
