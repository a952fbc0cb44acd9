"""Random play that sends, at every decision, commands once legal but not now: each must be
refused with an ``IllegalCommand`` naming a clause of the game (never another error) and
leave the game unchanged. Shared by the games' refusal tests."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from nataterra_core.kernel import Command, IllegalCommand


def refusals_name_clauses(session: Any, prefix: str, seed: int, steps: int) -> int:
    """Play ``steps`` random commands in ``session``, trying up to six stale commands before
    each; every refusal's rule id is a ``prefix-`` clause. Returns the refusals seen."""
    clause = re.compile(rf"^{prefix}-[A-Z]+-\d+[a-z]?$")
    rng = random.Random(seed)
    seen: list[Command] = []
    refused = 0
    for _ in range(steps):
        decision = session.decision()
        if session.outcome() is not None or not decision.acting:
            break
        seat = decision.acting[0]
        legal = list(decision.legal(seat))
        seen += [c for c in legal if c not in seen][:40]
        head = session.head
        for command in rng.sample(seen, min(6, len(seen))):
            if command in legal:
                continue
            with pytest.raises(IllegalCommand) as raised:
                session.apply(seat, command)
            assert clause.match(str(raised.value.rule_id)), raised.value
            assert session.head == head
            refused += 1
        session.apply(seat, rng.choice(legal))
    return refused
