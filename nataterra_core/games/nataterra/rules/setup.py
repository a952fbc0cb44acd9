"""Game set-up (rules §2, N-SETUP-1..8): the starting position and the ``start`` record.

Everything deterministic (resources, workers, pools, tech hands) is in :func:`initial_state`;
everything random (victory conditions, first player, every shuffle, opening tactic hands) is
drawn by the system ``StartGame`` command, so all set-up randomness sits in the log's
``start`` record (docs/LOG_FORMAT.md).

Advanced mode (option ``mode = "advanced"``, N-SETUP-8): one victory condition per category
is drawn before the first player; the strategy marker stands on the centre zone of shared
tile 0 (the map's ``strategy_zone``); each player draws 3 tactic cards and, in turn order
from the first player, discards 1 of them (:class:`DiscardOpeningTactic`) before turn 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.kernel import (
    DiceStream,
    Event,
    IllegalCommand,
    record_draw,
    record_shuffle,
)

from ..messages.setup import (
    DeckShuffled,
    DiscardOpeningTactic,
    FirstPlayerDrawn,
    OpeningDiscardsAwaited,
    OpeningTacticDiscarded,
    StartingBonus,
)
from ..messages.turns import TurnStarted
from ..state import GameState, PlayerState, Resources, UnitStack
from .context import Context
from .victory import draw_conditions

__all__ = [
    "LEARNING_CIVS",
    "MODES",
    "GameOptions",
    "decide_opening_discard",
    "decide_start",
    "default_map",
    "has_shared_tile",
    "initial_state",
    "legal_opening_discards",
    "parse_options",
    "shuffle_deck",
]

LEARNING_CIVS: tuple[str, ...] = ("velathi", "beasts", "humans", "naga")
"""Learning mode seats 2, 3 or 4 of these, in this order of joining (N-SETUP-1)."""

STARTING_STOCK = Resources(food=4, wood=3, metal=3)  # N-SETUP-3
WORKERS_ON_BASE, WORKERS_IN_POOL, WORKERS_IN_SUPPLY = 3, 3, 6  # N-SETUP-5
STARTING_TECHS = (1, 2, 3)  # N-SETUP-4
NAGA_STARTING_FLARE = 2  # N-SETUP-7
OPENING_TACTICS = 3  # N-SETUP-8: draw 3, discard 1
MODES: tuple[str, ...] = ("learning", "advanced")
"""The game modes: learning (N-SETUP-1, N-WIN-2) and advanced (N-SETUP-8, N-WIN-3)."""


class GameOptions(msgspec.Struct, frozen=True, kw_only=True):
    """The header options this rule system reads."""

    mode: Annotated[str, msgspec.Meta(examples=list(MODES))] = "learning"
    map: str | None = None
    max_turns: int = 0
    dominance_cubes: int = 4
    conquest: bool = False
    """Conquest mode (N-WIN-5): bases are conquered, not destroyed, and can be retaken."""
    teams: Annotated[
        tuple[str, ...],
        msgspec.Meta(
            title="teams",
            examples=[["velathi+humans", "beasts+naga"]],
            # A lobby offers a team per seat and sends the teams so joined (docs/RPC.md).
            extra_json_schema={"x-picker": {"kind": "seat-groups", "joiner": "+"}},
        ),
    ] = ()
    """Team play (N-TURN-3, §10a): one string per team, its seats joined by ``+``
    (``["velathi+humans", "beasts+naga"]``); empty: every player for themselves."""

    def team_seats(self) -> tuple[tuple[str, ...], ...]:
        """The teams as tuples of seats."""
        return tuple(tuple(team.split("+")) for team in self.teams)

    map_structuring: bool | None = None
    """Advanced map structuring (N-MAP-4): the players build the map at set-up. ``None``
    (the default) follows the mode: advanced set-up includes it (N-SETUP-8) unless a
    ``map`` is given; learning mode plays a scenario map."""

    position: Annotated[
        str | None,
        msgspec.Meta(
            title="start from a position",
            # A lobby offers a box to paste it into or fill from a file (docs/RPC.md).
            extra_json_schema={"x-picker": {"kind": "text", "accept": ".json,.toml"}},
        ),
    ] = None
    """A position to start from (``nataterra-position`` v1 as canonical JSON,
    ``docs/POSITIONS.md``): it carries the map, mode and the rest, so no other option of
    the rules is given with it (the kernel's ``tournament`` may be)."""
    scenario: str | None = None
    """A scenario of the book (N-SCN-GEN-1, ``docs/SCENARIOS.md``) by id: its position and
    rules; only ``max_turns`` (and the kernel's ``tournament``) may be given with it."""

    @property
    def structured(self) -> bool:
        """Whether the players build the map (``map_structuring``, or the mode's default)."""
        if self.position is not None or self.scenario is not None:
            return False
        if self.map_structuring is None:
            return self.mode == "advanced" and self.map is None
        return self.map_structuring


def parse_options(options: Mapping[str, Any]) -> GameOptions:
    """Typed options; ``ValueError`` naming the bad option (N-WIN-6 for ``max_turns``)."""
    try:
        parsed = msgspec.convert(dict(options), GameOptions, strict=True)
    except msgspec.ValidationError as exc:
        raise ValueError(f"bad game options: {exc}") from exc
    extra = set(options) - set(GameOptions.__struct_fields__)
    if extra:
        raise ValueError(f"unknown game options: {sorted(extra)}")
    if parsed.mode not in MODES:
        raise ValueError(f"mode {parsed.mode!r}: one of {list(MODES)}")
    if parsed.max_turns < 0:
        raise ValueError("N-WIN-6: max_turns must be 0 (off) or positive")
    if parsed.structured and parsed.map is not None:
        raise ValueError("N-MAP-4: a structured map is built by the players; give no map")
    if parsed.position is not None or parsed.scenario is not None:
        allowed = ("position",) if parsed.scenario is None else ("scenario", "max_turns")
        given = sorted(k for k in options if k not in allowed)
        if given:
            raise ValueError(f"a position carries the game's set-up; drop the options {given}")
    if parsed.dominance_cubes < 1:
        raise ValueError("N-WIN-2: dominance_cubes must be at least 1 (4 by default)")
    return parsed


def check_seats(pack: ContentPack, seats: tuple[str, ...], mode: str = "learning") -> None:
    """N-SETUP-1: learning mode seats Velathi and Beasts, adding Humans for 3, Naga for 4.
    Advanced mode (N-SETUP-8) seats any 2 to 4 different civilisations."""
    if not 2 <= len(seats) <= 4:
        raise ValueError("N-SETUP-1: Nataterra is for 2 to 4 players")
    expected = set(LEARNING_CIVS[: len(seats)])
    if mode == "advanced":
        if len(set(seats)) != len(seats):
            raise ValueError(f"N-SETUP-8: each civilisation is played once, got {list(seats)}")
    elif set(seats) != expected:
        raise ValueError(
            f"N-SETUP-1: a {len(seats)}-player learning game seats {sorted(expected)}, "
            f"got {list(seats)}"
        )
    unknown = [s for s in seats if s not in pack.civilisations]
    if unknown:
        raise ValueError(f"civilisations {unknown} are not in the content pack")


def default_map(pack: ContentPack, seats: tuple[str, ...], mode: str = "learning") -> str:
    """The map for these civilisations (N-SETUP-1, N-MAP-5): the first whose players match;
    in advanced mode the first of those with shared tile 0 (N-SETUP-8: the strategy marker
    needs its centre zone)."""
    for map_def in pack.maps.values():
        if set(map_def.players) == set(seats) and (
            mode != "advanced" or has_shared_tile(pack, map_def.id)
        ):
            return map_def.id
    what = "an advanced map (with shared tile 0)" if mode == "advanced" else "a map"
    raise ValueError(f"N-MAP-5: the content pack has no {what} for {sorted(seats)}")


def has_shared_tile(pack: ContentPack, map_id: str) -> bool:
    """Whether map ``map_id`` places shared tile 0 (and so has a strategy zone)."""
    return any(pack.map_tiles[p.tile].kind == "shared" for p in pack.maps[map_id].tiles)


def initial_state(ctx: Context, seats: tuple[str, ...], options: GameOptions) -> GameState:
    """The position before the start command (N-SETUP-3..7), without randomness."""
    if not ctx.openings:  # the same for every game on this map: built once per map
        _build_openings(ctx)
    openings = [ctx.openings[civ] for civ in seats]
    decks = ctx.biome_decks
    return GameState(
        seats=seats,
        map_id=ctx.map.map_id,
        pack=ctx.pack.sha256,
        mode=options.mode,
        max_turns=options.max_turns,
        dominance_cubes=options.dominance_cubes,
        players=tuple(player for player, _ in openings),
        units=tuple(sorted(workers for _, workers in openings)),
        biome_decks=dict(decks),
        biome_discards={b: () for b in decks},
        teams=options.team_seats(),
        conquest=options.conquest,
    )


def _build_openings(ctx: Context) -> None:
    """Each civilisation's player state and workers on its base before the start, and the
    biome decks in pack order (N-SETUP-3..7), into the map's context."""
    pack = ctx.pack
    for civ in pack.civilisations:
        if civ not in ctx.map.bases:
            continue
        worker = pack.worker_of(civ)
        pool = {worker.id: WORKERS_IN_POOL}
        locked: dict[str, int] = {}
        for unit in pack.units_of(civ):
            if unit.role == "worker":
                continue
            # N-SETUP-6: unlocked types put group_size tokens in the pool, the rest locked.
            in_pool = unit.group_size if unit.unlock == "start" else 0
            pool[unit.id] = in_pool
            locked[unit.id] = unit.tokens - in_pool
        deck = tuple(card.id for card in pack.tech_deck(civ))
        numbers = {card.id: card.number for card in pack.tech_deck(civ)}
        player = PlayerState(
            civ=civ,
            stock=STARTING_STOCK,
            flare=NAGA_STARTING_FLARE if pack.civilisations[civ].ability == "flare" else 0,
            pool=pool,
            locked=locked,
            worker_supply=WORKERS_IN_SUPPLY,
            tech_hand=tuple(c for c in deck if numbers[c] in STARTING_TECHS),
            tech_deck=tuple(c for c in deck if numbers[c] not in STARTING_TECHS),
            tactic_deck=tuple(card.id for card in pack.tactic_deck(civ)),
            structures_unlocked=tuple(
                s for s in pack.civilisations[civ].structures if pack.structures[s].start_unlocked
            ),
        )
        workers = UnitStack(civ, worker.id, ctx.map.base_of(civ), WORKERS_ON_BASE)
        ctx.openings[civ] = (player, workers)
    ctx.biome_decks.update((b, tuple(c.id for c in pack.biome_deck(b))) for b in _deck_biomes(pack))


def _deck_biomes(pack: ContentPack) -> tuple[str, ...]:
    return tuple(sorted({card.biome for card in pack.biome_cards.values()}))


def decide_start(ctx: Context, state: GameState, dice: DiceStream) -> tuple[Event, ...]:
    """N-SETUP-2/3/4: first player, the tactic and biome shuffles, the second player's food.

    Advanced mode (N-SETUP-8): the victory conditions are drawn first, and each player draws
    three tactic cards; turn 1 waits for their discards.
    """
    if state.phase != "setup" or state.first >= 0:
        raise IllegalCommand("N-SETUP-2", "the game has already started")
    events: list[Event] = []
    advanced = state.mode == "advanced"
    if advanced:
        events.append(draw_conditions(ctx.pack, dice))
    drawn = record_draw(dice, len(state.seats))
    first = drawn["value"]
    events.append(FirstPlayerDrawn(**drawn, seat=state.seats[first]))
    decks = [(f"tactic:{p.civ}", p.tactic_deck) for p in state.players]
    decks += [(f"biome:{biome}", cards) for biome, cards in state.biome_decks.items()]
    shuffled = [shuffle_deck(deck, cards, dice) for deck, cards in decks]
    events.extend(shuffled)
    if state.teams:  # N-TEAM-7: each player of the team that plays second gets 1 food
        n = len(state.seats)
        starting = next(team for team in state.teams if state.seats[first] in team)
        follower = next(
            state.seats[(first + k) % n]
            for k in range(1, n)
            if state.seats[(first + k) % n] not in starting
        )
        second_team = next(team for team in state.teams if follower in team)
        seconds = [s for s in state.seats if s in second_team]
        events.extend(StartingBonus(seat=s, gain=Resources(food=1)) for s in seconds)
    elif len(state.seats) == 2:
        second = state.seats[(first + 1) % 2]
        events.append(StartingBonus(seat=second, gain=Resources(food=1)))
    if advanced:  # N-SETUP-8: three tactic cards each, then one discarded each
        from ..messages.tactics import TacticCardDrawn

        for seat, deck in zip(state.seats, shuffled, strict=False):
            events.extend(TacticCardDrawn(seat=seat, card=c) for c in deck.after[:OPENING_TACTICS])
        order = tuple(state.seats[(first + i) % len(state.seats)] for i in range(len(state.seats)))
        events.append(OpeningDiscardsAwaited(seats=order))
        return tuple(events)
    events.append(TurnStarted(seat=state.seats[first], turn=1))
    return tuple(events)


def decide_opening_discard(
    state: GameState, seat: str, command: DiscardOpeningTactic
) -> tuple[Event, ...]:
    """N-SETUP-8: ``seat`` discards one of its opening tactic cards; after the last discard
    the first player's turn 1 begins."""
    if state.phase != "setup" or not state.discarding:
        raise IllegalCommand("N-SETUP-8", "opening tactic cards are discarded at set-up only")
    if seat != state.discarding[0]:
        raise IllegalCommand("N-SETUP-8", f"{state.discarding[0]} discards first")
    if command.card not in state.player(seat).tactic_hand:
        raise IllegalCommand("N-SETUP-8", f"{command.card!r} is not in your hand")
    discarded = OpeningTacticDiscarded(seat=seat, card=command.card)
    if len(state.discarding) > 1:
        return (discarded,)
    return (discarded, TurnStarted(seat=state.seats[state.first], turn=1))


def legal_opening_discards(state: GameState, seat: str) -> list[DiscardOpeningTactic]:
    """The discards ``seat`` may make now (N-SETUP-8)."""
    if state.phase != "setup" or not state.discarding or state.discarding[0] != seat:
        return []
    return [DiscardOpeningTactic(card=c) for c in dict.fromkeys(state.player(seat).tactic_hand)]


def shuffle_deck(deck: str, cards: tuple[str, ...], dice: DiceStream) -> DeckShuffled:
    """Shuffle ``cards`` (pack order, or a discard pile being reshuffled) into ``deck``."""
    return DeckShuffled(deck=deck, **record_shuffle(dice, cards))


def evolve_first_player(state: GameState, event: FirstPlayerDrawn) -> GameState:
    """Record who starts."""
    return msgspec.structs.replace(state, first=event.value, counter=event.counter_after)


def evolve_deck_shuffled(state: GameState, event: DeckShuffled) -> GameState:
    """Put the shuffled order in place of the deck."""
    kind, _, name = event.deck.partition(":")
    state = msgspec.structs.replace(state, counter=event.counter_after)
    if kind == "biome":  # a reshuffle takes the whole discard pile back (N-COMBAT-8)
        return msgspec.structs.replace(
            state,
            biome_decks={**state.biome_decks, name: event.after},
            biome_discards={**state.biome_discards, name: ()},
        )
    # The tactic deck at set-up, or an empty deck refilled from its discard pile (N-DEV-6).
    player = msgspec.structs.replace(state.player(name), tactic_deck=event.after, tactic_discard=())
    return state.with_player(player)


def evolve_starting_bonus(state: GameState, event: StartingBonus) -> GameState:
    """Add the bonus to the seat's stock."""
    player = state.player(event.seat)
    return state.with_player(msgspec.structs.replace(player, stock=player.stock + event.gain))


def evolve_discards_awaited(state: GameState, event: OpeningDiscardsAwaited) -> GameState:
    """Note who still discards, in order."""
    return msgspec.structs.replace(state, discarding=event.seats)


def evolve_opening_discarded(state: GameState, event: OpeningTacticDiscarded) -> GameState:
    """The card goes from the hand to the discard pile; the next seat discards."""
    player = state.player(event.seat)
    hand = list(player.tactic_hand)
    hand.remove(event.card)
    player = msgspec.structs.replace(
        player, tactic_hand=tuple(hand), tactic_discard=(*player.tactic_discard, event.card)
    )
    return msgspec.structs.replace(state.with_player(player), discarding=state.discarding[1:])
