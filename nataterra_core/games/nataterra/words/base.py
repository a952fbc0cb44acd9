"""The dispatchers every sentence registers with, and the names the sentences use.

``describe_command(command, seat, view)`` and ``describe_event(event, view)`` dispatch on the
message's type (one registration per type, in the module of its part of the rules);
``describe_cut(cut, view)`` on the class of a cut form (what a reader who may not see the
whole message is handed, registered with ``@cut_words(Class)``). ``view``
is a seat view of the position the message applies to (``None``: no position known); it lets
a sentence name combat groups by their owner and units. Card titles, texts and costs come
from the provisional content pack; an id the pack does not know is shown as it is, so a log
made with another pack still reads.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any

import msgspec

from nataterra_core.kernel import Command, Event, Wire
from nataterra_core.kernel.seen import Cut
from nataterra_core.kernel.wording import plural

from ..content import ContentPack, load_pack
from ..content.units import Cost
from ..rules.combat.model import Combat, Group
from ..rules.stock import Resources

__all__ = [
    "combat_of",
    "cost_text",
    "cut_words",
    "describe_command",
    "describe_cut",
    "describe_event",
    "fallback",
    "group_name",
    "pack",
    "possessive",
    "resources_text",
    "structure_title",
    "subject",
    "tactic_title",
    "tech_title",
    "unit_title",
    "units_text",
]


def pack() -> ContentPack:
    """The provisional pack (loaded once per process)."""
    return load_pack()


@singledispatch
def describe_command(command: Command, seat: str | None = None, view: Any = None) -> str:
    """What ``seat`` (``None``: the system) asks for, as a sentence."""
    return f"{seat}: {fallback(command)}" if seat else fallback(command)


@singledispatch
def describe_event(event: Event, view: Any = None) -> str:
    """What happened, as a sentence."""
    return fallback(event)


CutWords = Callable[[Cut[Any], Any], str]
_CUT_WORDS: dict[type[Command | Event], CutWords] = {}


def cut_words(cls: type[Command | Event]) -> Callable[[CutWords], CutWords]:
    """Registers the sentence for a cut form of ``cls`` (the message as a reader sees it
    without its hidden fields, :class:`~nataterra_core.kernel.seen.Cut`)."""

    def register(words: CutWords) -> CutWords:
        _CUT_WORDS[cls] = words
        return words

    return register


def describe_cut(message: Cut[Any], view: Any = None) -> str:
    """A cut command or event as a sentence (``TypeError`` for a class with none: every
    class a visibility can cut has one, ``tests/test_seen_words.py``)."""
    words = _CUT_WORDS.get(message.of)
    if words is None:
        raise TypeError(f"no words for a cut {message.tag}")
    return words(message, view)


def fallback(value: Wire) -> str:
    """The tag and fields of any command or event: ``tag (field=value, ...)`` (for a type no
    sentence is registered for, such as one a newer library added)."""
    tag = type(value).__struct_config__.tag
    fields = msgspec.to_builtins(value)
    fields.pop("type", None)
    body = ", ".join(f"{key}={_plain(item)}" for key, item in fields.items())
    return f"{tag} ({body})" if body else str(tag)


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_plain(v)}" for k, v in value.items()) + "}"
    return str(value)


def subject(seat: str | None, verb: str, bare: str) -> str:
    """``velathi moves`` when the seat is known, else the bare imperative ``move``."""
    return f"{seat} {verb}" if seat else bare


def resources_text(amount: Resources | Cost) -> str:
    """``2 food, 1 wood`` (the non-zero parts), or ``nothing``."""
    parts = [
        f"{count} {name}"
        for name, count in (("food", amount.food), ("wood", amount.wood), ("metal", amount.metal))
        if count
    ]
    return ", ".join(parts) or "nothing"


def cost_text(amount: Resources | Cost) -> str:
    """``costs 2 food`` or ``free``."""
    text = resources_text(amount)
    return "free" if text == "nothing" else f"costs {text}"


def unit_title(unit: str) -> str:
    """A unit type's (or a fighting structure's) printed name."""
    found = pack().units.get(unit) or pack().structures.get(unit)
    return found.title if found is not None else unit


def units_text(count: int, unit: str) -> str:
    """``3 Zealots``, ``1 Hunter``."""
    return f"{count} {plural(unit_title(unit), count)}"


def tech_title(tech: str) -> str:
    """A tech card's title (``Food multiplier I``)."""
    found = pack().techs.get(tech)
    return found.title if found is not None else tech


def tactic_title(card: str) -> str:
    """A tactic card's title (``Fearless``)."""
    found = pack().tactics.get(card)
    return found.title if found is not None else card


def structure_title(structure: str) -> str:
    """A structure's title (``Underground Tunnel``)."""
    found = pack().structures.get(structure)
    return found.title if found is not None else structure


def combat_of(view: Any) -> Combat | None:
    """The combat a seat view (of the game or of the sandbox) shows, if any."""
    combat = getattr(view, "combat", None)
    return combat if isinstance(combat, Combat) else None


def group_name(view: Any, group: int | None) -> str:
    """``beasts' group 3 (2 Orcs)`` with the view's combat, else ``group 3``."""
    if group is None:
        return "no group"
    combat = combat_of(view)
    if combat is None or not 0 <= group < len(combat.groups):
        return f"group {group}"
    return _named(combat.groups[group])


def possessive(name: str) -> str:
    """``velathi's``, ``beasts'``."""
    return name + ("'" if name.endswith("s") else "'s")


def _named(group: Group) -> str:
    return f"{possessive(group.owner)} group {group.id} ({units_text(group.units, group.unit)})"
