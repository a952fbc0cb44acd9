"""A search player for any registered rule system: information-set Monte Carlo tree search.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree over the moves of
every seat, grown from the searching seat's information set. Each iteration

1. samples a whole state consistent with the seat's view through the system's determiniser
   (:mod:`nataterra_core.kernel.determinise`: others' hands from the unseen cards, deck orders);
2. walks down the tree among the children legal in *this* sample, by UCB1 where each child
   counts the iterations in which it was available (so rarely legal moves are not
   starved), expanding one new move;
3. plays on with the rollout policy (the kernel's random player, or any of the system's
   named players): ``playout_depth`` commands when the system offers an evaluation
   (``Hooks.evaluate``), else to the game's end (at most ``rollout_limit`` commands);
4. scores the result for each seat: at the game's end a win 1, a draw ½, a loss 0; cut short,
   the evaluation's estimate of the seat's winning chance (½ without one), and adds each
   move's mover's score up the path.

The player never sees the game's seed or dice: determinisations and playouts roll their own
``nataterra-dice-v1`` streams keyed by the player's seed, so the same seed, budget and
positions give the same choices everywhere. The budget is ``iterations`` per decision, or
``seconds`` on a clock the caller passes in (the core reads no clock; a time budget trades
determinism for a bound on the wait), or both (the iterations, cut at the time: a server's
cap). A decision with one legal command costs nothing: it is answered at once.

**Where the iterations go.** A few dozen playouts cannot rank hundreds of moves, and one
playout per move picks by luck. So:

* the root's candidates are the rollout policy's choice, then the rest in the policy's own
  ranking when it offers one (:class:`Ranker`, ``rank(view, legal)``: the policy is the
  prior), else in an order drawn from the search's dice; up to ``max_branching`` of them from
  the start, and more as the rounds go by (progressive widening: ``max_branching +
  root_widening * sqrt(rounds)``), so a decision with hundreds of commands (a bidding game's
  bids) is searched among the policy's best, widening with the time given. A budget too
  small to try each candidate twice (an iteration budget, or a time budget at the pace of the
  player's last decision) narrows the candidates to half of it (below two, an iteration
  budget lets the policy answer alone, a time budget tries two), and a move tried once never
  overrides the policy's choice;
* the candidates are tried in rounds, each once per round on the round's shared
  determinisation and dice (common random numbers: the moves are compared on the same luck);
* below the root the rollout policy's own choice is tried first and other moves are admitted
  as a node is visited more (progressive widening: ``1 + widening * sqrt(visits)`` children),
  so playouts follow the policy unless the tree has learnt better;
* the move played is the root move with the best mean score, the policy's choice winning
  ties and keeping a ``stickiness`` bonus (an alternative must be clearly better).
"""

from __future__ import annotations

import hashlib
import math
import struct
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from nataterra_core.kernel.decider import Decided, Decider
from nataterra_core.kernel.determinise import Determiniser
from nataterra_core.kernel.dice import DiceStream
from nataterra_core.kernel.messages import Command
from nataterra_core.kernel.players import Player, RandomPlayer

from .budget import MAX_ITERATIONS

__all__ = ["Clock", "Evaluation", "Ranker", "SearchPlayer", "SearchStats"]

RolloutFactory = Callable[[int], Player]
"""A rollout policy: a seeded player (``RandomPlayer``, a system's heuristic player)."""


class _Node:
    """A move in the tree: who made it, how often it was tried, available and rewarded."""

    __slots__ = ("available", "children", "mover", "reward", "visits")

    def __init__(self, mover: str) -> None:
        self.mover = mover
        self.children: dict[Command, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


class SearchStats:
    """What the searches so far cost: decisions searched, iterations run, and commands
    played in them (tree and playouts)."""

    __slots__ = ("commands", "decisions", "iterations")

    def __init__(self) -> None:
        self.decisions = 0
        self.iterations = 0
        self.commands = 0


Evaluation = Callable[[Any, str], float]
"""``(state, seat)`` -> the seat's winning chance in [0, 1] (``Hooks.evaluate``)."""
Clock = Callable[[], float]
"""Seconds on some clock (``time.monotonic``, ``time.process_time``): the caller's."""


class SearchPlayer:
    """Information-set MCTS over a rule system's decider (see the module docstring).

    ``decider``, ``seat_view``, ``determiniser``, ``pack`` and ``evaluate`` come from the
    system's registry record; ``rollout`` builds the playout policy from a seed. The budget is
    ``iterations``, ``seconds`` on ``clock``, or both (whichever ends first). ``exploration``
    is UCB1's constant below the root, ``widening`` the progressive-widening rate there,
    ``root_widening`` the rate at the root beyond ``max_branching`` candidates.
    """

    def __init__(
        self,
        seed: int,
        *,
        decider: Decider[Any, Any, Any],
        seat_view: Callable[[Any, str], Any],
        determiniser: Determiniser,
        pack: Any,
        rollout: RolloutFactory,
        iterations: int | None = 8,
        seconds: float | None = None,
        clock: Clock | None = None,
        evaluate: Evaluation | None = None,
        playout_depth: int = 40,
        max_branching: int = 10,
        root_widening: float = 1.0,
        exploration: float = 0.7,
        widening: float = 0.5,
        stickiness: float = 0.05,
        rollout_limit: int = 3000,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("the search needs a budget: iterations, seconds, or both")
        if iterations is not None and iterations < 1:
            raise ValueError(f"the search needs at least one iteration, got {iterations}")
        if seconds is not None and clock is None:
            raise ValueError("a time budget needs a clock (the core reads none)")
        if playout_depth < 0:
            raise ValueError(f"a playout depth is never negative, got {playout_depth}")
        self._seed = seed
        self._key = hashlib.sha256(b"nataterra-search-v1" + struct.pack(">Q", seed)).digest()
        self._decider = decider
        self._seat_view = seat_view
        self._determiniser = determiniser
        self._pack = pack
        self._rollout_factory = rollout
        self._policies: dict[str, Player] = {}
        self.iterations = iterations
        self.seconds = seconds
        self._clock = clock
        self._evaluate = evaluate
        self.playout_depth = playout_depth
        self.max_branching = max_branching
        self.root_widening = root_widening
        self.exploration = exploration
        self.widening = widening
        self.stickiness = stickiness
        self.rollout_limit = rollout_limit
        self._decisions = 0
        self._rate: float | None = None
        self.stats = SearchStats()
        self.last_rounds: dict[Command, dict[int, float]] = {}
        """The last searched decision's root candidates: each one's score (its mover's, in
        [0, 1]) in each round it was tried. Candidates of one round share the sample and
        the dice, so two candidates' scores in the same round are a paired comparison
        (``benchmarks/search_signal.py`` measures how far apart moves are against the
        noise of the dice)."""

    def choose(self, view: Any, legal_commands: Sequence[Command]) -> Command:
        """The root move with the best mean score once the budget is spent."""
        if len(legal_commands) == 1:
            return legal_commands[0]  # forced: no thinking, no time
        start = deadline = None
        if self.seconds is not None and self._clock is not None:
            start = self._clock()
            deadline = start + self.seconds
        self._decisions += 1
        decision = self._decisions
        sample = self._sample(view, decision, 0)
        seat = self._root_seat(view, sample)
        order = DiceStream(self._key, f"search-{decision}-order", "")
        ranking = _Ranking(self._policy(seat), view, legal_commands, self.max_branching, order)
        first = min(len(legal_commands), self.max_branching)
        expected = self._expected()
        if expected is not None and expected // 2 < first:
            # Each candidate tried twice at least. Below two candidates an iteration budget
            # lets the policy answer alone; a time budget still tries two (so its pace is
            # measured again: a slow first decision must not stop the search for good).
            first = max(2, expected // 2) if deadline is not None else expected // 2
            if first < 2:
                return ranking.top(1)[0]
        self.stats.decisions += 1
        root = _Node("")
        scores: dict[Command, dict[int, float]] = {}
        self.last_rounds = scores
        limit = MAX_ITERATIONS if self.iterations is None else self.iterations
        done = rounds = 0
        candidates: Sequence[Command] = ()
        while done < limit:
            width = first + int(self.root_widening * math.sqrt(rounds))
            candidates = ranking.top(width if len(legal_commands) > first else first)
            state = sample if rounds == 0 else self._sample(view, decision, rounds)
            for command in candidates:
                if done >= limit or (done and self._past(deadline)):
                    self._measure(start, done)
                    return self._best(root, candidates)
                dice = _Dice(self._key, f"search-{decision}-{rounds}")
                child = root.children.get(command)
                if child is None:
                    child = root.children[command] = _Node(seat)
                before = child.reward
                self._descend(child, self._step(state, seat, command, dice), dice)
                scores.setdefault(command, {})[rounds] = child.reward - before
                self.stats.iterations += 1
                done += 1
            rounds += 1
        self._measure(start, done)
        return self._best(root, candidates)

    def _past(self, deadline: float | None) -> bool:
        return deadline is not None and self._clock is not None and self._clock() >= deadline

    def _expected(self) -> int | None:
        """The iterations this decision will have, as far as known: the iteration budget, or
        what the time budget gave at the last decision's pace (``None``: not known yet)."""
        expected = self.iterations
        if self.seconds is not None and self._rate is not None:
            timed = int(self._rate * self.seconds)
            expected = timed if expected is None else min(expected, timed)
        return expected

    def _measure(self, start: float | None, done: int) -> None:
        """Keep this decision's pace (iterations per second on the clock) for the next."""
        if start is not None and self._clock is not None:
            elapsed = self._clock() - start
            if elapsed > 0:
                self._rate = done / elapsed

    # -- one iteration ---------------------------------------------------------------------

    def _sample(self, view: Any, decision: int, i: int) -> Any:
        return self._determiniser(view, self._pack, _mix(self._seed, decision, i))

    def _root_seat(self, view: Any, state: Any) -> str:
        """The seat whose view this is: one of the acting seats (a view names its seat)."""
        acting = self._decider.decision(state).acting
        for seat in acting:
            if self._seat_view(state, seat) == view:
                return str(seat)
        raise ValueError("the view is not the view of a seat that may act")

    def _descend(self, top: _Node, state: Any, dice: _Dice) -> None:
        """From the root move ``top``: down the tree, one new node, a playout, the scores."""
        node, path = top, [top]
        expanded = False
        decider = self._decider
        while not expanded and decider.outcome(state) is None:
            choice = decider.decision(state)
            seat = choice.acting[0]
            legal = choice.legal(seat)
            if len(legal) == 1:
                state = self._step(state, seat, legal[0], dice)
                continue
            command, expanded = self._select(node, state, seat, legal, dice)
            node = node.children[command]
            path.append(node)
            state = self._step(state, seat, command, dice)
        score = self._playout(state, dice)
        for moved in path:
            moved.visits += 1
            moved.reward += score(moved.mover)

    def _select(
        self, node: _Node, state: Any, seat: str, legal: Sequence[Command], dice: _Dice
    ) -> tuple[Command, bool]:
        """(the command to play, whether its node is new): UCB1 over the children legal
        here, or a new child while the node may widen (the policy's choice first)."""
        tried = [c for c in legal if c in node.children]
        for command in tried:
            node.children[command].available += 1
        visits = sum(node.children[c].visits for c in tried)
        room = min(len(legal), 1 + int(self.widening * math.sqrt(visits)))
        if len(tried) < room:
            new = self._policy(seat).choose(self._seat_view(state, seat), legal)
            if new in node.children:
                untried = [c for c in legal if c not in node.children]
                new = untried[dice.tree.draw(len(untried))]
            node.children[new] = child = _Node(seat)
            child.available = 1
            return new, True

        def ucb(command: Command) -> float:
            child = node.children[command]
            if child.visits == 0:
                return math.inf
            spread = math.log(max(child.available, 1)) / child.visits
            return child.reward / child.visits + self.exploration * math.sqrt(spread)

        return max(tried, key=ucb), False

    def _playout(self, state: Any, dice: _Dice) -> Callable[[str], float]:
        """Each seat's score after playing on with the rollout policy: the result once the
        game ends; cut short (``playout_depth`` commands with an evaluation, else
        ``rollout_limit``), the evaluation's estimate, or ½ without one."""
        decider = self._decider
        limit = self.rollout_limit if self._evaluate is None else self.playout_depth
        for _ in range(limit):
            if decider.outcome(state) is not None:
                break
            choice = decider.decision(state)
            seat = choice.acting[0]
            legal = choice.legal(seat)
            command = legal[0]
            if len(legal) > 1:
                policy = self._policy(seat)
                shown = None if isinstance(policy, RandomPlayer) else self._seat_view(state, seat)
                command = policy.choose(shown, legal)
            state = self._step(state, seat, command, dice)
        outcome = decider.outcome(state)
        if outcome is not None:
            winners = frozenset(outcome.winners)
            if not winners:
                return lambda seat: 0.5
            return lambda seat: float(seat in winners)
        evaluate = self._evaluate
        if evaluate is None:
            return lambda seat: 0.5
        known: dict[str, float] = {}

        def estimate(seat: str) -> float:
            found = known.get(seat)
            if found is None:
                found = known[seat] = min(1.0, max(0.0, float(evaluate(state, seat))))
            return found

        return estimate

    def _step(self, state: Any, seat: str, command: Command, dice: _Dice) -> Any:
        decider = self._decider
        self.stats.commands += 1
        stream = dice.at(decider.dice_counter(state))
        decided = decider.decide(state, command, stream, seat=seat, legal=True)
        if isinstance(decided, Decided):
            return decided.state
        for event in decided:
            state = decider.evolve(state, event)
        return state

    def _policy(self, seat: str) -> Player:
        """The rollout policy playing ``seat`` (one per seat, seeded from this player's seed)."""
        found = self._policies.get(seat)
        if found is None:
            found = self._rollout_factory(_mix(self._seed, len(self._policies), 0xFFFF))
            self._policies[seat] = found
        return found

    def _best(self, root: _Node, order: Sequence[Command]) -> Command:
        """The best mean (the policy's choice, ``order[0]``, with its bonus), then the most
        visits, then the earlier in ``order``. Another move needs two playouts at least: one
        is luck, and never overrides the policy."""

        def rank(n: int) -> tuple[float, int, int]:
            child = root.children.get(order[n])
            if child is None or child.visits < (1 if n == 0 else 2):
                return (-1.0, 0, -n)
            bonus = self.stickiness if n == 0 else 0.0
            return (child.reward / child.visits + bonus, child.visits, -n)

        return order[max(range(len(order)), key=rank)]


@runtime_checkable
class Ranker(Protocol):
    """A rollout policy that can also rank every legal command, best first (a system's
    heuristic player may offer it): the search player's prior at the root."""

    def rank(self, view: Any, legal_commands: Sequence[Command]) -> Sequence[Command]:
        """Every one of ``legal_commands``, the most promising first."""


class _Ranking:
    """The root's candidates in the order the search tries them: the rollout policy's
    choice first; then, when the policy ranks (:class:`Ranker`), its ranking of the rest,
    else the rest in an order drawn from the search's own dice (no prior: every other
    command alike). Up to ``max_branching`` commands, where every one is a candidate anyway,
    the rest keep the list's order."""

    __slots__ = ("_order",)

    def __init__(
        self,
        policy: Player,
        view: Any,
        legal: Sequence[Command],
        max_branching: int,
        dice: DiceStream,
    ) -> None:
        first = policy.choose(view, legal)
        rest: Sequence[Command] = [c for c in legal if c != first]
        if len(legal) > max_branching:
            if isinstance(policy, Ranker):
                rest = [c for c in policy.rank(view, legal) if c != first]
            else:
                rest = dice.shuffle(rest)
        self._order: tuple[Command, ...] = (first, *rest)

    def top(self, count: int) -> Sequence[Command]:
        """The ``count`` first candidates (all of them when there are fewer)."""
        return self._order[:count]


class _Dice:
    """The search's own dice for one iteration: a stream keyed by the player's seed, named
    for the iteration, rebuilt at the counter each state holds."""

    __slots__ = ("_key", "_name", "tree")

    def __init__(self, key: bytes, name: str) -> None:
        self._key = key
        self._name = name
        self.tree = DiceStream(key, name + "-tree", "")
        """Draws of the tree itself (which untried move to expand)."""

    def at(self, counter: int) -> DiceStream:
        return DiceStream(self._key, self._name, "", counter)


def _mix(seed: int, decision: int, i: int) -> int:
    """A 64-bit seed for sample ``i`` of ``decision`` (a determinisation, a policy)."""
    digest = hashlib.sha256(struct.pack(">QQQ", seed % (1 << 64), decision, i)).digest()
    return int.from_bytes(digest[:8], "big")
