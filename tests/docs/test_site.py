"""The docs site (issue 29 item 4): ``mkdocs build --strict`` builds it (``mkdocs.yml``),
every registered game has its pages, and no link in it leaves the repository: each relative
link resolves to a file of the built site, and none names a folder outside the repository."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from nataterra_core.kernel.registry import BUILTIN_PACKAGE, systems

ROOT = Path(__file__).resolve().parents[2]
ATTRIBUTE = re.compile(r"""(?:href|src)="([^"]*)\"""")


def site_links(html: str) -> list[str]:
    """The ``href`` and ``src`` values of a page that point inside the site (no scheme, no
    bare anchor), without their anchors and queries.

    >>> site_links('<a href="../DICE.html#x">d</a> <a href="https://x.org"> <a href="#top">')
    ['../DICE.html']
    """
    found = []
    for value in ATTRIBUTE.findall(html):
        parts = urlsplit(value)
        if parts.scheme or parts.netloc or not parts.path:
            continue
        found.append(unquote(parts.path))
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    config = pytest.importorskip("mkdocs.config")
    build = pytest.importorskip("mkdocs.commands.build")
    out = tmp_path_factory.mktemp("site")
    here = Path.cwd()
    os.environ["DISABLE_MKDOCS_2_WARNING"] = "true"
    os.chdir(ROOT)
    try:
        cfg = config.load_config(str(ROOT / "mkdocs.yml"), site_dir=str(out), strict=True)
        build.build(cfg)
    finally:
        os.chdir(here)
    return out


def test_every_game_has_its_pages(site: Path) -> None:
    for record in systems():
        builtin = type(record.presenter).__module__.startswith(f"{BUILTIN_PACKAGE}.")
        if builtin and record.hooks.how_to_play is not None:
            page = (site / "games" / record.id / "how-to-play.html").read_text(encoding="utf-8")
            assert f"How to play {record.title}" in page
    reference = (site / "games" / "kaladan" / "reference.html").read_text(encoding="utf-8")
    assert "Fight" in reference and "SeatView" in reference  # commands and views, from code


SPHINX_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj|const):(?:`|<code>)")


def test_sphinx_roles_render_as_references_not_text(site: Path) -> None:
    """``docs/site/sphinx_roles.py``: a docstring's ``:class:`X``` shows as ``X``, linked where
    X is on the site (the Liar's Dice messages module names its events)."""
    for page in sorted(site.rglob("*.html")):
        found = SPHINX_ROLE.search(page.read_text(encoding="utf-8"))
        assert found is None, f"{page}: {found and found[0]}"
    reference = (site / "games" / "liars-dice" / "reference.html").read_text(encoding="utf-8")
    assert 'href="#nataterra_core.games.liars_dice.messages.CupsRevealed"' in reference


def test_no_link_leaves_the_repository(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "../shared" not in html, page
        for link in site_links(html):
            # a root-relative link (the theme's 404 page) is relative to the site's root
            base = site if link.startswith("/") else page.parent
            target = (base / link.lstrip("/")).resolve()
            assert target.is_relative_to(site.resolve()), f"{page}: {link} leaves the site"
            assert target.exists() or (target / "index.html").exists(), f"{page}: {link}"
