"""Log records in words, for any registered rule system (what ``replay``, ``show``, ``play``
and the RPC server print).

Commands, events and outcomes are worded by the system's presenter
(:attr:`RuleSystem.presenter <nataterra_core.kernel.registry.RuleSystem.presenter>`); the
records around them (header, undo, reveal) read the same in every game. Every sentence is
made for one reader (a seat, or ``None`` for a spectator) from the record as that reader may
see it (:func:`~nataterra_core.kernel.seen.as_seen`): the presenter never holds a field the
reader may not see. Given the state before a record and the log's decider, each command is
worded against the reader's view (a seat's own, a spectator's for ``None``) of the position
it applies to, and each event against the reader's view of the state it applies to (folded
event by event), so a sentence can name what an id points at.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from .decider import Decider, Outcome
from .log import CommandRecord, EndRecord, Header, Record, RevealRecord, StartRecord, UndoRecord
from .registry import RuleSystem
from .replay import replay_states
from .seen import as_seen

__all__ = [
    "article",
    "counted",
    "describe_record",
    "log_words",
    "options_words",
    "outcome_text",
    "plural",
    "reason_words",
    "setup_words",
    "worded",
]

Words = tuple[str, tuple[str, ...]]
"""A record's one-line summary and its events' sentences."""


def outcome_text(result: Outcome) -> str:
    """``won by ann (target reached)``, ``drawn (turn limit)``, ``no winner (abandoned)``,
    with any scores: the kernel's words for a result, which a presenter may use as its own.
    Only a draw (``Outcome.draw``) is worded a draw; a game without winners that is not one,
    an abandoned game, has no winner."""
    why = reason_words(result.reason)
    if result.winners:
        text = f"won by {', '.join(result.winners)} ({why})"
    elif result.draw:
        text = f"drawn ({why})"
    else:
        text = f"no winner ({why})"
    if result.scores:
        text += "; scores " + ", ".join(f"{s} {n}" for s, n in result.scores.items())
    return text


def describe_record(
    record_system: RuleSystem,
    record: Record,
    before: Any = None,
    decider: Decider[Any, Any, Any] | None = None,
    *,
    reader: str | None,
    revealed: bool,
) -> Words:
    """A record's summary and its events' sentences as ``reader`` (``None``: a spectator)
    may read them (:func:`worded`; ``revealed``: the log holds the seed's reveal, every
    secret is public); with ``before`` (the state before the record) and the log's
    ``decider``, worded in context."""
    if isinstance(record, Header):
        shown = dict(record.options)
        if not revealed:
            # An option may hold hidden facts (a starting position's hands and deck orders):
            # worded as the reader sees it, as its log view cuts it.
            cutter = decider if decider is not None else record_system.decider(None)
            shown = {
                k: v if v == record.options.get(k) or isinstance(v, str) else _json(v)
                for k, v in cutter.redact_options(record.options, reader).items()
            }
        pack = (
            f"content pack {record.content.id} ({record.content.sha256[:12]})"
            if record.content
            else "its own content"
        )
        return (
            f"game {record.game_id}: {', '.join(record.seats)}; {record_system.title}, "
            f"rules version {record.rules.version}, {pack}; "
            f"{setup_words(shown, record_system)}",
            (),
        )
    if isinstance(record, StartRecord | CommandRecord):
        seat = record.seat if isinstance(record, CommandRecord) else None
        return worded(
            record_system,
            record.command,
            seat,
            record.events,
            before,
            decider,
            reader=reader,
            revealed=revealed,
        )
    if isinstance(record, UndoRecord):
        return f"{record.seat} undoes record {record.undoes}", ()
    if isinstance(record, RevealRecord):
        return f"the server seed is revealed: {record.server_seed}", ()
    if isinstance(record, EndRecord):
        return f"result: {record_system.presenter.outcome(record.result)}", ()
    raise TypeError(f"not a log record: {type(record).__name__}")


def _json(value: Any) -> str:
    """A cut option worded as the option's own JSON text would be (compact, keys sorted)."""
    return msgspec.json.encode(value, order="sorted").decode()


def worded(
    record_system: RuleSystem,
    command: Any,
    seat: str | None,
    events: Sequence[Any],
    before: Any = None,
    decider: Decider[Any, Any, Any] | None = None,
    *,
    reader: str | None,
    revealed: bool,
) -> Words:
    """A command sent by ``seat`` and the events it caused in the system's words, as
    ``reader`` (``None``: a spectator) may read them: the presenter is handed each message
    as :func:`~.seen.as_seen` cuts it for ``reader`` (whole once ``revealed``), never a
    field it may not see. Each is worded against the reader's view (a spectator's for
    ``None``) of the position it applies to when ``before`` and ``decider`` are given
    (the events folded whole, one by one, to find the next position)."""
    presenter = record_system.presenter

    def view_of(state: Any, viewer: str | None) -> Any:
        return record_system.view_of(state, viewer, revealed=revealed)

    def seen(message: Any) -> Any:
        return as_seen(message, reader, seat, revealed=revealed)

    if before is None or decider is None:
        return presenter.command(seen(command), seat), tuple(
            presenter.event(seen(e)) for e in events
        )
    summary = presenter.command(seen(command), seat, view_of(before, reader))
    sentences = []
    state = before
    for event in events:
        sentences.append(presenter.event(seen(event), view_of(state, reader)))
        state = decider.evolve(state, event)
    return summary, tuple(sentences)


def log_words(
    record_system: RuleSystem,
    decider: Decider[Any, Any, Any],
    header: Header,
    records: Sequence[Record],
    *,
    reader: str | None,
) -> list[Words]:
    """Every record of a decoded log in words as ``reader`` may read them, in order (undo
    records honoured; whole once the log holds the seed's reveal)."""
    after = dict(replay_states(decider, header, records))
    revealed = any(isinstance(record, RevealRecord) for record in records)
    return [
        describe_record(
            record_system,
            record,
            after.get(record.seq - 1),
            decider,
            reader=reader,
            revealed=revealed,
        )
        for record in records
    ]


OPTION_LABELS = {"max_turns": "turn limit"}
"""Words for the header options every front end sets the same way (``--turns``)."""


def options_words(options: Mapping[str, Any], record_system: RuleSystem | None = None) -> str:
    """A game's header options as a player reads them: ``turn limit 100``, ``no turn
    limit``, ``conquest``, ``scenario The Battle of Fergus Grove`` (a value the system's
    lobby offers, by its words there: a scenario's title); an option holding a
    whole document (a battle, a position) is named, not printed.

    >>> options_words({"max_turns": 100, "wild_ones": False, "mode": "learning"})
    'turn limit 100, no wild ones, mode learning'
    """
    scenarios = record_system.hooks.scenarios if record_system is not None else None
    choices = _choice_words(record_system)
    said = []
    for key, value in options.items():
        label = OPTION_LABELS.get(key, reason_words(key))
        if isinstance(value, bool):
            said.append(label if value else f"no {label}")
        elif key == "max_turns" and value == 0:
            said.append("no turn limit")
        elif isinstance(value, str) and value.lstrip().startswith(("{", "[")):
            said.append(f"{label} as the header gives it")
        elif isinstance(value, str) and scenarios is not None and value in scenarios:
            said.append(f"{label} {scenarios[value].title}")  # every scenario has a title
        elif isinstance(value, str) and value in choices.get(key, {}):
            said.append(f"{label} {choices[key][value]}")  # as the lobby offers it
        elif isinstance(value, list | tuple):
            said.append(f"{label} {', '.join(reason_words(str(v)) for v in value) or 'none'}")
        else:
            said.append(f"{label} {reason_words(str(value))}")
    return ", ".join(said)


def _choice_words(record_system: RuleSystem | None) -> dict[str, dict[str, str]]:
    """The words of the option values a lobby offers (``Hooks.option_choices``: a pack's
    scenario's title), by option and value."""
    hook = record_system.hooks.option_choices if record_system is not None else None
    if hook is None:
        return {}
    return {
        key: {value: words for value, words in offered if isinstance(value, str)}
        for key, offered in hook().items()
    }


def setup_words(options: Mapping[str, Any], record_system: RuleSystem) -> str:
    """A game's setup as its header ``options`` (as the reader may see them) make it, in
    words: the system's own (``Hooks.setup_words``: who attacks whom, where, with what;
    the scenario played) or the options by their labels, ``options turn limit 100``. What
    a log's header line, the browser feed's first line and ``play``'s opening say."""
    hook = record_system.hooks.setup_words
    if hook is not None:
        try:
            return hook(options)
        except Exception:  # a forged header's options: word them as written, never raise
            pass
    return f"options {options_words(options, record_system) or 'none'}"


# -- grammar: what every presenter needs to write English -------------------------------------

_IRREGULAR = {"man": "men", "woman": "women", "figure": "figures", "die": "dice"}
_NOT_MEN = ("human", "shaman", "talisman", "caiman", "german")


def plural(noun: str, count: int = 2) -> str:
    """``noun`` for ``count`` of it: ``Zealot`` -> ``Zealots``, ``Swordsman`` ->
    ``Swordsmen``, ``hex`` -> ``hexes``, ``army`` -> ``armies``; unchanged for one.

    >>> [plural(n) for n in ("Orc", "Swordsman", "hex", "army", "Human", "die", "alumni")]
    ['Orcs', 'Swordsmen', 'hexes', 'armies', 'Humans', 'dice', 'alumni']
    >>> plural("crown", 1)
    'crown'
    """
    if count == 1 or noun.endswith(("ed", "i", "a")):
        return noun
    head, _, last = noun.rpartition(" ")
    prefix = f"{head} " if head else ""
    lower = last.lower()
    if lower in _IRREGULAR:
        return prefix + last[0] + _IRREGULAR[lower][1:]
    if lower.endswith("man") and not lower.endswith(_NOT_MEN):
        return prefix + last[:-3] + last[-3] + "en"
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        return prefix + last + "es"
    if lower.endswith("y") and lower[-2:-1] not in ("a", "e", "i", "o", "u"):
        return prefix + last[:-1] + "ies"
    return prefix + last + "s"


def counted(count: int, noun: str, *, zero: str = "0") -> str:
    """``count`` and ``noun`` agreeing: ``1 crown``, ``3 crowns``; ``zero`` is how none
    reads (``no``: ``no units``).

    >>> counted(1, "crown"), counted(0, "crown"), counted(0, "unit", zero="no")
    ('1 crown', '0 crowns', 'no units')
    """
    return f"{zero if count == 0 else count} {plural(noun, count)}"


def article(noun: str) -> str:
    """``noun`` with its indefinite article by its sound: ``an Orc``, ``a Goblin``, ``an
    upgraded Archer``, ``a unit``, ``a one-eyed Giant``, ``an hour``.

    >>> [article(n) for n in ("Orc", "Goblin", "upgraded Archer", "unit", "Hero", "X")]
    ['an Orc', 'a Goblin', 'an upgraded Archer', 'a unit', 'a Hero', 'an X']
    """
    word = noun.lower()
    vowel = word[:1] in ("a", "e", "i", "o", "u")
    if word.startswith(("uni", "use", "usu", "eu", "one", "ewe")):
        vowel = False
    elif word.startswith(("hour", "honest", "honou", "heir")):
        vowel = True
    elif len(word.split(" ")[0]) == 1:  # a letter said by its name: an X, a B
        vowel = word[0] in "aefhilmnorsx"
    return f"{'an' if vowel else 'a'} {noun}"


def reason_words(reason: str) -> str:
    """A result's or a choice's reason, an id, as words: ``base_destroyed`` -> ``base
    destroyed``."""
    return reason.replace("_", " ")
