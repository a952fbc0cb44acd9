"""Kaladan's pack format on the shared loader (:mod:`nataterra_core.packs`): overlay by id,
strict structuring, every problem with its file and path, the effective SHA-256."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from nataterra_core.kernel.errors import ContentProblem
from nataterra_core.packs import (
    PackContents,
    PackInfo,
    PackLoader,
    PackSchema,
    structure_int_pairs,
)

from .checks import check_pack
from .schema import (
    Economy,
    EventCard,
    KaladanPack,
    MagicCard,
    MapDef,
    SeatDef,
    Terrain,
    UnitType,
)

__all__ = ["PROVISIONAL_DIR", "SCHEMA", "load_pack"]

PROVISIONAL_DIR = Path(__file__).resolve().parent / "packs" / "provisional"
"""The provisional pack shipped with the package."""


def _build(contents: PackContents) -> KaladanPack:
    economy = contents.singletons["economy"] or Economy(
        start_gold=0,
        start_magic=0,
        start_board=(),
        start_reserve={},
        castle_upgrade_cost=0,
        castle_upgrade_die=0,
        magic_exchange_cost=0,
        magic_buy_cost=0,
        captured_magic_cost=0,
        tie_break_dice=(),
    )
    return KaladanPack(
        base=contents.base_info or PackInfo(id="", version=""),
        overlay=contents.overlay_info,
        sha256=contents.sha256,
        economy=economy,
        **contents.collections,
    )


def _check(pack: KaladanPack, contents: PackContents) -> Iterable[ContentProblem]:
    if contents.singletons["economy"] is None:
        return ()
    return check_pack(pack, contents)


SCHEMA: PackSchema[KaladanPack] = PackSchema(
    info=PackInfo,
    singletons={"economy": Economy},
    collections={
        "units": UnitType,
        "terrains": Terrain,
        "seats": SeatDef,
        "maps": MapDef,
        "events": EventCard,
        "magic": MagicCard,
    },
    build=_build,
    check=_check,
    required=frozenset({"economy"}),
    converter_hooks=structure_int_pairs,
)
"""Kaladan's pack format, for :func:`nataterra_core.packs.load`."""


load_pack: PackLoader[KaladanPack] = PackLoader(SCHEMA, PROVISIONAL_DIR)
"""The provisional pack, or ``load_pack(overlay_dir)``: a user pack merged over it by id
(``ContentError`` lists every problem with its file and path)."""
