"""The commands and events of the resources and development phases: workers gathering
(N-RES-1), recruiting and research (N-DEV-1..5, their resolution at the turn's end) and
structures built, producing, recruiting and destroyed (N-STR-1..3). Their rules are in
``rules/resources.py``, ``rules/development.py`` and ``rules/structures.py``."""

from __future__ import annotations

from typing import Literal

import msgspec

from nataterra_core.kernel import Command, Event
from nataterra_core.kernel.visibility import PUBLIC, hide_from_others

from ..rules.stock import Resources

Side = Literal["a", "b"]
"""A tech card's side (N-DEV-3)."""


class ResourcesGathered(Event, frozen=True, tag="resources_gathered.v1"):
    """``seat``'s workers gathered ``gain`` from ``zones`` (multipliers applied)."""

    visibility = PUBLIC

    seat: str
    zones: tuple[str, ...]
    gain: Resources


class Recruit(Command, frozen=True, tag="recruit.v1"):
    """N-DEV-2: recruit one ``unit`` from the pool onto your base."""

    visibility = PUBLIC

    unit: str


class Research(Command, frozen=True, tag="research.v1"):
    """N-DEV-3: research tech card ``tech`` from your hand (``option`` A or B for unit techs)."""

    visibility = PUBLIC

    tech: str
    option: Side | None = None


class Recruited(Event, frozen=True, tag="recruited.v1"):
    """``seat`` paid ``cost`` and placed a ``unit`` from its pool on ``zone``."""

    visibility = PUBLIC

    seat: str
    unit: str
    zone: str
    cost: Resources


class Researched(Event, frozen=True, tag="researched.v1"):
    """``seat`` paid ``cost`` for ``tech`` (``option``); it resolves at the end of the turn."""

    visibility = PUBLIC

    seat: str
    tech: str
    option: Side | None
    cost: Resources


class TechResolved(Event, frozen=True, tag="tech_resolved.v1"):
    """N-DEV-4: a researched ``tech`` takes effect. A resource tech raises ``resource``'s
    multiplier and leaves; a unit tech turns ``unit``'s group card to ``option``, stays, and
    changes the unit's main-board values by ``cost``, ``movement`` and ``initiative``."""

    visibility = PUBLIC

    seat: str
    tech: str
    option: Side | None = None
    resource: str | None = None
    unit: str | None = None
    cost: Resources = Resources()
    movement: int = 0
    initiative: int = 0


class BonusResolved(Event, frozen=True, tag="bonus_resolved.v1"):
    """N-DEV-4: one bonus effect of ``tech``: ``kind`` with what it actually moved.

    ``units`` maps unit types to tokens moved to the pool (workers, a tile, a unit type);
    ``card`` is the tech card drawn or the structure unlocked. A drawn tech card goes to a
    hand that seat views show only to its holder, so others see that a card was drawn, not
    which (as for tactic cards).
    """

    visibility = hide_from_others("card", when=("kind", ("draw_tech",)))

    seat: str
    tech: str
    kind: str
    units: dict[str, int] = msgspec.field(default_factory=dict)
    card: str | None = None


class Build(Command, frozen=True, tag="build.v1"):
    """N-STR-1: build ``structure`` in ``zone``."""

    visibility = PUBLIC

    structure: str
    zone: str


class StructureBuilt(Event, frozen=True, tag="structure_built.v1"):
    """``seat`` paid ``cost`` and placed ``structure`` in ``zone``."""

    visibility = PUBLIC

    seat: str
    structure: str
    zone: str
    cost: Resources


class StructureDestroyed(Event, frozen=True, tag="structure_destroyed.v1"):
    """``owner``'s ``structure`` in ``zone`` was destroyed, by ``rule`` (N-MOV-5 moved onto,
    N-COMBAT-2 unoccupied at combat, N-COMBAT-28 lost a combat); ``cubes`` went with it."""

    visibility = PUBLIC

    owner: str
    structure: str
    zone: str
    rule: str
    cubes: int = 0


class StructuresProduced(Event, frozen=True, tag="structures_produced.v1"):
    """N-STR-3/N-RES-3: ``seat``'s structures in ``zones`` produced ``gain`` and ``flare``
    in the resources phase (never multiplied)."""

    visibility = PUBLIC

    seat: str
    zones: tuple[str, ...]
    gain: Resources
    flare: int = 0


class StructureRecruited(Event, frozen=True, tag="structure_recruited.v1"):
    """N-STR-3: at the start of ``seat``'s turn ``structure`` recruited a ``unit`` from the
    pool onto ``zone``, free."""

    visibility = PUBLIC

    seat: str
    structure: str
    unit: str
    zone: str


COMMANDS: tuple[type[Command], ...] = (
    Recruit,
    Research,
    Build,
)
EVENTS: tuple[type[Event], ...] = (
    ResourcesGathered,
    Recruited,
    Researched,
    TechResolved,
    BonusResolved,
    StructureBuilt,
    StructureDestroyed,
    StructuresProduced,
    StructureRecruited,
)
