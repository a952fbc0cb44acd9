"""The combat sandbox's records: a battle's description, the system command that opens
it and the sandbox's state (msgspec structs: interpreted in the compiled build too)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from nataterra_core.games.nataterra.content.schema import Biome
from nataterra_core.kernel.secrets import PUBLIC

from ...messages import combat as messages
from ..stock import Resources
from .model import Boost, Combat

__all__ = ["Battle", "ForceSpec", "MapZone", "SandboxState", "battle_option"]


class ForceSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``count`` units of ``unit`` for ``owner``; ``side`` is the group-card side a tech
    selected (``None``: side A without tech abilities, N-DEV-5)."""

    owner: Annotated[str, PUBLIC]
    unit: Annotated[str, PUBLIC]
    count: Annotated[int, PUBLIC]
    side: Annotated[Literal["a", "b"] | None, PUBLIC] = None


class MapZone(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A zone of a battle's small map: id, axial hex, biome, and whose base it is."""

    id: Annotated[str, PUBLIC]
    q: Annotated[int, PUBLIC]
    r: Annotated[int, PUBLIC]
    biome: Annotated[Biome, PUBLIC]
    base: Annotated[str | None, PUBLIC] = None


class Battle(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A combat to play: the two sides, the zone's biome, the forces, each side's stock
    (for injury fees), optionally the biome card that is drawn, bonus tokens per side, and
    a small map around the combat zone.

    ``boosts`` give each side's groups bonus tokens when they deploy, as structures do
    (attack per unit, armor per group, Deception, Reinforce, Bloodthirst levels). With a
    ``map`` (the combat zone is ``zone``, its biome ``biome``), retreating units move to
    adjacent zones as on the game's map (N-COMBAT-23); without one they leave the combat.
    """

    attacker: Annotated[str, PUBLIC]
    defender: Annotated[str, PUBLIC]
    biome: Annotated[str, PUBLIC] = "forest"
    forces: Annotated[tuple[ForceSpec, ...], PUBLIC]
    stocks: Annotated[dict[str, Resources], PUBLIC] = msgspec.field(default_factory=dict)
    biome_card: Annotated[str | None, PUBLIC] = None
    boosts: Annotated[dict[str, Boost], PUBLIC] = msgspec.field(default_factory=dict)
    zone: Annotated[str, PUBLIC] = "sandbox"
    map: Annotated[tuple[MapZone, ...], PUBLIC] = ()


class SandboxState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The battle, the combat once started, the dice counter and the result;
    ``lost_in_retreat`` counts each side's units destroyed for want of a zone to retreat to
    (N-COMBAT-23), which the combat's own ``killed`` does not. ``stocks`` and ``flare`` are
    the sides' (the combat's host holds them: the combat keeps no copy), from the
    ``CombatStarted`` event on. A value never in a reference cycle: not tracked by the
    garbage collector (``gc=False``), one is made per decision."""

    battle: Annotated[Battle, PUBLIC]
    combat: Annotated[Combat | None, PUBLIC] = None
    counter: Annotated[int, PUBLIC] = 0
    result: Annotated[messages.CombatEnded | None, PUBLIC] = None
    lost_in_retreat: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)
    stocks: Annotated[dict[str, Resources], PUBLIC] = msgspec.field(default_factory=dict)
    flare: Annotated[dict[str, int], PUBLIC] = msgspec.field(default_factory=dict)


def battle_option(battle: Battle) -> str:
    """The header option holding a battle: its canonical JSON (options are scalars)."""
    return msgspec.json.encode(battle, order="deterministic").decode()
