"""Kaladan in words: every command, event and outcome as a sentence (card titles and texts
from the pack), a seat view as text with the board drawn as hex rows, and a scoreboard.

Sentences never show what their reader may not see: a reader who may not see an event whole
(another seat's magic draw, a scouted event card, a shuffle's order) is handed its cut form
(:class:`~nataterra_core.kernel.seen.Cut`, worded by :func:`describe_cut`), which does not
hold the hidden cards.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import Command, Event, Outcome
from nataterra_core.kernel.seen import Cut, cut_of
from nataterra_core.kernel.wording import article, counted, outcome_text, plural, reason_words

from . import messages as m
from .board import board_for
from .content import load_pack
from .content.schema import KaladanPack
from .rules.flow import points
from .state import base_of, is_upgraded

__all__ = ["KaladanPresenter", "unit_name"]


def _pack() -> KaladanPack:
    return load_pack()


def _pack_of(view: Any) -> KaladanPack:
    """The content pack ``view``'s game is played with (its map, its cards)."""
    return load_pack.in_play(view.pack)


def unit_name(unit: str) -> str:
    """``archer+`` -> ``upgraded Archer``."""
    kind = _pack().units.get(base_of(unit))
    title = kind.title if kind is not None else base_of(unit)
    return f"upgraded {title}" if is_upgraded(unit) else title


def _units(units: tuple[str, ...]) -> str:
    return ", ".join(unit_name(u) for u in units) or "nothing"


def _magic(card: str) -> str:
    found = _pack().magic.get(card)
    return found.title if found is not None else card


STAGES = {
    "attack_magic": "the attacker may play magic",
    "defence_magic": "the defender may play magic",
    "loss": "a loss to choose",
    "continue": "fight on or withdraw",
    "move_in": "the winner moves in",
}
"""A fight's stages (K-FIG-2..5) in words."""

CHOICES = {
    "revive": "may bring back a unit from a graveyard",
    "upgrade": "may upgrade a unit for free",
    "lose_unit": "must give up a unit",
    "scout": "looks at the top of the event deck",
    "garrison": "may garrison the castle",
}
"""What an awaited choice asks (K-EV-3, K-EV-4, K-EV-6, K-CAS-7), in words."""


def _card(card: str) -> str:
    """An event or magic card's title (a choice names either)."""
    pack = _pack()
    found = pack.events.get(card) or pack.magic.get(card)
    return found.title if found is not None else card.replace("_", " ")


def _event_card(card: str) -> str:
    found = _pack().events.get(card)
    return f"{found.title} ({found.text})" if found is not None else card


def describe_command(command: Command, seat: str | None = None, view: Any = None) -> str:
    """What ``seat`` asks for, as a sentence (``red moves ...``); without a seat, the bare
    imperative (``move ...``), as a list of choices reads. With ``view`` (the position it
    applies to), a move-in names the tile it goes into."""
    if isinstance(command, m.StartGame):
        return "the game starts: decks shuffled, first player drawn, magic cards dealt"
    verb, rest = _command_words(command)
    fight = getattr(view, "combat", None)
    if isinstance(command, m.MoveIn) and fight is not None:
        rest = f"{_units(command.units)} into {fight.target}"
    if seat is None:
        return f"{verb} {rest}".rstrip()
    first, _, tail = verb.partition(" ")
    return f"{seat} {first}s {tail} {rest}".replace("  ", " ").rstrip()


def _command_words(command: Command) -> tuple[str, str]:
    """The verb (imperative) and the rest of a command's sentence."""
    if isinstance(command, m.DrawEventCard):
        return "draw", "the top event card"
    if isinstance(command, m.EndPhase):
        return "end", f"the {command.phase} phase"
    if isinstance(command, m.Recruit):
        return "recruit", f"{article(unit_name(command.unit))} onto the castle at {command.castle}"
    if isinstance(command, m.DeclineRecruit):
        return "decline", f"the free recruit at {command.castle}"
    if isinstance(command, m.Move):
        extra = " (Haste)" if command.haste else ""
        return "move", f"{_units(command.units)} from {command.source} to {command.target}{extra}"
    if isinstance(command, m.Swap):
        return "swap", (
            f"{_units(command.give)} on {command.first} with {_units(command.take)} on "
            f"{command.second}"
        )
    if isinstance(command, m.Fight):
        return "attack", f"{command.target} from {command.source} with {_units(command.units)}"
    if isinstance(command, m.Place):
        return "buy", f"{article(unit_name(command.unit))} onto {command.tile}"
    if isinstance(command, m.Upgrade):
        return "upgrade", f"the {unit_name(command.unit)} on {command.tile}"
    if isinstance(command, m.UpgradeCastle):
        return "upgrade", f"the castle at {command.tile}"
    if isinstance(command, m.ExchangeMagic):
        return "exchange", f"a {_magic(command.card)} card"
    if isinstance(command, m.BuyMagic):
        return "buy", "an extra magic card"
    if isinstance(command, m.BuyCaptured):
        return "buy", f"captured magic card no. {command.index + 1}"
    if isinstance(command, m.PlayMagic):
        named = (command.tile, command.source, command.unit and unit_name(command.unit))
        target = " ".join(x for x in named if x)
        return "play", f"{_magic(command.card)}{' on ' + target if target else ''}"
    if isinstance(command, m.Revive):
        return "revive", f"{article(unit_name(command.unit))} from {command.source}'s graveyard"
    if isinstance(command, m.FreeUpgrade):
        return "take", f"the free upgrade on the {unit_name(command.unit)} at {command.tile}"
    if isinstance(command, m.LoseUnit):
        return "give up", f"the {unit_name(command.unit)} on {command.tile}"
    if isinstance(command, m.ScoutOrder):
        return "put", f"the scouted cards back{' swapped' if command.swap else ''}"
    if isinstance(command, m.Pass):
        return "play", "no magic card"
    if isinstance(command, m.TakeLoss):
        return "lose", article(unit_name(command.unit))
    if isinstance(command, m.ContinueFight):
        return "fight on", ""
    if isinstance(command, m.Withdraw):
        return "withdraw", ""
    if isinstance(command, m.MoveIn):
        return "move", f"{_units(command.units)} into the conquered tile"
    return "send", type(command).__name__


def describe_cut(event: Cut[Event]) -> str:
    """An event as a reader sees it without its hidden fields (another seat's draw, a
    shuffle's order): what happened, never which cards."""
    if cut_of(event, m.DeckShuffled):
        return f"the {event.deck} deck is shuffled ({event.size} cards)"
    if cut_of(event, m.MagicDrawn):
        return f"{event.seat} draws from the magic deck"
    if cut_of(event, m.CapturedBought):
        return f"{event.seat} pays {event.cost} gold for a captured magic card"
    if cut_of(event, m.Scouted):
        return f"{event.seat} scouts the top of the event deck"
    if cut_of(event, m.ScoutOrdered):
        return f"{event.seat} puts the scouted cards back"
    raise TypeError(f"no words for a cut {event.tag}")


def describe_event(event: Event) -> str:
    """One sentence for ``event``."""
    if isinstance(event, m.DeckShuffled):
        return f"the {event.deck} deck is shuffled ({len(event.after)} cards)"
    if isinstance(event, m.FirstPlayerDrawn):
        return f"{event.seat} goes first (drawn: d{event.m} = {event.value + 1})"
    if isinstance(event, m.MagicDrawn):
        return f"{event.seat} draws {counted(len(event.cards), 'magic card')}"
    if isinstance(event, m.TurnStarted):
        return f"turn {event.turn}: {event.seat}{' (last round)' if event.final else ''}"
    if isinstance(event, m.PhaseStarted):
        return f"{event.phase} phase"
    if isinstance(event, m.GoldChanged):
        verb = "gains" if event.amount >= 0 else "loses"
        return f"{event.seat} {verb} {abs(event.amount)} gold ({event.rule})"
    if isinstance(event, m.EventCardDrawn):
        last = "; the event deck is used up" if event.last else ""
        return f"{event.seat} draws the event {_event_card(event.card)}{last}"
    if isinstance(event, m.ChoiceAwaited):
        c = event.choice
        card = f" ({_card(c.card)})" if c.card else ""
        asks = CHOICES.get(c.kind, reason_words(c.kind))
        if c.kind == "garrison" and c.tile:
            asks += f" at {c.tile}"
        return f"{c.seat} {asks}{card}"
    if isinstance(event, m.ChoiceMade):
        return f"{event.seat}'s choice is settled"
    if isinstance(event, m.Recruited):
        if not event.unit:
            return f"{event.seat} recruits nothing at {event.castle}"
        return f"{article(unit_name(event.unit))} of {event.seat} joins at {event.castle} for free"
    if isinstance(event, m.UnitsMoved):
        go = "goes" if len(event.units) == 1 else "go"
        return (
            f"{event.seat}'s {_units(event.units)} {go} from {event.source} to {event.target} "
            f"({event.rule})"
        )
    if isinstance(event, m.UnitsSwapped):
        return (
            f"{event.seat} swaps {_units(event.give)} ({event.first}) and "
            f"{_units(event.take)} ({event.second})"
        )
    if isinstance(event, m.UnitPlaced):
        return (
            f"{event.seat} places {article(unit_name(event.unit))} on {event.tile} for "
            f"{event.cost} gold ({event.rule})"
        )
    if isinstance(event, m.UnitUpgraded):
        cost = f"for {event.cost} gold" if event.cost else "for free (K-EV-4)"
        return f"{event.seat}'s {unit_name(event.unit)} on {event.tile} is upgraded {cost}"
    if isinstance(event, m.CastleUpgraded):
        if event.removed:
            return f"{event.seat}'s sabotage strips the castle at {event.tile} of its upgrade"
        return f"{event.seat} upgrades the castle at {event.tile} for {event.cost} gold"
    if isinstance(event, m.UnitRemoved):
        where = (
            f"a scalp for {event.scalp_of}"
            if event.scalp_of
            else f"back to {event.owner}'s reserve"
        )
        return f"{event.owner}'s {unit_name(event.unit)} on {event.tile} falls: {where}"
    if isinstance(event, m.UnitRevived):
        revived = article(unit_name(event.unit))
        return f"{event.seat} revives {revived} from {event.source}'s graveyard"
    if isinstance(event, m.MagicPlayed):
        played = _pack().magic.get(event.card)
        return f"{event.seat} plays {_magic(event.card)}" + (f": {played.text}" if played else "")
    if isinstance(event, m.MagicDiscarded):
        return f"{event.seat} pays {event.cost} gold and discards {_magic(event.card)}"
    if isinstance(event, m.MagicBought):
        return f"{event.seat} pays {event.cost} gold for a magic card"
    if isinstance(event, m.CapturedBought):
        return f"{event.seat} pays {event.cost} gold for a captured magic card"
    if isinstance(event, m.Scouted):
        return f"{event.seat} scouts the top {len(event.cards)} event cards"
    if isinstance(event, m.ScoutOrdered):
        return f"{event.seat} puts the scouted cards back"
    if isinstance(event, m.MovesGranted):
        return f"{event.seat} may make {counted(event.amount, 'extra move')}"
    if isinstance(event, m.AssassinRolled):
        a, d = (*event.values, 0, 0)[:2]  # (the assassin's die, the target's)
        result = "kills" if a > d else "misses"
        return (
            f"{event.seat}'s assassin rolls {a + 1} against {d + 1} and {result} the "
            f"{unit_name(event.unit)} on {event.tile}"
        )
    if isinstance(event, m.CombatStarted):
        return (
            f"{event.attacker} attacks {event.defender} at {event.target} from {event.source} "
            f"with {_units(event.units)}"
        )
    if isinstance(event, m.CombatDieAdded):
        return f"a d{event.die} joins the {event.side} pool"
    if isinstance(event, m.CombatStep):
        loser = f" ({event.loser})" if event.loser else ""
        return f"the fight: {STAGES.get(event.stage, reason_words(event.stage))}{loser}"
    if isinstance(event, m.CombatRolled):
        dropped = f", {event.dropped} dropped" if event.dropped else ""
        return (
            f"round {event.round}: attack {list(event.attack)} = {sum(event.attack)}, defence "
            f"{list(event.defence)} = {sum(event.defence)}{dropped}; the {event.loser} loses a unit"
        )
    if isinstance(event, m.CombatEnded):
        return f"the fight is over: {event.winner} holds the field ({event.how})"
    if isinstance(event, m.PlayerEliminated):
        special = (
            f"; its {unit_name(event.special)} joins {event.by}'s reserve" if event.special else ""
        )
        return f"{event.seat}'s crown falls to {event.by}: {event.seat} is out{special}"
    if isinstance(event, m.FinalRound):
        return f"the last round: {', '.join(event.order)}"
    if isinstance(event, m.TieRolled):
        faces = [v + 1 for v in event.values]
        return f"{event.seat} rolls {faces} = {event.total} to break the tie"
    if isinstance(event, m.GameEnded):
        wins = "win" if len(event.winners) > 1 else "wins"
        who = ", ".join(event.winners) or "nobody"
        return f"the game ends ({reason_words(event.reason)}): {who} {wins}"
    return type(event).__name__


describe_outcome = outcome_text
"""The result with every seat's score (the kernel's words: ``won by red (last_crown); scores
red 42, blue 20``, ``no winner (abandoned)``)."""


def view_text(view: Any) -> str:
    """A seat view as text: the board in hex rows, then each player, then the phase."""
    board = board_for(_pack_of(view), view.map_id)
    standing = view.scores or running_scores(view)
    lines = [
        f"Kaladan, turn {view.turn}: {view.active} in the {view.phase} phase; "
        + ("scores " if view.scores else "score so far ")
        + ", ".join(f"{s} {n}" for s, n in standing.items())
    ]
    rows: dict[int, list[str]] = {}
    for tile in board.tiles:
        hex_ = board.hexes[tile]
        army = view.board.get(tile)
        mark = {"plain": ".", "mountain": "^", "forest": "*"}[board.terrain[tile]]
        if tile in board.castle_of:
            mark = "#" if tile not in view.castle_upgrades else "##"
        cell = f"{tile}{mark}"
        if army is not None:
            cell += f" {army.owner}:{'/'.join(_short(u) for u in army.units)}"
        rows.setdefault(hex_.r, []).append(cell)
    for r in sorted(rows):
        indent = " " * (2 * (r - min(rows)))
        lines.append(indent + "  ".join(rows[r]))
    lines.append("(. plain  ^ mountain  * forest  # castle  ## upgraded castle)")
    for p in view.players:
        hand = (
            f" hand {', '.join(_magic(c) for c in p.hand)}"
            if p.hand is not None
            else f" {p.hand_count} magic"
        )
        out = " OUT" if p.eliminated else ""
        reserve = ", ".join(
            f"{n} {plural(unit_name(u), n)}" for u, n in sorted(p.reserve.items()) if n
        )
        lines.append(
            f"{p.seat}{out}: {p.gold} gold, {counted(len(p.graveyard), 'scalp')}, "
            f"{counted(p.crowns, 'crown')};{hand}; reserve {reserve or 'empty'}"
        )
    lines.append(f"event deck {view.event_deck_count}, magic deck {view.magic_deck_count}")
    if view.scouted:
        lines.append(f"you scouted: {', '.join(_card(c) for c in view.scouted)}")
    if view.combat is not None:
        c = view.combat
        lines.append(
            f"fight: {c.attacker} from {c.source} on {c.target} ({c.defender}) with "
            f"{_units(c.committed)}; {STAGES.get(c.stage, reason_words(c.stage))}"
        )
    return "\n".join(lines)


def running_scores(view: Any) -> dict[str, int]:
    """Each seat's K-END-2 score if the game ended now, from what every seat sees (crowns,
    castles and tiles held, scalps, gold)."""
    castle_tiles = board_for(_pack_of(view), view.map_id).castle_of
    scores = {}
    for player in view.players:
        tiles = [t for t, army in view.board.items() if army.owner == player.seat]
        castles = sum(1 for t in tiles if t in castle_tiles)
        scores[player.seat] = points(
            crowns=player.crowns,
            castles=castles,
            scalps=len(player.graveyard),
            tiles=len(tiles) - castles,
            gold=player.gold,
        )
    return scores


def _price(command: Command, pack: KaladanPack) -> int:
    """What ``command`` costs in the buy phase (K-BUY-1); 0 for anything free."""
    economy = pack.economy
    if isinstance(command, m.Place | m.Upgrade):
        kind = pack.units.get(base_of(command.unit))
        if kind is None:  # not the pack's: a forged record's unit has no price
            return 0
        return kind.place_cost if isinstance(command, m.Place) else kind.upgrade_cost
    if isinstance(command, m.UpgradeCastle):
        return economy.castle_upgrade_cost
    if isinstance(command, m.ExchangeMagic):
        return economy.magic_exchange_cost
    if isinstance(command, m.BuyMagic):
        return economy.magic_buy_cost
    if isinstance(command, m.BuyCaptured):
        return economy.captured_magic_cost
    return 0


def _short(unit: str) -> str:
    short = {
        "swordsman": "Sw",
        "archer": "Ar",
        "shieldbearer": "Sh",
        "catapult": "Ca",
        "crown": "CROWN",
        "general": "Gen",
    }
    return short.get(base_of(unit), base_of(unit)[:3].title()) + ("+" if is_upgraded(unit) else "")


class KaladanPresenter:
    """Kaladan's words for the registry."""

    def command(
        self, command: Command | Cut[Command], seat: str | None = None, view: Any = None
    ) -> str:
        """One sentence for a command (the tiles and units it names say all it needs;
        every command is public)."""
        if isinstance(command, Cut):
            raise TypeError(f"no words for a cut {command.tag}: every command is public")
        return describe_command(command, seat, view)

    def offer(self, command: Command, seat: str, view: Any = None) -> str:
        """``command`` in ``seat``'s menu: the imperative (``move ...``), with its price in
        gold when it costs any (K-BUY-1)."""
        price = _price(command, _pack_of(view) if view is not None else _pack())
        return describe_command(command, None, view) + (f" ({price} gold)" if price else "")

    def event(self, event: Event | Cut[Event], view: Any = None) -> str:
        """One sentence for an event as its reader sees it (whole or cut)."""
        if isinstance(event, Cut):
            return describe_cut(event)
        return describe_event(event)

    def outcome(self, outcome: Outcome) -> str:
        """The result in words, with the scores."""
        return describe_outcome(outcome)

    def view(self, view: Any) -> str:
        """A seat view as text."""
        return view_text(view)
