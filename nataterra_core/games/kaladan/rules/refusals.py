"""Why a Kaladan command is refused: the clause its own check breaks.

``decide`` asks here only for a command outside the seat's legal list, once the game's end
(K-END-1) and whose turn it is (K-TURN-1) are checked. Then: a fight's awaited choice
(K-FIG-3..5, K-CARD-2) or a card's (K-EV-3, K-EV-4, K-EV-6, K-CARD-2, K-CAS-7), the phase a
command belongs to (K-TURN-1), and the command's own clauses, the most particular last: a
placement on a full tile is K-TER-1, without the gold K-BUY-2, on a second empty tile K-BUY-3;
a fight from a tile not yours K-ACT-3, with units not on that tile K-FIG-2; a recruit onto a
full castle K-TER-1; a magic card not held, out of its time or its phase's second K-CARD-2.
"""

from __future__ import annotations

from collections import Counter

from nataterra_core.kernel import Command, IllegalCommand

from .. import messages as m
from ..state import GameState, base_of, is_upgraded
from .flow import Table

__all__ = ["explain"]

_CHOICE_RULE = {
    "revive": "K-EV-3",
    "upgrade": "K-EV-4",
    "lose_unit": "K-EV-6",
    "scout": "K-CARD-2",
    "garrison": "K-CAS-7",
}
"""The clause of each choice a card makes a seat take."""

_STAGE_RULE = {
    "attack_magic": "K-CARD-2",
    "defence_magic": "K-CARD-2",
    "loss": "K-FIG-3",
    "continue": "K-FIG-4",
    "move_in": "K-FIG-5",
}
"""The clause of each stage of a fight that waits for a choice."""

_PHASE_OF: dict[type[Command], tuple[str, str]] = {
    m.DrawEventCard: ("event", "K-EV-1"),
    m.Recruit: ("recruit", "K-REC-1"),
    m.DeclineRecruit: ("recruit", "K-REC-1"),
    m.Fight: ("action", "K-ACT-3"),
    m.Place: ("buy", "K-BUY-3"),
    m.Upgrade: ("buy", "K-BUY-1"),
    m.UpgradeCastle: ("buy", "K-BUY-1"),
    m.ExchangeMagic: ("buy", "K-BUY-1"),
    m.BuyMagic: ("buy", "K-BUY-1"),
    m.BuyCaptured: ("buy", "K-CAS-6"),
}


def explain(table: Table, state: GameState, seat: str, command: Command) -> IllegalCommand:
    """Why ``command``, not among ``seat``'s legal commands, is refused: the rule it breaks."""
    if state.combat is not None:
        stage = state.combat.stage
        return IllegalCommand(
            _STAGE_RULE[stage],
            f"the fight awaits {stage.replace('_', ' ')}: not {type(command).__name__}",
        )
    if state.pending:
        kind = state.pending[0].kind
        return IllegalCommand(
            _CHOICE_RULE[kind],
            f"the card awaits your {kind.replace('_', ' ')} choice among the listed ones",
        )
    if isinstance(command, m.PlayMagic):
        return _magic(table, state, seat, command)
    phase_rule = _PHASE_OF.get(type(command))
    if phase_rule is not None and state.phase != phase_rule[0]:
        return IllegalCommand(
            "K-TURN-1",
            f"{type(command).__name__} belongs to the {phase_rule[0]} phase, not {state.phase}",
        )
    if isinstance(command, m.EndPhase):
        return IllegalCommand(
            "K-TURN-1", f"the {state.phase} phase is not {command.phase!r} or cannot be ended now"
        )
    if isinstance(command, (m.Move, m.Swap, m.Place)):
        return _explain_placement(table, state, seat, command)
    if isinstance(command, m.Fight):
        return _fight(table, state, seat, command)
    if isinstance(command, m.Upgrade):
        return _upgrade(table, state, seat, command)
    if isinstance(command, (m.UpgradeCastle, m.ExchangeMagic, m.BuyMagic, m.BuyCaptured)):
        return _purchase(table, state, seat, command)
    if isinstance(command, (m.Recruit, m.DeclineRecruit)):
        return _recruit(table, state, seat, command)
    if isinstance(command, m.DrawEventCard):
        return IllegalCommand(
            "K-EV-1", "the event card is drawn once, at the start of the event phase"
        )
    return IllegalCommand(
        "K-TURN-1", f"{type(command).__name__} answers a fight or a card's choice; none awaits"
    )


def _explain_placement(
    table: Table, state: GameState, seat: str, command: Command
) -> IllegalCommand:
    board = table.board
    if isinstance(command, m.Place):
        if command.tile not in board.capacity_of or state.owner(command.tile) not in (None, seat):
            return IllegalCommand("K-BUY-3", "never on an enemy tile or off the map")
        if board.room(state, command.tile) < 1:
            return IllegalCommand("K-TER-1", f"{command.tile} is full")
        if state.player(seat).reserve.get(command.unit, 0) < 1:
            return IllegalCommand("K-BUY-3", f"no {command.unit} in your reserve")
        if command.unit in state.player(seat).fresh:
            return IllegalCommand(
                "K-CAS-5", "a captured special unit is placed from your next turn"
            )
        if state.owner(command.tile) is None and (
            state.placed_empty or command.tile not in board.territory_edge(state, seat)
        ):
            return IllegalCommand(
                "K-BUY-3", "one empty tile adjacent to your territory per buy phase"
            )
        return IllegalCommand("K-BUY-2", "not enough gold")
    if isinstance(command, m.Move):
        if state.phase == "reinforce" and len(command.units) != 1:
            return IllegalCommand("K-REI-1", "the manoeuvre moves one unit")
        if (
            state.phase == "action"
            and state.action_done
            and not (command.haste and state.extra_moves)
        ):
            return IllegalCommand("K-ACT-3", "one action per turn: it is taken")
        if command.target in board.capacity_of and state.owner(command.target) not in (None, seat):
            return IllegalCommand("K-ACT-1", "an enemy tile is entered only by a fight")
        if command.target in board.capacity_of and board.room(state, command.target) < len(
            command.units
        ):
            return IllegalCommand(
                "K-TER-1", f"{command.target} has room for {board.room(state, command.target)}"
            )
        rule = "K-REI-1" if state.phase == "reinforce" else "K-ACT-1"
        return IllegalCommand(
            rule, "move your units from one tile to one adjacent tile of yours or an empty one"
        )
    rule = "K-REI-1" if state.phase == "reinforce" else "K-ACT-2"
    return IllegalCommand(
        rule, "swap between two adjacent tiles of yours, 1↔1, 1↔n or n↔1, within capacity (K-TER-1)"
    )


def _fight(table: Table, state: GameState, seat: str, command: m.Fight) -> IllegalCommand:
    if state.action_done:
        return IllegalCommand("K-ACT-3", "one action per turn: it is taken")
    if state.owner(command.source) != seat:
        return IllegalCommand(
            "K-ACT-3", f"a fight starts from a tile of yours: not {command.source}"
        )
    if command.target not in table.board.neighbours.get(command.source, ()):
        return IllegalCommand("K-ACT-3", f"{command.target} is not next to {command.source}")
    if state.owner(command.target) in (None, seat):
        return IllegalCommand(
            "K-ACT-3", f"only an enemy tile is attacked; {command.target} is entered by a move"
        )
    if not command.units or Counter(command.units) - Counter(state.units_on(command.source)):
        return IllegalCommand("K-FIG-2", f"commit one or more of the units on {command.source}")
    return IllegalCommand("K-ACT-3", "attack one adjacent enemy tile from one of yours")


def _upgrade(table: Table, state: GameState, seat: str, command: m.Upgrade) -> IllegalCommand:
    if state.owner(command.tile) != seat or command.unit not in state.units_on(command.tile):
        return IllegalCommand("K-EV-4", f"no {command.unit} of yours on {command.tile} to upgrade")
    if is_upgraded(command.unit):
        return IllegalCommand("K-EV-4", f"the {base_of(command.unit)} is upgraded already")
    kind = table.pack.units[base_of(command.unit)]
    if kind.class_ == "crown":
        return IllegalCommand("K-BUY-2", "the crown has no upgraded side")
    gold = state.player(seat).gold
    return IllegalCommand(
        "K-BUY-2", f"the {kind.id}'s upgrade costs {kind.upgrade_cost} gold; you have {gold}"
    )


def _purchase(table: Table, state: GameState, seat: str, command: Command) -> IllegalCommand:
    economy, player = table.pack.economy, state.player(seat)
    if isinstance(command, m.UpgradeCastle):
        if command.tile not in table.board.castles_of(state, seat):
            return IllegalCommand("K-BUY-1", f"{command.tile} is not a castle you control")
        if command.tile in state.castle_upgrades:
            return IllegalCommand("K-BUY-1", f"{command.tile} is upgraded already (once)")
        cost = economy.castle_upgrade_cost
    elif isinstance(command, m.ExchangeMagic):
        if command.card not in player.hand:
            return IllegalCommand("K-BUY-1", f"you hold no {command.card} to exchange")
        cost = economy.magic_exchange_cost
    elif isinstance(command, m.BuyMagic):
        if not (state.magic_deck or state.magic_discard):
            return IllegalCommand("K-BUY-1", "no magic card is left to buy (K-HID-1)")
        cost = economy.magic_buy_cost
    else:
        assert isinstance(command, m.BuyCaptured)
        if not 0 <= command.index < len(player.captured):
            return IllegalCommand("K-CAS-6", f"you hold no captured card {command.index}")
        return IllegalCommand(
            "K-CAS-6", f"a captured card costs {economy.captured_magic_cost} gold"
        )
    name = type(command).__name__
    return IllegalCommand("K-BUY-1", f"{name} costs {cost} gold; you have {player.gold}")


def _recruit(
    table: Table, state: GameState, seat: str, command: m.Recruit | m.DeclineRecruit
) -> IllegalCommand:
    board, castle = table.board, command.castle
    if castle not in board.castles_of(state, seat):
        return IllegalCommand("K-REC-1", f"{castle} is not a castle you control")
    if castle in state.recruit_done:
        return IllegalCommand("K-REC-1", f"{castle} has had its one recruitment command")
    if board.room(state, castle) < 1:
        return IllegalCommand("K-TER-1", f"{castle} is full")
    if isinstance(command, m.Recruit):
        if command.unit not in table.pack.base_units():
            return IllegalCommand("K-REC-1", f"a base unit is recruited, not a {command.unit}")
        if state.player(seat).reserve.get(command.unit, 0) < 1:
            return IllegalCommand("K-REC-1", f"no {command.unit} in your reserve")
    return IllegalCommand("K-REC-1", "your castles recruit one at a time, in the listed order")


def _magic(table: Table, state: GameState, seat: str, command: m.PlayMagic) -> IllegalCommand:
    if command.card not in state.player(seat).hand:
        return IllegalCommand("K-CARD-2", f"you hold no {command.card}")
    if seat in state.magic_played:
        return IllegalCommand("K-CARD-2", "one magic card per phase: one is played")
    timing = table.pack.magic[command.card].timing
    if timing != state.phase:
        return IllegalCommand("K-CARD-2", f"{command.card} is played in the {timing} phase")
    return IllegalCommand("K-CARD-2", f"{command.card} allows no such target")
