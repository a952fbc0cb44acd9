"""Starting a game from command-line flags, for any rule system (``demo`` and ``play``).

The flags map onto the system's options schema (``RuleSystem.options``): ``--turns`` sets
``max_turns``, ``--mode`` sets ``mode``, ``--scenario`` sets ``scenario`` and
``--structured`` sets ``map_structuring``
where the schema has them, and ``--option KEY=VALUE`` sets any other option. A flag the
system has no option for is a usage error, so nothing given is silently dropped.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer

from nataterra_core.game import GameSession, new_game
from nataterra_core.kernel import LineSink, Player, join_client_seeds, play, seed_from_number
from nataterra_core.kernel.registry import OptionsError, RuleSystem
from nataterra_core.search.catalogue import parse_player, players_of

from .common import check_content, check_out

__all__ = [
    "BOT_CLOCK",
    "ModeOption",
    "OptionOption",
    "PlayersOption",
    "ScenarioOption",
    "StructuredOption",
    "bot_names",
    "check_bot",
    "check_start",
    "default_bot",
    "game_options",
    "make_bots",
    "play_bots",
    "scenario_seats",
    "start",
]

PlayersOption = Annotated[
    int | None,
    typer.Option(
        help="Number of players (the game's default seats; default: its smallest count).",
        min=1,
    ),
]
ModeOption = Annotated[
    str | None,
    typer.Option(
        help="The game's mode option. Nataterra: learning (the default: Battlefield "
        "Dominance) or advanced (one victory condition per category, N-SETUP-8; 2 to 4 "
        "players on a map they build, N-MAP-4)."
    ),
]
StructuredOption = Annotated[
    bool | None,
    typer.Option(
        "--structured/--no-structured",
        help="The players build the map first (Nataterra: N-MAP-4 map structuring); by "
        "default only in advanced mode (N-SETUP-8), where --no-structured plays the fixed "
        "advanced map.",
    ),
]
ScenarioOption = Annotated[
    str | None,
    typer.Option(
        help="Play a scenario of the game (`nataterra scenarios` lists them): its seats, "
        "map, set-up and rules (Nataterra: docs/SCENARIOS.md); for a game without a "
        "scenario book, the scenario its pack names (its `scenario` option)."
    ),
]
OptionOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        help="Any other header option as KEY=VALUE (VALUE is JSON, or else a string); repeatable.",
    ),
]


def _fields(record: RuleSystem) -> dict[str, Any]:
    """The options schema's fields and their defaults (``msgspec.NODEFAULT``: required)."""
    return {f.name: f.default for f in msgspec.structs.fields(record.options)}


def game_options(
    record: RuleSystem,
    *,
    turns: int | None,
    default_turns: int,
    mode: str | None = None,
    structured: bool | None = None,
    extra: Sequence[str] = (),
    scenario: str | None = None,
) -> dict[str, Any]:
    """The header options the flags ask for, on top of the system's ``default_options``.

    A system with a turn limit always gets one (``default_turns`` unless ``--turns``); a
    mode equal to the schema's default is left out, as a game created without it would be,
    so the same game gives the same log bytes either way.
    """
    fields = _fields(record)
    options: dict[str, Any] = dict(record.default_options)

    def needs(field: str, flag: str) -> None:
        if field not in fields:
            raise typer.BadParameter(f"{record.id} has no {field} option", param_hint=flag)

    if "max_turns" in fields:
        options["max_turns"] = default_turns if turns is None else turns
    elif turns is not None:
        needs("max_turns", "--turns")
    if mode is not None:
        needs("mode", "--mode")
        if mode != fields["mode"]:
            options["mode"] = mode
    if scenario is not None:
        needs("scenario", "--scenario")
        if scenario != fields["scenario"]:
            options["scenario"] = scenario
    if structured is not None:
        needs("map_structuring", "--structured")
        options["map_structuring"] = structured
    for item in extra:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--option")
        try:
            options[key] = json.loads(text)
        except json.JSONDecodeError:
            options[key] = text
    return options


BOT_CLOCK = time.process_time
"""The clock a bot's time budget is measured on in the CLI: this process's CPU time, so that
``search:1s`` thinks as much on a loaded machine as on an idle one (the core reads none)."""


def bot_names(record: RuleSystem) -> str:
    """The system's named players, for help and errors."""
    return ", ".join(sorted(players_of(record)))


def default_bot(record: RuleSystem) -> str:
    """The system's purposeful bot (``heuristic``) when it has one, else ``random``."""
    return "heuristic" if "heuristic" in record.players else "random"


def check_bot(record: RuleSystem, bot: str | None) -> str:
    """The player ``--bot`` names (default: :func:`default_bot`), a name or a search spec
    (``search:8``, ``search:1s``); a usage error if the system has no such player."""
    chosen = bot or default_bot(record)
    try:
        parse_player(record, chosen, clock=BOT_CLOCK)
    except ValueError as exc:
        raise typer.BadParameter(
            f"{exc} (it has {bot_names(record)})", param_hint="--bot"
        ) from None
    return chosen


def make_bots(
    record: RuleSystem,
    bot: str,
    seats: Sequence[str],
    seed: int,
    content: Path | None = None,
) -> dict[str, Player]:
    """One ``bot`` (checked by :func:`check_bot`) per seat, seat ``i`` seeded
    ``seed * 16 + i`` (as ``demo`` always has), judging by the game's content pack. A time
    budget (the plain ``search`` too) is measured on :data:`BOT_CLOCK`."""
    factory = parse_player(record, bot, clock=BOT_CLOCK)
    return {seat: factory(seed * 16 + i, content=content) for i, seat in enumerate(seats)}


def play_bots(record: RuleSystem, session: GameSession, bots: Mapping[str, Player]) -> int:
    """Let the bots play until the game ends; return the commands applied.

    The one place the CLI calls a bot: each gets only its seat's view and legal commands.
    """
    return play(session, bots, record.seat_view)


def start(
    record: RuleSystem,
    players: Seats,
    *,
    seed: int | None,
    options: Mapping[str, Any],
    content: Path | None,
    sink: LineSink | None,
    client_seeds: Sequence[str] = (),
    game_id: str | None = None,
    keep_seed: Callable[[bytes], None] | None = None,
) -> GameSession:
    """A new game of ``record``; seats or options the rules refuse are a usage error.

    Without ``seed`` the server seed is secret and random (revealed when the game closes).
    ``client_seeds`` are ``SEAT=VALUE`` contributions, one per seat, joined into the header's
    client seed (docs/DICE.md)."""
    count = min(record.player_counts) if players is None else players
    server_seed = None
    if seed is None:
        server_seed = secrets.token_bytes(32)
        game_id = game_id or f"g-{secrets.token_hex(8)}"
    if keep_seed is not None:  # before the header: a log on disk can always be resumed
        keep_seed(server_seed if server_seed is not None else seed_from_number(seed or 0)[0])
    try:
        seats = record.seats(count)
        client_seed = _joined(seats, client_seeds) if client_seeds else ""
        return new_game(
            seats,
            game=record.id,
            seed=seed,
            server_seed=server_seed,
            game_id=game_id,
            client_seed=client_seed,
            options=options,
            content=content,
            sink=sink,
        )
    except OptionsError as exc:
        raise typer.BadParameter(str(exc)) from exc


def check_client_seeds(record: RuleSystem, players: Seats, given: Sequence[str]) -> None:
    """Refuse bad ``--client-seed`` values before a log file is opened."""
    if given:
        count = min(record.player_counts) if players is None else players
        _joined(record.seats(count), given)


def _joined(seats: Sequence[str], given: Sequence[str]) -> str:
    """``SEAT=VALUE`` contributions joined in seat order; a usage error unless every seat
    gives exactly one valid contribution."""
    contributions: dict[str, str] = {}
    for item in given:
        seat, sep, value = item.partition("=")
        if not sep or seat in contributions:
            raise typer.BadParameter(
                f"{item!r}: give SEAT=VALUE once per seat", param_hint="--client-seed"
            )
        contributions[seat] = value
    try:
        return join_client_seeds(seats, contributions)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--client-seed") from exc


def new_game_id(seed: int | None) -> str:
    """The game id a new game gets: ``seed-N`` for a public test seed, else ``g-`` and 16
    random hex digits (known before the game starts, so its log file can be named by it)."""
    return f"seed-{seed}" if seed is not None else f"g-{secrets.token_hex(8)}"


def bot_seed(seed: int | None) -> int:
    """The bots' seed: the game's test seed, or a fresh random one with a secret seed."""
    return secrets.randbelow(2**32) if seed is None else seed


Seats = int | Sequence[str] | None
"""A player count (the system's default seats), the seats themselves, or ``None`` (the
smallest count)."""


def _scenario(record: RuleSystem, name: str) -> Any:
    """The scenario ``name`` of the system's ``scenarios`` hook, or a usage error."""
    book = record.hooks.scenarios
    if not book:
        raise typer.BadParameter(f"{record.id} has no scenarios", param_hint="--scenario")
    if name not in book:
        known = ", ".join(book)
        raise typer.BadParameter(f"no scenario {name!r} (known: {known})", param_hint="--scenario")
    return book[name]


def scenario_seats(record: RuleSystem, scenario: str | None, players: int | None) -> Seats:
    """The seats of ``--scenario`` from the system's scenario book, else ``players``."""
    if scenario is None or not record.hooks.scenarios:
        return players
    if players is not None:
        raise typer.BadParameter("a scenario has its own seats", param_hint="--players")
    return tuple(_scenario(record, scenario).seats)


def prepare(
    record: RuleSystem,
    players: Seats,
    *,
    content: Path | None,
    out: Path | None,
    turns: int | None,
    default_turns: int,
    mode: str | None,
    structured: bool | None,
    extra: Sequence[str],
    scenario: str | None = None,
) -> dict[str, Any]:
    """What ``demo`` and ``play`` check before anything is played or written: the content
    pack, ``--out``, the options the flags ask for and the seats; the options. A
    ``scenario`` brings its own options (``--turns`` may shorten it; nothing else is given)."""
    check_content(record, content)
    check_out(out)
    if scenario is not None and record.hooks.scenarios:  # a scenario book (its seats too)
        if mode is not None or structured is not None or extra:
            raise typer.BadParameter(
                "a scenario has its own set-up: no --mode, --structured or --option",
                param_hint="--scenario",
            )
        options = dict(_scenario(record, scenario).options)
        if turns:
            options["max_turns"] = turns
        check_start(record, players, options, content)
        return options
    options = game_options(
        record,
        turns=turns,
        default_turns=default_turns,
        mode=mode,
        structured=structured,
        extra=extra,
        scenario=scenario,
    )
    check_start(record, players, options, content)
    return options


def check_start(
    record: RuleSystem, players: Seats, options: Mapping[str, Any], content: Path | None
) -> None:
    """Refuse seats or options the rules refuse before a log file is opened."""
    count = min(record.player_counts) if players is None else players
    try:
        record.check(record.decider(content), record.seats(count), options)
    except OptionsError as exc:
        raise typer.BadParameter(str(exc)) from exc
