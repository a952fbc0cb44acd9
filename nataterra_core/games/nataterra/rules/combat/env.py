"""What combat reads besides its own state (:class:`CombatEnv`): the pack, the map if there
is one, and the host's answers (how biome and tactic cards are drawn, where units may go).

The host is the game (:mod:`..combat_phase`) or the sandbox: each answers with the methods
of a :class:`Host` reading its own immutable state, so an environment is two small objects
made per state, with no closures built per call. Tests may pass the answers as functions.
"""

from __future__ import annotations

from functools import lru_cache

from nataterra_core.games.nataterra.content.schema import CivAbility, ContentPack, DieFace
from nataterra_core.kernel import DiceStream, Event

from ..hexmap import GameMap
from ..stock import Resources
from .folds import FOLDS
from .host import NO_HOST, Host
from .model import Combat

__all__ = ["CombatEnv", "PackTables", "pack_tables"]


class PackTables:
    """What combat reads of the pack on every attack, as plain tuples and dicts: the die's
    faces (and each face's value and swords, as ints), each civilisation's ability,
    essences and combat board slots (melee, ranged, flex)."""

    __slots__ = ("boards", "civ_ability", "essences", "face_swords", "face_values", "faces")

    def __init__(self, pack: ContentPack) -> None:
        self.faces: tuple[DieFace, ...] = tuple(pack.die.faces)
        # Plain ints: compiled, a read of a msgspec field is a generic attribute lookup.
        self.face_values = tuple([face.value for face in self.faces])
        self.face_swords = tuple([face.swords for face in self.faces])
        civs = pack.civilisations.values()
        self.civ_ability: dict[str, CivAbility] = {civ.id: civ.ability for civ in civs}
        self.essences = {civ.id: frozenset(civ.essences) for civ in civs}
        self.boards = {
            civ.id: (civ.combat_board.melee, civ.combat_board.ranged, civ.combat_board.flex)
            for civ in civs
        }


@lru_cache(maxsize=8)
def pack_tables(pack: ContentPack) -> PackTables:
    """The pack's :class:`PackTables` (the pack is immutable and hashed by identity)."""
    return PackTables(pack)


class CombatEnv:
    """What combat reads besides its own state: the pack (and tables read from it), the
    map if there is one, and its :class:`~.host.Host`'s answers (the game's or the
    sandbox's; tests give them as functions, in an :class:`~.host.Answers`).

    Without a map (the sandbox) retreating units simply leave the combat (N-COMBAT-23).
    The host holds the fighters' hands, stocks and flare; ``deals_tactics`` says whether
    anyone may hold a tactic card at all (asked on the hot path: a battle deals none), and
    ``flare_held`` whether anyone may hold flare (asked once per round).
    """

    __slots__ = (
        "boards",
        "civ_ability",
        "deals_tactics",
        "essences",
        "face_swords",
        "face_values",
        "faces",
        "flare_held",
        "host",
        "map",
        "pack",
    )

    def __init__(
        self, pack: ContentPack, game_map: GameMap | None = None, host: Host = NO_HOST
    ) -> None:
        tables = pack_tables(pack)
        self.pack = pack
        self.map = game_map
        self.host = host
        self.faces = tables.faces
        self.face_values = tables.face_values
        self.face_swords = tables.face_swords
        self.boards = tables.boards
        self.civ_ability = tables.civ_ability
        self.essences = tables.essences
        self.deals_tactics = host.deals_tactics()
        self.flare_held = host.holds_flare()

    def blocked(self, seat: str, zone: str) -> bool:
        """N-COMBAT-23: whether enemy units, structures or a base bar ``seat`` from
        retreating into ``zone``."""
        return self.host.blocked(seat, zone)

    def draw_biome(self, combat: Combat, dice: DiceStream) -> tuple[str | None, tuple[Event, ...]]:
        """N-COMBAT-7: the combat's biome card (or ``None``) and the events that drew it."""
        return self.host.draw_biome(combat, dice)

    def draw_tactic(self, seat: str, dice: DiceStream) -> tuple[Event, ...]:
        """Events that draw ``seat`` one tactic card (N-DEV-6 reshuffles an empty deck)."""
        return self.host.draw_tactic(seat, dice)

    def flare_cost(self, seat: str, zone: str) -> int | None:
        """N-COMBAT-8: flare ``seat`` pays to redirect a biome effect in ``zone``."""
        return self.host.flare_cost(seat, zone)

    def ambush_unit(self, seat: str) -> str | None:
        """Ambush: the unit type whose token joins for ``seat`` (``None``: none can)."""
        return self.host.ambush_unit(seat)

    def after_win_destinations(self, seat: str, unit: str) -> list[str]:
        """Quick Gains: where ``seat``'s ``unit`` may move from the combat zone."""
        return self.host.after_win_destinations(seat, unit)

    def zones_next_door(self, seat: str, combat: Combat) -> list[str]:
        """Zones next to the combat zone holding ``seat``'s units (none without a map)."""
        return self.host.zones_next_door(seat, combat)

    def strategists(self, seat: str, combat: Combat) -> list[tuple[str, str, int]]:
        """N-ABL-7: ``seat``'s (unit, zone, count) next door that may still join."""
        return self.host.strategists(seat, combat)

    def has_strategists(self) -> bool:
        """Whether anyone could join by Strategise at all (only on the game's map)."""
        return self.host.has_strategists()

    def hand(self, seat: str) -> tuple[str, ...]:
        """``seat``'s tactic hand (only ``seat`` sees it, N-COMBAT-9)."""
        return self.host.hand(seat)

    def stock(self, seat: str) -> Resources:
        """``seat``'s stock."""
        return self.host.stock(seat)

    def flare(self, seat: str) -> int:
        """``seat``'s flare (N-CIV-3)."""
        return self.host.flare(seat)

    def folded(self, combat: Combat, event: Event) -> CombatEnv:
        """This environment with its host moved on past ``event``, which may change a hand,
        a stock or flare (``combat`` is the combat before it)."""
        host = self.host.folded(combat, event)
        if host is self.host:
            return self
        return CombatEnv(self.pack, self.map, host)

    def fold(self, combat: Combat, event: Event) -> Combat:
        """:func:`~.folds.evolve_combat` with this environment's pack."""
        fold = FOLDS.get(type(event))  # evolve_combat, inlined (hot path)
        return combat if fold is None else fold(self.pack, combat, event)
