"""The layering of docs/ARCHITECTURE.md §1, checked with ``ast``: dependencies point one way.

adapters → facade (``nataterra_core.game``) and game registry (``nataterra_core.games``) →
one game package each → toolkits (``packs``, ``boards``, ``search``, ``tools``) → kernel. One
table, :data:`LAYERS`, says for every package what it may import of ours; every module of the
core and the adapters must belong to exactly one row. No module of ours takes part in an import
circle (:func:`test_no_import_circles`), and the deprecated aliases left where a module moved
out of the kernel (:data:`DEPRECATED_MODULES`) are imported by nothing of ours.

The core does no I/O of its own choosing beyond its small
log/content modules, and never touches global randomness or the clock (all chance comes from
the seeded dice stream).
"""

from __future__ import annotations

import ast
from pathlib import Path

import attrs
import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "nataterra_core"
ADAPTERS = ROOT / "adapters" / "nataterra_adapters"
OURS = ("nataterra_core", "nataterra_adapters")

KERNEL = "nataterra_core.kernel"
TOOLKITS = (
    "nataterra_core.packs",
    "nataterra_core.boards",
    "nataterra_core.search",
    "nataterra_core.tools",
)
GAME_IDS = sorted(p.parent.name for p in (CORE / "games").glob("*/__init__.py"))


@attrs.frozen
class Layer:
    """A package of ours: its files, and what of ours it may import.

    ``prefixes`` may be imported with their submodules, ``exact`` only as themselves (the
    registry's entry points, not a game's internals). The package root ``nataterra_core`` (it
    holds only ``__version__``) may be imported by anyone.
    """

    paths: tuple[Path, ...]
    prefixes: tuple[str, ...] = ()
    exact: tuple[str, ...] = ()
    excluded: tuple[Path, ...] = ()
    """Sub-packages of ``paths`` that have a row of their own."""

    def files(self) -> list[Path]:
        found: list[Path] = []
        for path in self.paths:
            found += [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))
        return [f for f in found if not any(f.is_relative_to(e) for e in self.excluded)]

    def allows(self, name: str) -> bool:
        return name in (*self.exact, "nataterra_core") or any(
            name == p or name.startswith(f"{p}.") for p in self.prefixes
        )


def game(game_id: str) -> Layer:
    own = f"nataterra_core.games.{game_id}"
    return Layer((CORE / "games" / game_id,), (KERNEL, *TOOLKITS, own))


DEPRECATED_MODULES: dict[str, str] = {
    f"{KERNEL}.coverage": "nataterra_core.tools.coverage",
    f"{KERNEL}.stats": "nataterra_core.tools.stats",
    f"{KERNEL}.workers": "nataterra_core.tools.workers",
    f"{KERNEL}.ismcts": "nataterra_core.search.ismcts",
}
"""Modules moved out of the kernel (session 10, issue 28) -> their new home. The old module
re-exports the new one with a ``DeprecationWarning`` for at least one release."""
DEPRECATED_FILES = tuple(
    ROOT.joinpath(*old.split(".")).with_suffix(".py") for old in DEPRECATED_MODULES
)

LAYERS: dict[str, Layer] = {
    "root": Layer((CORE / "__init__.py",)),
    "kernel": Layer((CORE / "kernel",), (KERNEL,), excluded=DEPRECATED_FILES),
    # The deprecated aliases: each re-exports its new module (and nothing of ours imports them).
    "kernel (deprecated aliases)": Layer(DEPRECATED_FILES, tuple(DEPRECATED_MODULES.values())),
    "packs": Layer((CORE / "packs",), (KERNEL, "nataterra_core.packs")),
    "boards": Layer((CORE / "boards",), (KERNEL, "nataterra_core.boards")),
    "search": Layer((CORE / "search",), (KERNEL, "nataterra_core.search")),
    "tools": Layer((CORE / "tools",), (KERNEL, "nataterra_core.tools")),
    **{f"games/{game_id}": game(game_id) for game_id in GAME_IDS},
    "registry": Layer((CORE / "games" / "__init__.py",), (KERNEL, "nataterra_core.games")),
    "facade": Layer((CORE / "game.py",), (KERNEL, "nataterra_core.games")),
    "adapters": Layer(
        (ADAPTERS,),
        (
            KERNEL,
            "nataterra_core.boards",  # the board renderer: game.view's pictures
            "nataterra_core.search",
            "nataterra_core.tools",
            "nataterra_core.game",
            "nataterra_adapters",
        ),
        exact=("nataterra_core.games",),
        excluded=(ADAPTERS / "web",),
    ),
    # The browser client's server: the RPC methods over a WebSocket, nothing of the CLI.
    "adapters/web": Layer(
        (ADAPTERS / "web",),
        (
            KERNEL,
            "nataterra_core.boards",
            "nataterra_core.search",
            "nataterra_core.game",
            "nataterra_adapters.web",
            "nataterra_adapters.rpc",
        ),
        exact=("nataterra_core.games",),
    ),
}
FORBIDDEN_MODULES = {"random", "time", "datetime", "secrets", "numpy", "nataterra_adapters"}
# Words only a game's rules use: the kernel and the toolkits must not know them.
GAME_WORDS = ("velathi", "beasts", "naga", "biome", "tactic")
# And every game's name but Nataterra's, which is also the project's (``nataterra_core``, the
# ``nataterra`` command): a game is named only in its package and the registering line.
GAME_NAMES = tuple(
    sorted({name.split("_")[0] for name in GAME_IDS if name != "nataterra"} | {"liar's dice"})
)


def _is_module(dotted: str) -> bool:
    """Whether ``dotted`` names a module or package of ours (not a name defined inside one)."""
    parts = dotted.split(".")
    base = ADAPTERS.parent if parts[0] == "nataterra_adapters" else ROOT
    path = base.joinpath(*parts)
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports; ``from a import b`` counts as ``a.b`` when b is a module."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    base_dir = ADAPTERS.parent if path.is_relative_to(ADAPTERS) else ROOT
    package = path.relative_to(base_dir).with_suffix("").parts[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join((*base, node.module or "")).rstrip(".")
            elif node.module:
                module = node.module
            else:
                continue
            names.add(module)
            names.update(
                f"{module}.{alias.name}"
                for alias in node.names
                if module.split(".")[0] in OURS and _is_module(f"{module}.{alias.name}")
            )
    return names


def core_files() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


def violations(layer: Layer) -> list[str]:
    return [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in layer.files()
        for name in sorted(imports_of(path))
        if name.split(".")[0] in OURS and not layer.allows(name)
    ]


def test_the_table_covers_every_module_once_and_no_row_is_empty() -> None:
    assert "nataterra" in GAME_IDS
    owners: dict[Path, list[str]] = {}
    for name, layer in LAYERS.items():
        for path in layer.paths:
            assert path.exists(), f"{name}: {path} does not exist"
        files = layer.files()
        assert files, f"{name} has no Python files"
        for path in files:
            owners.setdefault(path, []).append(name)
    # A package's directory row and a file row nested in it (games/__init__.py) must not both
    # claim a file: the game rows cover games/<id>/, the registry row games/__init__.py only.
    everything = sorted([*core_files(), *ADAPTERS.rglob("*.py")])
    assert sorted(owners) == everything, "every module belongs to a row of LAYERS"
    assert all(len(rows) == 1 for rows in owners.values()), {
        str(p.relative_to(ROOT)): rows for p, rows in owners.items() if len(rows) > 1
    }


def test_the_import_checker_sees_what_it_must() -> None:
    """Guard against a vacuous layering check: known imports are seen, and a bad one caught."""
    assert "nataterra_core.kernel.errors" in imports_of(CORE / "packs" / "loader.py")
    assert "nataterra_core.games.nataterra.decider" in imports_of(
        CORE / "games" / "nataterra" / "system.py"
    )
    # ``from nataterra_core.boards import hexgrid`` names the module it imports.
    assert "nataterra_core.boards.hexgrid" in imports_of(
        CORE / "games" / "nataterra" / "rules" / "hexmap.py"
    )
    assert not LAYERS["packs"].allows("nataterra_core.games.nataterra.content.schema")
    assert not LAYERS["adapters"].allows("nataterra_core.games.nataterra.bots")
    assert LAYERS["adapters"].allows("nataterra_core.games")
    assert not LAYERS["adapters/web"].allows("nataterra_adapters.cli.common")
    assert "nataterra_adapters.rpc.games" in imports_of(ADAPTERS / "web" / "app.py")
    assert not game("other").allows("nataterra_core.games.nataterra.rules")


@pytest.mark.parametrize("path", core_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_never_uses_global_randomness_clock_or_adapters(path: Path) -> None:
    bad = {name for name in imports_of(path) if name.split(".")[0] in FORBIDDEN_MODULES}
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("name", [name for name in LAYERS if name != "adapters"])
def test_layers_depend_only_downwards(name: str) -> None:
    assert not violations(LAYERS[name])


def test_adapters_use_only_the_kernel_facade_and_registry() -> None:
    assert not violations(LAYERS["adapters"])


@pytest.mark.parametrize(
    "package", ["kernel", "packs", "boards", "search", "tools", "adapters", "adapters/web"]
)
def test_kernel_and_toolkits_know_no_game(package: str) -> None:
    assert {"kaladan", "battlelore", "liars"} <= set(GAME_NAMES)
    for path in LAYERS[package].files():
        text = path.read_text().lower()
        for word in (*GAME_WORDS, *GAME_NAMES):
            assert word not in text, f"{path.relative_to(ROOT)} mentions {word!r}"


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


def module_name(path: Path) -> str:
    """``nataterra_core.kernel.log`` for ``nataterra_core/kernel/log.py`` (packages without
    ``__init__``)."""
    base = ADAPTERS.parent if path.is_relative_to(ADAPTERS) else ROOT
    return ".".join(path.relative_to(base).with_suffix("").parts).removesuffix(".__init__")


def import_graph() -> dict[str, set[str]]:
    """Every module of ours -> the modules of ours it imports (at any depth of its code, under
    ``TYPE_CHECKING`` too: a circle of types is a circle of design)."""
    modules = {module_name(p): p for p in [*core_files(), *ADAPTERS.rglob("*.py")]}
    return {
        name: {other for other in imports_of(path) if other in modules and other != name}
        for name, path in modules.items()
    }


def circles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(tuple(sorted(component)))
    return sorted(found)


KNOWN_GAME_CIRCLES = {
    ("nataterra_core.games.nataterra.content", "nataterra_core.games.nataterra.content.loader"),
    (
        "nataterra_core.games.nataterra.rules.combat.board",
        "nataterra_core.games.nataterra.rules.combat.model",
    ),
}
"""Import circles inside one game package, inherited and left to that game's own restructuring
(issue 28 item 1). No new entry: a circle anywhere else fails, and an entry that no longer
matches a circle must be removed."""


def test_the_circle_finder_finds_circles() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [("a", "b", "c")]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles() -> None:
    """Within the kernel, within any package, and between packages: imports point one way."""
    found = set(circles(import_graph()))
    assert found - KNOWN_GAME_CIRCLES == set(), "modules of ours import each other in a circle"
    assert KNOWN_GAME_CIRCLES - found == set(), "a known circle is gone: remove its entry"
    assert all(len({c.split(".")[2] for c in circle}) == 1 for circle in found)


def test_no_circle_between_layers() -> None:
    """The rows of :data:`LAYERS` themselves form no circle (a row may import only rows below)."""
    # ``adapters/web`` is a row inside the adapters package (whose CLI starts the web server):
    # here the two are one package.
    row_of = {
        module_name(f): name.removesuffix("/web")
        for name, layer in LAYERS.items()
        for f in layer.files()
    }
    rows: dict[str, set[str]] = {name: set() for name in row_of.values()}
    for module, imported in import_graph().items():
        rows[row_of[module]].update(row_of[i] for i in imported if row_of[i] != row_of[module])
    assert circles(rows) == []


def test_no_module_of_ours_imports_a_deprecated_path() -> None:
    """In-repo code and tests use the new homes; the aliases are for code outside the repo."""
    sources = [*core_files(), *ADAPTERS.rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    sources += [*(ROOT / "examples").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")]
    users = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sources
        if path not in DEPRECATED_FILES and path.name != "test_deprecations.py"
        for name in imports_of(path)
        if name in DEPRECATED_MODULES
    }
    assert not users
