"""Nataterra's words: one sentence per command, event and outcome (issue 17 item 1).

The sentences live with their part of the rules (:mod:`.turns`, :mod:`.combat`,
:mod:`.combat_events`, :mod:`.development`, :mod:`.scenarios`), registered on the
dispatchers of :mod:`.base`; importing this package registers them all.
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
