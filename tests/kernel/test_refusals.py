"""A refused command is told from what its seat may know (issue 30 item 2): the refusal is
decided again on ``redact(state, seat)``, so a message worded from a secret never leaves."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from nataterra_core.kernel import DiceStream, IllegalCommand, MalformedCommand
from nataterra_core.kernel.refusals import refusal_for
from nataterra_core.kernel.secrets import PUBLIC, hidden, owned


class Hand(msgspec.Struct, frozen=True):
    seat: Annotated[str, PUBLIC]
    cards: Annotated[tuple[str, ...], owned("seat", pool="cards")]


class Table(msgspec.Struct, frozen=True):
    hands: Annotated[tuple[Hand, ...], PUBLIC]
    deck: Annotated[tuple[str, ...], hidden(pool="cards")]


STATE = Table(hands=(Hand("ann", ("ace",)), Hand("bob", ("king",))), deck=("queen", "jack"))
DICE = DiceStream(bytes(32), "g", "", 0)


class Careless:
    """Refuses every command, its message naming the top of the deck and bob's hand."""

    def decide(self, state: Table, command: Any, dice: DiceStream, seat: str | None = None) -> Any:
        raise IllegalCommand("T-PLAY-1", f"the deck's top is {state.deck[0]!r}, bob holds "
                             f"{state.hands[1].cards}")  # fmt: skip


class Careful:
    """Refuses naming only what ann may see (her own hand)."""

    def decide(self, state: Table, command: Any, dice: DiceStream, seat: str | None = None) -> Any:
        raise IllegalCommand("T-PLAY-2", f"you hold {state.hands[0].cards}")


class Peeking:
    """Refuses only when the deck's top is the queen: the rule turns on a secret."""

    def decide(self, state: Table, command: Any, dice: DiceStream, seat: str | None = None) -> Any:
        if state.deck[0] == "queen":
            raise IllegalCommand("T-PLAY-3", "the queen is on top")
        return ()


def told(decider: Any, seat: str = "ann") -> IllegalCommand:
    try:
        decider.decide(STATE, None, DICE, seat=seat)
    except IllegalCommand as refused:
        answer = refusal_for(decider, STATE, seat, None, refused, DICE)
        assert isinstance(answer, IllegalCommand)
        return answer
    raise AssertionError("not refused")


def test_a_refusal_worded_from_a_secret_is_worded_from_the_seats_knowledge() -> None:
    answer = told(Careless())
    assert answer.rule_id == "T-PLAY-1"
    assert "queen" not in str(answer) and "king" not in str(answer)


def test_a_refusal_from_what_the_seat_sees_is_sent_as_worded() -> None:
    assert str(told(Careful())) == "T-PLAY-2: you hold ('ace',)"


def test_a_refusal_that_turns_on_a_secret_names_only_its_rule() -> None:
    answer = told(Peeking())
    assert str(answer) == "T-PLAY-3: the command breaks this rule"


def test_a_refusal_keeps_its_kind() -> None:
    class Malformed:
        def decide(self, state: Table, command: Any, dice: DiceStream, seat: Any = None) -> Any:
            raise MalformedCommand(f"no such card {state.deck[1]}")

    try:
        Malformed().decide(STATE, None, DICE)
    except MalformedCommand as refused:
        answer = refusal_for(Malformed(), STATE, "ann", None, refused, DICE)
    assert isinstance(answer, MalformedCommand) and "jack" not in str(answer)
