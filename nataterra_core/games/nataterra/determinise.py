"""Nataterra's determiniser (the registry's ``Hooks.determiniser``): a whole
:class:`~.state.GameState` rebuilt from one seat's :class:`~.views.SeatView`.

Everything public is copied from the view (which holds all of the state that is not hidden).
What the seat cannot see is sampled from the cards it has not seen, with the counts the view
shows, from the kernel's :func:`~nataterra_core.kernel.determinise.sampling_dice`:

* each other seat's tactic hand from its unseen tactic cards (its civilisation's cards less
  its discard pile), the rest shuffled into its deck; the seat's own deck is its unseen
  cards shuffled (nobody sees a deck's order, N-SETUP-3);
* each other seat's tech hand from its unseen techs (less those in play or being
  researched). A researched resource tech leaves the game unseen in the state, so the
  cards beyond the hand and deck counts are taken out first, resource techs at random;
  tech decks keep their card-number order (N-SETUP-4: techs are drawn by number);
* each biome deck shuffled from its unseen cards (less the discard pile and the card of the
  combat being fought, N-COMBAT-7);
* while the map is built (N-MAP-4), the other seats' map tiles from those neither placed nor
  in the seat's own hand.

A combat keeps no copy of its fighters' hands (they are the players'), so the view's combat
is the state's.

The dice counter is not the game's (a search player rolls its own dice).
"""

from __future__ import annotations

from nataterra_core.kernel import DiceStream
from nataterra_core.kernel.determinise import deal, sampling_dice, unseen

from .content import ContentPack
from .rules.combat.sandbox_model import SandboxState
from .rules.map_layout import Structuring
from .state import GameState, PlayerState
from .views import PlayerView, SandboxView, SeatView

__all__ = ["determinise", "determinise_sandbox"]


def determinise(view: SeatView, pack: ContentPack, seed: int) -> GameState:
    """A state whose ``view.seat`` view is ``view``, the hidden information sampled with
    ``seed`` (``ValueError`` for a spectator's view, which pins down no hand)."""
    if view.seat is None:
        raise ValueError("a determinisation needs a seat's view, not a spectator's")
    dice = sampling_dice(seed)
    players = tuple(_player(pack, p, p.civ == view.seat, dice) for p in view.players)
    return GameState(
        seats=view.seats,
        map_id=view.map_id,
        pack=view.pack,
        mode=view.mode,
        max_turns=view.max_turns,
        players=players,
        units=view.units,
        biome_decks=_biome_decks(pack, view, dice),
        biome_discards=dict(view.biome_discards),
        first=view.seats.index(view.first) if view.first is not None else -1,
        active=view.seats.index(view.active) if view.active is not None else -1,
        turn=view.turn,
        phase=view.phase,  # type: ignore[arg-type]  # a view's phase is a state's phase
        result_reason=view.result_reason,
        winners=view.winners,
        combat=view.combat,
        strategised=view.strategised,
        dominance_cubes=view.dominance_cubes,
        cubes=dict(view.cubes),
        bases_destroyed=view.bases_destroyed,
        eliminated=view.eliminated,
        entered=dict(view.entered),
        structures=view.structures,
        tactic_phases=view.tactic_phases,
        zone_grants=view.zone_grants,
        teams=view.teams,
        phase_done=view.phase_done,
        conquest=view.conquest,
        conquered=dict(view.conquered),
        conditions=view.conditions,
        condition_cubes={seat: dict(by) for seat, by in view.condition_cubes.items()},
        turn_cubes={seat: dict(by) for seat, by in view.turn_cubes.items()},
        discarding=view.discarding,
        structuring=_structuring(pack, view, dice),
        scenario=view.scenario,
        markers=view.markers,
        scenario_counts=dict(view.scenario_counts),
    )


def _player(pack: ContentPack, shown: PlayerView, own: bool, dice: DiceStream) -> PlayerState:
    tactic_hand, tactic_deck = _tactics(pack, shown, dice)
    tech_hand, tech_deck = _techs(pack, shown, dice)
    return PlayerState(
        civ=shown.civ,
        stock=shown.stock,
        multipliers=shown.multipliers,
        flare=shown.flare,
        pool=dict(shown.pool),
        locked=dict(shown.locked),
        worker_supply=shown.worker_supply,
        tech_hand=tech_hand,
        tech_deck=tech_deck,
        tactic_deck=tactic_deck,
        tactic_hand=tactic_hand,
        tactic_discard=shown.tactic_discard,
        sides=dict(shown.sides),  # type: ignore[arg-type]  # a view's sides are a state's
        structures_unlocked=shown.structures_unlocked,
        tiles_unlocked=shown.tiles_unlocked,
        researching=shown.researching,
        techs=shown.techs,
        cost_mods=dict(shown.cost_mods),
        movement_mods=dict(shown.movement_mods),
        initiative_mods=dict(shown.initiative_mods),
        structure_discount=shown.structure_discount,
        tech_discount=shown.tech_discount,
    )


def _tactics(
    pack: ContentPack, shown: PlayerView, dice: DiceStream
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(hand, deck): a hand the view shows is kept; the rest of the unseen cards shuffled."""
    cards = [card.id for card in pack.tactic_deck(shown.civ)]
    if shown.tactic_hand is not None:
        hidden = unseen(cards, shown.tactic_discard, shown.tactic_hand)
        _check(shown, "tactic deck", len(hidden), shown.tactic_deck_count)
        return shown.tactic_hand, tuple(dice.shuffle(hidden))
    hidden = unseen(cards, shown.tactic_discard)
    _check(shown, "tactic cards", len(hidden), shown.tactic_hand_count + shown.tactic_deck_count)
    (hand,), deck = deal(hidden, (shown.tactic_hand_count,), dice)
    return hand, deck


def _techs(
    pack: ContentPack, shown: PlayerView, dice: DiceStream
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(hand, deck): unseen techs less those researched out of sight, the deck in card
    order (N-SETUP-4)."""
    cards = [card.id for card in pack.tech_deck(shown.civ)]
    in_play = (*shown.techs, *(tech for tech, _ in shown.researching))
    hidden = unseen(cards, in_play, shown.tech_hand or ())
    hand_size = 0 if shown.tech_hand is not None else shown.tech_hand_count
    gone = len(hidden) - hand_size - shown.tech_deck_count
    _check(shown, "tech cards", len(hidden), hand_size + shown.tech_deck_count, at_least=True)
    if gone:  # resource techs researched earlier: they left the game
        spent = [t for t in hidden if pack.techs[t].kind == "resource"]
        (vanished,), _ = deal(spent if len(spent) >= gone else hidden, (gone,), dice)
        hidden = unseen(hidden, vanished)
    if shown.tech_hand is not None:
        return shown.tech_hand, tuple(hidden)
    (hand,), _ = deal(hidden, (hand_size,), dice)
    return hand, tuple(unseen(hidden, hand))


def _check(
    shown: PlayerView, what: str, found: int, shown_count: int, at_least: bool = False
) -> None:
    if found < shown_count or (found != shown_count and not at_least):
        raise ValueError(f"{shown.civ}: {found} unseen {what}, but the view counts {shown_count}")


def _biome_decks(pack: ContentPack, view: SeatView, dice: DiceStream) -> dict[str, tuple[str, ...]]:
    fighting = view.combat
    decks: dict[str, tuple[str, ...]] = {}
    for biome, count in view.biome_deck_counts.items():
        out = view.biome_discards.get(biome, ())
        if fighting is not None and fighting.biome == biome and fighting.biome_card is not None:
            out = (*out, fighting.biome_card)
        hidden = unseen([card.id for card in pack.biome_deck(biome)], out)
        if len(hidden) != count:
            raise ValueError(f"{len(hidden)} unseen {biome} biome cards, the view counts {count}")
        decks[biome] = tuple(dice.shuffle(hidden))
    return decks


def _structuring(pack: ContentPack, view: SeatView, dice: DiceStream) -> Structuring | None:
    shown = view.structuring
    if shown is None:
        return None
    own = shown.hand or ()
    pile = [t.id for t in pack.map_tiles.values() if t.kind == "map"]
    placed = [t.tile for t in shown.tiles if t.tile in pack.map_tiles]
    hidden = unseen(pile, [t for t in placed if pack.map_tiles[t].kind == "map"], own)
    others = [seat for seat in view.seats if seat != view.seat]
    dealt, _ = deal(hidden, [shown.hand_counts.get(seat, 0) for seat in others], dice)
    hands = {seat: hand for seat, hand in zip(others, dealt, strict=True) if hand}
    if own:
        hands[view.seat or ""] = own
    return Structuring(hands=hands, tiles=shown.tiles, modifiers=shown.modifiers)


def determinise_sandbox(view: SandboxView, pack: ContentPack, seed: int) -> SandboxState:
    """The combat sandbox's determiniser: its battles deal no hands, so the view is the whole
    state but the dice counter (a biome card not yet drawn is drawn with whoever's dice roll
    next, N-COMBAT-7)."""
    if view.battle is None:
        raise ValueError("a sandbox view without its battle")
    return SandboxState(
        battle=view.battle,
        combat=view.combat,
        result=view.result,
        lost_in_retreat=dict(view.lost_in_retreat),
        stocks=dict(view.stocks),
        flare=dict(view.flare),
    )
