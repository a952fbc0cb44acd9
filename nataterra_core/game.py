"""The game facade: start, load and verify games of any registered rule system, one call each.

    >>> from nataterra_core.game import new_game
    >>> session = new_game(seed=7, options={"max_turns": 10})
    >>> session.acting_seats()  # the first player was drawn from the seed
    ('beasts',)

``game`` picks the rule system (``"nataterra"`` by default; see
:func:`nataterra_core.kernel.registry.systems`). Everything here is a thin composition of
the kernel (sessions, logs, verification) and the registry.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nataterra_core.kernel import (
    Command,
    Decider,
    Event,
    Header,
    HeaderRefused,
    LineSink,
    Session,
    UnknownContent,
    Verdict,
    seed_from_number,
    verify,
)
from nataterra_core.kernel.messages import decode_command
from nataterra_core.kernel.registry import OptionsError, system, system_for

if TYPE_CHECKING:
    from nataterra_core.kernel.receipts import Receipt

__all__ = [
    "DEFAULT_GAME",
    "GameSession",
    "check_log_header",
    "decider_for",
    "decode_command_for",
    "new_game",
    "verify_log",
]

DEFAULT_GAME = "nataterra"
"""The rule system a game is of when the caller names none."""

GameSession = Session[Any, Command, Event]
"""A live game of any rule system."""


def new_game(
    seats: Sequence[str] | int = 2,
    *,
    game: str = DEFAULT_GAME,
    seed: int | None = None,
    server_seed: bytes | None = None,
    game_id: str | None = None,
    client_seed: str = "",
    options: Mapping[str, Any] | None = None,
    content: Path | None = None,
    sink: LineSink | None = None,
    position: Any = None,
    receipt_key: str | None = None,
) -> GameSession:
    """Start a game of the rule system ``game`` and write its header and ``start`` record.

    ``seats`` names the seats in turn order (for Nataterra, the civilisations), or gives a
    player count for the system's default seats. Give ``seed`` (``--seed N`` derivation,
    docs/DICE.md, for a game anyone can replay from its number) or a 32-byte
    ``server_seed`` (with a ``game_id``, or one is drawn); give neither and a secret seed and a
    game id are drawn from the operating system's entropy, as ``nataterra play`` does (the
    seed is revealed in the log when the game closes). ``content``
    is a user pack overlaid on the system's own; ``options`` default to the system's
    ``default_options``. Seats and options the rules refuse raise
    :class:`~nataterra_core.kernel.registry.OptionsError` (a ``ValueError``).

    ``position`` starts the game from a described position (the system's ``positions``
    hook: for Nataterra ``nataterra-position`` JSON or TOML text, a path, a mapping or a
    ``Position``; ``docs/POSITIONS.md``); its seats are used unless ``seats`` names them,
    and it goes into the header's options, which then hold nothing else but ``tournament``.

    ``receipt_key`` (a game served with receipts, docs/RECEIPTS.md) is the game's Ed25519
    public key in hex; the header then has ``format_version`` 2.
    """
    record = system(game)
    if position is not None:
        formats = record.hooks.positions
        if formats is None:
            raise OptionsError(f"{record.id} has no position format")
        if isinstance(seats, int):
            seats = formats.seats(position)
        kept = {k: v for k, v in (options or {}).items() if k == "tournament"}
        options = {**kept, **formats.options(position)}
    chosen = record.seats(seats)
    if seed is not None:
        if server_seed is not None:
            raise ValueError("give seed or server_seed, not both")
        server_seed, derived_id = seed_from_number(seed)
        game_id = game_id or derived_id
    elif server_seed is None:
        # A secret seed, as the CLI and the RPC server draw one: OS entropy (what ``secrets``
        # reads), never a global random state; the session reveals it at close.
        server_seed = os.urandom(32)
    game_id = game_id or f"g-{os.urandom(8).hex()}"
    if options is None:
        options = record.default_options
    decider = record.decider(content)
    record.check(decider, chosen, dict(options))
    return Session.new(
        decider,
        seats=chosen,
        server_seed=server_seed,
        game_id=game_id,
        client_seed=client_seed,
        options=options,
        sink=sink,
        receipt_key=receipt_key,
    )


def decode_command_for(
    data: bytes | str | Mapping[str, Any], game: str = DEFAULT_GAME, *, content: Path | None = None
) -> Command:
    """The command of the rule system ``game`` that ``data`` spells in JSON, as a log and
    the RPC server write it (``{"type": "end_phase.v1"}``); ``MalformedCommand`` (a
    ``ValueError``) naming what is wrong otherwise::

        >>> decode_command_for('{"type": "bid.v1", "quantity": 3, "face": 5}', "liars-dice")
        Bid(quantity=3, face=5)
    """
    return decode_command(system(game).decider(content).command_types, data)


def decider_for(header: Header, content: Path | None = None) -> Decider[Any, Any, Any]:
    """The decider a log's header asks for (a ``DeciderFactory`` for the kernel's verify).

    Raises :class:`~nataterra_core.kernel.UnsupportedVersion` for an unknown rule system or
    version, and what :func:`check_log_header` raises.
    """
    decider = system_for(header).decider(content)
    check_log_header(header, decider, user_pack=content is not None)
    return decider


def check_log_header(
    header: Header, decider: Decider[Any, Any, Any], *, user_pack: bool = False
) -> None:
    """Check a log's header against the decider that is to replay it, exactly as at creation.

    Raises :class:`UnknownContent` when the decider's effective pack (the system's own, plus
    the user pack, if ``user_pack``) is not the one the log was played with, and
    :class:`HeaderRefused` for seats or options the rules refuse. A caller that keeps
    deciders between logs (batch verification) runs it for every log: each header is
    checked on its own.
    """
    if header.content != decider.content:
        logged = header.content.sha256 if header.content else "none"
        here = decider.content.sha256 if decider.content else "none"
        hint = "" if user_pack else " (was it played with a user pack? pass it as content)"
        raise UnknownContent(
            f"the log's content pack sha256 {logged} is not the pack here ({here}){hint}", 0
        )
    try:
        system_for(header).check(decider, header.seats, header.options)
    except OptionsError as exc:
        raise HeaderRefused(f"the rules refuse the header: {exc}", 0) from exc


def verify_log(
    data: bytes,
    *,
    content: Path | None = None,
    expect_head: str | None = None,
    receipts: Sequence[Receipt] = (),
) -> Verdict:
    """Verify a log of any registered rule system; see :func:`nataterra_core.kernel.verify`
    (``receipts``: seats' signed receipts that must belong to the log, docs/RECEIPTS.md)."""
    return verify(
        data,
        lambda header: decider_for(header, content),
        expect_head=expect_head,
        receipts=receipts,
    )
