"""``nataterra demo``: a seeded game between bots, its log written and verified."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from nataterra_core.game import DEFAULT_GAME, verify_log
from nataterra_core.kernel import LogWriter
from nataterra_core.kernel.wording import setup_words

from .common import (
    ContentOption,
    ForceOption,
    GameOption,
    SeedOption,
    console,
    log_path,
    rule_system,
)
from .newgame import (
    ModeOption,
    OptionOption,
    PlayersOption,
    ScenarioOption,
    StructuredOption,
    bot_seed,
    check_bot,
    make_bots,
    new_game_id,
    play_bots,
    prepare,
    scenario_seats,
    start,
)
from .words import verdict_line, view_text

__all__ = ["demo"]

DEMO_TURNS = 100
"""The turn limit of a demo game (of a system with one) when ``--turns`` is not given."""


def demo(
    game: GameOption = DEFAULT_GAME,
    seed: SeedOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Where to write the game's log (default: a fresh file per game in the "
            "user's data folder, $XDG_DATA_HOME/nataterra/games)."
        ),
    ] = None,
    force: ForceOption = False,
    turns: Annotated[
        int | None,
        typer.Option(help=f"At most this many player turns (max_turns; {DEMO_TURNS}).", min=1),
    ] = None,
    players: PlayersOption = None,
    content: ContentOption = None,
    bot: Annotated[
        str | None,
        typer.Option(
            help="A player the game names (every game has random: random legal moves; "
            "Nataterra's heuristic, its default, plays purposeful seeded bots)."
        ),
    ] = None,
    mode: ModeOption = None,
    structured: StructuredOption = None,
    option: OptionOption = None,
    scenario: ScenarioOption = None,
) -> None:
    """Play a seeded game between bots, write its log and verify it."""
    record = rule_system(game)
    seats = scenario_seats(record, scenario, players)
    options = prepare(
        record,
        seats,
        content=content,
        out=out,
        turns=turns,
        default_turns=DEMO_TURNS,
        mode=mode,
        structured=structured,
        extra=option or (),
        scenario=scenario,
    )
    chosen = check_bot(record, bot)
    game_id = new_game_id(seed)
    out = log_path(out, game_id, force=force)  # nothing is written before this passes
    out.unlink(missing_ok=True)
    with LogWriter(out) as writer:
        session = start(
            record,
            seats,
            seed=seed,
            options=options,
            content=content,
            sink=writer.write,
            game_id=game_id,
        )
        bots = make_bots(record, chosen, session.header.seats, bot_seed(seed), content)
        commands = play_bots(record, session, bots)
        result = session.close()
    header = session.header
    # As replay's header says it (a spectator's cut of any hidden option).
    shown = setup_words(session.decider.redact_options(header.options, None), record)
    console.print(
        Text.assemble(
            (record.title, "bold"),
            f" game {header.game_id}"
            f"{' (public test seed)' if seed is not None else ' (secret seed)'}: "
            f"{', '.join(header.seats)}; {shown}; "
            f"{commands} commands by {chosen} players",
        ),
        soft_wrap=True,
    )
    console.print(view_text(record, session.state, None), soft_wrap=True)
    console.print(
        f"result: {record.presenter.outcome(result)}; log {out} ({len(session.lines)} records)"
    )
    console.print(f"head {session.head}")
    verdict = verify_log(out.read_bytes(), content=content)
    console.print(verdict_line(str(out), verdict, record.presenter), soft_wrap=True)
