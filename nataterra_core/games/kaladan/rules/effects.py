"""Event and magic cards: targets, conditions and the closed set of effect primitives
(K-CARD-1, K-CARD-2), each implemented once here, and the choices they await.

Event primitives: ``gold``, ``revive`` (K-EV-3), ``upgrade`` (K-EV-4), ``lose_unit``
(K-EV-6), ``draw_magic``. Magic primitives add ``assassinate``, ``combat_die`` (in
:mod:`.combat`), ``extra_move``, ``remove_castle_upgrade`` and ``scout``.
"""

from __future__ import annotations

from nataterra_core.kernel import Command
from nataterra_core.kernel.chance import record_draws, record_shuffle

from .. import messages as m
from ..content.schema import Condition, Effect, EventCard
from ..state import Choice, Fallen, GameState, base_of, is_upgraded
from .flow import Play, Table

__all__ = [
    "affected",
    "choice_options",
    "draw_event",
    "draw_magic",
    "magic_plays",
    "play_magic",
    "resolve_choice",
]


def _units_on_board(state: GameState, seat: str) -> int:
    return sum(len(a.units) for a in state.board.values() if a.owner == seat)


def _meets(table: Table, state: GameState, seat: str, condition: Condition | None) -> bool:
    """K-EV-2: whether ``seat`` meets the condition; units in a reserve never count."""
    if condition is None:
        return True
    tiles = state.tiles_of(seat)
    if condition.kind == "unit_on_board":
        return any(base_of(u) == condition.unit for t in tiles for u in state.units_on(t))
    if condition.kind == "terrain":
        return any(table.board.terrain[t] == condition.terrain for t in tiles)
    if condition.kind == "extra_castle":
        return table.board.extra_castles(state, seat) > 0
    if condition.kind == "gold_at_least":
        return state.player(seat).gold >= condition.amount
    return state.player(seat).gold <= condition.amount


def affected(table: Table, state: GameState, card: EventCard, active: str) -> tuple[str, ...]:
    """Who an event card affects (K-EV-1, K-EV-2, K-EV-5), from the active player on."""
    alive = state.in_game()
    at = alive.index(active) if active in alive else 0
    order = alive[at:] + alive[:at]
    chosen: tuple[str, ...]
    if card.target == "active":
        chosen = (active,)
    elif card.target == "richest":
        most = max(state.player(s).gold for s in order)
        chosen = tuple(s for s in order if state.player(s).gold == most)
    elif card.target == "strongest":
        most = max(_units_on_board(state, s) for s in order)
        chosen = tuple(s for s in order if _units_on_board(state, s) == most)
    else:
        chosen = order
    return tuple(s for s in chosen if _meets(table, state, s, card.condition))


def draw_magic(play: Play, seat: str, count: int) -> None:
    """``seat`` draws ``count`` magic cards; an empty deck is reshuffled from its discard
    pile, and with both empty nothing more is drawn (K-HID-1)."""
    for _ in range(count):
        state = play.state
        if not state.magic_deck:
            if not state.magic_discard:
                return
            shuffled = record_shuffle(play.dice, state.magic_discard)
            play.emit(m.DeckShuffled(deck="magic", **shuffled))
        play.emit(m.MagicDrawn(seat=seat, cards=(play.state.magic_deck[0],)))


def _effect(play: Play, seat: str, effect: Effect, card: str, rule: str) -> None:
    """One primitive for one player (the event and magic primitives they share)."""
    board = play.table.board
    if effect.kind == "gold":
        per = len(board.castles_of(play.state, seat)) if effect.per == "castle" else 1
        if effect.amount * per:
            play.emit(m.GoldChanged(seat=seat, amount=effect.amount * per, rule=rule))
    elif effect.kind == "draw_magic":
        draw_magic(play, seat, effect.amount)
    elif effect.kind in ("revive", "upgrade", "lose_unit"):
        for _ in range(effect.amount):
            choice = Choice(seat=seat, kind=effect.kind, card=card, unit=effect.unit)  # type: ignore[arg-type]
            if choice_options(play.table, play.state, choice):
                play.emit(m.ChoiceAwaited(choice=choice))
    elif effect.kind == "extra_move":
        play.emit(m.MovesGranted(seat=seat, amount=effect.amount))
    elif effect.kind == "scout":
        top = play.state.event_deck[: effect.amount]
        play.emit(m.Scouted(seat=seat, cards=top))
        if len(top) > 1:
            play.emit(m.ChoiceAwaited(choice=Choice(seat=seat, kind="scout", card=card)))
    else:
        raise ValueError(f"the effect {effect.kind!r} has no implementation here")


def draw_event(play: Play, seat: str) -> None:
    """K-EV-1: draw the top event card and resolve it fully; the last card marks the deck
    used up (K-END-1)."""
    deck = play.state.event_deck
    card = play.table.pack.events[deck[0]]
    play.emit(m.EventCardDrawn(seat=seat, card=card.id, last=len(deck) == 1))
    targets = affected(play.table, play.state, card, seat)
    for effect in card.effects:
        for target in targets:
            _effect(play, target, effect, card.id, "K-EV-1")


# --- choices --------------------------------------------------------------------------------


def choice_options(table: Table, state: GameState, choice: Choice) -> list[Command]:
    """The commands that settle ``choice`` (empty: it has become moot)."""
    seat = choice.seat
    if choice.kind == "revive":  # K-EV-3: your own fallen units, from any graveyard
        found = {
            (p.seat, f.unit)
            for p in state.players
            for f in p.graveyard
            if f.owner == seat and (not choice.unit or f.unit == choice.unit)
        }
        return [m.Revive(source=s, unit=u) for s, u in sorted(found)]
    if choice.kind == "scout":
        return [m.ScoutOrder(swap=False), m.ScoutOrder(swap=True)]
    if choice.kind == "garrison":  # K-CAS-7
        player = state.player(seat)
        if state.owner(choice.tile) is not None:
            return []
        return [
            m.Recruit(castle=choice.tile, unit=u)
            for u in table.pack.base_units()
            if player.reserve.get(u, 0) > 0
        ]
    found_units: list[Command] = []
    for tile in state.tiles_of(seat):
        for unit in sorted(set(state.units_on(tile))):
            kind = table.pack.units[base_of(unit)]
            if kind.class_ == "crown" or (choice.unit and kind.id != choice.unit):
                continue  # K-EV-6: no event harms a crown
            if choice.kind == "upgrade" and not is_upgraded(unit):
                found_units.append(m.FreeUpgrade(tile=tile, unit=unit))
            elif choice.kind == "lose_unit":
                found_units.append(m.LoseUnit(tile=tile, unit=unit))
    return found_units


def resolve_choice(play: Play, seat: str, command: Command) -> None:
    """The events of the command that settles the first awaited choice."""
    choice = play.state.pending[0]
    if isinstance(command, m.Revive):
        play.emit(m.UnitRevived(seat=seat, source=command.source, unit=command.unit))
    elif isinstance(command, m.FreeUpgrade):
        play.emit(m.UnitUpgraded(seat=seat, tile=command.tile, unit=command.unit, cost=0))
    elif isinstance(command, m.LoseUnit):  # K-EV-6: back to the reserve, never a scalp
        play.emit(m.UnitRemoved(owner=seat, tile=command.tile, unit=command.unit))
    elif isinstance(command, m.Recruit):
        play.emit(
            m.UnitPlaced(seat=seat, tile=command.castle, unit=command.unit, cost=0, rule="K-CAS-7")
        )
    elif isinstance(command, m.ScoutOrder):
        cards = play.state.scout
        play.emit(m.ScoutOrdered(seat=seat, cards=cards[::-1] if command.swap else cards))
    play.emit(m.ChoiceMade(seat=choice.seat))
    prune(play)


def prune(play: Play) -> None:
    """Drop awaited choices that have become moot (no option left)."""
    while play.state.pending and not choice_options(play.table, play.state, play.state.pending[0]):
        play.emit(m.ChoiceMade(seat=play.state.pending[0].seat))


# --- magic cards ----------------------------------------------------------------------------


def _held(state: GameState, seat: str) -> list[str]:
    return sorted(set(state.player(seat).hand))


def magic_plays(table: Table, state: GameState, seat: str, timing: str) -> list[Command]:
    """K-CARD-2: the magic cards ``seat`` may play now (one per phase), with their targets."""
    if seat in state.magic_played:
        return []
    board = table.board
    found: list[Command] = []
    mine = set(state.tiles_of(seat))
    near = sorted({n for t in mine for n in board.neighbours[t]} - mine)
    for kind in _held(state, seat):
        card = table.pack.magic[kind]
        if card.timing != timing:
            continue
        effect = card.effect.kind
        if effect == "assassinate":
            for tile in near:
                if state.owner(tile) not in (None, seat):
                    for unit in sorted(set(state.units_on(tile))):
                        if table.pack.units[base_of(unit)].class_ != "crown":
                            found.append(m.PlayMagic(card=kind, tile=tile, unit=unit))
        elif effect == "remove_castle_upgrade":
            found += [
                m.PlayMagic(card=kind, tile=t)
                for t in near
                if t in state.castle_upgrades and state.owner(t) not in (None, seat)
            ]
        elif effect == "revive":
            choice = Choice(seat=seat, kind="revive", card=kind, unit=card.effect.unit)
            found += [
                m.PlayMagic(card=kind, source=c.source, unit=c.unit)
                for c in choice_options(table, state, choice)
                if isinstance(c, m.Revive)
            ]
        elif effect == "scout":
            if state.event_deck:
                found.append(m.PlayMagic(card=kind))
        elif effect != "combat_die":
            found.append(m.PlayMagic(card=kind))
    return found


def play_magic(play: Play, seat: str, command: m.PlayMagic) -> None:
    """Play one card of the kind named (K-CARD-2): face up to the discard, then its effect."""
    card = play.table.pack.magic[command.card]
    play.emit(m.MagicPlayed(seat=seat, card=command.card))
    effect = card.effect
    if effect.kind == "assassinate":
        _assassinate(play, seat, command, effect.die)
    elif effect.kind == "remove_castle_upgrade":
        play.emit(m.CastleUpgraded(seat=seat, tile=command.tile, cost=0, removed=True))
    elif effect.kind == "revive":
        play.emit(m.UnitRevived(seat=seat, source=command.source, unit=command.unit))
    elif effect.kind == "combat_die":
        side = "attack" if card.timing == "attack" else "defence"
        play.emit(m.CombatDieAdded(side=side, die=effect.die))
    else:
        _effect(play, seat, effect, command.card, "K-CARD-2")


def _assassinate(play: Play, seat: str, command: m.PlayMagic, die: int) -> None:
    """The Assassin: its die against the target's defence die, strictly higher kills; the
    victim is the assassin's scalp (K-END-2)."""
    unit = command.unit
    defence = play.table.die(unit, "defence")
    drawn = record_draws(play.dice, (die, defence))
    owner = play.state.owner(command.tile) or ""
    play.emit(m.AssassinRolled(seat=seat, tile=command.tile, unit=unit, **drawn))
    if drawn["values"][0] > drawn["values"][1]:
        play.emit(m.UnitRemoved(owner=owner, tile=command.tile, unit=unit, scalp_of=seat))


def buy_magic(play: Play, seat: str, command: Command) -> None:
    """K-BUY-1 exchange and purchase, K-CAS-6 captured cards."""
    economy, player = play.table.pack.economy, play.state.player(seat)
    if isinstance(command, m.ExchangeMagic):
        cost = economy.magic_exchange_cost
        play.emit(m.MagicDiscarded(seat=seat, card=command.card, cost=cost))
        draw_magic(play, seat, 1)
    elif isinstance(command, m.BuyMagic):
        play.emit(m.MagicBought(seat=seat, cost=economy.magic_buy_cost))
        draw_magic(play, seat, 1)
    elif isinstance(command, m.BuyCaptured):
        card = player.captured[command.index]
        play.emit(m.CapturedBought(seat=seat, card=card, cost=economy.captured_magic_cost))


def fallen_of(state: GameState, seat: str) -> tuple[Fallen, ...]:
    """Every fallen unit of ``seat``, in whichever graveyard."""
    return tuple(f for p in state.players for f in p.graveyard if f.owner == seat)
