"""The combat stage machine as one table (rules §6): for each stage of :attr:`Combat.stage`,
the seat's question or the automatic step, and the rule a refused command breaks.

In each stage exactly one of two things holds: a seat must decide (the stage's ``ask``
gives the seat and its legal commands, :mod:`.options`), or the next step is automatic
(its ``ask`` gives ``None`` and ``auto`` gives the step's events, :mod:`.steps`). A
pending choice (a tactic window, a biome card's or the Naga's choice, N-COMBAT-8/9) is
asked before the stage's own question. A seat's command becomes events in
:mod:`.commands`; the events' folds (:mod:`.folds`) move the combat to its next stage,
one of the stage's ``then`` (the folds apply what the events say: every activation is an
event, ``GroupActivated``, the pick stage's, also when N-COMBAT-10 leaves no choice).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from nataterra_core.kernel import DiceStream, Event

from . import options, steps
from .env import CombatEnv
from .model import Combat, Stage
from .options import Ask, Pending
from .steps import Auto

__all__ = ["STAGES", "StageRule", "auto_step", "decision"]


class StageRule(NamedTuple):
    """One row of the stage table."""

    rule: str
    """The rule a command refused in this stage breaks (N-COMBAT-10 where nothing but a
    pending choice is ever asked: those name their own rules)."""
    ask: Ask
    """Who decides now and with which commands, or ``None``: the automatic step follows."""
    auto: Auto
    """The automatic step's events (only when ``ask`` gives ``None``)."""
    then: frozenset[Stage]
    """The other stages the events of a decision or step here move the combat to, an event
    at a time (a test checks that the folds make no other move)."""


def _then(*stages: Stage) -> frozenset[Stage]:
    return frozenset(stages)


STAGES: Final[dict[Stage, StageRule]] = {
    "deploy": StageRule(
        "N-COMBAT-4", options.ask_deploy, steps.auto_deploy, _then("opening", "effects")
    ),
    "opening": StageRule("N-COMBAT-10", options.ask_nothing, steps.auto_opening, _then("redirect")),
    "redirect": StageRule(
        "N-COMBAT-8", options.ask_redirect, steps.auto_redirect, _then("effects")
    ),
    "effects": StageRule(  # an Ambush unit deploys after the card (N-COMBAT-8)
        "N-COMBAT-8", options.ask_nothing, steps.auto_effects, _then("round_start", "deploy")
    ),
    "round_start": StageRule(
        "N-COMBAT-10", options.ask_nothing, steps.auto_round_start, _then("pick")
    ),
    "pick": StageRule(
        "N-COMBAT-10",
        options.ask_pick,
        steps.auto_pick,
        _then("heal", "action", "round_end", "retreat_defender", "injuries"),
    ),
    "heal": StageRule("N-COMBAT-11a", options.ask_heal, steps.auto_never, _then("action")),
    "action": StageRule(
        "N-COMBAT-12",
        options.ask_action,
        steps.auto_action,
        _then("pick", "deception", "after_attack"),
    ),
    "deception": StageRule(
        "N-ABL-8", options.ask_deception, steps.auto_never, _then("pick", "after_attack")
    ),
    "after_attack": StageRule(
        "N-CIV-1",
        options.ask_after_attack,
        steps.auto_after_attack,
        _then("pick", "action", "backstab", "decided", "injuries"),
    ),
    "round_end": StageRule(
        "N-COMBAT-10", options.ask_nothing, steps.auto_round_end, _then("round_effects")
    ),
    "round_effects": StageRule(
        "N-COMBAT-8",
        options.ask_nothing,
        steps.auto_round_effects,
        _then("retreat_defender", "decided", "injuries"),
    ),
    "retreat_defender": StageRule(
        "N-COMBAT-22",
        options.ask_retreat,
        steps.auto_retreat,
        _then("retreat_attacker", "backstab", "decided"),
    ),
    "retreat_attacker": StageRule(  # nobody retreats: the next round (N-COMBAT-22)
        "N-COMBAT-22",
        options.ask_retreat,
        steps.auto_retreat,
        _then("round_start", "backstab", "decided"),
    ),
    "backstab": StageRule(
        "N-COMBAT-23", options.ask_backstab, steps.auto_backstab, _then("action", "decided")
    ),
    "decided": StageRule("N-COMBAT-10", options.ask_nothing, steps.auto_decided, _then("injuries")),
    "injuries": StageRule(
        "N-COMBAT-26",
        options.ask_injury,
        steps.auto_injuries,
        _then("retreat_move", "aftermath"),
    ),
    "retreat_move": StageRule(
        "N-COMBAT-23", options.ask_retreat_move, steps.auto_retreat_move, _then("aftermath")
    ),
    "aftermath": StageRule("N-COMBAT-28", options.ask_nothing, steps.auto_aftermath, _then("end")),
    "end": StageRule("N-COMBAT-10", options.ask_nothing, steps.auto_never, _then()),
}
"""The combat stage machine: every :data:`~.model.Stage`, in the order a combat meets them."""


def decision(env: CombatEnv, combat: Combat) -> Pending:
    """The seat that must decide now and its legal commands, or ``None`` if the next step
    is automatic (a pending choice first, then the stage's question)."""
    if combat.pending:
        return options.ask_pending(env, combat)
    return STAGES[combat.stage].ask(env, combat)


def auto_step(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """The events of the next automatic step (call only when :func:`decision` is ``None``)."""
    if combat.pending:  # a pending choice with nothing to choose from
        return steps.auto_pending(env, combat, dice)
    return STAGES[combat.stage].auto(env, combat, dice)
