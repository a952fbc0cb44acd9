"""BattleLore in words: every command and event in a sentence, and a seat view as text with
the board drawn as hexes (sections, terrain, units with banners and figures)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nataterra_core.kernel import Command, Event, Outcome
from nataterra_core.kernel.seen import Cut, cut_of
from nataterra_core.kernel.wording import counted, outcome_text, plural, reason_words

from . import messages as m
from .board import Point, to_hex, to_offset
from .content import BattleLorePack, load_pack
from .rules.world import World, world_in_play
from .views import SeatView

__all__ = ["BattleLorePresenter", "board_text", "hex_name"]

KIND_LETTER = {"foot": "F", "archers": "A", "mounted": "M", "creature": "C"}


def _pack_of(view: Any) -> BattleLorePack:
    """The pack a view's game is played with (the provisional one without a view)."""
    sha = getattr(view, "pack", None)
    return load_pack.in_play(sha) if isinstance(sha, str) else load_pack()


def card_title(card: str, view: Any = None) -> str:
    """A command or lore card's name in the pack (``Probe Centre``); an id the pack does not
    know (a forged record's) as words."""
    pack = _pack_of(view)
    found = pack.cards.get(card) or pack.lore.get(card)
    return found.name if found is not None else card.replace("_", " ")


def _titles(cards: tuple[str, ...], view: Any) -> str:
    return ", ".join(card_title(c, view) for c in cards) or "none"


def _unit(unit: str, view: Any, seat: str | None = None) -> str:
    """A unit as ``seat`` finds it on the board, when the view shows it: its kind and banner
    and its hex by the board's label, ``seat``'s own as ``the green archers at 2,6``,
    another side's as ``french's red heavy cavalry at 4,1``; else by its label (``e1``)."""
    found = next((u for u in getattr(view, "units", ()) if u.id == unit), None)
    if found is None or not isinstance(view, SeatView):
        return unit
    kind = world_in_play(view.pack, view.scenario).type_of(found)
    whose = "the" if found.side == seat else f"{found.side}'s"
    return f"{whose} {kind.name} at {hex_name(found.hex)}"


def hex_name(hex_: Point) -> str:
    """A hex as players name it: ``column,row`` of the board (B-BOARD-1)."""
    column, row = to_offset(hex_)
    return f"{column},{row}"


def board_text(view: SeatView, world: World) -> list[str]:
    """The board, row 0 (the top edge) first; a unit is side, kind, banner and figures
    (``eAg4``: English green archers, 4 figures); ``:`` marks a hex on a section line."""
    rules = world.pack.rules
    by_hex = {u.hex: u for u in view.units}
    lines = ["     " + "".join(f"{c:<5}" for c in range(rules.columns))]
    for row in range(rules.rows):
        cells = []
        for column in range(rules.columns - row % 2):
            hex_ = to_hex(column, row)
            point = (hex_.q, hex_.r)
            unit = by_hex.get(point)
            if unit is not None:
                kind = world.type_of(unit)
                body = f"{unit.side[0]}{KIND_LETTER[kind.kind]}{kind.banner[0]}{unit.figures}"
            else:
                body = world.terrain_at(point).symbol * 4
            line = ":" if len(world.board.sections(point, world.scenario.sides[0])) > 1 else " "
            cells.append(f"{body}{line}")
        indent = "  " if row % 2 else ""
        lines.append(f"{row:>2}   {indent}" + "".join(cells).rstrip())
    bottom, top = world.scenario.sides
    lines.append(
        f"{bottom}'s edge is row {rules.rows - 1}, {top}'s row 0; sections are named "
        f"from each side's own view ({bottom}'s left is the low columns)"
    )
    lines.append(legend(view, world))
    return lines


def _cut_event(event: Cut[Event]) -> str:
    """An event without the fields its reader may not see: what happened, never which card."""
    if cut_of(event, m.DeckShuffled):
        return f"the {event.deck} deck is shuffled ({event.size} cards)"
    if cut_of(event, m.CardsDrawn):
        return f"{event.seat} draws from the {event.deck} deck"
    if cut_of(event, m.CardKept):
        return f"{event.seat} keeps a {event.deck} card"
    raise TypeError(f"no words for a cut {event.tag}")


def legend(view: SeatView, world: World) -> str:
    """What the board's marks mean: a unit's four letters, the terrain in play, ``:``."""
    sides = ", ".join(f"{side[0]} {side}" for side in world.scenario.sides)
    kinds = ", ".join(f"{letter} {kind}" for kind, letter in KIND_LETTER.items())
    banners = sorted({world.type_of(u).banner for u in view.units})
    rules = world.pack.rules
    seen = {
        world.terrain_at((to_hex(c, r).q, to_hex(c, r).r))
        for r in range(rules.rows)
        for c in range(rules.columns - r % 2)
    }
    ground = ", ".join(
        f"{t.symbol * 4} {t.name}" for t in sorted(seen, key=lambda t: t.name) if t.symbol != "."
    )
    return (
        f"(a unit eAg4: side ({sides}), kind ({kinds}), banner "
        f"({', '.join(f'{b[0]} {b}' for b in banners)}), figures; .... open ground"
        + (f", {ground}" if ground else "")
        + "; : a hex on a section line)"
    )


def _phrase(command: Command, view: Any, unit: Callable[[str], str]) -> tuple[str, str]:
    """A command's verb (an imperative: ``play``) and the rest of its sentence, units named by
    ``unit`` (bare in the log, described in a menu)."""
    match command:
        case m.PlayCard(card=card):
            return "play", card_title(card, view)
        case m.OrderUnit(unit=ordered):
            return "order", unit(ordered)
        case m.MoveUnit(unit=moved, to=to):
            return "move", f"{unit(moved)} to {hex_name(to)}"
        case m.BattleUnit(unit=attacker, target=target):
            return "battle", f"{unit(target)} with {unit(attacker)}"
        case m.Retreat(to=to):
            return "retreat", f"to {hex_name(to)}"
        case m.Pursue(to=to):
            return "pursue", f"to {hex_name(to)}"
        case m.BonusBattle(target=target):
            return "make", f"a bonus battle against {unit(target)}"
        case m.KeepCard(card=card) | m.KeepLore(card=card):
            return "keep", card_title(card, view)
        case m.PlayLore(card=card, unit=aimed, to=to):
            aim = f" on {unit(aimed)}" if aimed else ""
            where = f" to {hex_name(to)}" if to else ""
            return "play", f"the lore card {card_title(card, view)}{aim}{where}"
    verb, _, rest = OFFERS.get(type(command), f"send {type(command).__name__}").partition(" ")
    return verb, rest


OFFERS: dict[type[Command], str] = {
    m.FinishOrders: "give no more orders",
    m.FinishMoves: "move no more units",
    m.FinishBattles: "end the battles",
    m.IgnoreFlag: "ignore a flag (bold)",
    m.AcceptFlags: "take the flags",
    m.TakeGround: "take ground",
    m.BattleBack: "battle back",
    m.Decline: "decline",
    m.SkipCard: "play no command card (lore instead)",
}
"""The offers with nothing to name, as imperatives."""


class BattleLorePresenter:
    """BattleLore's words for the CLI, the RPC server and logs."""

    def command(
        self, command: Command | Cut[Command], seat: str | None = None, view: Any = None
    ) -> str:
        """One sentence for a command (``english battles french's red heavy cavalry at 4,1
        with the green archers at 6,4``: units as :func:`_unit` names them in ``view``, by
        their ids only without one; cards by their title in ``view``'s pack); a kept card is
        named only to its keeper (others are handed the cut form)."""
        who = seat or "the system"
        if isinstance(command, Cut):
            if cut_of(command, m.KeepCard):
                return f"{who} keeps a card"
            if cut_of(command, m.KeepLore):
                return f"{who} keeps a lore card"
            raise TypeError(f"no words for a cut {command.tag}")
        if isinstance(command, m.Start):
            return "the battle is set up"
        verb, rest = _phrase(command, view, lambda unit: _unit(unit, view, seat))
        return f"{who} {verb}s {rest}".rstrip()

    def offer(self, command: Command, seat: str, view: Any = None) -> str:
        """``command`` in ``seat``'s menu, as that seat's own: an imperative (``play Probe
        Centre``, ``order the green archers at 2,6``, ``battle french's red heavy cavalry
        at 4,1 with the blue foot at 4,2``): units by kind, banner and the board's label of
        their hex, never by their ids."""
        verb, rest = _phrase(command, view, lambda unit: _unit(unit, view, seat))
        return f"{verb} {rest}".rstrip()

    def event(self, event: Event | Cut[Event], view: Any = None) -> str:
        """One sentence for an event as its reader sees it (a reader who may not see a card
        is handed the cut form, without it)."""
        if isinstance(event, Cut):
            return _cut_event(event)
        return _event(event, view)

    def outcome(self, outcome: Outcome) -> str:
        """The result and the medals (the kernel's words for a result)."""
        return outcome_text(outcome)

    def view(self, view: Any) -> str:
        """A seat view as text: the board, the sides and the units."""
        if not isinstance(view, SeatView):
            raise TypeError(f"not a BattleLore view: {type(view).__name__}")
        world = world_in_play(view.pack, view.scenario)
        head = f"{world.scenario.name}: turn {view.turn}, {view.active} to play ({view.phase})"
        if view.card:
            head += f", card {card_title(view.card, view)}"
        lines = [head, *board_text(view, world)]
        for side in view.sides:
            hand = (
                f"hand {_titles(side.hand, view)}"
                if side.hand is not None
                else counted(side.hand_size, "card")
            )
            lore = f", lore tokens {side.lore_tokens}" if world.scenario.lore else ""
            if world.scenario.lore and side.lore_hand is not None:
                lore += f", lore hand {_titles(side.lore_hand, view)}"
            lines.append(f"{side.seat}: {side.medals}/{world.scenario.medals} medals, {hand}{lore}")
        for unit in view.units:
            kind = world.type_of(unit)
            marks = [
                n
                for n, s in (
                    ("ordered", view.ordered),
                    ("moved", view.moved),
                    ("battled", view.battled),
                )
                if unit.id in s
            ]
            terrain = world.terrain_at(unit.hex)
            on = f" ({terrain.name})" if terrain.id != world.plain.id else ""
            on_sections = world.board.sections(unit.hex, unit.side)
            sections = f"{' and '.join(on_sections)} {plural('section', len(on_sections))}"
            lines.append(  # named as the menus and the log name it, never by its id
                f"  {unit.side}'s {kind.name} at {hex_name(unit.hex)}{on}: "
                f"{unit.figures} of {counted(unit.start, 'figure')}, {sections}"
                + (f" ({', '.join(marks)})" if marks else "")
            )
        if view.winner or view.ended:
            lines.append(f"over: {view.winner or 'draw'} ({reason_words(view.ended)})")
        return "\n".join(lines)


def _event(event: Event, view: Any) -> str:
    """An event's sentence, units named as :func:`_unit` names them for a spectator."""

    def named(unit: str) -> str:
        return _unit(unit, view)

    match event:
        case m.DeckShuffled(deck=deck, after=after):
            return f"the {deck} deck is shuffled ({len(after)} cards)"
        case m.CardsDrawn(seat=seat, deck=deck, cards=cards):
            return f"{seat} draws {counted(len(cards), f'{deck} card')}"
        case m.CardPlayed(seat=seat, card=card, acts_as=acts_as):
            extra = f" as {card_title(acts_as, view)}" if acts_as != card else ""
            return f"{seat} plays {card_title(card, view)}{extra}"
        case m.CardsDiscarded(seat=seat, cards=cards):
            return f"{seat} discards {_titles(cards, view)}"
        case m.CardKept(seat=seat, deck=deck):
            return f"{seat} keeps a {deck} card"
        case m.UnitOrdered(unit=unit):
            return f"{named(unit)} is ordered"
        case m.StepEnded(step=step, lost=lost):
            lost_orders = f" ({counted(lost, 'order')} lost)" if lost else ""
            return f"the {reason_words(step)} step ends{lost_orders}"
        case m.UnitMoved(unit=unit, path=path, why=why, may_battle=may):
            via = f" through {', '.join(hex_name(h) for h in path[:-1])}" if path[:-1] else ""
            how = {
                "move": "moves",
                "retreat": "retreats",
                "take_ground": "takes ground",
                "pursuit": "pursues",
                "teleport": "is teleported",
            }[why]
            return f"{named(unit)} {how} to {hex_name(path[-1])}{via}" + (
                "" if may else " (no battle)"
            )
        case m.BattleDeclared(unit=unit, target=target, dice=dice, melee=melee, kind=kind):
            how = "in melee" if melee else "at range"
            called = kind.replace("_", " ")
            return f"{named(unit)} battles {named(target)} {how} with {dice} dice ({called})"
        case m.DiceRolled(faces=faces, purpose=purpose, unit=unit):
            rolled = ", ".join(reason_words(face) for face in faces)
            return f"{reason_words(purpose)} roll for {named(unit)}: {rolled}"
        case m.FiguresLost(unit=unit, count=count, cause=cause):
            return f"{named(unit)} loses {counted(count, 'figure')} ({reason_words(cause)})"
        case m.FiguresRegained(unit=unit, count=count):
            return f"{named(unit)} regains {counted(count, 'figure')}"
        case m.UnitDestroyed(unit=unit, medal_to=side):
            return f"{named(unit)} is destroyed; {side} gains a medal"
        case m.FlagIgnored(unit=unit, forced=forced):
            return f"{named(unit)} ignores a flag" + (" (it must)" if forced else "")
        case m.FlagsRolled(unit=unit, flags=flags, ignorable=ignorable):
            return f"{named(unit)} faces {counted(flags, 'flag')}" + (
                f" and may ignore {ignorable}" if ignorable else ""
            )
        case m.RetreatBegun(unit=unit, hexes=hexes):
            return f"{named(unit)} must retreat {counted(hexes, 'hex')}"
        case m.CombatStage(stage=stage):
            return f"the battle waits for a choice: {stage.replace('_', ' ')}"
        case m.CombatEnded():
            return "the battle is over"
        case m.OrderCancelled(unit=unit):
            return f"{named(unit)} will lose its next order"
        case m.MedalsChanged(side=side, objectives=n, reason=reason):
            medals = counted(n, "objective medal")
            return f"{side}: {reason_words(reason)} ({medals})"
        case m.LoreTokens(side=side, tokens=tokens, reason=reason):
            return f"{side} has {counted(tokens, 'lore token')} ({reason_words(reason)})"
        case m.LorePlayed(seat=seat, card=card):
            return f"{seat} plays the lore card {card_title(card, view)}"
        case m.CardSkipped(seat=seat):
            return f"{seat} plays no command card: no units are ordered"
        case m.RollRead(unit=unit, hits=hits, flags=flags):
            return (
                f"the roll against {named(unit)}: {counted(hits, 'hit')}, {counted(flags, 'flag')}"
            )
        case m.CouncilSeated(side=side, level=level, keep=keep, hand_limit=limit):
            return f"{side}'s war council (level {level}): keeps {keep}, holds at most {limit}"
        case m.RandomDiscard(seat=seat, card=card):
            return f"{seat} discards {card_title(card, view)}, drawn at random"
        case m.ExtraOrders(count=count):
            return f"{counted(count, 'more unit')} may be ordered in any section"
        case m.Ambush(unit=unit):
            return f"{named(unit)} may battle back even if not bold"
        case m.LoreWindowClosed(window=window):
            return f"no (more) lore {window.replace('_', ' ')}"
        case m.TurnEnded(next_seat=seat, turn=turn):
            return f"turn {turn}: {seat} to play"
        case m.GameEnded(winner=winner, reason=reason):
            ended = reason_words(reason)
            return f"the battle is won by {winner} ({ended})" if winner else f"a draw ({ended})"
    return type(event).__name__
