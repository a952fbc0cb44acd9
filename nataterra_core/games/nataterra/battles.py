"""Battle descriptions: a combat sandbox battle as a JSON file (``docs/COMBAT_SANDBOX.md``).

    >>> battle = decode_battle(
    ...     '{"attacker": "velathi", "defender": "beasts", "biome": "hills",'
    ...     ' "forces": [{"owner": "velathi", "unit": "zealot", "count": 3, "side": "a"},'
    ...     '            {"owner": "beasts", "unit": "orc", "count": 2}]}'
    ... )
    >>> battle.forces[0].count
    3
    >>> decode_battle('{"attacker": "velathi", "defender": "beasts", "forces": [{"owner":'
    ...               ' "velathi", "unit": "zealot", "count": "3"}]}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    nataterra_core.games.nataterra.battles.BattleError: battle: Expected `int`, got `str`...

The wire format is :class:`~nataterra_core.games.nataterra.rules.combat.sandbox.Battle` itself
(msgspec, unknown fields refused); :func:`check_battle` adds the checks against the content pack,
each naming the JSON path of the offending field.
"""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import msgspec

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.content.schema import Biome, ContentPack
from nataterra_core.games.nataterra.rules.combat.sandbox import Sandbox
from nataterra_core.games.nataterra.rules.combat.sandbox_model import Battle, battle_option
from nataterra_core.kernel import EngineError
from nataterra_core.kernel.bounded import (
    MAX_DEPTH,
    integers_outside,
    nesting_depth,
    read_regular_file,
)

__all__ = [
    "STANDARD_BATTLE_FILE",
    "BattleError",
    "check_battle",
    "decode_battle",
    "encode_battle",
    "load_battle",
    "standard_battle",
]

STANDARD_BATTLE_FILE = Path(__file__).resolve().parent / "data" / "standard_battle.json"
"""The standard battle, shipped with the package (``nataterra odds`` without a FILE, and the
sandbox's default); ``examples/standard_battle.json`` is the same file for readers of the
repository."""

_BIOMES = frozenset(get_args(Biome))
_NO_BIOME_CARD = frozenset({"mountain", "lake"})  # N-COMBAT-7: these biomes have no deck


class BattleError(EngineError, ValueError):
    """A battle description that cannot be played; the message names the file and field."""


BATTLE_BYTES = 1 << 20
"""The largest battle file read (a battle is a few hundred bytes)."""
BATTLE_INTEGER = 2**31
"""Every integer of a battle is ``|n| < 2**31`` (it goes into a log's header)."""


def decode_battle(
    data: bytes | str, pack: ContentPack | None = None, *, source: str = "battle"
) -> Battle:
    """Decode and check a JSON battle description.

    Raises:
        BattleError: ``"<source>: <problem> - at `$.path`"`` for the first problem found.
    """
    text = data.encode() if isinstance(data, str) else data
    if nesting_depth(text) > MAX_DEPTH:
        raise BattleError(f"{source}: nested deeper than {MAX_DEPTH} levels")
    try:
        battle = msgspec.json.decode(text, type=Battle)
    except msgspec.DecodeError as exc:  # ValidationError included; msgspec names the path
        raise BattleError(f"{source}: {exc}") from exc
    for where, value in integers_outside(msgspec.to_builtins(battle), BATTLE_INTEGER):
        raise BattleError(f"{source}: {value} is out of range (within ±2**31) - at `{where}`")
    problems = check_battle(battle, pack)
    if problems:
        raise BattleError(f"{source}: " + "; ".join(problems))
    return battle


def load_battle(path: str | Path, pack: ContentPack | None = None) -> Battle:
    """Read, decode and check the battle description in the JSON file ``path``.

    Raises:
        BattleError: the file is unreadable, not JSON, or describes an impossible battle.
    """
    try:
        data = read_regular_file(path, BATTLE_BYTES)
    except OSError as exc:  # InputRefused included: not a regular file, or too large
        raise BattleError(f"{path}: cannot read the file: {exc.strerror or exc}") from exc
    return decode_battle(data, pack, source=str(path))


def encode_battle(battle: Battle) -> bytes:
    """The canonical JSON of ``battle`` (what :func:`load_battle` reads back)."""
    return msgspec.json.format(battle_option(battle).encode(), indent=2) + b"\n"


def check_battle(battle: Battle, pack: ContentPack | None = None) -> list[str]:
    """Every problem of ``battle`` against ``pack`` (the provisional pack by default), each
    as ``"<problem> - at `$.path`"`` like msgspec's own errors; empty when it can be played."""
    pack = pack or load_pack()
    problems: list[str] = []

    def problem(message: str, where: str) -> None:
        problems.append(f"{message} - at `$.{where}`")

    sides = (battle.attacker, battle.defender)
    for field, civ in zip(("attacker", "defender"), sides, strict=True):
        if civ not in pack.civilisations:
            problem(f"unknown civilisation {civ!r}", field)
    if battle.attacker == battle.defender:
        problem("the attacker and the defender must differ", "defender")
    if battle.biome not in _BIOMES:
        problem(f"unknown biome {battle.biome!r} (one of {', '.join(sorted(_BIOMES))})", "biome")
    units = dict.fromkeys(sides, 0)
    for i, spec in enumerate(battle.forces):
        where = f"forces[{i}]"
        if spec.owner not in sides:
            problem(f"{spec.owner!r} is neither the attacker nor the defender", f"{where}.owner")
        unit = pack.units.get(spec.unit)
        if unit is None:
            problem(f"unknown unit {spec.unit!r}", f"{where}.unit")
        elif unit.civ != spec.owner:
            problem(f"{spec.unit!r} is a {unit.civ} unit, not {spec.owner}'s", f"{where}.unit")
        if spec.count < 1:
            problem(f"count must be at least 1, got {spec.count}", f"{where}.count")
        elif spec.owner in units:
            units[spec.owner] += spec.count
    for civ, count in units.items():
        if not count and civ in pack.civilisations:
            problem(f"{civ} has no units in the battle", "forces")
    for civ, stock in battle.stocks.items():
        if civ not in sides:
            problem(f"{civ!r} is neither the attacker nor the defender", f"stocks.{civ}")
        for name in ("food", "wood", "metal"):
            if getattr(stock, name) < 0:
                problem(f"{name} cannot be negative", f"stocks.{civ}.{name}")
    card_id = battle.biome_card
    if card_id is not None:
        card = pack.biome_cards.get(card_id)
        if card is None:
            problem(f"unknown biome card {card_id!r}", "biome_card")
        elif battle.biome in _NO_BIOME_CARD:
            problem(f"a {battle.biome} zone draws no biome card (N-COMBAT-7)", "biome_card")
        elif card.biome != battle.biome:
            problem(f"{card_id!r} is a {card.biome} card, the zone is {battle.biome}", "biome_card")
    if not problems:  # the sandbox's own checks, so both never disagree on what is playable
        try:
            Sandbox(pack).validate_options({"battle": battle_option(battle)})
        except ValueError as exc:
            problems.append(str(exc))
    return problems


def standard_battle() -> Battle:
    """The standard battle (:data:`STANDARD_BATTLE_FILE`), checked against the provisional pack."""
    return decode_battle(STANDARD_BATTLE_FILE.read_bytes(), source=STANDARD_BATTLE_FILE.name)
