"""The case layout that ``check`` enforces (rule ``case-layout``; docs/AUTHORING.md, section 1).

- A suite lives in the tree of its schema's version (``cases/v1_0/...`` for ``v1_0/task.json``);
  a purpose (``streams/``, ``migration/``, ...) is a subfolder of a version tree, never a tree of
  its own, so that a new protocol version is one new tree.
- A cross-version suite lives in the tree of the newest version it names.
- A payload checked under two versions with different verdicts is written once, as one test of a
  cross-version suite, not copied into a suite of each version (the copies drift apart unseen).
  The same test with the *same* verdict in two versions is a suite carried over to a new version,
  which is how a new version starts (docs/AUTHORING.md, section 2), and is not reported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from a2a_schema_suite.jsonio import LoadFailure, decode_utf8, read_bytes
from a2a_schema_suite.roots import version_key
from a2a_schema_suite.suite import Suite, SuiteLocations, suite_file_name

#: the name of a version directory: ``v1_0``, ``v0_3``
VERSION_DIR = re.compile(r"v\d+(?:_\d+)*")

GUIDE = "docs/AUTHORING.md"


@dataclass(frozen=True, slots=True)
class LayoutProblem:
    """One finding of ``case-layout``: about a suite file (``subject`` is its name) or a test."""

    suite: str
    subject: str
    message: str
    schema: str
    line: int | None


def version_folder(path: Path) -> str | None:
    """The version tree a suite file is in: the nearest enclosing directory named like a version."""
    for parent in path.resolve().parents:
        if VERSION_DIR.fullmatch(parent.name):
            return parent.name
    return None


def _layout_root(path: Path, paths: Sequence[Path]) -> Path | None:
    """The checked directory that holds ``path`` and has version trees in it (the layout is in
    use there), if any."""
    resolved = path.resolve()
    for given in paths:
        if not given.is_dir():
            continue
        root = given.resolve()
        if resolved.is_relative_to(root) and any(
            child.is_dir() and VERSION_DIR.fullmatch(child.name) for child in root.iterdir()
        ):
            return root
    return None


def _key_line(suite: Suite) -> int | None:
    """The line of the suite's ``schema`` (or ``schemas``) member."""
    try:
        text = decode_utf8(read_bytes(suite.path, suite.name), suite.name)
    except LoadFailure:
        return None
    positions = SuiteLocations.of_text(text).positions
    found = positions.get(("schema",)) or positions.get(("schemas",))
    return found[0] if found else None


def _tree_problems(
    suites: Sequence[Suite], paths: Sequence[Path], version_of: Callable[[str], str | None]
) -> Iterator[LayoutProblem]:
    by_file: dict[Path, list[Suite]] = {}
    for suite in suites:
        by_file.setdefault(suite.path, []).append(suite)
    for path, halves in by_file.items():
        first = halves[0]
        file = suite_file_name(first.name)
        cross = file != first.name
        versions = sorted({v for s in halves if (v := version_of(s.schema))}, key=version_key)
        if not versions:
            continue  # no schema resolves: the run reports it
        folder = version_folder(path)
        if folder is None:
            root = _layout_root(path, paths)
            if root is None:
                continue  # not in a tree laid out by version: the user's own layout
            where = f"cases/{versions[-1]}/"
            message = (
                f"outside every version tree of {root.name}/: a suite lives in the tree of its "
                f"schema's version ({where}), and a purpose is a subfolder of a version tree "
                f"(e.g. {where}streams/), never a tree of its own ({GUIDE}, section 1)"
            )
        elif cross and folder != versions[-1]:
            message = (
                f"a cross-version suite of {', '.join(versions)} in the {folder} tree: it lives in "
                f"the tree of the newest version it names, cases/{versions[-1]}/migration/ "
                f"({GUIDE}, section 1a)"
            )
        elif not cross and folder != versions[0]:
            message = (
                f"a {versions[0]} suite in the {folder} tree (its schema is {first.schema}): move it "
                f"under cases/{versions[0]}/; a suite lives in the tree of its schema's version "
                f"({GUIDE}, section 1)"
            )
        else:
            continue
        yield LayoutProblem(file, file, message, first.schema, _key_line(first))


def _copy_problems(
    suites: Sequence[Suite], version_of: Callable[[str], str | None]
) -> Iterator[LayoutProblem]:
    """The same test (description and data) under two versions with different verdicts, in two
    suite files: a cross-version payload written twice."""
    first: dict[tuple[str, str], list[tuple[str, bool, Suite]]] = {}
    for suite in suites:
        version = version_of(suite.schema)
        if version is None:
            continue
        for test in suite.tests:
            key = (test.description, json.dumps(test.data, sort_keys=True))
            seen = first.setdefault(key, [])
            other = next(
                (
                    (v, valid, s)
                    for v, valid, s in seen
                    if v != version and valid is not test.valid and s.path != suite.path
                ),
                None,
            )
            seen.append((version, test.valid, suite))
            if other is None:
                continue
            other_version, other_valid, other_suite = other
            yield LayoutProblem(
                suite.name,
                test.description,
                f"the same data and description as in {other_suite.name} ({other_version}, valid: "
                f"{str(other_valid).lower()}), here under {version} with the other verdict: write "
                f"the payload once, as one test of a cross-version suite with its verdict under each "
                f"version ({GUIDE}, section 1a)",
                suite.schema,
                test.line,
            )


def layout_problems(
    suites: Sequence[Suite], paths: Sequence[Path], version_of: Callable[[str], str | None]
) -> Iterator[LayoutProblem]:
    """Every ``case-layout`` finding of ``suites`` (found under ``paths``); ``version_of`` gives a
    schema reference's version, None when it does not resolve."""
    yield from _tree_problems(suites, paths, version_of)
    yield from _copy_problems(suites, version_of)
