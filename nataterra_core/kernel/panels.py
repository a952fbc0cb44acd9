"""Seat panels: what a client shows beside the board about each seat, from a seat view.

A rule system fills :attr:`Hooks.panels <nataterra_core.kernel.registry.Hooks.panels>` with a
:class:`SeatPanels`: from a **seat view** (never the state, so nothing hidden can leak) it
builds one :class:`SeatPanel` per seat — its name, resources, score (medals, cubes, crowns),
how many cards it holds, and, for the seat whose view it is, the cards themselves as
:class:`Card` records (title, cost, text) — and says where the game stands in words
(``stage``). A client draws them as panels, as boardgame.io's player boards do; a legal
command that plays a card names it in its :class:`~.geometry.Targets` (``card``), so the
client makes that card clickable::

    >>> card = Card(id="tech:0", title="Ironworks", cost="2 ore", text="+1 ore each turn")
    >>> panel = SeatPanel(seat="ann", resources=(Stat(label="ore", value=3),), hand=(card,))
    >>> Panels(seats=(panel,), stage="turn 1, build phase").seats[0].hand[0].title
    'Ironworks'

Words only, no ids, in every field but the ``id``s: the panels are what a player reads. The
records are msgspec structs: ``msgspec.to_builtins`` gives the JSON the RPC server sends.
"""

from __future__ import annotations

from typing import Any, Protocol

import msgspec

__all__ = ["Card", "Panels", "SeatPanel", "SeatPanels", "Stat"]


class Stat(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One number or short fact with its label (``ore 3``, ``medals 2 of 6``)."""

    label: str
    value: int | str


class Card(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A card in a seat's hand: ``id`` is what a command's ``Targets.card`` names (copies of
    one card may share it), ``title``, ``cost`` and ``text`` the words printed on it,
    ``deck`` which of the seat's hands it is in (``"tech"``, ``"lore"``)."""

    id: str
    title: str
    cost: str = ""
    text: str = ""
    deck: str = ""


class SeatPanel(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One seat as its panel shows it.

    ``name`` is what it plays (a civilisation, an army; empty: just the seat); ``resources``
    what it holds to spend, ``score`` how it stands towards winning (points, medals, cubes);
    ``counts`` how many cards or pieces it holds that others may count (``tech cards 3``);
    ``hand`` its cards, only in that seat's own view (``None`` elsewhere); ``out`` whether it
    has left the game (eliminated)."""

    seat: str
    name: str = ""
    resources: tuple[Stat, ...] = ()
    score: tuple[Stat, ...] = ()
    counts: tuple[Stat, ...] = ()
    hand: tuple[Card, ...] | None = None
    out: bool = False


class Panels(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Every seat's panel, in seat order, and the stage of the game in words (``turn 3 of
    10, movement phase``)."""

    seats: tuple[SeatPanel, ...]
    stage: str = ""


class SeatPanels(Protocol):
    """The seat-panels hook of a rule system (``Hooks.panels``)."""

    def __call__(self, view: Any) -> Panels:
        """The panels of a seat view (computed from the view alone: it shows nothing else)."""
