"""Build script: pure Python by default; ``NATATERRA_MYPYC=1`` compiles the rule logic.

The compiled modules are plain-Python rule logic (no msgspec classes: mypyc would drop
``frozen`` and ``tag_field`` on a class it compiles and so change the log format; a test
checks this list). Everything else, message classes, policies and bots that must pickle for
worker processes, stays interpreted. ``nataterra --version`` says which build runs.
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED_MODULES = (
    "nataterra_core/kernel/decision.py",
    "nataterra_core/kernel/dice.py",
    "nataterra_core/boards/hexgrid.py",
    "nataterra_core/games/nataterra/rules/pathfinding.py",
    "nataterra_core/games/nataterra/rules/movement.py",
    "nataterra_core/games/nataterra/rules/combat/flow.py",
    "nataterra_core/games/nataterra/rules/combat/stages.py",
    "nataterra_core/games/nataterra/rules/combat/board.py",
    "nataterra_core/games/nataterra/rules/combat/sandbox.py",
    "nataterra_core/games/nataterra/rules/combat/sandbox_steps.py",
    "nataterra_core/games/nataterra/rules/combat/env.py",
    "nataterra_core/games/nataterra/rules/combat/options.py",
    "nataterra_core/games/nataterra/rules/combat/steps.py",
    "nataterra_core/games/nataterra/rules/combat/attacks.py",
    "nataterra_core/games/nataterra/rules/combat/commands.py",
    "nataterra_core/games/nataterra/rules/combat/folds.py",
    "nataterra_core/games/nataterra/rules/combat/fold_tools.py",
    "nataterra_core/games/nataterra/rules/combat/opening_folds.py",
    "nataterra_core/games/nataterra/rules/combat/round_folds.py",
    "nataterra_core/games/nataterra/rules/combat/damage.py",
    "nataterra_core/games/nataterra/rules/combat/biome.py",
    "nataterra_core/games/nataterra/rules/combat/tactics.py",
    "nataterra_core/games/nataterra/rules/combat/effects.py",
)
"""Source files a compiled build compiles (paths from the project root)."""

if os.environ.get("NATATERRA_MYPYC", "") == "1":
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(list(COMPILED_MODULES), opt_level="3"))
else:
    setup()
