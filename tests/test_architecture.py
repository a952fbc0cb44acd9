"""The layering of design.md §1, checked with ``ast``: dependencies point one way.

adapters → game facade → rules → content → kernel. The core does no I/O of its own
choosing beyond its small log/content modules, and never touches global randomness or
the clock (all chance comes from the seeded dice stream).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "nataterra_core"

# For each layer, the project packages it may import (besides itself).
ALLOWED = {
    "kernel": set(),
    "content": {"kernel"},
    "rules": {"kernel", "content"},
}
FORBIDDEN_MODULES = {"random", "time", "datetime", "secrets", "numpy", "nataterra_adapters"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                names.add(".".join((*base, node.module or "")).rstrip("."))
            elif node.module:
                names.add(node.module)
    return names


def core_files() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


@pytest.mark.parametrize("path", core_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_never_uses_global_randomness_clock_or_adapters(path: Path) -> None:
    bad = {name for name in imports_of(path) if name.split(".")[0] in FORBIDDEN_MODULES}
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layers_depend_only_downwards(layer: str) -> None:
    for path in sorted((CORE / layer).rglob("*.py")):
        for name in imports_of(path):
            parts = name.split(".")
            if parts[0] != "nataterra_core" or len(parts) < 2:
                continue
            target = parts[1]
            assert target == layer or target in ALLOWED[layer], (
                f"{path.relative_to(ROOT)} ({layer}) imports {name}"
            )


def test_kernel_knows_no_game() -> None:
    for path in sorted((CORE / "kernel").rglob("*.py")):
        text = path.read_text().lower()
        for word in ("velathi", "beasts", "naga", "biome", "tactic"):
            assert word not in text, f"{path.name} mentions {word!r}"


def test_every_module_imports_on_its_own() -> None:
    """No import cycle hides behind an import order: each module imports first, alone."""
    import subprocess
    import sys

    modules = [
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in core_files()
    ]
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    for loaded in [m for m in sys.modules if m.startswith('nataterra_core')]:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=ROOT)
