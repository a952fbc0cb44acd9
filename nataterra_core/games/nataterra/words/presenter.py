"""Nataterra's presenter: one English sentence per command, event and outcome, and a seat view
as text, for ``play``, ``replay``, ``show`` and the RPC server (the sentences themselves are in
the sibling modules; records around them are worded by :mod:`nataterra_core.kernel.wording`).

    >>> from nataterra_core.games.nataterra.messages.movement import UnitsMoved
    >>> describe_event(UnitsMoved(seat="velathi", unit="hunter", origin="t1.z1", count=2,
    ...                           path=("t1.z2", "t1.z3")))
    'velathi moves 2 Hunters from t1.z1 to t1.z3 via t1.z2'

Pass a seat view of the position a message applies to (``view=``) and combat groups are
named by owner, number and units (``beasts' group 3 (2 Orcs)``). A type with no sentence
(say, an event a newer library added) is described by its tag and fields, so a log with new
types still prints; ``tests/test_words.py`` makes sure no type of a registered system is.
A reader who may not see a message whole is handed its cut form
(:class:`~nataterra_core.kernel.seen.Cut`), worded by :func:`.base.describe_cut`: the words
cannot show a deck's order or another seat's drawn card.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import Command, Event, Outcome
from nataterra_core.kernel.seen import Cut

from ..geometry import game_map
from ..views import SandboxView, SeatView
from .base import describe_command, describe_cut, describe_event
from .text_view import sandbox_text, view_text
from .turns import describe_outcome

__all__ = ["NataterraPresenter"]


class NataterraPresenter:
    """Nataterra's words (the registry's presenter): the sentences of :mod:`.base` and its
    siblings, the text of :mod:`.text_view`."""

    def command(
        self, command: Command | Cut[Command], seat: str | None = None, view: Any = None
    ) -> str:
        """One sentence for a command (groups named from ``view``'s combat)."""
        if isinstance(command, Cut):
            return f"{seat or 'the system'}: {describe_cut(command, view)}"
        return describe_command(command, seat, view)

    def offer(self, command: Command, seat: str, view: Any = None) -> str:
        """``command`` in ``seat``'s menu: the imperative (``move 1 Woodcutter from ...``)."""
        return describe_command(command, None, view)

    def event(self, event: Event | Cut[Event], view: Any = None) -> str:
        """One sentence for an event as its reader sees it (a cut form has no hidden card
        or deck order to show)."""
        if isinstance(event, Cut):
            return describe_cut(event, view)
        return describe_event(event, view)

    def outcome(self, outcome: Outcome) -> str:
        """The result in words, with the scores."""
        return describe_outcome(outcome)

    def view(self, view: Any) -> str:
        """A Nataterra seat view, or a sandbox battle view, as text."""
        if isinstance(view, SeatView):
            return view_text(view, game_map(view.map_id, view.pack))
        if isinstance(view, SandboxView):
            return sandbox_text(view)
        raise TypeError(f"not a Nataterra view: {type(view).__name__}")
