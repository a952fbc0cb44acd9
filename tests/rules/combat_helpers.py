"""Driving one combat through the combat flow in tests, without a Session.

:class:`Fight` holds a :class:`CombatEnv`, the current :class:`Combat` and every event so
far. Dice are real :class:`DiceStream` words: :func:`dice_giving` finds, deterministically,
a counter of a fixed stream whose next draws show the wanted die faces, so a test can say
"this attack rolls +1" without faking the dice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Literal

import msgspec

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.games.nataterra.rules.combat.board import replace_group
from nataterra_core.games.nataterra.rules.combat.flow import (
    CombatEnv,
    combat_from_start,
    decide_combat,
    decision,
    evolve_combat,
    evolve_with_host,
    run_on,
    start_combat,
)
from nataterra_core.games.nataterra.rules.combat.host import Answers
from nataterra_core.games.nataterra.rules.combat.model import Combat, Force, Group
from nataterra_core.games.nataterra.state import Resources
from nataterra_core.kernel import Command, DiceStream, Event, seed_from_number

PACK: ContentPack = load_pack()
FACES: tuple[tuple[int, int], ...] = tuple((f.value, f.swords) for f in PACK.die.faces)
SERVER_SEED, GAME_ID = seed_from_number(20240611)

Side = Literal["a", "b"] | None
FaceSpec = int | tuple[int, int] | None
"""A wanted die face: its value (no swords), ``(value, swords)``, or ``None`` for any."""


def _matches(index: int, spec: FaceSpec) -> bool:
    if spec is None:
        return True
    value, swords = FACES[index]
    if isinstance(spec, tuple):
        return (value, swords) == spec
    return value == spec and (swords == 0 or value == -5)


@cache
def counter_giving(*specs: FaceSpec) -> int:
    """The first counter of the fixed test stream whose next draws show ``specs``."""
    for counter in range(200_000):
        dice = DiceStream(SERVER_SEED, GAME_ID, "", counter)
        if all(_matches(dice.draw(len(FACES)), spec) for spec in specs):
            return counter
    raise AssertionError(f"no counter gives {specs}")  # pragma: no cover


def dice_giving(*specs: FaceSpec) -> DiceStream:
    """A dice stream whose next ``len(specs)`` d10 draws show the wanted faces."""
    return DiceStream(SERVER_SEED, GAME_ID, "", counter_giving(*specs))


def any_dice() -> DiceStream:
    """Dice for steps whose faces do not matter to the test."""
    return DiceStream(SERVER_SEED, GAME_ID, "", 0)


def no_card(combat: Combat, dice: DiceStream) -> tuple[str | None, tuple[Event, ...]]:
    return None, ()


def drawing(card: str | None) -> Callable[[Combat, DiceStream], tuple[str | None, tuple[()]]]:
    """A biome draw that always shows ``card``."""

    def draw(combat: Combat, dice: DiceStream) -> tuple[str | None, tuple[()]]:
        return card, ()

    return draw


class Fight:
    """One combat played through ``decision``/``decide_combat``/``evolve_combat``."""

    def __init__(
        self,
        attacker: str,
        defender: str,
        forces: Iterable[tuple[str, str, int, Side]],
        *,
        biome: str = "forest",
        card: str | None = None,
        stocks: dict[str, Resources] | None = None,
        start: bool = True,
    ) -> None:
        forces = list(forces)
        counts: dict[tuple[str, str], int] = {}
        sides: dict[str, dict[str, Literal["a", "b"]]] = {attacker: {}, defender: {}}
        for owner, unit, count, side in forces:
            counts[owner, unit] = counts.get((owner, unit), 0) + count
            if side is not None:
                sides[owner][unit] = side
        self.started = start_combat(
            zone="test",
            biome=biome,
            attacker=attacker,
            defender=defender,
            forces=[Force(o, u, n) for (o, u), n in counts.items()],
            sides=sides,
            stocks={seat: (stocks or {}).get(seat, Resources()) for seat in (attacker, defender)},
        )
        host = Answers(draw_biome=drawing(card), stocks=self.started.stocks)
        self.env = CombatEnv(PACK, host=host)
        self.combat = combat_from_start(self.started)
        self.events: list[Event] = [self.started]
        if start:
            self.run()

    # -- stepping -------------------------------------------------------------------------

    def run(self, dice: DiceStream | None = None) -> list[Event]:
        """Automatic steps up to the next decision."""
        events, self.combat, _, self.env = run_on(self.env, self.combat, dice or any_dice())
        self.events.extend(events)
        return list(events)

    @property
    def pending(self) -> tuple[str, list[Command]] | None:
        found = decision(self.env, self.combat)
        return None if found is None else (found[0], list(found[1]))

    @property
    def seat(self) -> str:
        pending = self.pending
        assert pending is not None, f"no decision pending in stage {self.combat.stage}"
        return pending[0]

    @property
    def options(self) -> list[Command]:
        pending = self.pending
        assert pending is not None, f"no decision pending in stage {self.combat.stage}"
        return list(pending[1])

    def decide(
        self, command: Command, dice: DiceStream | None = None, seat: str | None = None
    ) -> list[Event]:
        """Play ``command`` for the deciding seat (or ``seat``); fold and keep its events."""
        events = decide_combat(
            self.env, self.combat, seat or self.seat, command, dice or any_dice()
        )
        for event in events:
            self.env, self.combat = evolve_with_host(self.env, self.combat, event)
        self.events.extend(events)
        return list(events)

    def deploy_largest(self) -> None:
        """Deploy every group, largest first, in the first slot offered (the default)."""
        from nataterra_core.games.nataterra.messages.combat import DeployGroup

        while self.combat.stage == "deploy" and self.pending is not None:
            options = [c for c in self.options if isinstance(c, DeployGroup)]
            self.decide(max(options, key=lambda c: c.size))

    # -- looking and tampering ---------------------------------------------------------------

    def group(self, owner: str, unit: str, nth: int = 0) -> Group:
        found = [g for g in self.combat.groups if g.owner == owner and g.unit == unit]
        return found[nth]

    def set_group(self, group_id: int, **changes: object) -> None:
        """Put tokens or damage on a group (``msgspec.structs.replace``)."""
        group = msgspec.structs.replace(self.combat.groups[group_id], **changes)
        self.combat = msgspec.structs.replace(
            self.combat, groups=replace_group(self.combat.groups, group)
        )

    def of_type(self, kind: type[Event]) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]

    def replayed(self) -> Combat:
        """The combat folded from its events alone."""
        combat = combat_from_start(self.started)
        for event in self.events[1:]:
            combat = evolve_combat(PACK, combat, event)
        return combat


def deployed(
    attacker: str,
    defender: str,
    forces: Sequence[tuple[str, str, int, Side]],
    **kwargs: object,
) -> Fight:
    """A fight with every group deployed (largest groups first), at its first decision
    after deployment."""
    fight = Fight(attacker, defender, forces, **kwargs)  # type: ignore[arg-type]
    fight.deploy_largest()
    return fight
