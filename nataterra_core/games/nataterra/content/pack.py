"""Content-pack schema, part 4: the loaded pack (see :mod:`.schema`)."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from .cards import (
    BiomeCard,
    Structure,
    TacticCard,
    TechCard,
    VictoryCondition,
)
from .maps import (
    MapDef,
    MapTile,
)
from .units import (
    AttackDie,
    Civilisation,
    Essence,
    PackInfo,
    UnitType,
)


@attrs.frozen(eq=False)
class ContentPack:
    """A loaded, validated content pack: the provisional pack with an optional overlay applied.

    Collections map ids to entries in *pack order*: the base pack's files sorted by path, entries
    in file order; an overlay entry replacing a base entry keeps its place, new overlay entries
    follow in the overlay's file order. Decks start in pack order (docs/DICE.md).
    """

    base: PackInfo
    overlay: PackInfo | None
    sha256: str
    die: AttackDie
    essences: Mapping[str, Essence]
    civilisations: Mapping[str, Civilisation]
    units: Mapping[str, UnitType]
    techs: Mapping[str, TechCard]
    tactics: Mapping[str, TacticCard]
    structures: Mapping[str, Structure]
    biome_cards: Mapping[str, BiomeCard]
    victory_conditions: Mapping[str, VictoryCondition]
    map_tiles: Mapping[str, MapTile]
    maps: Mapping[str, MapDef]

    @property
    def pack_id(self) -> str:
        """``base`` or ``base+overlay``: the pack ids a game header records."""
        return self.base.id if self.overlay is None else f"{self.base.id}+{self.overlay.id}"

    @property
    def version(self) -> str:
        """The base version, with the overlay's appended after ``+`` when there is one."""
        if self.overlay is None:
            return self.base.version
        return f"{self.base.version}+{self.overlay.version}"

    def units_of(self, civ: str) -> tuple[UnitType, ...]:
        """The unit types of ``civ`` in roster (board) order."""
        return tuple(self.units[u] for u in self.civilisations[civ].units)

    def worker_of(self, civ: str) -> UnitType:
        """The worker type of ``civ``."""
        return next(u for u in self.units_of(civ) if u.role == "worker")

    def tech_deck(self, civ: str) -> tuple[TechCard, ...]:
        """The tech deck of ``civ`` sorted by card number, card 1 on top (N-SETUP-4)."""
        return tuple(sorted((t for t in self.techs.values() if t.civ == civ), key=_by_number))

    def tactic_deck(self, civ: str) -> tuple[TacticCard, ...]:
        """The tactic cards of ``civ`` in card-number order, before shuffling."""
        return tuple(sorted((t for t in self.tactics.values() if t.civ == civ), key=_by_number))

    def biome_deck(self, biome: str) -> tuple[BiomeCard, ...]:
        """The biome cards of ``biome`` in pack order, before shuffling; mountain and lake have
        no deck, so theirs is empty (N-COMBAT-7)."""
        return tuple(c for c in self.biome_cards.values() if c.biome == biome)


def _by_number(card: TechCard | TacticCard) -> int:
    return card.number
