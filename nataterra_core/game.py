"""The game facade: start, load and verify Nataterra games in one call each.

    >>> from nataterra_core.game import new_game
    >>> session = new_game(seed=7, options={"max_turns": 10})
    >>> session.acting_seats()  # the first player was drawn from the seed
    ('beasts',)

Everything here is a thin composition of the kernel (sessions, logs, verification), the
content pack loader and the Nataterra rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.rules.game import RULES, Nataterra
from nataterra_core.games.nataterra.rules.state import GameState
from nataterra_core.kernel import (
    Command,
    Event,
    Header,
    LineSink,
    Session,
    UnknownContent,
    UnsupportedVersion,
    Verdict,
    seed_from_number,
    verify,
)

__all__ = ["GameSession", "decider_for", "new_game", "verify_log"]

GameSession = Session[GameState, Command, Event]
"""A live Nataterra game."""

DEFAULT_SEATS: dict[int, tuple[str, ...]] = {
    2: ("velathi", "beasts"),
    3: ("velathi", "beasts", "humans"),
    4: ("velathi", "beasts", "humans", "naga"),
}


def new_game(
    seats: Sequence[str] | int = 2,
    *,
    seed: int | None = None,
    server_seed: bytes | None = None,
    game_id: str | None = None,
    client_seed: str = "",
    options: Mapping[str, Any] | None = None,
    content: Path | None = None,
    sink: LineSink | None = None,
) -> GameSession:
    """Start a game and write its header and ``start`` record.

    ``seats`` is the civilisations in turn order (or a player count for the learning
    seating, N-SETUP-1). Give either ``seed`` (``--seed N`` derivation, design.md §3) or a
    32-byte ``server_seed`` with a ``game_id``. ``content`` is a user pack overlaid on the
    provisional one.
    """
    civs = DEFAULT_SEATS[seats] if isinstance(seats, int) else tuple(seats)
    if seed is not None:
        if server_seed is not None:
            raise ValueError("give seed or server_seed, not both")
        server_seed, derived_id = seed_from_number(seed)
        game_id = game_id or derived_id
    if server_seed is None or game_id is None:
        raise ValueError("new_game needs seed, or server_seed and game_id")
    return Session.new(
        Nataterra(load_pack(content)),
        seats=civs,
        server_seed=server_seed,
        game_id=game_id,
        client_seed=client_seed,
        options=options,
        sink=sink,
    )


def decider_for(header: Header, content: Path | None = None) -> Nataterra:
    """The decider a log's header asks for (a ``DeciderFactory`` for the kernel's verify).

    Raises :class:`UnsupportedVersion` for another rule system or version and
    :class:`UnknownContent` when the effective pack here (provisional, plus ``content``)
    is not the one the log was played with.
    """
    if header.rules != RULES:
        raise UnsupportedVersion(
            f"rules {header.rules.id} v{header.rules.version}: this library runs "
            f"{RULES.id} v{RULES.version}",
            0,
        )
    decider = Nataterra(load_pack(content))
    if header.content != decider.content:
        logged = header.content.sha256 if header.content else "none"
        hint = "" if content else " (was it played with a user pack? pass it as content)"
        raise UnknownContent(
            f"the log's content pack sha256 {logged} is not the pack here "
            f"({decider.content.sha256}){hint}",
            0,
        )
    return decider


def verify_log(
    data: bytes, *, content: Path | None = None, expect_head: str | None = None
) -> Verdict:
    """Verify a Nataterra log; see :func:`nataterra_core.kernel.verify`."""
    return verify(data, lambda header: decider_for(header, content), expect_head=expect_head)
