"""The repository documents itself (issue 29 item 5): a clone needs nothing beside it.

Every rules text, format and design note the code and the docs cite is inside the repository
(``docs/rules/``, ``docs/ARCHITECTURE.md``, ``docs/DICE.md``, ``docs/LOG_FORMAT.md``,
``docs/RECEIPTS.md``), so no file of the library, the adapters or the docs names the team's
``../shared`` folder or its ``design.md``, and every relative Markdown link resolves to a file
of the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ("README.md", "docs", "nataterra_core", "adapters")
TEXT_SUFFIXES = {".md", ".py", ".toml", ".json", ".js", ".html", ".css", ".txt", ".yml", ".yaml"}
OUTSIDE = re.compile(r"\.\./shared|design\.md", re.IGNORECASE)
HASHED_PACKS = frozenset({"nataterra_core/games/nataterra/content/packs/provisional/pack.toml"})
"""Content-pack files whose bytes every log made with the pack hashes into its header
(``content.sha256``, docs/LOG_FORMAT.md §6): their comments still cite the old notes and are
mended with the pack's next change of content, since a new hash would refuse every log
written before (docs/ARCHITECTURE.md §1 is where those comments point now)."""
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\)")
CODE = re.compile(r"^(```|~~~).*?^\1|`[^`\n]*`", re.DOTALL | re.MULTILINE)


def _files(*tops: str, suffixes: set[str] = TEXT_SUFFIXES) -> list[Path]:
    found: list[Path] = []
    for top in tops:
        path = ROOT / top
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        found += [
            p
            for p in candidates
            if p.is_file() and p.suffix in suffixes and "__pycache__" not in p.parts
        ]
    return found


def test_the_checked_trees_have_files() -> None:
    files = _files(*CHECKED)
    assert any(p.name == "README.md" for p in files)
    assert ROOT / "docs/rules/nataterra.md" in files


@pytest.mark.parametrize("top", CHECKED)
def test_nothing_names_the_shared_folder_or_its_design_notes(top: str) -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _files(top)
        if str(path.relative_to(ROOT)) not in HASHED_PACKS
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not offenders, "\n".join(offenders)


def test_the_hashed_packs_are_still_hashed() -> None:
    """The exemption above ends when the pack is no longer a hashed content file."""
    for name in HASHED_PACKS:
        assert (ROOT / name).is_file() and "/packs/" in name and name.endswith(".toml")


def test_the_detector_finds_what_it_looks_for() -> None:
    assert OUTSIDE.search("see ../shared/rules/kaladan.md")
    assert OUTSIDE.search("(Design.md §3)")
    assert not OUTSIDE.search("docs/ARCHITECTURE.md §3, the shared tile 0")


def relative_links(text: str) -> list[str]:
    """The targets of a Markdown text's links that point at a file (no scheme, no bare anchor),
    outside code.

    >>> relative_links("[a](DICE.md#2-blocks) [b](https://x.org) [c](#top) [d](rules/k.md 'K')")
    ['DICE.md', 'rules/k.md']
    >>> relative_links("`f[x](i)` and\\n```\\nbots[s](i)\\n```")
    []
    """
    targets = []
    for target in LINK.findall(CODE.sub("", text)):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        targets.append(target.split("#", 1)[0])
    return targets


@pytest.mark.parametrize(
    "path", _files("README.md", "docs", suffixes={".md"}), ids=lambda p: str(p.relative_to(ROOT))
)
def test_relative_links_resolve_inside_the_repository(path: Path) -> None:
    for target in relative_links(path.read_text(encoding="utf-8")):
        resolved = (path.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), f"{target} leaves the repository"
        assert resolved.exists(), f"{target} does not exist"
