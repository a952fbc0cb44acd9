"""Nataterra positions (``nataterra-position`` v1, ``docs/POSITIONS.md``): read, check, write.

    >>> from nataterra_core.game import new_game
    >>> from nataterra_core.games.nataterra.rules.positions import POSITIONS
    >>> game = new_game(seed=7, options={"max_turns": 10})
    >>> text = POSITIONS.export(game.state)  # canonical JSON (``export(..., toml=True)``)
    >>> again = new_game(seed=7, position=text)  # the same position, played on
    >>> again.state == game.state
    True

A position is read from JSON or TOML (text, bytes, a path, a mapping or a
:class:`Position`), checked against the pack and the rules' invariants (one
:class:`PositionError` lists every problem with its path) and carried in the header's
``position`` option as canonical JSON; record 1 then names its SHA-256
(:class:`StartFromPosition`). Hands and deck orders in it are hidden information:
:func:`redacted` cuts them for a seat, as the log views do.
"""

from __future__ import annotations

import functools
import hashlib
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.kernel.bounded import (
    MAX_DEPTH,
    InputRefused,
    check_depth,
    integers_outside,
    nesting_depth,
    read_regular_file,
)

from ...state import GameState
from .checks import PositionError, Problem, problems
from .convert import position_of, state_of
from .schema import FORMAT, MARKERS, VERSION, PlayerEntry, Position, TurnState, UnitEntry
from .start import decide_start_position

__all__ = [
    "FORMAT",
    "MARKERS",
    "POSITIONS",
    "POSITION_BYTES",
    "POSITION_INTEGER",
    "VERSION",
    "PlayerEntry",
    "Position",
    "PositionError",
    "PositionFormat",
    "Problem",
    "TurnState",
    "UnitEntry",
    "canonical_json",
    "checked",
    "decide_start_position",
    "parse",
    "position_of",
    "public_sha256",
    "redacted",
    "state_of",
]

_ENCODER = msgspec.json.Encoder(order="deterministic")

PositionSource = Position | Mapping[str, Any] | str | bytes | Path


POSITION_BYTES = 4 << 20
"""The largest position file read (a whole game's position is some tens of kilobytes)."""

POSITION_INTEGER = 2**31
"""Every integer of a position is ``|n| < 2**31``: counts, stocks and counters far below it,
and sums and products of them far below the ``2**53`` a log record may hold (LOG_FORMAT §1)."""


def parse(source: PositionSource) -> Position:
    """A position from JSON or TOML text (JSON when it starts with ``{``), bytes, a file
    (``.toml`` or ``.json``), a mapping or a :class:`Position`. A value of the wrong shape is
    a :class:`PositionError` naming its path (the type check stops at the first such value;
    the rules' checks in :func:`checked` list every problem).

    What is read is bounded first (:mod:`nataterra_core.kernel.bounded`): a file must be a
    regular one of at most :data:`POSITION_BYTES`, text may nest at most ``MAX_DEPTH``
    levels, and every integer out of ``±POSITION_INTEGER`` is a problem naming its path.
    """
    try:
        data = _data(source)
    except msgspec.ValidationError as exc:
        raise PositionError([_type_problem(str(exc))]) from exc
    except (msgspec.DecodeError, tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
        raise PositionError([Problem("$", f"not a readable position: {exc}")]) from exc
    out_of_range = [
        Problem(path, f"{value} is out of range (a position's integers are within ±2**31)")
        for path, value in integers_outside(data, POSITION_INTEGER)
    ]
    if out_of_range:
        raise PositionError(out_of_range)
    if isinstance(source, Position):
        return source
    try:
        return msgspec.convert(data, Position, strict=True)
    except msgspec.ValidationError as exc:
        raise PositionError([_type_problem(str(exc))]) from exc


def _data(source: PositionSource) -> Any:
    """The position as plain data (mappings and lists), read within the bounds."""
    if isinstance(source, Position):
        return msgspec.to_builtins(source)
    data: Any = source
    if isinstance(source, Path):
        data = read_regular_file(source, POSITION_BYTES)
        if source.suffix == ".toml":
            data = data.decode()
    if isinstance(data, bytes):
        data = data.decode()
    if isinstance(data, str):
        if data.lstrip().startswith("{"):
            if nesting_depth(data.encode()) > MAX_DEPTH:
                raise InputRefused(f"the position is nested deeper than {MAX_DEPTH} levels")
            data = msgspec.json.decode(data)
        else:
            try:
                data = tomllib.loads(data)
            except RecursionError:
                raise InputRefused(
                    f"the position is nested deeper than {MAX_DEPTH} levels"
                ) from None
    check_depth(data, "the position")
    return data


def _type_problem(message: str) -> Problem:
    text, _, path = message.rpartition(" - at `")
    if not text:
        return Problem("$", message)
    return Problem(path.rstrip("`"), text)


def checked(pack: ContentPack, source: PositionSource) -> Position:
    """The position, read and checked: :class:`PositionError` listing every problem."""
    position = parse(source)
    found = problems(pack, position)
    if found:
        raise PositionError(found)
    return position


def canonical_json(position: Position) -> str:
    """The position's one canonical JSON text (sorted keys of data maps, defaults left
    out): what the header's ``position`` option holds."""
    return _ENCODER.encode(position).decode()


def public_sha256(position: Position) -> str:
    """Lowercase hex SHA-256 of the position as a spectator sees it (:func:`redacted` with
    no seat), encoded as a record view is (compact JSON, keys sorted): what the spectator's
    view of the header shows as its ``position`` option, so anyone can recompute it, and
    nothing hidden is hashed."""
    return hashlib.sha256(_ENCODER.encode(redacted(position, None))).hexdigest()


@functools.lru_cache(maxsize=64)
def decoded(text: str) -> Position:
    """The position of a header's ``position`` option (decoded once per text)."""
    return parse(text)


_HIDDEN_PLAYER = ("tactic_hand", "tech_hand")
_ORDERS = ("tactic_deck", "tech_deck")


def redacted(position: Position, seat: str | None) -> dict[str, Any]:
    """The position as ``seat`` may see it (``None``: a spectator): the other seats' hands
    and every deck's order are cut, their sizes kept (``{"redacted": [...], "sizes": {...}}``
    beside the remaining fields), as in the seat views."""
    data: dict[str, Any] = msgspec.json.decode(_ENCODER.encode(position))
    for civ, player in data.get("players", {}).items():
        source = position.players[civ]
        cut = [*_ORDERS, *(() if civ == seat else _HIDDEN_PLAYER)]
        sizes = {name: len(getattr(source, name)) for name in cut}
        for name in cut:
            player.pop(name, None)
        player["redacted"] = sorted(cut)
        player["sizes"] = sizes
    if "biome_decks" in data:
        data["biome_decks"] = {b: len(cards) for b, cards in position.biome_decks.items()}
    return data


class PositionFormat:
    """The registry's ``positions`` hook for Nataterra (``Hooks.positions``): generic front
    ends read, export and start from positions through it without knowing the game."""

    format = FORMAT
    version = VERSION

    def export(self, state: Any, *, seat: str | None = None, toml: bool = False) -> str:
        """The position of ``state`` as canonical JSON (or TOML); with ``seat``, only what
        that seat may see (JSON). ``ValueError`` inside a combat or a map being built."""
        if not isinstance(state, GameState):
            raise TypeError(f"not a Nataterra state: {type(state).__name__}")
        position = position_of(state)
        if seat is not None:
            return _ENCODER.encode(redacted(position, seat)).decode()
        if toml:
            return msgspec.toml.encode(position).decode()
        return canonical_json(position)

    def seats(self, source: PositionSource) -> tuple[str, ...]:
        """The seats a position is played by, in turn order."""
        return parse(source).seats

    def options(self, source: PositionSource) -> dict[str, Any]:
        """The header options that start a game from ``source`` (checked when the game is
        created against its pack)."""
        return {"position": canonical_json(parse(source))}


POSITIONS = PositionFormat()
"""The one instance the registry holds."""
