"""The ``nataterra`` typer app: the generic commands, then every rule system's own.

The generic commands (``demo``, ``play``, ``show``, ``replay``, ``verify``, ``tournament``,
``scenarios``, ``serve``) work for any registered rule system; a system adds commands of its
own through its
``Hooks.cli_commands`` (Nataterra's ``odds``). ``coverage`` reports the rules coverage of
every system that describes it (``Hooks.coverage``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from nataterra_core.kernel.build import BUILD, VERSION
from nataterra_core.kernel.registry import systems

from .coverage import coverage
from .demo import demo
from .play import play_command
from .replay import replay
from .scenarios import scenarios_command
from .serve import serve
from .show import show
from .tournament import tournament
from .verify import EXIT_HELP, verify_command

__all__ = ["app", "build_app", "main", "version_text"]

GENERIC: dict[str, Callable[..., Any]] = {
    "demo": demo,
    "play": play_command,
    "show": show,
    "replay": replay,
    "scenarios": scenarios_command,
    "verify": verify_command,
    "coverage": coverage,
    "tournament": tournament,
    "serve": serve,
}
"""The commands every rule system gets, by name."""


def build_app() -> typer.Typer:
    """A fresh app with the generic commands and every registered system's own.

    ``ValueError`` if two systems (or a system and a generic command) claim one name, so a
    plug-in cannot silently shadow ``verify``.
    """
    built = typer.Typer(
        help="Rules engine for Nataterra and any registered game: play, replay and verify games.",
        no_args_is_help=True,
        add_completion=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    built.callback()(_main_options)
    owners: dict[str, str] = {}
    for name, command in GENERIC.items():
        built.command(name, epilog=EXIT_HELP if name == "verify" else None)(command)
        owners[name] = "the CLI"
    for record in systems():
        hook = record.hooks.cli_commands
        for item in hook() if hook is not None else ():
            if isinstance(item, typer.Typer):
                group = item.info.name
                if not isinstance(group, str):
                    raise ValueError(f"{record.id}: a sub-app needs a name")
                _claim(owners, group, record.id)
                built.add_typer(item)
            else:
                command_name = item.__name__.replace("_", "-")
                _claim(owners, command_name, record.id)
                built.command(command_name)(item)
    return built


def version_text() -> str:
    """``nataterra 0.x (pure build; nataterra v1, nataterra-combat-sandbox v1, ...)``: the
    library, which build runs (pure Python or compiled with mypyc), and every registered rule
    system with the version its logs carry."""
    rules = ", ".join(f"{r.id} v{r.rules.version}" for r in systems())
    return f"nataterra {VERSION} ({BUILD} build; {rules})"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


def _main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the library's version and each rule system's, then exit.",
        ),
    ] = False,
) -> None:
    """Rules engine for Nataterra and any registered game: play, replay and verify games."""


def _claim(owners: dict[str, str], name: str, by: str) -> None:
    if name in owners:
        raise ValueError(f"{by} adds a command {name!r}, but {owners[name]} has one")
    owners[name] = by


app = build_app()


def main() -> None:
    """Console-script entry point."""
    sys.exit(app())
