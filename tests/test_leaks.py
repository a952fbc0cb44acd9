"""One leak test for every registered system (issue 30 item 3), with no table naming games.

For positions along random games, each seat gets a *twin*: the same position with only what
that seat may not see changed, built from the **state** declarations
(:func:`nataterra_core.kernel.secrets.twins`), never from the events' declared visibility, so
an event that says too much is caught. In both twins the seat must get byte-identical

* its view (and the view in words), its legal list and that list's words;
* the answers (accepted, or the error's class, rule and message) to a fixed set of probe
  commands: the other seats' legal commands and the commands played so far;
* after another seat's same next command, decided with the same dice: its record lines
  (``record_view``), their words and its receipt head (``kernel/receipts.py``), unless the
  command reveals something to the seat (its redacted state after it differs: a call lifts
  the cups, a battle turns a card), which is counted apart;
* after that command decided from the same position with *other* dice, the same words
  whenever the seat's lines are the same: a presenter wording a fresh roll or draw the seat
  may not see (other seats' new cups) is caught where the twins, whose futures share the
  dice, cannot catch it. (An event declared public that shows such a fresh draw is not
  caught here: what is fresh is in no state yet, so the state declarations cannot judge it.)

Both twins are also hosted in one JSON-RPC server, and in one web server asked over its
WebSocket: every reply and every notification the seat's connection is pushed
(``game.changed``) must be the same bytes (``tests/leak_rpc.py``, ``tests/leak_web.py``).

A spectator is checked as a seat is (no legal list, no probes). The smoke run plays one seed
of each system's smallest seating (two short ones over the WebSocket); the ``soak`` sweep,
in process and over the WebSocket, plays every player count with the
default options, every option value the system's options schema names (enum values,
booleans, ``examples``; each at every player count that accepts it) and every scenario of
its ``scenarios`` hook.

A new registered system is covered with no edit; one that declares no secret must say it has
perfect information (``tests/test_secrets.py``). The mutation tests at the end show the test's
teeth: a copy of a presenter whose sentences leak, and a copy of a view with a leaking field.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from typing import Any

import attrs
import msgspec
import pytest
from leak_rpc import HostedTwins, fork
from leak_web import WebTwins
from nataterra_adapters.record_words import appended_words
from nataterra_adapters.rpc.games import Games

from nataterra_core.game import GameSession, new_game
from nataterra_core.kernel import CommandRejected, DiceStream, seed_from_number, wording
from nataterra_core.kernel.receipts import SPECTATOR, view_heads, view_lines
from nataterra_core.kernel.refusals import refusal_for
from nataterra_core.kernel.registry import RuleSystem, systems
from nataterra_core.kernel.secrets import redact, twins

PROBES = 6
"""Probe commands per seat and position (the first of a fixed, ordered set)."""


@attrs.define
class Counts:
    """What one run checked."""

    positions: int = 0
    twins: int = 0
    changed: int = 0
    probes: int = 0
    next_commands: int = 0
    reveals: int = 0
    other_dice: int = 0
    """Next commands also decided with other dice that gave the seat the same lines."""
    rpc_twins: int = 0
    """Twins also asked over JSON-RPC (``tests/leak_rpc.py``)."""
    rpc_replies: int = 0
    """RPC replies compared byte for byte between twins."""
    notes: int = 0
    """Of those, notifications the server pushed (the WebSocket's ``game.changed``)."""
    unfolded: int = 0
    """Next commands whose twin record does not fold after the game's real records (a
    draw from a pile the twin changed), so the server cannot word it: not asked over RPC."""

    def add(self, other: Counts) -> None:
        """Add ``other``'s counts to these."""
        for field in attrs.fields(Counts):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))


@attrs.frozen
class Setting:
    """One way to set a system's game up: its seats and options, and a name for messages."""

    name: str
    seats: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]


def _option_values(prop: dict[str, Any]) -> list[Any]:
    """The values an options-schema property names: enum values, booleans, ``examples``."""
    values = list(prop.get("enum", ()))
    kinds = [prop, *prop.get("anyOf", ())]
    if any(kind.get("type") == "boolean" for kind in kinds):
        values += [True, False]
    values += list(prop.get("examples", ()))
    return [v for v in values if v != prop.get("default")]


def settings(record: RuleSystem) -> list[Setting]:
    """Every player count with the default options; each option value the system's options
    schema names, at every player count whose game accepts it (a value no count accepts
    fails: the schema's examples stay playable); each scenario of the system's hook."""
    base = dict(record.default_options)
    found = [
        Setting(f"{n}p", tuple(record.default_seats[n]), tuple(base.items()))
        for n in record.player_counts
    ]
    schema = msgspec.json.schema(record.options)
    props = schema["$defs"][schema["$ref"].rsplit("/", 1)[1]]["properties"]
    for name, prop in props.items():
        for value in _option_values(prop):
            options = {**base, name: value}
            fits = []
            for n in record.player_counts:
                seats = tuple(record.default_seats[n])
                try:
                    new_game(seats, game=record.id, seed=1, options=options)
                except ValueError:
                    continue
                fits.append(Setting(f"{n}p {name}={value}", seats, tuple(options.items())))
            assert fits, f"{record.id}: option {name}={value!r} fits no player count"
            found += fits
    for scenario in (record.hooks.scenarios or {}).values():
        options = tuple(dict(scenario.options).items())
        found.append(Setting(f"scenario {scenario.id}", tuple(scenario.seats), options))
    return found


def _ids() -> list[str]:
    return [record.id for record in systems()]


def _system(rules_id: str) -> RuleSystem:
    return next(record for record in systems() if record.id == rules_id)


def _dice(session: GameSession, seed: int, state: Any) -> DiceStream:
    server_seed, game_id = seed_from_number(seed)
    counter = session.decider.dice_counter(state)
    return DiceStream(server_seed, game_id, session.header.client_seed, counter)


def _answer(session: GameSession, seed: int, state: Any, seat: str, command: Any) -> str:
    """The answer ``seat`` is told (a refusal as the session tells it, ``refusal_for``)."""
    try:
        session.decider.decide(state, command, _dice(session, seed, state), seat=seat)
    except CommandRejected as refused:
        dice = _dice(session, seed, state)
        error = refusal_for(session.decider, state, seat, command, refused, dice)
        return f"{type(error).__name__} {error.rule_id}: {error}"
    return "accepted"


def _seen(record: RuleSystem, session: GameSession, state: Any, seat: str | None) -> list[Any]:
    """What ``seat`` gets of ``state`` without moving: view, words, legal list and words,
    and what a page draws of the view (the boards and the seat panels)."""
    view = record.seat_view(state, seat)
    decision = session.decider.decision(state)
    legal = list(decision.legal(seat)) if seat in decision.acting else []
    boards, panels = record.hooks.board_geometry, record.hooks.panels
    return [
        msgspec.json.encode(view),
        record.presenter.view(view),
        list(decision.acting),
        msgspec.json.encode(legal),
        [record.presenter.command(command, seat, view) for command in legal],
        msgspec.json.encode(boards.geometry(view)) if boards is not None else None,
        msgspec.json.encode(panels(view)) if panels is not None else None,
    ]


def _after(
    record: RuleSystem,
    session: GameSession,
    state: Any,
    seat: str | None,
    other: str,
    command: Any,
    server_seed: bytes | None = None,
) -> tuple[Any, list[Any]]:
    """What ``seat`` gets when ``other`` plays ``command`` from ``state`` (with the dice of
    ``server_seed`` when given): its redacted state after it, and its record lines, their
    words and its receipt head."""
    forked = fork(session, state)
    if server_seed is not None:
        forked._seed = server_seed
    first = len(forked.lines)
    forked.apply(other, command)
    decider = forked.decider
    chain = SPECTATOR if seat is None else seat
    lines = view_lines(forked.lines, chain, decider)
    words = appended_words(
        record, decider, forked.lines, seat, revealed=False, first=first, before=state
    )
    head = view_heads(forked.header.game_id, chain, lines)[-1]
    return redact(forked.state, seat), [lines[first:], words, head]


def _positions(
    session: GameSession, rng: random.Random, limit: int, played: list[Any]
) -> Iterator[Any]:
    """States along a random game (at most ``limit``); ``played`` gets each command."""
    while session.outcome() is None and limit > 0:
        yield session.state
        limit -= 1
        seat = rng.choice(list(session.acting_seats()))
        command = rng.choice(tuple(session.legal_commands(seat)))
        session.apply(seat, command)
        played.append(command)


def check_leaks(
    record: RuleSystem,
    seed: int,
    seats: tuple[str, ...],
    limit: int,
    every: int = 3,
    options: dict[str, Any] | None = None,
    *,
    rpc: bool = False,
    web: bool = False,
    served: RuleSystem | None = None,
) -> Counts:
    """Play a random game of ``record`` and check every ``every``-th position's twins; an
    ``AssertionError`` names the seat, the position and what differed. With ``rpc`` the game
    is hosted on an in-process JSON-RPC server (``served``: the record it serves, a mutated
    copy in a test) and each twin is also asked over it (``tests/leak_rpc.py``); with
    ``web`` over the web server's WebSocket instead (``tests/leak_web.py``)."""
    options = dict(record.default_options) if options is None else options
    hosting = WebTwins if web else HostedTwins
    hosted = hosting(record, seats, seed, options, served) if rpc or web else None
    try:
        return _check_game(record, seats, seed, limit, every, options, hosted)
    finally:
        if isinstance(hosted, WebTwins):
            hosted.close()


def _check_game(
    record: RuleSystem,
    seats: tuple[str, ...],
    seed: int,
    limit: int,
    every: int,
    options: dict[str, Any],
    hosted: HostedTwins | None,
) -> Counts:
    if hosted is not None:
        session = hosted.session
    else:
        session = new_game(seats, game=record.id, seed=seed, options=options)
    rng = random.Random(seed)
    counts = Counts()
    played: list[Any] = []
    for n, state in enumerate(_positions(session, rng, limit, played)):
        if n % every == 0:
            _check_position(record, session, seed, state, played, rng, counts, hosted)
    assert counts.positions > 0
    return counts


def _check_position(
    record: RuleSystem,
    session: GameSession,
    seed: int,
    state: Any,
    played: list[Any],
    rng: random.Random,
    counts: Counts,
    hosted: HostedTwins | None = None,
) -> None:
    counts.positions += 1
    decision = session.decider.decision(state)
    for seat in (*session.header.seats, None):
        twin = twins(state, seat, rng)
        counts.twins += 1
        counts.changed += twin != state
        where = f"{record.id} {'spectator' if seat is None else 'seat ' + seat}"
        where += f" at turn state #{counts.positions}"
        assert _seen(record, session, twin, seat) == _seen(record, session, state, seat), (
            f"{where}: view, words or legal list depend on what the seat may not see"
        )
        others = [s for s in decision.acting if s != seat]
        probes: list[Any] = []
        if seat is not None:
            probes = [c for s in others for c in decision.legal(s)][:PROBES] + played[-PROBES:]
            for command in probes:
                counts.probes += 1
                assert _answer(session, seed, twin, seat, command) == _answer(
                    session, seed, state, seat, command
                ), f"{where}: the answer to {command!r} depends on what the seat may not see"
        if hosted is not None:
            _check_over_rpc(hosted, state, twin, seat, probes, where, counts)
        if not others:
            continue
        other = others[0]
        theirs = set(session.decider.decision(twin).legal(other))
        shared = [c for c in decision.legal(other) if c in theirs]
        if not shared:
            continue
        command = rng.choice(shared)
        ours_after, ours = _after(record, session, state, seat, other, command)
        twin_after, twins_ = _after(record, session, twin, seat, other, command)
        counts.next_commands += 1
        if ours_after != twin_after:
            counts.reveals += 1  # the rules showed the seat something: the record may differ
        else:
            assert twins_ == ours, (
                f"{where}: {other}'s {command!r} gives the seat other lines, words or receipt head"
            )
            if hosted is not None:
                ours_rpc = hosted.after(state, seat, other, command)
                twins_rpc = hosted.after(twin, seat, other, command)
                assert ours_rpc is not None
                if twins_rpc is None:  # its log does not fold: compared in process only
                    counts.unfolded += 1
                else:
                    assert twins_rpc == ours_rpc, (
                        f"{where}: over RPC, {other}'s {command!r} gives the seat other "
                        "answers: " + _difference(ours_rpc, twins_rpc)
                    )
                    _count_replies(counts, ours_rpc)
        other_seed = seed_from_number(seed + OTHER_DICE)[0]
        _, dice_ = _after(record, session, state, seat, other, command, other_seed)
        if dice_[0] == ours[0]:
            counts.other_dice += 1
            assert dice_[1] == ours[1], (
                f"{where}: {other}'s {command!r} with other dice gives the seat the same "
                "lines in other words (a roll or draw it may not see)"
            )


OTHER_DICE = 10_007
"""Added to a game's seed for the other dice of a next command."""


def _check_over_rpc(
    hosted: HostedTwins,
    state: Any,
    twin: Any,
    seat: str | None,
    probes: list[Any],
    where: str,
    counts: Counts,
) -> None:
    """The same server, hosting either twin, answers ``seat`` byte for byte the same: its
    view, legal list, last record in words, receipt, and every refusal of the probes."""
    counts.rpc_twins += 1
    ours = hosted.looking(state, seat)
    theirs = hosted.looking(twin, seat)
    assert theirs == ours, (
        f"{where}: over RPC, the view, legal list, words, receipt or notes differ: "
        + _difference(ours, theirs)
    )
    _count_replies(counts, ours)
    for command in probes:
        assert seat is not None
        refused = hosted.refusal(state, seat, command)
        twins_refused = hosted.refusal(twin, seat, command)
        assert twins_refused == refused, (
            f"{where}: over RPC, the answer to {command!r} differs: "
            + _difference(refused or [], twins_refused or [])
        )
        _count_replies(counts, refused or [])


def _count_replies(counts: Counts, replies: list[bytes]) -> None:
    counts.rpc_replies += len(replies)
    counts.notes += sum(reply.startswith(NOTE) for reply in replies)


NOTE = b'{"jsonrpc":"2.0","method":'
"""How a notification the server pushes begins (a reply has no ``method``)."""


def _difference(ours: list[bytes], theirs: list[bytes]) -> str:
    """The first answer that differs between twins, both ways, cut short."""
    for one, other in zip(ours, theirs, strict=False):
        if one != other:
            return f"{one[:300]!r} against {other[:300]!r}"
    return f"{len(ours)} answers against {len(theirs)}"


SMOKE_LIMIT = 60


@pytest.mark.parametrize("rules_id", _ids())
def test_no_seat_learns_what_it_may_not_see(rules_id: str) -> None:
    """Smoke run: one seed, the default seats, every third of the first positions."""
    record = _system(rules_id)
    seats = tuple(record.default_seats[min(record.default_seats)])
    counts = check_leaks(record, 1, seats, SMOKE_LIMIT, rpc=True)
    if not record.perfect_information:
        assert counts.changed, f"{rules_id}: no twin differed from its position"
    print(f"{rules_id}: {counts}")


def test_the_sweep_covers_every_setting_the_registry_names() -> None:
    """The sweep's settings come from the registry: every player count, the option values
    each options schema names (every one fits some player count), every scenario."""
    for record in systems():
        found = settings(record)
        names = {setting.name for setting in found}
        assert {f"{n}p" for n in record.player_counts} <= names
        scenarios = record.hooks.scenarios or {}
        assert {f"scenario {s}" for s in scenarios} <= names


def _sweep() -> list[Any]:
    return [
        pytest.param(record.id, setting, id=f"{record.id}-{setting.name}")
        for record in systems()
        for setting in settings(record)
    ]


SWEEP_LIMIT = 300
"""Positions of each game of the sweep."""

SWEEP_EVERY = {"rpc": 1, "websocket": 3}
"""Which positions the sweep checks, by how the twins are hosted: every one on the
in-process JSON-RPC server, every third over the WebSocket (each answer a round trip)."""


@pytest.mark.soak
@pytest.mark.parametrize("over", SWEEP_EVERY)
@pytest.mark.parametrize("seed", (1, 2))
@pytest.mark.parametrize("rules_id,setting", _sweep())
def test_no_seat_learns_what_it_may_not_see_sweep(
    rules_id: str, setting: Setting, seed: int, over: str
) -> None:
    """The sweep: every setting of every system (player counts, option values, scenarios),
    two seeds, games up to ``SWEEP_LIMIT`` positions long, hosted on the JSON-RPC server or
    asked over the WebSocket."""
    record = _system(rules_id)
    options = dict(setting.options)
    web = over == "websocket"
    every = SWEEP_EVERY[over]
    counts = check_leaks(
        record, seed, setting.seats, SWEEP_LIMIT, every, options, rpc=not web, web=web
    )
    print(f"{rules_id} {setting.name} seed {seed} over {over}: {counts}")


class _LeakyPresenter:
    """A copy of a presenter whose event sentences carry the whole event."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def event(self, event: Any, view: Any = None) -> str:
        return f"{self._inner.event(event, view)} {event!r}"


def _secret_systems() -> list[str]:
    return [record.id for record in systems() if not record.perfect_information]


@pytest.mark.parametrize("rules_id", _secret_systems())
def test_a_presenter_leaking_a_sentence_is_caught(
    rules_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A presenter printing all it is handed leaks nothing, since it is handed only what the
    reader may see (``kernel.seen``); handed the uncut event instead, it is caught."""
    record = _system(rules_id)
    leaky = attrs.evolve(record, presenter=_LeakyPresenter(record.presenter))
    seats = tuple(record.default_seats[min(record.default_seats)])
    check_leaks(leaky, 1, seats, SMOKE_LIMIT)
    monkeypatch.setattr(wording, "as_seen", lambda message, *_, **__: message)
    with pytest.raises(AssertionError, match=r"lines, words or receipt head|in other words"):
        for seed in (1, 2, 3):
            check_leaks(leaky, seed, seats, 200, every=1)


def _leaky_view(record: RuleSystem) -> Any:
    """A copy of ``record``'s view with one more field: a digest of the whole state."""
    view_class = type(record.seat_view(new_game(
        tuple(record.default_seats[min(record.default_seats)]), game=record.id, seed=1,
        options=dict(record.default_options)).state, None))  # fmt: skip
    leaky_class = msgspec.defstruct(
        "Leaky" + view_class.__name__, [("leak", str, "")], bases=(view_class,), kw_only=True
    )

    def seat_view(state: Any, seat: str | None) -> Any:
        view = record.seat_view(state, seat)
        fields = {f: getattr(view, f) for f in view.__struct_fields__}
        return leaky_class(**fields, leak=str(hash(msgspec.json.encode(state))))

    return seat_view


@pytest.mark.parametrize("rules_id", _secret_systems())
def test_a_view_leaking_a_field_is_caught(rules_id: str) -> None:
    record = _system(rules_id)
    leaky = attrs.evolve(record, seat_view=_leaky_view(record))
    seats = tuple(record.default_seats[min(record.default_seats)])
    with pytest.raises(AssertionError, match="view, words or legal list"):
        check_leaks(leaky, 1, seats, SMOKE_LIMIT)


@pytest.mark.parametrize("rules_id", _secret_systems()[:1])
def test_a_server_leaking_a_field_is_caught_over_rpc(rules_id: str) -> None:
    """The server's answers are compared too: a server whose view leaks (the library's is
    sound) is caught over RPC."""
    record = _system(rules_id)
    leaky = attrs.evolve(record, seat_view=_leaky_view(record))
    seats = tuple(record.default_seats[min(record.default_seats)])
    with pytest.raises(AssertionError, match="over RPC, the view"):
        check_leaks(record, 1, seats, SMOKE_LIMIT, rpc=True, served=leaky)


@pytest.mark.parametrize("rules_id", _secret_systems())
def test_no_seat_learns_over_the_websocket_what_it_may_not_see(rules_id: str) -> None:
    """Smoke run over the browser's WebSocket: the web server, hosting either twin, sends a
    seat's connection the same replies and notifications byte for byte
    (``tests/leak_web.py``); two seeds, every sixth of the first positions."""
    record = _system(rules_id)
    seats = tuple(record.default_seats[min(record.default_seats)])
    counts = Counts()
    for seed in (1, 2):
        counts.add(check_leaks(record, seed, seats, WEB_LIMIT, every=WEB_EVERY, web=True))
    assert counts.changed and counts.rpc_replies and counts.notes, f"{rules_id}: {counts}"
    print(f"{rules_id} over the WebSocket: {counts}")


WEB_LIMIT, WEB_EVERY = 12, 6
"""Positions of each WebSocket smoke game, and which are checked (each answer is a round
trip to the server's thread)."""


@pytest.mark.parametrize("rules_id", _secret_systems()[:1])
def test_a_server_leaking_a_field_is_caught_over_the_websocket(rules_id: str) -> None:
    record = _system(rules_id)
    leaky = attrs.evolve(record, seat_view=_leaky_view(record))
    seats = tuple(record.default_seats[min(record.default_seats)])
    with pytest.raises(AssertionError, match="over RPC, the view"):
        check_leaks(record, 1, seats, WEB_LIMIT, every=WEB_EVERY, web=True, served=leaky)


@pytest.mark.parametrize("rules_id", _secret_systems()[:1])
def test_a_server_leaking_through_a_notification_is_caught_over_the_websocket(
    rules_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notes a connection is pushed are compared too: a web server whose ``game.changed``
    carries a digest of the whole state in its ``version`` (the library's carries the
    version and thinking seats only) is caught: the first answer that differs is the note."""
    record = _system(rules_id)
    seats = tuple(record.default_seats[min(record.default_seats)])
    version_of = Games.version_of

    def leaky_version_of(games: Games, game_id: str) -> int | None:
        version, game = version_of(games, game_id), games.host._games.get(game_id)
        if version is None or game is None:
            return version
        return version * 1000 + zlib.crc32(msgspec.json.encode(game.session.state)) % 1000

    monkeypatch.setattr(Games, "version_of", leaky_version_of)
    with pytest.raises(
        AssertionError, match=r"other answers: b'\{\"jsonrpc\":\"2.0\",\"method\":\"game.changed\""
    ):
        check_leaks(record, 1, seats, WEB_LIMIT, every=WEB_EVERY, web=True)
