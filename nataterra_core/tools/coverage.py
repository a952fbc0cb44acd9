"""Rules coverage for any rule system: which tests exercise each clause of its rules text and
each item of its content (cards, structures, ...), found by reading the tests with :mod:`ast`.

A rule system describes what its coverage covers with a :class:`CoverageSpec` (the registry's
``Hooks.coverage``): its rules document, the letter of its clause IDs (``"N"`` for
``N-COMBAT-15``), its content items by kind, and the ``COVERS_ALL_*`` markers by which a test
file covers a whole kind. Every clause defined in the rules text and every content item is an
*item*. An item is **covered** when at least one test exercises it, **deferred** when it is a
clause marked *later scope*, **pending** when the checked-in pending list
(``tests/coverage_pending.toml``) names it with the issue that will test it, and **missing**
otherwise. The report fails when an item is missing or the pending list is out of date (an
entry whose item has a test now, an entry that matches nothing of this system).

How a test exercises an item (no test is imported or run):

* a clause ``X-COMBAT-15``: the test's name holds ``X_COMBAT_15`` as a whole ``_``-separated
  token, or its text (decorators, signature, docstring, body, comments) names ``X-COMBAT-15``
  as a whole word;

      >>> rule_ids_in_name("test_X_WIN_2_X_WIN_4_both_win_at_once", "X")
      ('X-WIN-2', 'X-WIN-4')
      >>> rule_ids_in_text("assert why == 'X-COMBAT-11a'  # X-FAQ-9, not YX-FAQ-1", "X")
      ('X-COMBAT-11a', 'X-FAQ-9')

* a content item: a string literal in the test (or in a module-level constant it uses, such as
  the list a ``parametrize`` runs over) equals its id, or the test's module sets one of the
  spec's markers (``COVERS_ALL_WIDGETS = True``) declaring that it covers the whole kind.
"""

from __future__ import annotations

import ast
import fnmatch
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Literal

import attrs
import msgspec

__all__ = [
    "RULE",
    "STATUSES",
    "CoverageError",
    "CoverageReport",
    "CoverageSpec",
    "Evidence",
    "Item",
    "PendingEntry",
    "RuleClause",
    "Status",
    "TestFunction",
    "collect_tests",
    "coverage_report",
    "load_pending",
    "parse_rules",
    "rule_ids_in_name",
    "rule_ids_in_text",
]

Status = Literal["covered", "deferred", "pending", "missing"]
How = Literal["name", "text", "string", "marker"]

RULE = "rule"
"""The kind of the rules text's clauses (every other kind is a system's content)."""

STATUSES: tuple[Status, ...] = ("covered", "deferred", "pending", "missing")
"""Every status, in summary order."""

_LATER_SCOPE = re.compile(r"later[\s-]+scope", re.IGNORECASE)
_CLAUSE_END = re.compile(r"^(?:#|[*-]\s)")
_MARKER_PREFIX = "COVERS_ALL_"


@attrs.frozen
class CoverageSpec:
    """What a rule system's rules coverage covers (the registry's ``Hooks.coverage``).

    ``rules`` is the file name of its rules text in the repository's rules folder
    (``"nataterra.md"`` in ``docs/rules``);
    ``prefix`` the letter of its clause IDs; ``items`` its content ids
    by kind, kinds in report order; ``markers`` the ``COVERS_ALL_*`` names by which a test
    module covers a whole kind. ``documents`` are the project's own rule documents (paths
    from the current directory, read when present): their clauses are items too, and a
    clause they define again replaces the rules text's (a document implementing a later-scope
    rule restates it).
    """

    rules: str
    prefix: str
    items: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    markers: Mapping[str, str] = attrs.field(factory=dict)
    documents: tuple[str, ...] = ()

    @property
    def kinds(self) -> tuple[str, ...]:
        """Every kind of item, in report order (clauses first)."""
        return (RULE, *self.items)


def _id_pattern(prefix: str) -> str:
    # N-WIN-2, and the multi-part IDs of a project document (N-SCN-FERGUS-2)
    return rf"{re.escape(prefix)}-[A-Z]+(?:-[A-Z]+)*-\d+[a-z]?"


class CoverageError(ValueError):
    """The report cannot be made: unreadable rules text, pending list or test file."""


class RuleClause(msgspec.Struct, frozen=True):
    """A rule defined in the rules text: its ID, line, clause text and whether it is later scope."""

    id: str
    line: int
    text: str
    later_scope: bool = False


class Evidence(msgspec.Struct, frozen=True):
    """One test exercising an item, and how it was matched.

    ``how`` is ``"name"`` (the rule ID in the test's name), ``"text"`` (the rule ID in its
    text), ``"string"`` (the content id as a string literal) or ``"marker"`` (a
    ``COVERS_ALL_*`` marker; ``test`` is then the marker's name).
    """

    file: str
    line: int
    test: str
    how: How

    def __str__(self) -> str:
        return f"{self.file}::{self.test}"


class Item(msgspec.Struct, frozen=True):
    """One row of the report.

    ``tests`` lists name matches first. ``issue`` and ``reason`` come from the pending entry
    that names the item (also when the item has a test now, which is a problem).
    """

    kind: str
    id: str
    status: Status
    tests: tuple[Evidence, ...] = ()
    issue: int | None = None
    reason: str = ""


class PendingEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An entry of the pending list: items (an id or an :mod:`fnmatch` pattern) owned by an
    issue not yet landed."""

    id: str
    issue: int
    reason: str
    kind: str = RULE


class _PendingFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pending: tuple[PendingEntry, ...] = ()


class CoverageReport(msgspec.Struct, frozen=True):
    """Every item with its status and tests, and the problems that fail the report besides
    missing items (for example a pending entry whose item has a test now)."""

    items: tuple[Item, ...]
    problems: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()

    def counts(self, kind: str | None = None) -> dict[Status, int]:
        """Items per status (of one kind, or of all), every status present."""
        counts: dict[Status, int] = dict.fromkeys(STATUSES, 0)
        for item in self.items:
            if kind is None or item.kind == kind:
                counts[item.status] += 1
        return counts

    def missing(self) -> tuple[Item, ...]:
        """The items with no test that are neither deferred nor pending."""
        return tuple(item for item in self.items if item.status == "missing")

    @property
    def ok(self) -> bool:
        """True when nothing is missing and the pending list is up to date."""
        return not self.missing() and not self.problems

    def summary(self) -> str:
        """``covered=<n> deferred=<n> pending=<n> missing=<n>``."""
        return " ".join(f"{status}={n}" for status, n in self.counts().items())


class TestFunction(msgspec.Struct, frozen=True):
    """A test function found in a test file, with what the report matches against.

    ``strings`` holds the string literals of the test and of the module-level constants it
    uses (directly or through other constants).
    """

    __test__ = False  # not a pytest test class, whatever module imports it

    file: str
    line: int
    name: str
    text: str
    strings: frozenset[str]


# -- parsing ----------------------------------------------------------------------------------


def rule_ids_in_name(name: str, prefix: str) -> tuple[str, ...]:
    """Clause IDs a test name holds as whole ``_``-separated tokens (``X_COMBAT_15``), in order."""
    pattern = rf"(?:(?<=_)|^)({re.escape(prefix)}_[A-Z]+(?:_[A-Z]+)*_\d+[a-z]?)(?=_|$)"
    return tuple(match.replace("_", "-") for match in re.findall(pattern, name))


def rule_ids_in_text(text: str, prefix: str) -> tuple[str, ...]:
    """Clause IDs a text names as whole words (``X-COMBAT-15``, not ``X-COMBAT-150``), in order."""
    return tuple(re.findall(rf"(?<![\w-])({_id_pattern(prefix)})(?!\w)", text))


def parse_rules(text: str, prefix: str) -> tuple[RuleClause, ...]:
    """The clauses defined in a rules text: bullets (``* X-XXX-N ...``) at the line start.

    A clause runs to the next bullet, heading or blank line. It is later scope when its text or
    its section heading says "later scope".

    >>> text = "## 1. A\\n\\n* X-A-1 One\\n  more.\\n* X-A-1a (later scope) Two\\n"
    >>> [(c.id, c.line, c.text, c.later_scope) for c in parse_rules(text, "X")]
    [('X-A-1', 3, 'X-A-1 One more.', False), ('X-A-1a', 5, 'X-A-1a (later scope) Two', True)]
    """
    definition = re.compile(rf"^[*-]\s+({_id_pattern(prefix)})(?![\w-])")
    clauses: list[RuleClause] = []
    heading_later = False
    current: tuple[str, int, list[str]] | None = None

    def close() -> None:
        if current is not None:
            rule_id, line, parts = current
            body = " ".join(parts)
            later = heading_later or bool(_LATER_SCOPE.search(body))
            clauses.append(RuleClause(rule_id, line, body, later))

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        defined = definition.match(raw)
        if defined or not line or _CLAUSE_END.match(raw):
            close()
            current = None
        if raw.startswith("#"):
            heading_later = bool(_LATER_SCOPE.search(raw))
        if defined:
            current = (defined.group(1), number, [line[1:].strip()])
        elif current is not None and line:
            current[2].append(line)
    close()
    return tuple(clauses)


def collect_tests(tests_dir: Path) -> tuple[tuple[TestFunction, ...], dict[str, list[Evidence]]]:
    """The test functions under ``tests_dir`` and the ``COVERS_ALL_*`` markers set there.

    Test files are ``test_*.py`` and ``*_test.py``; tests are module-level ``test*`` functions
    and ``test*`` methods of ``Test*`` classes (named ``Class::test``). Markers map a marker
    name to where it is set to ``True`` (any name starting ``COVERS_ALL_`` is returned, known or
    not). Files are read in sorted order, so the result is deterministic.
    """
    tests: list[TestFunction] = []
    markers: dict[str, list[Evidence]] = {}
    for path in _test_files(tests_dir):
        display = _display_path(path, tests_dir)
        source = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(source, filename=str(path))
        except SyntaxError as exc:
            raise CoverageError(f"{display}: cannot parse: {exc}") from exc
        lines = source.splitlines()
        constants = _module_constants(tree)
        for name, line in _true_markers(tree):
            markers.setdefault(name, []).append(Evidence(display, line, name, "marker"))
        for qualname, node in _test_nodes(tree):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            last = node.end_lineno or node.lineno
            tests.append(
                TestFunction(
                    file=display,
                    line=node.lineno,
                    name=qualname,
                    text="\n".join(lines[first - 1 : last]),
                    strings=frozenset(_strings_used(node, constants)),
                )
            )
    return tuple(tests), markers


def load_pending(path: Path) -> tuple[PendingEntry, ...]:
    """The entries of a pending list (none when the file does not exist).

    The file is TOML: ``pending = [{id = "X-TEAM-*", issue = 7, reason = "..."}, ...]`` (or
    ``[[pending]]`` tables); ``kind`` defaults to ``"rule"``.
    """
    if not path.exists():
        return ()
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
        return msgspec.convert(document, _PendingFile).pending
    except (tomllib.TOMLDecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
        raise CoverageError(f"{path}: {exc}") from exc


# -- the report -------------------------------------------------------------------------------


def coverage_report(
    spec: CoverageSpec,
    rules_path: Path,
    tests_dir: Path,
    *,
    pending_path: Path | None = None,
) -> CoverageReport:
    """Match every clause of ``rules_path`` and every content item of ``spec`` with the tests
    under ``tests_dir``.

    ``pending_path`` defaults to ``tests_dir / "coverage_pending.toml"``; its entries of other
    registered systems (other clause prefixes, their kinds) are left to them, and so are their
    ``COVERS_ALL_*`` markers. Raises :class:`CoverageError` when the rules text, the pending
    list or a test file cannot be read, or the list names a kind no system has.
    """
    try:
        rules_text = rules_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CoverageError(f"cannot read the rules {rules_path}: {exc}") from exc
    clauses = parse_rules(rules_text, spec.prefix)
    if not clauses:
        raise CoverageError(
            f"{rules_path} defines no rule ID (bullets '* {spec.prefix}-XXX-N ...')"
        )
    for document in (Path(name) for name in spec.documents):
        if document.is_file():
            restated = parse_rules(document.read_text(encoding="utf-8"), spec.prefix)
            replaced = {c.id for c in restated}
            clauses = (*(c for c in clauses if c.id not in replaced), *restated)
    if not tests_dir.is_dir():
        raise CoverageError(f"{tests_dir} is not a directory")
    others = _other_specs(spec)
    pending_file = pending_path or tests_dir / "coverage_pending.toml"
    listed = load_pending(pending_file)
    kinds = {RULE, *spec.items, *(kind for other in others for kind in other.items)}
    for entry_listed in listed:
        if entry_listed.kind not in kinds:
            raise CoverageError(
                f"{pending_file}: unknown kind {entry_listed.kind!r} of {entry_listed.id!r}"
            )
    pending = tuple(
        mine
        for mine in listed
        if (mine.kind == RULE and mine.id.startswith(f"{spec.prefix}-")) or mine.kind in spec.items
    )
    tests, markers = collect_tests(tests_dir)
    problems: list[str] = []

    seen: dict[str, int] = {}
    for clause in clauses:
        if clause.id in seen:
            problems.append(
                f"{clause.id} is defined twice (lines {seen[clause.id]}, {clause.line})"
            )
        seen.setdefault(clause.id, clause.line)
    ignored = {name for other in others for name in other.markers}
    for name, where in sorted(markers.items()):
        if name not in spec.markers and name not in ignored:
            known = ", ".join(spec.markers)
            problems.append(f"{where[0]}: unknown marker {name} (known: {known})")

    found = _rule_evidence(tests, frozenset(seen), spec.prefix)
    candidates: list[tuple[str, str, tuple[Evidence, ...], bool]] = [
        (RULE, c.id, found.get(c.id, ()), c.later_scope) for c in clauses if seen[c.id] == c.line
    ]
    for kind, ids in spec.items.items():
        whole = tuple(
            e
            for name, kind_of in spec.markers.items()
            if kind_of == kind
            for e in markers.get(name, ())
        )
        for content_id in ids:
            named = tuple(
                Evidence(t.file, t.line, t.name, "string") for t in tests if content_id in t.strings
            )
            candidates.append((kind, content_id, named + whole, False))

    used: set[int] = set()
    items: list[Item] = []
    for kind, item_id, evidence, later in candidates:
        entries = [i for i, e in enumerate(pending) if e.kind == kind and _matches(e.id, item_id)]
        used.update(entries)
        entry = pending[entries[0]] if entries else None
        if len(entries) > 1:
            problems.append(f"{kind} {item_id} is named by {len(entries)} pending entries")
        if entry is not None and evidence:
            problems.append(
                f"{kind} {item_id} is pending (issue {entry.issue}) but has a test now "
                f"({evidence[0]}): remove it from the pending list"
                + (f" (narrow the pattern {entry.id!r})" if entry.id != item_id else "")
            )
        elif entry is not None and later:
            problems.append(f"{kind} {item_id} is later scope (deferred): remove its pending entry")
        status: Status = (
            "covered"
            if evidence
            else "deferred"
            if later
            else "pending"
            if entry is not None
            else "missing"
        )
        items.append(
            Item(
                kind,
                item_id,
                status,
                evidence,
                entry.issue if entry else None,
                entry.reason if entry else "",
            )
        )
    for index, entry in enumerate(pending):
        if index not in used:
            problems.append(
                f"pending entry {entry.kind} {entry.id!r} (issue {entry.issue}) matches no item: "
                "remove it"
            )
    return CoverageReport(tuple(items), tuple(problems), spec.kinds)


# -- helpers ----------------------------------------------------------------------------------


def _other_specs(spec: CoverageSpec) -> list[CoverageSpec]:
    """The coverage specs of the other registered systems (their kinds and markers are theirs)."""
    # Imported here: the registry loads the games on first use.
    from nataterra_core.kernel.registry import systems

    found = []
    for record in systems():
        hook = record.hooks.coverage
        other = hook() if hook is not None else None
        if isinstance(other, CoverageSpec) and other.prefix != spec.prefix:
            found.append(other)
    return found


def _rule_evidence(
    tests: Iterable[TestFunction], defined: frozenset[str], prefix: str
) -> dict[str, tuple[Evidence, ...]]:
    """For each defined rule ID, the tests naming it: name matches first, then text matches."""
    by_name: dict[str, list[Evidence]] = {}
    by_text: dict[str, list[Evidence]] = {}
    for test in tests:
        in_name = set(rule_ids_in_name(test.name, prefix)) & defined
        for rule_id in sorted(in_name):
            by_name.setdefault(rule_id, []).append(
                Evidence(test.file, test.line, test.name, "name")
            )
        for rule_id in sorted(set(rule_ids_in_text(test.text, prefix)) & defined - in_name):
            by_text.setdefault(rule_id, []).append(
                Evidence(test.file, test.line, test.name, "text")
            )
    return {
        rule_id: (*by_name.get(rule_id, ()), *by_text.get(rule_id, ()))
        for rule_id in by_name.keys() | by_text.keys()
    }


def _matches(pattern: str, item_id: str) -> bool:
    return item_id == pattern or fnmatch.fnmatchcase(item_id, pattern)


def _test_files(tests_dir: Path) -> list[Path]:
    files = {*tests_dir.rglob("test_*.py"), *tests_dir.rglob("*_test.py")}
    return sorted(
        path
        for path in files
        if not any(part.startswith(".") for part in path.relative_to(tests_dir).parts)
    )


def _display_path(path: Path, tests_dir: Path) -> str:
    root = tests_dir.resolve()
    return (Path(root.name) / path.resolve().relative_to(root)).as_posix()


def _test_nodes(
    tree: ast.Module,
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for member in node.body:
                if isinstance(
                    member, ast.FunctionDef | ast.AsyncFunctionDef
                ) and member.name.startswith("test"):
                    yield f"{node.name}::{member.name}", member


def _true_markers(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """Module-level ``COVERS_ALL_* = True`` (or annotated) assignments."""
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if not (isinstance(value, ast.Constant) and value.value is True):
            continue
        for target in targets:
            if isinstance(target, ast.Name) and target.id.startswith(_MARKER_PREFIX):
                yield target.id, node.lineno


def _module_constants(tree: ast.Module) -> dict[str, list[ast.expr]]:
    """Module-level names and the values assigned to them."""
    constants: dict[str, list[ast.expr]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        constants.setdefault(name.id, []).append(node.value)
        elif (
            isinstance(node, ast.AnnAssign)
            and node.value is not None
            and isinstance(node.target, ast.Name)
        ):
            constants.setdefault(node.target.id, []).append(node.value)
    return constants


def _strings_used(
    test: ast.FunctionDef | ast.AsyncFunctionDef, constants: Mapping[str, list[ast.expr]]
) -> set[str]:
    """String literals of a test (decorators included) and of the module constants it uses."""
    strings: set[str] = set()
    todo: list[ast.AST] = [test]
    visited: set[str] = set()
    while todo:
        for node in ast.walk(todo.pop()):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.add(node.value)
            elif isinstance(node, ast.Name) and node.id in constants and node.id not in visited:
                visited.add(node.id)
                todo.extend(constants[node.id])
    return strings
