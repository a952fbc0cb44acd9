"""The commands and events of victory (N-WIN-1..6): conditions drawn, cubes scored,
oaths sworn, bases destroyed, conquered and retaken. Their rules are in ``rules/victory.py``
and ``rules/conquest.py``."""

from __future__ import annotations

from nataterra_core.kernel import (
    Command,
    DrawsEvent,
    Event,
)
from nataterra_core.kernel.visibility import PUBLIC

from ..rules.stock import Resources


class SwearOath(Command, frozen=True, tag="swear_oath.v1"):
    """Oath of Asha (development phase): pay ``wood`` and ``metal`` (the card's cost in all)
    for one cube, with a worker of yours on the strategy zone."""

    visibility = PUBLIC

    wood: int
    metal: int


class VictoryConditionsDrawn(DrawsEvent, frozen=True, tag="victory_conditions_drawn.v2"):
    """N-SETUP-8: one condition drawn per category (strategy, war, glory), the i-th by
    ``draw(ms[i])`` over that category's conditions in pack order; ``values`` are the draws.
    v2: v1 had no ``ms``, so an auditor needed the pack to recheck the draws."""

    visibility = PUBLIC

    conditions: tuple[str, ...]
    ms: tuple[int, ...]
    values: tuple[int, ...]
    counter_before: int
    counter_after: int


class CubeScored(Event, frozen=True, tag="cube_scored.v1"):
    """``seat`` placed a cube on ``condition``; it now has ``cubes`` there."""

    visibility = PUBLIC

    seat: str
    condition: str
    cubes: int


class OathSworn(Event, frozen=True, tag="oath_sworn.v1"):
    """Oath of Asha: ``seat`` paid ``paid`` (a cube follows)."""

    visibility = PUBLIC

    seat: str
    paid: Resources


class BaseDestroyed(Event, frozen=True, tag="base_destroyed.v1"):
    """N-WIN-1: ``by`` ended its turn with units in ``owner``'s base zone."""

    visibility = PUBLIC

    owner: str
    by: str


class BaseConquered(Event, frozen=True, tag="base_conquered.v1"):
    """N-WIN-5: ``by`` ended its turn in ``owner``'s base and took ``taken``, all of the
    owner's resources; the owner has one last turn to win the base back."""

    visibility = PUBLIC

    owner: str
    by: str
    taken: Resources


class BaseRetaken(Event, frozen=True, tag="base_retaken.v1"):
    """N-WIN-5: ``owner`` won its base back and receives ``gain`` (two tactic cards
    follow)."""

    visibility = PUBLIC

    owner: str
    gain: Resources


COMMANDS: tuple[type[Command], ...] = (SwearOath,)
EVENTS: tuple[type[Event], ...] = (
    VictoryConditionsDrawn,
    CubeScored,
    OathSworn,
    BaseDestroyed,
    BaseConquered,
    BaseRetaken,
)
