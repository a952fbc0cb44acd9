"""Pages of the docs site made from the code at build time (mkdocs-gen-files runs this).

The README is the home page; each registered game gets its how-to-play page (the one its
package ships, ``Hooks.how_to_play``) and a reference of its commands, events and view
fields, generated from its ``messages`` and ``views`` modules by mkdocstrings. The games come
from the registry, so a game added or a module moved changes the site without editing it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import mkdocs_gen_files

from nataterra_core.kernel.registry import BUILTIN_PACKAGE, systems

ROOT = Path(__file__).resolve().parents[2]
REFERENCE_MODULES = ("messages", "views", "state")

with mkdocs_gen_files.open("index.md", "w") as index:
    index.write((ROOT / "README.md").read_text(encoding="utf-8"))

nav = mkdocs_gen_files.Nav()
seen: set[str] = set()
for record in systems():
    package = ".".join(type(record.presenter).__module__.split(".")[:3])
    if not package.startswith(f"{BUILTIN_PACKAGE}."):
        continue  # the library's games only (a test or a plug-in may register others)
    slug = record.id
    if record.hooks.how_to_play is not None:
        with mkdocs_gen_files.open(f"games/{slug}/how-to-play.md", "w") as page:
            page.write(record.hooks.how_to_play())
        nav[record.title, "How to play"] = f"{slug}/how-to-play.md"
    if package in seen:
        continue
    seen.add(package)
    modules = [
        f"{package}.{name}"
        for name in REFERENCE_MODULES
        if importlib.util.find_spec(f"{package}.{name}") is not None
    ]
    with mkdocs_gen_files.open(f"games/{slug}/reference.md", "w") as page:
        page.write(f"# {record.title}: commands, events and views\n\n")
        page.write(f"Generated from `{package}` (rules id `{record.id}`).\n\n")
        for module in modules:
            page.write(f"::: {module}\n\n")
    nav[record.title, "Commands, events and views"] = f"{slug}/reference.md"

with mkdocs_gen_files.open("games/SUMMARY.md", "w") as summary:
    summary.writelines(nav.build_literate_nav())
