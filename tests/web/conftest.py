"""A ``nataterra serve`` application in a thread and a headless Chromium driven by playwright.

Chromium comes from the system's packages (Debian's ``chromium``, installed by
``.ci/install``), never from ``playwright install``; the flags keep it off the network
(without ``--disable-background-networking`` its own connections are refused on a closed
network and slow everything down).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import serving

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(os.environ.get("NATATERRA_SCREENSHOTS", "out/screenshots"))
"""Where the browser tests save their screenshots (relative to the working directory)."""


def chromium_path() -> str | None:
    """The system's Chromium (``CHROMIUM`` overrides), or ``None``."""
    return (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """A web server on a free local port, in memory, in a thread of this process."""
    pytest.importorskip("uvicorn")
    from nataterra_adapters.web import create_app

    with serving(create_app()) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (the system's), closed after the module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = chromium_path()
    if executable is None:
        pytest.skip("no chromium on this machine (.ci/install installs Debian's)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page; any JavaScript error on it fails the test."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.set_default_timeout(15_000)
    yield opened
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
