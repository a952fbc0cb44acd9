"""The ``nataterra`` typer app: the generic commands, then every rule system's own.

The generic commands (``demo``, ``play``, ``show``, ``replay``, ``verify``, ``tournament``,
``scenarios``, ``rules``, ``serve``, ``store``; ``new-game`` writes a new game's package) work
for any registered rule system; a system adds
commands of its own through its ``Hooks.cli_commands`` (Nataterra's ``odds``). ``coverage``
reports the rules coverage of every system that describes it (``Hooks.coverage``).

The systems' own commands are added when a command line needs them (a name that is not a
generic command, or the list in ``--help``): ``nataterra verify`` imports only the rule
systems its logs name.
"""

from __future__ import annotations

import importlib
import sys
from typing import Annotated, Any, NamedTuple

import typer
import typer.core

from nataterra_core.kernel.build import BUILD, VERSION
from nataterra_core.kernel.registry import systems

__all__ = ["GENERIC", "app", "build_app", "main", "system_commands", "version_text"]


class Generic(NamedTuple):
    """Where a generic command is: its module in this package, its function, and the name
    of the module's epilog text if it has one."""

    module: str
    function: str
    epilog: str | None = None


GENERIC: dict[str, Generic] = {
    "demo": Generic("demo", "demo"),
    "play": Generic("play", "play_command"),
    "show": Generic("show", "show"),
    "replay": Generic("replay", "replay"),
    "scenarios": Generic("scenarios", "scenarios_command"),
    "rules": Generic("rules", "rules_command"),
    "verify": Generic("verify", "verify_command", "EXIT_HELP"),
    "coverage": Generic("coverage", "coverage"),
    "tournament": Generic("tournament", "tournament"),
    "serve": Generic("serve", "serve"),
    "new-game": Generic("scaffold", "new_game"),
    "store": Generic("store", "store_app"),
}
"""The commands every rule system gets, by name; each module is imported when its command
is run or listed (``serve`` alone would import the RPC server)."""


def build_app() -> typer.Typer:
    """The ``nataterra`` app: the generic commands, then every registered system's own
    (:func:`system_commands`), each made when a command line first needs it."""
    built = typer.Typer(
        cls=_Commands,
        help="Rules engine for Nataterra and any registered game: play, replay and verify games.",
        no_args_is_help=True,
        add_completion=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    built.callback()(_main_options)
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


class _Commands(typer.core.TyperGroup):
    """The app's command group, filled as names are asked for: a generic command is made
    from its module when first run or listed, and the rule systems' own commands join when a
    name is not a generic one or the whole list is shown. So ``nataterra verify`` imports
    neither the RPC server nor a rule system its logs do not name."""

    _systems_added = False

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands:
            if cmd_name in GENERIC:
                self.add_command(_generic(cmd_name), cmd_name)
            else:
                self._add_system_commands()
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: Any) -> list[str]:
        for name in GENERIC:
            self.get_command(ctx, name)
        self._add_system_commands()
        return super().list_commands(ctx)

    def _add_system_commands(self) -> None:
        if not self._systems_added:
            self._systems_added = True
            for name, command in typer.main.get_group(system_commands()).commands.items():
                self.add_command(command, name)


def _generic(name: str) -> Any:
    """The click command of the generic command ``name``, made from its module."""
    where = GENERIC[name]
    module = importlib.import_module(f"{__package__}.{where.module}")
    made = getattr(module, where.function)
    if isinstance(made, typer.Typer):  # a command with subcommands of its own
        group = typer.main.get_command(made)
        group.name = name
        return group
    one = typer.Typer()
    epilog = getattr(module, where.epilog) if where.epilog else None
    one.command(name, epilog=epilog)(getattr(module, where.function))
    return typer.main.get_command(one)


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
