"""A griffe extension for the docs site: the docstrings' Sphinx roles as cross-references.

The docstrings name code with Sphinx roles (``:class:`Decider```, ``:func:`.redact```,
``:mod:`.system```), which mkdocstrings' parser leaves as text, so the site showed them
literally. This extension (``mkdocs.yml``: the python handler's ``extensions``) rewrites each
role, when griffe loads an object, into an *optional* cross-reference of mkdocs-autorefs: a
link where the target is documented on the site, the name as code where it is not (never a
broken link, never a warning). Targets resolve as Sphinx and the code mean them: ``~`` shows
the last name only, a leading dot is relative to the object's package (``.encoding.Layout``
in ``kernel.registry`` is ``kernel.encoding.Layout``), a bare name is looked up in the object's
class, then its module.
"""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

__all__ = ["SphinxRoles", "rewrite"]

ROLE = re.compile(r":(?P<role>class|func|meth|mod|data|attr|exc|obj|const):`(?P<target>[^`]+)`")
"""A Sphinx role of the Python domain, with its target."""
CALLABLE_ROLES = frozenset({"func", "meth"})
"""Roles Sphinx shows with ``()``."""


def _relative(target: str, obj: Any) -> str:
    """``target`` (leading dots: relative to the object's package) as a full path."""
    dots = len(target) - len(target.lstrip("."))
    module = obj.module
    base = module.path if module.is_package else module.path.rpartition(".")[0]
    for _ in range(dots - 1):
        base = base.rpartition(".")[0]
    rest = target[dots:]
    return f"{base}.{rest}" if rest else base


def _resolve(target: str, obj: Any) -> str:
    """The full path of a role's ``target`` as written in ``obj``'s docstring."""
    if target.startswith("."):
        return _relative(target, obj)
    first = target.split(".", 1)[0]
    scope = obj if obj.is_class else obj.parent
    if scope is not None and scope.is_class and first in scope.members:
        return f"{scope.path}.{target}"
    if first in obj.module.members:
        return f"{obj.module.path}.{target}"
    return target


def _reference(match: re.Match[str], obj: Any) -> str:
    written = match["target"].strip()
    titled = re.fullmatch(r"(?P<title>.+?)\s*<(?P<target>[^>]+)>", written)
    if titled is not None:  # :class:`the registry record <RuleSystem>`
        title, target = titled["title"], titled["target"]
    else:
        short = written.startswith("~")
        target = written.lstrip("~")
        title = target.rpartition(".")[2] if short else target.lstrip(".")
        if match["role"] in CALLABLE_ROLES:
            title += "()"
    identifier = html.escape(_resolve(target.lstrip("~"), obj), quote=True)
    return (
        f'<autoref identifier="{identifier}" optional><code>{html.escape(title)}</code></autoref>'
    )


def rewrite(text: str, obj: Any) -> str:
    """``text`` (a docstring of ``obj``) with every Sphinx role as an optional reference."""
    return ROLE.sub(lambda match: _reference(match, obj), text)


def _objects(obj: griffe.Object) -> list[griffe.Object]:
    """``obj`` and every object it defines (aliases, such as re-exports, left out)."""
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            found.extend(_objects(member))  # type: ignore[arg-type]
    return found


class SphinxRoles(griffe.Extension):
    """Rewrites the Sphinx roles of every docstring of a package once griffe has loaded all
    of it (so a bare name can be looked up among its module's members)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """A package was loaded: rewrite each of its docstrings' roles (:func:`rewrite`)."""
        for obj in _objects(pkg):
            if obj.docstring is not None:
                obj.docstring.value = rewrite(obj.docstring.value, obj)
