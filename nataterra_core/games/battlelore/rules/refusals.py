"""Why a command is refused: the clause it breaks, found check by check.

``decide`` asks here only for a command outside the seat's legal list. The checks run in the
order the rules ask them: whose turn it is and which step (B-TURN-1), then the step's own
clauses, most particular last. So a blue foot unit that moved two hexes and then battles is
told B-UNIT-2 (blue foot moves 2 without battle), not B-BAT-1; one that entered a building
is told B-TER-1; a target out of sight B-BAT-2. Never changes the state.
"""

from __future__ import annotations

from nataterra_core.boards.hexgrid import canonical_paths
from nataterra_core.kernel import IllegalCommand

from .. import messages as m
from ..board import Point, distance
from ..state import BattleLoreState, Combat, Phase, Stage
from .turn import acting
from .world import World

__all__ = ["explain"]

_STEP_OF: dict[type[m.Command], Phase] = {
    m.PlayCard: "card",
    m.SkipCard: "card",
    m.OrderUnit: "order",
    m.FinishOrders: "order",
    m.MoveUnit: "move",
    m.FinishMoves: "move",
    m.BattleUnit: "battle",
    m.FinishBattles: "battle",
    m.KeepCard: "draw",
}
"""The turn step (B-TURN-1) each command of a step belongs to."""

_STAGES: dict[Stage, tuple[str, tuple[type[m.Command], ...]]] = {
    "flags": ("B-RET-2", (m.IgnoreFlag, m.AcceptFlags, m.PlayLore)),
    "lore": ("B-ADV-5", (m.PlayLore, m.Decline)),
    "retreat": ("B-RET-1", (m.Retreat,)),
    "take_ground": ("B-MOM-1", (m.TakeGround, m.Decline)),
    "pursuit": ("B-MOM-1", (m.Pursue, m.Decline)),
    "bonus": ("B-MOM-1", (m.BonusBattle, m.Decline)),
    "battle_back": ("B-MOM-2", (m.BattleBack, m.Decline)),
}
"""Each stage of a battle: the clause of its choice and the commands that answer it."""


def explain(world: World, state: BattleLoreState, seat: str, command: m.Command) -> IllegalCommand:
    """The clause ``command`` of ``seat`` breaks in ``state``, with the reason."""
    name = type(command).__name__
    if state.phase == "over":
        return IllegalCommand("B-WIN-1", "the game is over")
    now = acting(world, state)
    if seat not in now:
        who = f" ({', '.join(now)} may)" if now else ""
        return IllegalCommand("B-TURN-1", f"{seat} may not act now{who}")
    if state.phase == "setup":
        if isinstance(command, m.KeepLore):
            return IllegalCommand("B-ADV-3", "keep one of the lore cards you were offered")
        return IllegalCommand("B-ADV-3", f"the lore set-up awaits the cards kept, not {name}")
    if state.combat is not None:
        return _in_battle(world, state, state.combat, seat, command)
    if isinstance(command, m.PlayLore):
        return _lore(world, state, seat, command)
    if isinstance(command, m.KeepLore):
        return IllegalCommand("B-ADV-3", "lore cards are kept at the set-up only")
    if isinstance(command, m.Decline):
        return IllegalCommand("B-TURN-1", "there is no choice to decline now")
    step = _STEP_OF.get(type(command))
    if step is None:
        return IllegalCommand("B-TURN-1", f"{name} answers a battle; none is being fought")
    if step != state.phase:
        return IllegalCommand(
            "B-TURN-1", f"{name} belongs to the {step} step; this is the {state.phase}"
        )
    match command:
        case m.PlayCard(card=card):
            return IllegalCommand("B-CMD-2", f"you hold no {card!r}")
        case m.SkipCard():
            return IllegalCommand(
                "B-ADV-4", "the command card is skipped only for a lore card played instead"
            )
        case m.OrderUnit():
            return _order(world, state, seat, command)
        case m.MoveUnit():
            return _move(world, state, seat, command)
        case m.BattleUnit():
            return _battle(world, state, seat, command)
        case m.KeepCard(card=card):
            return IllegalCommand("B-CMD-2", f"{card!r} is not among the cards drawn")
    return IllegalCommand("B-TURN-1", f"{name} is not possible now")


def _order(world: World, state: BattleLoreState, seat: str, command: m.OrderUnit) -> IllegalCommand:
    unit = state.unit(command.unit)
    if unit is None or unit.side != seat:
        return IllegalCommand("B-CMD-1", f"{command.unit!r} is not a unit of yours")
    if unit.id in state.ordered:
        return IllegalCommand("B-CMD-1", f"{unit.id} has its order: one per unit and turn")
    if unit.id in state.cancelled:
        return IllegalCommand("B-CMD-4", f"{unit.id} lost its next order (B-ADV-2)")
    if len(state.ordered) >= world.order_capacity(state):
        return IllegalCommand("B-CMD-1", "the card's orders are given")
    return IllegalCommand("B-CMD-1", f"the card orders no more units where {unit.id} stands")


def _move(world: World, state: BattleLoreState, seat: str, command: m.MoveUnit) -> IllegalCommand:
    unit = state.unit(command.unit)
    to = command.to
    if unit is None or unit.side != seat or unit.id not in state.ordered:
        return IllegalCommand("B-UNIT-2", f"{command.unit!r} is not an ordered unit of yours")
    if unit.id in state.moved:
        return IllegalCommand("B-UNIT-2", f"{unit.id} has moved: each ordered unit moves once")
    if not world.board.on_board(to):
        return IllegalCommand("B-BOARD-1", f"{to} is off the board")
    if state.at(to) is not None:
        return IllegalCommand("B-UNIT-2", "a unit never enters an occupied hex")
    terrain = world.terrain_at(to)
    if terrain.impassable:
        return IllegalCommand("B-TER-1", f"{terrain.id} is impassable")
    _, most = world.reach(state, unit)
    if distance(unit.hex, to) > most:
        return IllegalCommand(
            "B-UNIT-2", f"{unit.id} ({unit.type}) moves at most {_hexes(most)} now"
        )
    if to in _reachable_through_stops(world, state, unit.hex, most):
        return IllegalCommand("B-TER-1", "terrain that stops a unit entering it is on every way")
    return IllegalCommand("B-UNIT-2", "a unit never passes through an occupied hex")


def _hexes(count: int) -> str:
    return f"{count} hex" if count == 1 else f"{count} hexes"


def _reachable_through_stops(
    world: World, state: BattleLoreState, start: Point, most: int
) -> frozenset[Point]:
    """The hexes within ``most`` steps if no terrain stopped a unit (occupied and
    impassable hexes still bar the way): what terrain alone keeps a unit from."""
    occupied = frozenset(u.hex for u in state.units)

    def moves(hex_: Point) -> list[tuple[Point, Point | None]]:
        return [
            (n, n)
            for n in world.board.neighbours(hex_)
            if n not in occupied and not world.terrain_at(n).impassable
        ]

    return frozenset(canonical_paths(start, most, moves))


def _battle(
    world: World, state: BattleLoreState, seat: str, command: m.BattleUnit
) -> IllegalCommand:
    unit = state.unit(command.unit)
    if unit is None or unit.side != seat or unit.id not in state.ordered:
        return IllegalCommand("B-BAT-1", f"{command.unit!r} is not an ordered unit of yours")
    if unit.id in state.battled:
        return IllegalCommand("B-TURN-1", f"{unit.id} has battled this turn")
    if unit.id in state.no_battle:
        terrain = world.terrain_at(unit.hex)
        if terrain.no_battle_after_entering:
            return IllegalCommand("B-TER-1", f"{unit.id} entered {terrain.id}: no battle this turn")
        battle, _ = world.reach(state, unit)
        return IllegalCommand(
            "B-UNIT-2",
            f"{unit.id} ({unit.type}) moved too far to battle: at most {_hexes(battle)} and battle",
        )
    target = state.unit(command.target)
    if target is None or target.side == seat:
        return IllegalCommand("B-BAT-1", f"{command.target!r} is not an enemy unit")
    far, reach = distance(unit.hex, target.hex), world.range_of(unit)
    if far > reach:
        return IllegalCommand(
            "B-BAT-1", f"{target.id} is {far} hexes away; {unit.id} battles at up to {reach}"
        )
    if far > 1 and not world.sight(state, unit.hex, target.hex):
        return IllegalCommand("B-BAT-2", f"{unit.id} has no line of sight to {target.id}")
    return IllegalCommand("B-BAT-1", f"{unit.id} may not battle {target.id} now")


def _in_battle(
    world: World, state: BattleLoreState, combat: Combat, seat: str, command: m.Command
) -> IllegalCommand:
    rule, answers = _STAGES[combat.stage]
    stage = combat.stage.replace("_", " ")
    if not isinstance(command, answers):
        return IllegalCommand(rule, f"the battle awaits {stage}: not {type(command).__name__}")
    match command:
        case m.PlayLore():
            return _lore(world, state, seat, command)
        case m.IgnoreFlag():
            return IllegalCommand(
                "B-RET-2", f"{combat.defender} may ignore no flag: it is not bold, or has ignored"
            )
        case m.Retreat(to=to):
            return IllegalCommand(
                "B-RET-1", f"{to} is not a free hex one step toward {seat}'s own side"
            )
        case m.Pursue(to=to):
            return IllegalCommand("B-MOM-1", f"{to} is not a free hex next to the pursuer")
        case m.BonusBattle(target=target):
            return IllegalCommand("B-MOM-1", f"{target!r} is not an enemy next to the pursuer")
    return IllegalCommand(rule, f"the battle awaits {stage}")


def _window(state: BattleLoreState) -> str:
    """The lore window open now (B-ADV-5)."""
    combat = state.combat
    if combat is not None:
        return "after_roll" if combat.stage == "lore" else "on_retreat"
    return {"card": "command", "battle": "before_roll", "draw": "end_of_turn"}.get(
        state.phase, "none"
    )


def _lore(world: World, state: BattleLoreState, seat: str, command: m.PlayLore) -> IllegalCommand:
    side = state.side_of(seat)
    if not world.scenario.lore:
        return IllegalCommand("B-ADV-3", "this scenario plays without lore")
    if command.card not in side.lore_hand:
        return IllegalCommand("B-ADV-3", f"you hold no lore card {command.card!r}")
    card = world.pack.lore[command.card]
    window = _window(state)
    if card.window != window:
        return IllegalCommand(
            "B-ADV-5", f"{card.id} is played in the {card.window} window, not {window}"
        )
    if card.cost > side.lore_tokens:
        return IllegalCommand(
            "B-ADV-3", f"{card.id} costs {card.cost} lore tokens; you have {side.lore_tokens}"
        )
    if window == "command" and state.lore_played:
        return IllegalCommand("B-ADV-5a", "one lore card per window")
    return IllegalCommand("B-ADV-5", f"{card.id} has no such target now")
