"""One English sentence per command, event and outcome, for ``play``, ``replay``, ``show``
and the RPC server (the sentences themselves are in :mod:`.words`; records around them are
worded by :mod:`nataterra_core.kernel.wording`).

    >>> from nataterra_core.games.nataterra.rules.movement import UnitsMoved
    >>> describe_event(UnitsMoved(seat="velathi", unit="hunter", origin="t1.z1", count=2,
    ...                           path=("t1.z2", "t1.z3")))
    'velathi moves 2 Hunters from t1.z1 to t1.z3 via t1.z2'

Pass a seat view of the position a message applies to (``view=``) and combat groups are
named by owner, number and units (``beasts' group 3 (2 Orcs)``). A type with no sentence
(say, an event a newer library added) is described by its tag and fields, so a log with new
types still prints; ``tests/test_words.py`` makes sure no type of a registered system is.
Descriptions never show a deck's order or another seat's drawn card.
"""

from __future__ import annotations

from .words import describe_command, describe_event, describe_outcome, fallback, resources_text

__all__ = [
    "describe_command",
    "describe_event",
    "describe_outcome",
    "fallback",
    "resources_text",
]
