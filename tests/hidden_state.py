"""Nataterra positions changed only behind a seat's back: the perturbation the hidden-information
tests share (conformance, tactic windows)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from msgspec.structs import replace

from nataterra_core.games.nataterra.state import GameState

__all__ = ["perturbed", "perturbed_battlelore", "perturbed_kaladan", "perturbed_liars_dice"]


def _redeal(hand: tuple[str, ...], deck: tuple[str, ...], rng: random.Random) -> tuple[Any, Any]:
    cards = list(hand + deck)
    rng.shuffle(cards)
    return tuple(cards[: len(hand)]), tuple(cards[len(hand) :])


def perturbed(state: GameState, seat: str, rng: random.Random) -> GameState:
    """``state`` with only what ``seat`` cannot see changed (hand sizes kept)."""
    players = []
    for player in state.players:
        tech_hand, tech_deck = player.tech_hand, player.tech_deck
        tactic_hand, tactic_deck = player.tactic_hand, player.tactic_deck
        if player.civ != seat:
            tech_hand, tech_deck = _redeal(tech_hand, tech_deck, rng)
            tactic_hand, tactic_deck = _redeal(tactic_hand, tactic_deck, rng)
        else:
            tech_deck = tuple(rng.sample(tech_deck, len(tech_deck)))
            tactic_deck = tuple(rng.sample(tactic_deck, len(tactic_deck)))
        players.append(
            msgspec.structs.replace(
                player,
                tech_hand=tech_hand,
                tech_deck=tech_deck,
                tactic_hand=tactic_hand,
                tactic_deck=tactic_deck,
            )
        )
    decks = {
        biome: tuple(rng.sample(cards, len(cards))) for biome, cards in state.biome_decks.items()
    }
    # A combat keeps no copy of its fighters' hands: they are the players', re-dealt above.
    return msgspec.structs.replace(state, players=tuple(players), biome_decks=decks)


def perturbed_kaladan(state: Any, seat: str, rng: random.Random) -> Any:
    """A Kaladan ``state`` with only what ``seat`` cannot see changed (K-HID-1): the other
    seats' magic hands and captured cards re-dealt from the magic deck (sizes kept), both
    decks reordered (the event cards ``seat`` scouted stay on top)."""
    pool = list(state.magic_deck)
    for player in state.players:
        if player.seat != seat:
            pool += [*player.hand, *player.captured]
    rng.shuffle(pool)
    players = []
    for player in state.players:
        if player.seat != seat:
            hand = tuple(sorted(pool.pop() for _ in player.hand))
            captured = tuple(sorted(pool.pop() for _ in player.captured))
            player = msgspec.structs.replace(player, hand=hand, captured=captured)
        players.append(player)
    kept = len(state.scout) if state.scout_seat == seat else 0
    rest = list(state.event_deck[kept:])
    rng.shuffle(rest)
    return msgspec.structs.replace(
        state,
        players=tuple(players),
        magic_deck=tuple(pool),
        event_deck=(*state.event_deck[:kept], *rest),
    )


def perturbed_battlelore(state: Any, seat: str, rng: random.Random) -> Any:
    """The state with the other side's hands (command and lore) and the deck orders changed
    behind ``seat``."""
    other = state.other(seat)
    i = state.seats.index(other)
    pool = list(state.deck) + list(state.sides[i].hand)
    rng.shuffle(pool)
    n = len(state.sides[i].hand)
    sides = list(state.sides)
    lore = list(sides[i].lore_hand + sides[i].lore_offer + sides[i].lore_deck)
    rng.shuffle(lore)
    held, offered = len(sides[i].lore_hand), len(sides[i].lore_offer)
    sides[i] = replace(
        sides[i],
        hand=tuple(pool[:n]),
        lore_hand=tuple(lore[:held]),
        lore_offer=tuple(lore[held : held + offered]),
        lore_deck=tuple(lore[held + offered :]),
    )
    drawn = state.drawn
    if state.seat == other and drawn:
        pool = list(drawn) + pool[n:]
        drawn, rest = tuple(pool[: len(drawn)]), pool[len(drawn) :]
    else:
        rest = pool[n:]
    return replace(state, sides=(sides[0], sides[1]), deck=tuple(rest), drawn=drawn)


def perturbed_liars_dice(state: Any, seat: str, rng: random.Random) -> Any:
    """A Liar's Dice ``state`` with the faces under every other cup rolled again (L-HID-1),
    each cup's size kept; ``seat``'s own cup and everything public unchanged."""
    cups = tuple(
        cup if s == seat else tuple(sorted(rng.randint(1, 6) for _ in cup))
        for s, cup in zip(state.seats, state.cups, strict=True)
    )
    return msgspec.structs.replace(state, cups=cups)
