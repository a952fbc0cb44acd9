"""What a seat is told when its command is refused: made from what that seat may know.

A rule's refusal is worded by the decider from the state it was given. Handed the whole
state, a careless message could name a card in another hand or the top of a deck ("N-X-1:
the next card is the Ambush"). So the refusal a seat receives is decided again on the state
as that seat may know it (:func:`~nataterra_core.kernel.secrets.redact`): if the command is
refused there for the same rule, that message is the one sent, and it can hold nothing the
seat may not see; if not (the refusal turned on a secret, itself a rules bug the leak test
catches), the seat is told only the rule.
"""

from __future__ import annotations

from typing import Any

from .decider import Decider
from .dice import DiceStream
from .errors import CommandRejected, IllegalCommand, NotYourTurn
from .secrets import redact

__all__ = ["refusal_for", "rule_only"]


def refusal_for(
    decider: Decider[Any, Any, Any],
    state: Any,
    seat: str,
    command: Any,
    refused: CommandRejected,
    dice: DiceStream,
) -> CommandRejected:
    """The refusal ``seat`` is told for ``command``, which ``decider`` refused in ``state``
    (``refused``): decided again on ``redact(state, seat)`` with ``dice`` (a fresh stream at
    the same counter; nothing is logged)."""
    try:
        known = redact(state, seat)
    except TypeError:  # a state that declares no secrets (a test's toy game): nothing to cut
        return refused
    if known == state:  # nothing hidden from this seat: the message was made from its view
        return refused
    try:
        decider.decide(known, command, dice, seat=seat)
    except CommandRejected as told:
        if type(told) is type(refused) and told.rule_id == refused.rule_id:
            return told
    except Exception:  # a blanked secret the rules cannot read: tell only the rule
        pass
    return rule_only(refused, seat)


def rule_only(refused: CommandRejected, seat: str) -> CommandRejected:
    """A refusal of the same kind and rule as ``refused`` (of ``seat``'s command) that says
    nothing more: what a reader who may not see the state it was decided on is told."""
    rule = refused.rule_id
    if isinstance(refused, IllegalCommand) and rule is not None:
        return IllegalCommand(rule, "the command breaks this rule")
    if isinstance(refused, NotYourTurn):
        return NotYourTurn(seat, f"seat {seat!r} may not act now", rule)
    told = type(refused)(f"{rule}: the command is refused" if rule else "the command is refused")
    told.rule_id = rule
    return told
