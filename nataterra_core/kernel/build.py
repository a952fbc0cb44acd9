"""Which build of the engine this is: pure Python, or the rule logic compiled with mypyc.

The default install is pure Python. ``NATATERRA_MYPYC=1 pip install .`` compiles the rule
logic with mypyc (see the README); the compiled modules then load as extension modules in
place of their ``.py`` files. ``nataterra --version`` prints :data:`BUILD`.
"""

from __future__ import annotations

from nataterra_core import __version__

from . import dice as _sentinel  # a module every compiled build compiles

__all__ = ["BUILD", "VERSION"]

VERSION: str = __version__
"""The package's version (what ``nataterra --version`` prints with :data:`BUILD`)."""

BUILD: str = "pure" if _sentinel.__file__.endswith(".py") else "compiled"
"""``"compiled"`` when the rule modules run as mypyc extension modules, else ``"pure"``."""
