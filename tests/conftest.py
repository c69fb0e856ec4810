from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from a2a_schema_suite.registry import SchemaStore

# The start-up verdict cache (verdicts.py) of the tests' own processes and of every CLI they start
# lives in a folder of this session, never in the user's ~/.cache.
os.environ.setdefault("A2A_SCHEMA_SUITE_CACHE", tempfile.mkdtemp(prefix="a2a-suite-cache-"))

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = REPO / "schemas"
CASES = REPO / "cases"


@pytest.fixture(scope="session")
def store() -> SchemaStore:
    return SchemaStore.load(SCHEMAS)


@pytest.fixture
def write_json(tmp_path: Path):
    """Write a JSON value (or raw text/bytes) to a file in tmp_path and return its path."""

    def write(name: str, value, *, raw: bool = False) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if raw:
            if isinstance(value, bytes):
                path.write_bytes(value)
            else:
                path.write_text(value, encoding="utf-8")
        else:
            path.write_text(json.dumps(value), encoding="utf-8")
        return path

    return write


def version_names(root: Path = SCHEMAS) -> list[str]:
    """The versions of a schema root, discovered as every command discovers them (never a list
    written into a test: a version added by new-version is one more)."""
    from a2a_schema_suite.descriptor import sorted_versions
    from a2a_schema_suite.roots import versions

    return sorted_versions(versions(root))


def unused_version(root: Path = SCHEMAS, after: str | None = None) -> str:
    """A version name that ``root`` has no directory for, after its newest version (or after
    ``after``): the scratch name of a test, which a committed version can never take."""
    names = set(version_names(root))
    major, minor = (int(n) for n in (after or (version_names(root) or ["v0_0"])[-1])[1:].split("_"))
    minor += 1
    while f"v{major}_{minor}" in names:
        minor += 1
    return f"v{major}_{minor}"


def review_inherited(cases: Path) -> list[Path]:
    """Delete the ``"inherited"`` member of every suite under ``cases``, as an author does once
    each suite is reviewed; returns the suites that had one."""
    import re

    reviewed = []
    for path in sorted(cases.rglob("*.json")):
        text = path.read_text(encoding="utf-8")
        kept = re.sub(r'"inherited"\s*:\s*"[^"]*"\s*,\s*', "", text, count=1)
        if kept != text:
            path.write_text(kept, encoding="utf-8")
            reviewed.append(path)
    return reviewed


def schema_files(root: Path = SCHEMAS, version: str | None = None) -> list[Path]:
    """The schema files of a root (of one version), as the registry and check read them: each
    version's descriptor (version.json) and the _meta/_drift directories are not schemas."""
    from a2a_schema_suite.registry import schema_paths

    return [path for v, path in schema_paths(root) if version is None or v == version]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "versions: a test that takes the versions from the schema root (or runs every bundled case); "
        "tests/test_scaffold_version.py runs them all again in a copy of the repository with a "
        "version added by new-version",
    )


#: the marker of the version-discovering tests
versions_marker = pytest.mark.versions


#: what makes a tree a suite project, whose schemas/ and cases/ the commands use (roots.py)
SUITE_PROJECT = '[project]\nname = "a-suite-project"\n\n[tool.a2a-schema-suite]\nsuite-project = true\n'


def declare_suite_project(root: Path) -> Path:
    """Write the suite-project declaration (pyproject.toml) into ``root``: a tree of schemas/ and
    cases/ is used by the commands only when it declares itself (SECURITY.md, "Roots")."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(SUITE_PROJECT, encoding="utf-8")
    return root
