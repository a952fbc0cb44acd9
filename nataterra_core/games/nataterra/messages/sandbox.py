"""The combat sandbox's own command: the system opening the battle its header describes
(``docs/COMBAT_SANDBOX.md``); every other sandbox message is a combat's (:mod:`.combat`).
Its rules are in ``rules/combat/sandbox.py``."""

from __future__ import annotations

from nataterra_core.kernel import Command
from nataterra_core.kernel.visibility import PUBLIC


class StartBattle(Command, frozen=True, tag="start_battle.v1"):
    """The system command that opens the described combat."""

    visibility = PUBLIC


COMMANDS: tuple[type[Command], ...] = (StartBattle,)
