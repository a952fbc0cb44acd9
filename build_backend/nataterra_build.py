"""The build backend: setuptools', plus mypy (for mypyc) when a compiled build is asked for.

``NATATERRA_MYPYC=1 pip install .`` compiles the rule logic listed in ``setup.py`` with mypyc;
without it the build is pure Python and needs nothing beyond setuptools. Wrapping the backend
is how the extra build requirement stays conditional (pyproject's ``requires`` is static).
"""

from __future__ import annotations

import os

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 (the whole PEP 517 interface)

MYPYC_REQUIREMENTS = ["mypy>=1.10", "msgspec>=0.18", "attrs>=23.1", "cattrs>=23.2"]
"""What compiling needs: mypyc, and the libraries the compiled modules' types come from."""


def compiled() -> bool:
    """Whether this build compiles the rule logic (``NATATERRA_MYPYC=1``)."""
    return os.environ.get("NATATERRA_MYPYC", "") == "1"


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    """setuptools' requirements, and mypyc's for a compiled build."""
    extra = MYPYC_REQUIREMENTS if compiled() else []
    return [*build_meta.get_requires_for_build_wheel(config_settings), *extra]


def get_requires_for_build_editable(config_settings=None):  # type: ignore[no-untyped-def]
    """setuptools' requirements, and mypyc's for a compiled build."""
    extra = MYPYC_REQUIREMENTS if compiled() else []
    return [*build_meta.get_requires_for_build_editable(config_settings), *extra]
