"""The ``nataterra`` typer app: the generic commands, then every rule system's own.

The generic commands (``demo``, ``play``, ``show``, ``replay``, ``verify``, ``serve``) work for any
registered rule system; a system adds commands of its own through its
``Hooks.cli_commands`` (Nataterra's ``odds`` and ``coverage``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import typer

from nataterra_core.kernel.registry import systems

from .demo import demo
from .play import play_command
from .replay import replay
from .serve import serve
from .show import show
from .verify import EXIT_HELP, verify_command

__all__ = ["app", "build_app", "main"]

GENERIC: dict[str, Callable[..., Any]] = {
    "demo": demo,
    "play": play_command,
    "show": show,
    "replay": replay,
    "verify": verify_command,
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
    )
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


def _claim(owners: dict[str, str], name: str, by: str) -> None:
    if name in owners:
        raise ValueError(f"{by} adds a command {name!r}, but {owners[name]} has one")
    owners[name] = by


app = build_app()


def main() -> None:
    """Console-script entry point."""
    sys.exit(app())
