"""Which schema root and which cases a command uses, and why: the one function (:func:`choose`)
behind the CLI, the Python API, :mod:`a2a_schema_suite.testing` and the pytest plugin.

The files of a tree are data a pull request can add, so they never decide by themselves where
the schemas come from (SECURITY.md, "Roots"). Inside a **suite project** (a tree with
``schemas/<vN_M>/*.json`` and ``cases/`` whose ``pyproject.toml`` declares
``[tool.a2a-schema-suite] suite-project = true``, as this repository does) the commands use that
tree's files, so that an edited schema or a new suite is what runs; elsewhere they use the copy
bundled with the package, even where a tree holds ``schemas/`` and ``cases/`` (a pull request
against an agent's repository can add those, not the gate owner's configuration). The mode
``bundled`` (``--roots bundled``: every integration) never looks at the tree, ``checkout`` uses
the tree around the current directory without asking for the declaration. ``--schemas``/
``--cases`` override all of them. Every text report starts with :meth:`Roots.describe` so a user
always sees which files gave the verdict (and which tree was passed over, and why).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: a version directory of a schema root: ``v1_0``, ``v0_3``. A protocol version *is* such a
#: directory: every command finds the versions there (``new-version`` registers one by creating it).
VERSION_DIR = re.compile(r"v\d+_\d+")


def version_key(version: str) -> tuple[int, ...]:
    """Protocol order, not string order: ``v0_3 < v1_0 < v1_9 < v1_10`` (a name that is no
    version directory's sorts last)."""
    try:
        return tuple(int(n) for n in version[1:].split("_"))
    except ValueError:
        return (1 << 30,)


def versions(schema_root: Path) -> list[str]:
    """The version directories of a schema root, in protocol order (``["v0_3", "v1_0"]``;
    ``v1_10`` after ``v1_9``)."""
    try:
        found = [p.name for p in schema_root.iterdir() if p.is_dir() and VERSION_DIR.fullmatch(p.name)]
    except OSError:
        return []
    return sorted(found, key=lambda v: (version_key(v), v))


#: where a root came from, in the words the report uses
GIVEN, CHECKOUT, BUNDLED = "given", "checkout", "bundled"

#: how the roots are found when no ``--schemas``/``--cases`` names them: ``auto`` (a suite
#: project around the current directory, else bundled), ``bundled`` (never the tree: every
#: integration), ``checkout`` (the tree around the current directory, declared or not; an error
#: where there is none)
AUTO = "auto"
MODES = (AUTO, BUNDLED, CHECKOUT)

#: the declaration of a suite project, in its ``pyproject.toml``
MARKER_FILE = "pyproject.toml"
MARKER_TABLE = "a2a-schema-suite"
MARKER_KEY = "suite-project"
MARKER = f"[tool.{MARKER_TABLE}] {MARKER_KEY} = true"
_MARKER_MAX_BYTES = 1 << 20  # a pyproject.toml is a few KiB; a bigger one is not read


class RootsError(ValueError):
    """No roots can be chosen as asked (``checkout`` outside any tree, an unknown mode)."""


def declares_suite_project(directory: Path) -> bool:
    """Does ``directory/pyproject.toml`` say :data:`MARKER`? (A regular file, not a link, of at
    most 1 MiB, that parses as TOML; anything else is no declaration.)"""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    path = directory / MARKER_FILE
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > _MARKER_MAX_BYTES:
            return False
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    tool = data.get("tool")
    table = tool.get(MARKER_TABLE) if isinstance(tool, dict) else None
    return isinstance(table, dict) and table.get(MARKER_KEY) is True


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
    #: a tree in the project's layout that was passed over (``auto``: it does not declare itself a
    #: suite project); named in :meth:`describe` so that a pull request's ``schemas/`` is seen
    passed_over: Path | None = None

    def describe(self) -> str:
        """One line: ``schemas: /repo/schemas (checkout); cases: /repo/cases (checkout)``."""
        line = f"schemas: {self.schemas} ({self.schemas_origin})"
        if self.cases_origin is not None:
            line += f"; cases: {self.cases if self.cases is not None else 'as given'} ({self.cases_origin})"
        if self.passed_over is not None:
            line += f"; not used: {self.passed_over} (not a suite project: no {MARKER} in its {MARKER_FILE})"
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
    mode: str | None = None,
) -> Roots:
    """The roots for a command, the Python API, ``testing`` and the pytest plugin alike: the
    roots given, else (``mode``, default ``auto``) the suite project around ``start`` (default:
    the current directory), else the bundled copy.

    ``paths``: the user named suite files or directories, so no cases root is used.
    ``uses_cases``: the command reads suites at all (``validate`` and ``probe`` do not).
    Raises :class:`RootsError` for an unknown ``mode`` and for ``checkout`` outside any tree.
    """
    from a2a_schema_suite.tool import bundled_cases, bundled_schemas

    mode = AUTO if mode is None else mode
    if mode not in MODES:
        raise RootsError(f"unknown roots mode {mode!r} (expected one of {', '.join(MODES)})")
    tree = passed_over = None
    if mode != BUNDLED and (schemas is None or (uses_cases and not paths and cases is None)):
        where = Path.cwd() if start is None else start
        tree = find_project_tree(where)
        if mode == CHECKOUT and tree is None:
            raise RootsError(
                f"--roots checkout: no tree with schemas/<vN_M>/*.json and cases/ at or above {where}"
            )
        if mode == AUTO and tree is not None and not declares_suite_project(tree):
            tree, passed_over = None, tree
    if schemas is not None:
        schema_root, schema_origin = schemas, GIVEN
    elif tree is not None:
        schema_root, schema_origin = tree / "schemas", CHECKOUT
    else:
        schema_root, schema_origin = bundled_schemas(), BUNDLED
    if not uses_cases:
        return Roots(schema_root, schema_origin, passed_over=passed_over)
    if paths:
        return Roots(schema_root, schema_origin, None, GIVEN, passed_over)
    if cases is not None:
        return Roots(schema_root, schema_origin, cases, GIVEN, passed_over)
    if tree is not None:
        return Roots(schema_root, schema_origin, tree / "cases", CHECKOUT)
    return Roots(schema_root, schema_origin, bundled_cases(), BUNDLED, passed_over)
