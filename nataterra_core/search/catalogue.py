"""Every player a rule system offers by name: its own bots, the kernel's ``random``, and
``search`` (the information-set MCTS player of :mod:`.ismcts`) for a system whose record
offers a determiniser.

The registry's record lists the system's own players (:attr:`RuleSystem.players
<nataterra_core.kernel.registry.RuleSystem.players>`, ``random`` always among them); the
search player is built here, on top of the kernel, so the kernel never imports it. Front ends
that let a user pick a bot by name go through :func:`players_of` and :func:`make_player`::

    >>> from nataterra_core.kernel.registry import system
    >>> sorted(players_of(system("nataterra")))
    ['heuristic', 'random', 'search']
    >>> make_player(system("nataterra"), "search:4:random", 7).iterations
    4
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path

from nataterra_core.kernel.players import Player
from nataterra_core.kernel.registry import PlayerFactory, RuleSystem

from .ismcts import SearchPlayer

__all__ = [
    "SEARCH",
    "SEARCH_ITERATIONS",
    "make_player",
    "parse_player",
    "players_of",
    "search_player",
]

SEARCH = "search"
"""The name of the search player every system with a determiniser offers."""
SEARCH_ITERATIONS = 8
"""The search player's iterations per decision unless told otherwise (``docs/BOTS.md``)."""


def players_of(record: RuleSystem) -> Mapping[str, PlayerFactory]:
    """``record``'s players by name: its own, ``random``, and ``search`` when the system
    offers a determiniser (unless it names a ``search`` player of its own)."""
    if record.hooks.determiniser is None or SEARCH in record.players:
        return record.players
    return {**record.players, SEARCH: functools.partial(search_player, record)}


def search_player(
    record: RuleSystem,
    seed: int,
    *,
    content: Path | None = None,
    iterations: int = SEARCH_ITERATIONS,
    rollout: str | None = None,
    seconds: float | None = None,
    clock: Callable[[], float] | None = None,
) -> SearchPlayer:
    """``record``'s information-set MCTS player (:mod:`.ismcts`), seeded with ``seed``.

    ``rollout`` names the player that plays the playouts: by default the system's
    ``heuristic`` player if it has one, else ``random``. ``seconds`` (with a ``clock``, which
    the core never reads itself) cuts a decision's search short.
    """
    determiniser = record.hooks.determiniser
    if determiniser is None:
        raise ValueError(f"{record.id} offers no determiniser, so no search player")
    policy = rollout or ("heuristic" if "heuristic" in record.players else "random")
    if policy == SEARCH or policy not in record.players:
        raise ValueError(f"{record.id} has no rollout player {policy!r}")
    factory = record.players[policy]
    return SearchPlayer(
        seed,
        decider=record.decider(content),
        seat_view=record.seat_view,
        determiniser=determiniser,
        pack=record.load_pack(content) if record.load_pack is not None else None,
        rollout=lambda s: factory(s, content=content),
        iterations=iterations,
        seconds=seconds,
        clock=clock,
    )


def parse_player(record: RuleSystem, spec: str) -> PlayerFactory:
    """The player a spec names: a name of :func:`players_of`, or ``search:N`` (N iterations
    per decision) or ``search:N:POLICY`` (playouts by the player POLICY); ``ValueError``
    naming the problem otherwise."""
    named = players_of(record)
    name, _, rest = spec.partition(":")
    if name not in named:
        raise ValueError(f"{record.id} has no player {name!r}")
    if not rest:
        return named[name]
    if name != SEARCH:
        raise ValueError(f"only {SEARCH} takes a budget ({spec!r})")
    budget, _, policy = rest.partition(":")
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"{spec!r}: the budget must be a positive number of iterations")
    if policy and (policy == SEARCH or policy not in record.players):
        raise ValueError(f"{record.id} has no rollout player {policy!r}")
    return functools.partial(search_player, record, iterations=int(budget), rollout=policy or None)


def make_player(record: RuleSystem, spec: str, seed: int, *, content: Path | None = None) -> Player:
    """The player ``spec`` names (:func:`parse_player`), seeded with ``seed``."""
    return parse_player(record, spec)(seed, content=content)
