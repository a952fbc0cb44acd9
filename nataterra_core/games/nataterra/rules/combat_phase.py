"""The combat phase of a turn (rules §6.1): which zones fight, and combat on the map.

The fight itself is :mod:`nataterra_core.games.nataterra.rules.combat`; this module connects it to
the game: it finds contested zones (N-COMBAT-1), names attacker and defender (N-COMBAT-3),
draws biome cards from the game's decks (N-COMBAT-7/8), and carries casualties, fees,
flare and retreats over to the map, the pools and the stocks.
"""

from __future__ import annotations

import msgspec

from nataterra_core.kernel import Command, DiceStream, Event, IllegalCommand

from ..messages import combat as messages
from ..messages.combat import (
    BiomeCardDrawn,
    StartCombat,
)
from ..messages.development import StructureDestroyed
from ..messages.tactics import ResourcesGained, TacticCardDrawn
from ..messages.turns import GameEnded
from ..messages.victory import CubeScored
from ..state import GameState
from . import structures, teams, victory
from .combat.flow import (
    CombatEnv,
    Pending,
    advance,
    decision,
    start_combat,
)
from .combat.flow import (
    step as combat_step,
)
from .combat.host import Answers
from .combat.model import Combat, Force
from .combat_map import evolve_around, evolve_combat_event, game_combat
from .context import Context
from .setup import shuffle_deck
from .stock import Resources
from .tactics import draw_tactic_events

__all__ = [
    "COMMANDS",
    "EVENTS",
    "combat_decision",
    "contested",
    "decide_combat_phase",
    "decide_in_combat",
    "game_combat",
    "legal_combat_phase",
]


COMMANDS: tuple[type[Command], ...] = (StartCombat, *messages.COMMANDS)
EVENTS: tuple[type[Event], ...] = (
    BiomeCardDrawn,
    TacticCardDrawn,
    ResourcesGained,
    *messages.EVENTS,
)
_COMBAT_EVENTS = frozenset(messages.EVENTS)


def _presence(ctx: Context | None, state: GameState) -> dict[str, set[str]]:
    """Who has units in each zone; a Bone Tower counts as a unit (N-STR-3, N-COMBAT-2)."""
    owners: dict[str, set[str]] = {}
    for stack in state.units:
        owners.setdefault(stack.zone, set()).add(stack.owner)
    if ctx is not None:
        for placed in structures.fighting_structures(ctx, state):
            owners.setdefault(placed.zone, set()).add(placed.owner)
    return owners


def present_in(ctx: Context, state: GameState, zone: str) -> set[str]:
    """Civilisations with units (or a Bone Tower) in ``zone``."""
    return _presence(ctx, state).get(zone, set())


def contested(state: GameState, ctx: Context | None = None) -> list[tuple[str, str]]:
    """(zone, defender) pairs still to fight this phase, in zone order (N-COMBAT-1).

    The attacker of a zone is :func:`attacker_in`; it fights the others one at a time
    (N-COMBAT-1a), and whoever is left fights on the same way. With the game's context a
    Bone Tower counts as a unit: a zone where it stands alone against enemy units is
    contested (the N-COMBAT-2 exception); other structures never make a combat.
    """
    owners = _presence(ctx, state)
    pairs: list[tuple[str, str]] = []
    for zone, present in owners.items():
        if len(present) > 1:
            attacker = attacker_in(state, present, zone)
            # N-TEAM-2/4: allies share zones, and fight side by side: one combat per team,
            # named by its first player in the zone
            leads: list[str] = []
            for seat in sorted(present):
                if not teams.allied(state, seat, attacker) and not any(
                    teams.allied(state, seat, lead) for lead in leads
                ):
                    leads.append(seat)
            pairs.extend((zone, lead) for lead in leads)
    return sorted(pairs)


def attacker_in(state: GameState, present: set[str], zone: str | None = None) -> str:
    """N-COMBAT-3: the player whose units entered ``zone`` last, if still there (usually
    the active player, whose moves bring players together; a Quick Gains move can make it
    another). Otherwise (**Ruling**, N-COMBAT-1a) the active player if there, else the next
    player in turn order who is there."""
    last = state.entered.get(zone) if zone is not None else None
    if last is not None and last in present:
        return last
    seats = state.seats
    for step in range(len(seats)):
        seat = seats[(state.active + step) % len(seats)]
        if seat in present:
            return seat
    raise ValueError("nobody is present")


class GameHost(Answers):
    """The combat's host on the game's map: it reads the game state the combat was asked
    about (one small object per state; nothing is built until a rule asks).

    The players are the one store of the fighters' hands, stocks and flare: ``held`` is
    the state with the events of this step that changed them folded by the game's own
    fold (:func:`~.combat_map.evolve_around`; :meth:`folded` is called by the flow).
    Everything else is asked of ``state``, the state before the step, as the decks are:
    cards drawn in a step are counted here (``_drawn``, shared by the hosts a step folds)
    to draw the next card of the deck, since an effect that draws two draws both before
    the flow folds either.
    """

    __slots__ = ("_drawn", "_owners", "ctx", "held", "pack", "state")

    def __init__(
        self,
        ctx: Context,
        state: GameState,
        held: GameState | None = None,
        drawn: dict[str, int] | None = None,
    ) -> None:
        super().__init__()
        self.ctx = ctx
        self.pack = ctx.pack
        self.state = state
        self.held = state if held is None else held
        self._owners: dict[str, set[str]] | None = None
        self._drawn: dict[str, int] = {} if drawn is None else drawn

    def deals_tactics(self) -> bool:
        """The players hold tactic hands (N-DEV-6)."""
        return True

    def hand(self, seat: str) -> tuple[str, ...]:
        return self.held.player(seat).tactic_hand

    def stock(self, seat: str) -> Resources:
        return self.held.player(seat).stock

    def flare(self, seat: str) -> int:
        return self.held.player(seat).flare

    def holds_flare(self) -> bool:
        """The players' flare is asked seat by seat (a game has Naga players)."""
        return True

    def folded(self, combat: Combat, event: Event) -> GameHost:
        """The host with ``event`` folded into the players (the game's fold)."""
        held = evolve_around(self.ctx, self.held, combat, event)
        host = GameHost(self.ctx, self.state, held, self._drawn)
        host._owners = self._owners
        return host

    def blocked(self, seat: str, zone: str) -> bool:
        """N-COMBAT-23: enemy units, structures or an enemy base bar a retreat (own ones do
        not), nor do an ally's (N-TEAM-2); an eliminated player's base is a plain zone
        (N-TEAM-7)."""
        state = self.state
        if self._owners is None:
            self._owners = _presence(self.ctx, state)
        base = self.ctx.map.zones[zone].base_owner
        friends = set(teams.team_of(state, seat))
        placed = state.structure_in(zone)
        if bool(self._owners.get(zone, set()) - friends) or (
            placed is not None and placed.owner not in friends
        ):
            return True
        return base is not None and base not in friends and base not in state.eliminated

    def draw_tactic(self, seat: str, dice: DiceStream) -> tuple[Event, ...]:
        """The next card of ``seat``'s tactic deck, after those this command drew already."""
        drawn = self._drawn
        events = draw_tactic_events(self.state, seat, dice, drawn.get(seat, 0))
        drawn[seat] = drawn.get(seat, 0) + sum(isinstance(e, TacticCardDrawn) for e in events)
        return events

    def flare_cost(self, seat: str, zone: str) -> int | None:
        """N-COMBAT-8 (Ruling): the zone is a lake or borders one; the cost is the zones
        strictly between the base or the nearest soul prison and the combat zone (hex
        distance - 1, at least 0)."""
        game_map = self.ctx.map
        lakes = [game_map.zones[z].biome == "lake" for z in (zone, *game_map.neighbours(zone))]
        origins = structures.prison_zones(self.ctx, self.state, seat)
        if seat in game_map.bases:
            origins.append(game_map.base_of(seat))
        if not any(lakes) or not origins:
            return None
        return max(0, min(game_map.distance(o, zone) for o in origins) - 1)

    def ambush_unit(self, seat: str) -> str | None:
        """Ambush (Ruling): the leftmost unit on the main board is the first type, in board
        order, with a token in the pool."""
        pool = self.state.player(seat).pool
        return next((u for u in self.pack.civilisations[seat].units if pool.get(u, 0)), None)

    def after_win_destinations(self, seat: str, unit: str) -> list[str]:
        """Quick Gains: the zones next door, a lake only for flyers (or the Naga's base)."""
        ctx, state = self.ctx, self.state
        flying = ctx.ability(state.player(seat), unit, "flying") > 0
        naga_base = ctx.map.bases.get("naga")
        return [
            z
            for z in ctx.map.neighbours(state.combat.zone if state.combat else "")
            if flying or z == naga_base or ctx.map.zones[z].biome != "lake"
        ]

    def strategists(self, seat: str, combat: Combat) -> list[tuple[str, str, int]]:
        """N-ABL-7: units with Strategise next door join as if here, once per turn each."""
        ctx, state = self.ctx, self.state
        used: dict[tuple[str, str], int] = {}
        for owner, unit, zone, count in state.strategised:
            if owner == seat:
                used[unit, zone] = used.get((unit, zone), 0) + count
        for force in combat.joined:
            if force.owner == seat:
                used[force.unit, force.origin] = (
                    used.get((force.unit, force.origin), 0) + force.count
                )
        player = state.player(seat)
        granted = {zone for owner, zone in combat.strategise_zones if owner == seat}
        found = []
        for zone in ctx.map.neighbours(combat.zone):
            for stack in state.stacks_in(zone):
                if stack.owner != seat:
                    continue
                # a card may give every unit of a zone Strategise for the turn
                if zone in granted or ctx.ability(player, stack.unit, "strategise"):
                    left = stack.count - used.get((stack.unit, zone), 0)
                    if left > 0:
                        found.append((stack.unit, zone, left))
        return found

    def has_strategists(self) -> bool:
        """On the game's map, units next door may join by Strategise."""
        return True

    def zones_next_door(self, seat: str, combat: Combat) -> list[str]:
        """Zones next to the combat zone holding ``seat``'s units."""
        state = self.state
        return [z for z in self.ctx.map.neighbours(combat.zone) if seat in state.owners_in(z)]

    def draw_biome(self, combat: Combat, dice: DiceStream) -> tuple[str | None, tuple[Event, ...]]:
        """N-COMBAT-7/8: the top card of the zone's biome deck, reshuffled when empty."""
        state = self.state
        if combat.biome not in state.biome_decks:  # mountains and lakes have no deck
            return None, ()
        deck = state.biome_decks[combat.biome]
        events: list[Event] = []
        if not deck:  # N-COMBAT-8: an empty deck is reshuffled from its discard pile
            shuffled = shuffle_deck(
                f"biome:{combat.biome}", state.biome_discards[combat.biome], dice
            )
            deck = shuffled.after
            events.append(shuffled)
        if not deck:
            return None, tuple(events)
        events.append(BiomeCardDrawn(biome=combat.biome, card=deck[0]))
        return deck[0], tuple(events)


def combat_env(ctx: Context, state: GameState) -> CombatEnv:
    """The combat environment on the game's map, with its biome decks."""
    return CombatEnv(ctx.pack, ctx.map, GameHost(ctx, state))


def combat_decision(ctx: Context, state: GameState) -> Pending:
    """The pending decision of the combat in progress."""
    assert state.combat is not None
    return decision(combat_env(ctx, state), state.combat)


def legal_combat_phase(ctx: Context, state: GameState) -> list[Command]:
    """Between combats: the combats still to fight (N-COMBAT-1)."""
    return [StartCombat(zone=zone, defender=defender) for zone, defender in contested(state, ctx)]


def decide_in_combat(
    ctx: Context,
    state: GameState,
    seat: str,
    command: Command,
    dice: DiceStream,
    *,
    listed: bool = False,
) -> tuple[tuple[Event, ...], Pending]:
    """A decision in the combat in progress: its events, run on to the combat's next
    decision, which comes back with them (``None`` once the combat has ended). ``listed``:
    the command came from the pending decision's list, so it is not checked again."""
    if state.combat is None:
        raise IllegalCommand("N-COMBAT-1", "no combat is in progress; start one first")
    env = combat_env(ctx, state)
    events, _, pending, _ = combat_step(env, state.combat, seat, command, dice, listed=listed)
    if not isinstance(events[-1], messages.CombatEnded):
        return events, pending
    return _after_combat(ctx, state, events, dice), None


def decide_combat_phase(
    ctx: Context, state: GameState, seat: str, command: Command, dice: DiceStream
) -> tuple[Event, ...]:
    """Start a combat or take a decision in the one in progress."""
    if isinstance(command, StartCombat):
        if state.combat is not None:
            raise IllegalCommand("N-COMBAT-1", "finish the combat in progress first")
        if seat not in teams.turn_seats(state):
            raise IllegalCommand("N-COMBAT-1", "the active player chooses the next combat")
        if (command.zone, command.defender) not in contested(state, ctx):
            raise IllegalCommand(
                "N-COMBAT-1", f"there is no combat in {command.zone} against {command.defender}"
            )
        present = present_in(ctx, state, command.zone)
        attacker = attacker_in(state, present, command.zone)
        return _start(ctx, state, command.zone, attacker, command.defender, dice)
    return decide_in_combat(ctx, state, seat, command, dice)[0]


def _after_combat(
    ctx: Context, state: GameState, events: tuple[Event, ...], dice: DiceStream
) -> tuple[Event, ...]:
    """``events``, which end the combat of ``state``, with the clean-up after them:
    structures fall, cubes score, and units that sat out fight on (N-COMBAT-28, N-COMBAT-4)."""
    assert state.combat is not None
    ended = events[-1]
    assert isinstance(ended, messages.CombatEnded)
    after = state
    final = state.combat  # the combat as it stood when it ended (what the conditions count)
    for event in events:
        if after.combat is not None:
            final = after.combat
        after = evolve_combat_event(ctx, after, event)
    # N-COMBAT-28: the loser's structures in the zone are removed at clean-up; N-COMBAT-2:
    # an after-combat move onto an unoccupied enemy structure destroys it without a combat.
    fallen: tuple[StructureDestroyed, ...] = ()
    if ended.winner is not None:
        for loser in state.combat.seats_of(state.combat.opponent(ended.winner)):
            fallen += structures.lost_combat(after, state.combat.zone, loser)
    for event in fallen:
        after = structures.evolve_structure_destroyed(after, event)
    overrun = structures.overrun(ctx, after, (p.zone for p in after.structures), "N-COMBAT-2")
    for event in overrun:
        after = structures.evolve_structure_destroyed(after, event)
    events = (*events, *fallen, *overrun)
    # N-COMBAT-28: scoring at clean-up (N-WIN-2 in learning mode, N-WIN-3 in advanced mode)
    scored = victory.score_combat(after, ended.winner)
    scored += victory.score_advanced_combat(ctx, after, final, ended.winner)
    if any(isinstance(event, GameEnded) for event in scored):
        return (*events, *scored)
    events = (*events, *scored)
    for event in scored:
        if isinstance(event, CubeScored):
            after = victory.evolve_cube_scored(after, event)
    # N-COMBAT-4 (Ruling): units that sat out fight on at once, in the same roles.
    zone, attacker, defender = state.combat.zone, state.combat.attacker, state.combat.defender
    present = present_in(ctx, after, zone)
    if {attacker, defender} <= present and attacker_in(after, present, zone) == attacker:
        return (*events, *_start(ctx, after, zone, attacker, defender, dice))
    return events


def _start(
    ctx: Context, state: GameState, zone: str, attacker: str, defender: str, dice: DiceStream
) -> tuple[Event, ...]:
    # N-TEAM-4: every player with units in the zone takes part, allies on their lead's side
    present = present_in(ctx, state, zone)
    allies = {
        seat: lead
        for lead in (attacker, defender)
        for seat in state.seats
        if seat != lead and seat in present and teams.allied(state, seat, lead)
    }
    seats = (attacker, defender, *allies)
    forces = [
        Force(s.owner, s.unit, s.count) for s in state.units if s.zone == zone and s.owner in seats
    ]
    forces.extend(  # N-STR-3: the Bone Tower fights as a one-unit group
        Force(p.owner, p.structure, 1)
        for p in structures.fighting_structures(ctx, state)
        if p.zone == zone and p.owner in seats
    )
    started = start_combat(
        zone=zone,
        biome=ctx.map.zones[zone].biome,
        attacker=attacker,
        defender=defender,
        forces=forces,
        sides={seat: dict(state.player(seat).sides) for seat in seats},
        stocks={seat: state.player(seat).stock for seat in seats},
        flare={seat: state.player(seat).flare for seat in seats},
        allies=allies,
    )
    combat = game_combat(ctx, state, started)
    with_combat = msgspec.structs.replace(state, combat=combat)
    more, _ = advance(combat_env(ctx, with_combat), combat, dice)
    return (started, *more)
