"""The case-suite model (frozen dataclasses), and finding, loading and checking suite files.

A suite file is checked against ``schemas/_meta/suite.json`` and for what JSON Schema cannot
express (unique test descriptions). Problems are values (:class:`SuiteProblem`), never raised
past this module.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema

from a2a_schema_suite.jsonio import LoadError, LoadFailure, load_path
from a2a_schema_suite.registry import META_DIR, bundled_schemas
from a2a_schema_suite.results import ErrorDetail


@dataclass(frozen=True, slots=True)
class Matcher:
    """One entry of ``expectedErrors``: every member that is set must match."""

    path: str | None = None
    keyword: str | None = None
    message: str | None = None
    line: int | None = None
    rule: str | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Matcher:
        return cls(data.get("path"), data.get("keyword"), data.get("message"), data.get("line"),
                   data.get("rule"))

    def matches(self, error: ErrorDetail) -> bool:
        if self.path is not None:
            # A JSON pointer starts with "/" (or is "" for the root); anything else is a JSON path.
            is_pointer = self.path == "" or self.path.startswith("/")
            if (error.pointer if is_pointer else error.path) != self.path:
                return False
        if self.keyword is not None and error.keyword != self.keyword:
            return False
        if self.line is not None and error.line != self.line:
            return False
        if self.rule is not None and error.rule != self.rule:
            return False
        return self.message is None or self.message in error.message

    def to_dict(self) -> dict[str, Any]:
        members = (("line", self.line), ("rule", self.rule), ("path", self.path),
                   ("keyword", self.keyword), ("message", self.message))
        return {k: v for k, v in members if v is not None}

    def __str__(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items())


@dataclass(frozen=True, slots=True)
class CaseTest:
    description: str
    valid: bool
    data: Any
    expected_errors: tuple[Matcher, ...] = ()
    line: int | None = None  #: line of this test's entry in the suite file, where known


@dataclass(frozen=True, slots=True)
class StreamCase:
    """A JSONL sample referenced by a suite: checked line by line and as a whole."""

    description: str
    file: Path  #: resolved against the suite file's directory
    valid: bool
    expected_errors: tuple[Matcher, ...] = ()
    line: int | None = None  #: line of this entry in the suite file, where known


@dataclass(frozen=True, slots=True)
class Suite:
    name: str  #: display name, e.g. ``cases/v1_0/task.json``
    path: Path
    schema: str
    profile: str | None
    description: str | None
    tests: tuple[CaseTest, ...]
    streams: tuple[StreamCase, ...] = ()


@dataclass(frozen=True, slots=True)
class SuiteProblem:
    """A suite file that could not be loaded or is not a well-formed suite."""

    name: str
    path: Path
    errors: tuple[LoadError, ...]


@functools.cache
def _suite_meta_validator() -> jsonschema.Draft202012Validator:
    meta = load_path(bundled_schemas() / META_DIR / "suite.json")
    return jsonschema.Draft202012Validator(meta)


def _meta_message(error: jsonschema.ValidationError) -> str:
    if error.validator == "not":  # the only `not` in the meta-schema
        return "expectedErrors is only allowed on a valid: false test"
    return error.message


def discover(paths: Iterable[Path]) -> list[tuple[Path, str]]:
    """Expand files and directories into ``(suite file, display name)`` pairs, sorted."""
    found: list[tuple[Path, str]] = []
    for path in paths:
        if path.is_dir():
            for file in sorted(path.rglob("*.json")):
                found.append((file, file.relative_to(path.parent).as_posix()))
        else:
            found.append((path, path.as_posix()))
    return found


def load_suite(path: Path, name: str) -> Suite | SuiteProblem:
    """Load and check one suite file."""
    try:
        data = load_path(path, name)
    except LoadFailure as exc:
        return SuiteProblem(name, path, (exc.error,))
    problems = [
        LoadError(name, 1, 1, f"not a valid suite: {_meta_message(error)} at {error.json_path}")
        for error in sorted(_suite_meta_validator().iter_errors(data), key=lambda e: e.json_path)
    ]
    if problems:
        return SuiteProblem(name, path, tuple(problems))
    seen: set[str] = set()
    for entry in [*data.get("tests", ()), *data.get("streams", ())]:
        if entry["description"] in seen:
            reason = f"duplicate description {entry['description']!r}"
            problems.append(LoadError(name, 1, 1, reason))
        seen.add(entry["description"])
    for entry in data.get("streams", ()):
        if not (path.parent / entry["file"]).is_file():
            reason = f"stream file {entry['file']!r} does not exist (relative to the suite file)"
            problems.append(LoadError(name, 1, 1, reason))
    if problems:
        return SuiteProblem(name, path, tuple(problems))
    tests = tuple(
        CaseTest(
            description=t["description"],
            valid=t["valid"],
            data=t["data"],
            expected_errors=tuple(Matcher.from_dict(m) for m in t.get("expectedErrors", ())),
        )
        for t in data.get("tests", ())
    )
    streams = tuple(
        StreamCase(
            description=s["description"],
            file=path.parent / s["file"],
            valid=s["valid"],
            expected_errors=tuple(Matcher.from_dict(m) for m in s.get("expectedErrors", ())),
        )
        for s in data.get("streams", ())
    )
    return Suite(
        name=name,
        path=path,
        schema=data["schema"],
        profile=data.get("profile"),
        description=data.get("description"),
        tests=tests,
        streams=streams,
    )


def load_suites(paths: Iterable[Path]) -> Iterator[Suite | SuiteProblem]:
    for path, name in discover(paths):
        yield load_suite(path, name)


def orphan_streams(paths: Iterable[Path], suites: Iterable[Suite | SuiteProblem]) -> list[Path]:
    """JSONL files under the given directories that no suite references (a suite error)."""
    referenced = {s.file.resolve() for suite in suites if isinstance(suite, Suite)
                  for s in suite.streams}
    return [file for path in paths if path.is_dir() for file in sorted(path.rglob("*.jsonl"))
            if file.resolve() not in referenced]
