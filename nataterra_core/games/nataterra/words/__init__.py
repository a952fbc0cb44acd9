"""Nataterra's words: one sentence per command, event and outcome, and a seat view as text.

The presenter the registry holds is :class:`.presenter.NataterraPresenter`. The sentences
live with their part of the rules (:mod:`.turns`, :mod:`.combat`, :mod:`.combat_events`,
:mod:`.development`, :mod:`.scenarios`), registered on the dispatchers of :mod:`.base`;
importing this package registers them all. :mod:`.text_view` draws a seat view as text (the
hex map in :mod:`.text_board`) for ``show``, ``play`` and the RPC server.
"""

from . import combat, combat_events, development, scenarios, turns
from .base import describe_command, describe_event, fallback, resources_text
from .turns import describe_outcome

__all__ = [
    "combat",
    "combat_events",
    "describe_command",
    "describe_event",
    "describe_outcome",
    "development",
    "fallback",
    "resources_text",
    "scenarios",
    "turns",
]
