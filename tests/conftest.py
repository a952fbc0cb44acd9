"""Test-wide settings: hypothesis without deadlines (CI machines are noisy), and the test dice
game registered as a rule system (it is never registered outside the tests).

Long randomised runs are marked ``soak`` and skipped unless ``pytest -m soak`` is given.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent / "kernel"))

from dicegame import BARE_PIG_SYSTEM, PIG_SYSTEM

from nataterra_core.kernel.registry import register

settings.register_profile("default", deadline=None, print_blob=True)
settings.load_profile("default")

register(PIG_SYSTEM, replace=True)
register(BARE_PIG_SYSTEM, replace=True)

# `demo` and `play` without --out keep their logs in the user's data folder: not the tester's.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="nataterra-test-data-")
