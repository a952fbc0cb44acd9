"""The ``nataterra`` typer app: the generic commands, then every rule system's own.

The generic commands (``demo``, ``play``, ``show``, ``replay``, ``verify``, ``tournament``,
``scenarios``, ``serve``) work for any registered rule system; a system adds commands of its
own through its
``Hooks.cli_commands`` (Nataterra's ``odds``). ``coverage`` reports the rules coverage of
every system that describes it (``Hooks.coverage``).

The systems' own commands are added when a command line needs them (a name that is not a
generic command, or the list in ``--help``): ``nataterra verify`` imports only the rule
systems its logs name.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
import typer.core

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

__all__ = ["app", "build_app", "main", "system_commands", "version_text"]

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
    """A fresh app with the generic commands; every registered system's own are added when a
    command line first needs them (:func:`system_commands` says which they are)."""
    built = typer.Typer(
        cls=_WithSystemCommands,
        help="Rules engine for Nataterra and any registered game: play, replay and verify games.",
        no_args_is_help=True,
        add_completion=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    built.callback()(_main_options)
    for name, command in GENERIC.items():
        built.command(name, epilog=EXIT_HELP if name == "verify" else None)(command)
    return built


def system_commands() -> typer.Typer:
    """Every registered system's own commands (``Hooks.cli_commands``) as one app.

    ``ValueError`` if two systems (or a system and a generic command) claim one name, so a
    plug-in cannot silently shadow ``verify``.
    """
    commands = typer.Typer()
    owners = dict.fromkeys(GENERIC, "the CLI")
    for record in systems():
        hook = record.hooks.cli_commands
        for item in hook() if hook is not None else ():
            if isinstance(item, typer.Typer):
                group = item.info.name
                if not isinstance(group, str):
                    raise ValueError(f"{record.id}: a sub-app needs a name")
                _claim(owners, group, record.id)
                commands.add_typer(item)
            else:
                command_name = item.__name__.replace("_", "-")
                _claim(owners, command_name, record.id)
                commands.command(command_name)(item)
    return commands


class _WithSystemCommands(typer.core.TyperGroup):
    """The app's command group: the rule systems' own commands join the generic ones the
    first time a name is not a generic command or the whole list is asked for, so a generic
    command imports no rule system it does not use."""

    _systems_added = False

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is None and self._add_system_commands():
            found = super().get_command(ctx, cmd_name)
        return found

    def list_commands(self, ctx: Any) -> list[str]:
        self._add_system_commands()
        return super().list_commands(ctx)

    def _add_system_commands(self) -> bool:
        """Add the systems' commands once; whether this call added them."""
        if self._systems_added:
            return False
        self._systems_added = True
        group = typer.main.get_group(system_commands())
        for name, command in group.commands.items():
            self.add_command(command, name)
        return True


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
