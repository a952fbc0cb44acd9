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
    >>> make_player(system("nataterra"), "search:500ms", 7, clock=lambda: 0.0).seconds
    0.5

Budgets (:mod:`.budget`): ``search:N`` thinks N iterations per decision (reproducible: tests,
goldens and benchmarks name one), ``search:1s`` or ``search:500ms`` as long on the caller's
clock. The plain name ``search`` is :data:`SEARCH_SECONDS` per decision wherever the caller
passes a clock (the CLI, the servers, the browser: people waiting), and
:data:`SEARCH_ITERATIONS` iterations where it passes none (code, reproducible). A front end
may also cap every decision (``max_seconds``, a server's ``--max-bot-time``): a longer time
budget is cut there, and so is an iteration budget.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path

from nataterra_core.kernel.players import Player
from nataterra_core.kernel.registry import PlayerFactory, RuleSystem

from .budget import Budget
from .ismcts import Clock, SearchPlayer

__all__ = [
    "PLAYOUT_DEPTH",
    "SEARCH",
    "SEARCH_ITERATIONS",
    "SEARCH_SECONDS",
    "budget_of",
    "make_player",
    "parse_player",
    "players_of",
    "playout_depth_of",
    "search_player",
]

SEARCH = "search"
"""The name of the search player every system with a determiniser offers."""
SEARCH_ITERATIONS = 8
"""The plain ``search``'s iterations per decision where no clock is passed (reproducible)."""
SEARCH_SECONDS = 1.0
"""The plain ``search``'s seconds per decision where the caller passes a clock (people)."""
PLAYOUT_DEPTH = 40
"""Commands a playout plays before the system's evaluation scores it (``Hooks.evaluate``),
unless the system names its own (``Hooks.playout_depth``, :func:`playout_depth_of`)."""


def players_of(
    record: RuleSystem, *, clock: Clock | None = None, max_seconds: float | None = None
) -> Mapping[str, PlayerFactory]:
    """``record``'s players by name: its own, ``random``, and ``search`` when the system
    offers a determiniser (unless it names a ``search`` player of its own). With a ``clock``
    the ``search`` player thinks :data:`SEARCH_SECONDS` per decision on it, capped at
    ``max_seconds``; without, :data:`SEARCH_ITERATIONS` iterations."""
    if record.hooks.determiniser is None or SEARCH in record.players:
        return record.players
    factory = functools.partial(
        search_player,
        record,
        seconds=None if clock is None else SEARCH_SECONDS,
        clock=clock,
        max_seconds=max_seconds,
    )
    return {**record.players, SEARCH: factory}


def playout_depth_of(record: RuleSystem) -> int:
    """The commands ``record``'s search player plays in a playout before the evaluation
    scores it: the system's own ``Hooks.playout_depth``, else :data:`PLAYOUT_DEPTH`."""
    depth = record.hooks.playout_depth
    return PLAYOUT_DEPTH if depth is None else depth


def search_player(
    record: RuleSystem,
    seed: int,
    *,
    content: Path | None = None,
    iterations: int | None = None,
    rollout: str | None = None,
    seconds: float | None = None,
    clock: Clock | None = None,
    max_seconds: float | None = None,
) -> SearchPlayer:
    """``record``'s information-set MCTS player (:mod:`.ismcts`), seeded with ``seed``.

    The budget: ``iterations`` per decision, or ``seconds`` on ``clock`` (which the core
    never reads itself), :data:`SEARCH_ITERATIONS` if neither is given; ``max_seconds`` (with
    the clock) cuts any budget there. ``rollout`` names the player that plays the playouts:
    by default the system's ``heuristic`` player if it has one, else ``random``. Playouts stop
    after :func:`playout_depth_of` commands, scored by the system's evaluation, if it has one.
    """
    determiniser = record.hooks.determiniser
    if determiniser is None:
        raise ValueError(f"{record.id} offers no determiniser, so no search player")
    policy = rollout or ("heuristic" if "heuristic" in record.players else "random")
    if policy == SEARCH or policy not in record.players:
        raise ValueError(f"{record.id} has no rollout player {policy!r}")
    if iterations is None and seconds is None:
        iterations = SEARCH_ITERATIONS
    if max_seconds is not None:
        seconds = max_seconds if seconds is None else min(seconds, max_seconds)
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
        evaluate=record.hooks.evaluate,
        playout_depth=playout_depth_of(record),
    )


def budget_of(spec: str) -> Budget | None:
    """The budget a ``search:BUDGET[:POLICY]`` spec names (``None``: another player, or the
    plain ``search``); ``ValueError`` for a budget that is no budget."""
    name, _, rest = spec.partition(":")
    if name != SEARCH or not rest:
        return None
    return Budget.parse(rest.partition(":")[0])


def parse_player(
    record: RuleSystem,
    spec: str,
    *,
    clock: Clock | None = None,
    max_seconds: float | None = None,
) -> PlayerFactory:
    """The player a spec names: a name of :func:`players_of`, or ``search:BUDGET`` (N
    iterations, or a time such as ``1s`` or ``500ms`` on ``clock``) or ``search:BUDGET:POLICY``
    (playouts by the player POLICY); ``ValueError`` naming the problem otherwise (a time
    budget without a clock among them). ``max_seconds`` caps a search player's decisions."""
    named = players_of(record, clock=clock, max_seconds=max_seconds)
    name, _, rest = spec.partition(":")
    if name not in named:
        raise ValueError(f"{record.id} has no player {name!r}")
    if not rest:
        return named[name]
    if name != SEARCH:
        raise ValueError(f"only {SEARCH} takes a budget ({spec!r})")
    text, _, policy = rest.partition(":")
    try:
        budget = Budget.parse(text)
    except ValueError as exc:
        raise ValueError(f"{spec!r}: {exc}") from None
    if budget.timed and clock is None:
        raise ValueError(f"{spec!r} is a time budget: it needs a clock (the core reads none)")
    if policy and (policy == SEARCH or policy not in record.players):
        raise ValueError(f"{record.id} has no rollout player {policy!r}")
    return functools.partial(
        search_player,
        record,
        iterations=budget.iterations,
        seconds=budget.seconds,
        rollout=policy or None,
        clock=clock,
        max_seconds=max_seconds,
    )


def make_player(
    record: RuleSystem,
    spec: str,
    seed: int,
    *,
    content: Path | None = None,
    clock: Clock | None = None,
    max_seconds: float | None = None,
) -> Player:
    """The player ``spec`` names (:func:`parse_player`), seeded with ``seed``."""
    return parse_player(record, spec, clock=clock, max_seconds=max_seconds)(seed, content=content)
