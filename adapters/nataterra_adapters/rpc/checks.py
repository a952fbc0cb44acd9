"""What the game methods look up and check: a rule system by id (and as ``server.info``
describes it), the seats and options of a new game (from a scenario or a position too), the
seat of a token, the board of a view, a system's command union."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from functools import cache
from typing import Any, Union

import msgspec

from nataterra_core.kernel import Command
from nataterra_core.kernel.dice import check_game_id
from nataterra_core.kernel.registry import RuleSystem, system, systems
from nataterra_core.search.catalogue import players_of

from .errors import GameError, GameErrorCode, rejected
from .wire import CreateParams

__all__ = [
    "checked_seats",
    "command_union",
    "describe_system",
    "seat_of",
    "system_named",
]


def system_named(rules_id: str) -> RuleSystem:
    """The registered system ``rules_id``, or a set-up error naming the known ones."""
    try:
        return system(rules_id)
    except KeyError:
        known = [record.id for record in systems()]
        raise GameError(
            GameErrorCode.SETUP_REJECTED,
            f"no rule system {rules_id!r} (known: {', '.join(known)})",
            known_rules=known,
        ) from None


def describe_system(record: RuleSystem) -> dict[str, Any]:
    """A system as ``server.info`` lists it; the options schema is derived from its Struct."""
    return {
        "id": record.rules.id,
        "version": record.rules.version,
        "title": record.title,
        "player_counts": list(record.player_counts),
        "default_seats": {str(n): list(s) for n, s in sorted(record.default_seats.items())},
        "options_schema": msgspec.json.schema(record.options),
        "default_options": dict(record.default_options),
        "players": sorted(players_of(record)),
        "option_choices": _option_choices(record),
        "how_to_play": record.hooks.how_to_play is not None,
    }


def _option_choices(record: RuleSystem) -> dict[str, list[dict[str, Any]]]:
    """The values a lobby offers for an option, each with its words (the system's
    ``option_choices`` hook): ``{"map": [{"value": "small", "words": "the small map"}]}``."""
    hook = record.hooks.option_choices
    if hook is None:
        return {}
    return {
        option: [{"value": value, "words": words} for value, words in choices]
        for option, choices in hook().items()
    }


def checked_seats(
    record: RuleSystem, params: CreateParams, seats: Sequence[str] | int, game_id: str
) -> tuple[str, ...]:
    """The seats of a game to create, its id, seats and options checked by the rules (a
    set-up error otherwise) before anything is written."""
    try:
        check_game_id(game_id)
        chosen = record.seats(seats)
        options = record.default_options if params.options is None else params.options
        record.check(record.decider(None), chosen, dict(options))
    except ValueError as exc:
        raise rejected(exc) from exc
    return chosen


def seat_of(tokens: dict[str, str], token: str, version: int) -> str:
    """The seat whose secret ``token`` is (compared in constant time), or a token error."""
    given = token.encode("utf-8", "surrogatepass")
    for seat, secret in tokens.items():
        if secrets.compare_digest(secret.encode(), given):
            return seat
    raise GameError(GameErrorCode.BAD_TOKEN, "the token is not one of this game's", version=version)


_SCENARIO_OPTION = "scenario"
"""The option naming the scenario in a system that has one but no scenario book."""


def _option_names(record: RuleSystem) -> frozenset[str]:
    return frozenset(f.name for f in msgspec.structs.fields(record.options))


@cache
def command_union(types: tuple[type[Command], ...]) -> Any:
    return Union[types]  # noqa: UP007 - a runtime union of the decider's command classes


def set_up(record: RuleSystem, params: CreateParams) -> CreateParams:
    """``params`` with a ``scenario`` or ``position`` turned into seats and options, through
    the system's ``scenarios`` and ``positions`` hooks (a set-up error when it has none)."""
    if params.scenario is not None and params.position is not None:
        raise GameError(GameErrorCode.SETUP_REJECTED, "give a scenario or a position, not both")
    seats = params.seats
    options = dict(params.options or {})
    if params.scenario is not None:
        book = record.hooks.scenarios or {}
        entry = book.get(params.scenario)
        if entry is not None:
            seats = list(entry.seats) if seats is None else seats
            options.update(entry.options)
        elif not book and _SCENARIO_OPTION in _option_names(record):
            # A system whose scenarios come from its pack (no book): the name is its
            # ``scenario`` option, which the rules check with the seats (checked_seats).
            options[_SCENARIO_OPTION] = params.scenario
        else:
            known = ", ".join(book) or "none"
            raise GameError(
                GameErrorCode.SETUP_REJECTED,
                f"{record.id} has no scenario {params.scenario!r} (known: {known})",
            )
    elif params.position is not None:
        formats = record.hooks.positions
        if formats is None:
            raise GameError(GameErrorCode.SETUP_REJECTED, f"{record.id} has no position format")
        try:
            seats = list(formats.seats(params.position)) if seats is None else seats
            kept = {k: v for k, v in options.items() if k == "tournament"}
            options = {**kept, **formats.options(params.position)}
        except ValueError as exc:
            raise rejected(exc) from exc
    else:
        return params
    if params.players is not None:
        raise GameError(GameErrorCode.SETUP_REJECTED, "a scenario or position has its own seats")
    return msgspec.structs.replace(
        params, seats=seats, options=options, scenario=None, position=None
    )
