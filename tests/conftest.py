"""Test-wide settings: hypothesis without deadlines (CI machines are noisy).

Long randomised runs are marked ``soak`` and skipped unless ``pytest -m soak`` is given.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("default", deadline=None, print_blob=True)
settings.load_profile("default")
