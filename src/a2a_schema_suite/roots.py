"""Which schema root and which cases a command uses, and why.

Inside a checkout of this project (or any directory tree holding ``schemas/`` and ``cases/`` in
its layout) the commands use that tree's files, so that an edited schema or a new suite is what
runs; elsewhere they use the copy bundled with the package. ``--schemas``/``--cases`` override
both. Every text report starts with :meth:`Roots.describe` so a user always sees which files
gave the verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: a version directory of a schema root: ``v1_0``, ``v0_3``. A protocol version *is* such a
#: directory: every command finds the versions there (``new-version`` registers one by creating it).
VERSION_DIR = re.compile(r"v\d+_\d+")


def versions(schema_root: Path) -> list[str]:
    """The version directories of a schema root, sorted (``["v0_3", "v1_0"]``)."""
    try:
        return sorted(p.name for p in schema_root.iterdir() if p.is_dir() and VERSION_DIR.fullmatch(p.name))
    except OSError:
        return []


#: where a root came from, in the words the report uses
GIVEN, CHECKOUT, BUNDLED = "given", "checkout", "bundled"


def is_project_tree(directory: Path) -> bool:
    """Does ``directory`` hold ``schemas/<vN_M>/*.json`` and a ``cases/`` directory?"""
    try:
        if not (directory / "cases").is_dir():
            return False
        schemas = directory / "schemas"
        return (
            any(
                child.is_dir() and VERSION_DIR.fullmatch(child.name) and any(child.glob("*.json"))
                for child in schemas.iterdir()
            )
            if schemas.is_dir()
            else False
        )
    except OSError:  # unreadable: not ours to use
        return False


def find_project_tree(start: Path) -> Path | None:
    """The nearest directory at or above ``start`` in this project's layout.

    The search stops at the top of the git repository that holds ``start`` (a directory with a
    ``.git``), so files above a user's own repository are never picked up.
    """
    try:
        start = start.resolve()
    except OSError:
        return None
    for directory in (start, *start.parents):
        if is_project_tree(directory):
            return directory
        if (directory / ".git").exists():
            return None
    return None


@dataclass(frozen=True)
class Roots:
    """The schema root and the cases directory of one command, each with where it came from."""

    schemas: Path
    schemas_origin: str
    cases: Path | None = None
    cases_origin: str | None = None

    def describe(self) -> str:
        """One line: ``schemas: /repo/schemas (checkout); cases: /repo/cases (checkout)``."""
        line = f"schemas: {self.schemas} ({self.schemas_origin})"
        if self.cases_origin is not None:
            line += f"; cases: {self.cases if self.cases is not None else 'as given'} ({self.cases_origin})"
        return line

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Roots:
        """The inverse of :meth:`to_dict` (a JSON report read back)."""
        cases = data["cases"]
        return cls(
            Path(data["schemas"]),
            data["schemasOrigin"],
            None if cases is None else Path(cases),
            data["casesOrigin"],
        )

    def to_dict(self) -> dict[str, str | None]:
        return {
            "schemas": str(self.schemas),
            "schemasOrigin": self.schemas_origin,
            "cases": None if self.cases is None else str(self.cases),
            "casesOrigin": self.cases_origin,
        }


def choose(
    schemas: Path | None = None,
    cases: Path | None = None,
    *,
    paths: bool = False,
    uses_cases: bool = True,
    start: Path | None = None,
) -> Roots:
    """The roots for a command: the options given, else the project tree around ``start``
    (default: the current directory), else the bundled copy.

    ``paths``: the user named suite files or directories, so no cases root is used.
    ``uses_cases``: the command reads suites at all (``validate`` and ``probe`` do not).
    """
    from a2a_schema_suite.registry import bundled_cases, bundled_schemas

    tree = None
    if schemas is None or (uses_cases and not paths and cases is None):
        tree = find_project_tree(Path.cwd() if start is None else start)
    if schemas is not None:
        schema_root, schema_origin = schemas, GIVEN
    elif tree is not None:
        schema_root, schema_origin = tree / "schemas", CHECKOUT
    else:
        schema_root, schema_origin = bundled_schemas(), BUNDLED
    if not uses_cases:
        return Roots(schema_root, schema_origin)
    if paths:
        return Roots(schema_root, schema_origin, None, GIVEN)
    if cases is not None:
        return Roots(schema_root, schema_origin, cases, GIVEN)
    if tree is not None:
        return Roots(schema_root, schema_origin, tree / "cases", CHECKOUT)
    return Roots(schema_root, schema_origin, bundled_cases(), BUNDLED)
