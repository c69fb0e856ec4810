"""Checks of the case suites: loadable, both verdicts present, reasons pinned, no duplicates, no
orphan JSONL file."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from a2a_schema_suite.jsonio import LoadFailure, decode_utf8, display_path, read_bytes
from a2a_schema_suite.lint.rules import DEFAULT_OPTIONS, CheckOptions, rule_finding
from a2a_schema_suite.registry import DEFAULT_PROFILE, SchemaError, SchemaStore
from a2a_schema_suite.results import CaseResult, Outcome
from a2a_schema_suite.suite import CaseTest, StreamCase, Suite, SuiteLocations, SuiteProblem

_PROBLEM_RULES = (
    ("not a valid suite", "suite-metaschema"),
    ("duplicate description", "duplicate-description"),
    ("stream file", "stream-missing"),
)


def _problem_rule(reason: str) -> str:
    return next((rule for prefix, rule in _PROBLEM_RULES if reason.startswith(prefix)), "suite-load")


def problem_findings(problem: SuiteProblem) -> Iterator[CaseResult]:
    """A suite that cannot be loaded: one finding per located reason."""
    for error in problem.errors:
        rule = _problem_rule(error.reason)
        yield rule_finding(
            rule, problem.name, f"{problem.path.name}:{error.line}", error.reason, line=error.line
        )


def _suite_line(suite: Suite) -> int | None:
    try:
        text = decode_utf8(read_bytes(suite.path, suite.name), suite.name)
    except LoadFailure:
        return None
    positions = SuiteLocations.of_text(text).positions
    found = positions.get(("tests",)) or positions.get(("streams",))
    return found[0] if found else None


def _member_line(suite: Suite, member: str) -> int | None:
    """The line of a top-level member of the suite file (None when unreadable or absent)."""
    try:
        text = decode_utf8(read_bytes(suite.path, suite.name), suite.name)
    except LoadFailure:
        return None
    found = SuiteLocations.of_text(text).positions.get((member,))
    return found[0] if found else None


def _entries(suite: Suite) -> list[CaseTest | StreamCase]:
    """A suite's tests, then its streams: the entries every suite rule looks at."""
    return [*suite.tests, *suite.streams]


def suite_findings(suite: Suite, options: CheckOptions = DEFAULT_OPTIONS) -> Iterator[CaseResult]:
    """At least one valid and one invalid case; every invalid case pins its reason."""
    entries = _entries(suite)
    for valid, rule, what in (
        (True, "no-valid-case", "valid: true"),
        (False, "no-invalid-case", "valid: false"),
    ):
        if not any(e.valid is valid for e in entries):
            yield rule_finding(
                rule,
                suite.name,
                suite.path.name,
                f"the suite has no {what} test or stream (tests and streams count together)",
                schema=suite.schema,
                line=_suite_line(suite),
            )
    outcome = Outcome.FAILED if options.strict else Outcome.WARNING
    if suite.inherited is not None:
        yield rule_finding(
            "inherited-suite",
            suite.name,
            suite.path.name,
            f"copied from {suite.inherited} by new-version and not reviewed yet: check that each "
            f"test still holds for {suite.schema.split('/')[0]} (names, descriptions, verdicts), "
            'then delete the "inherited" member',
            schema=suite.schema,
            line=_member_line(suite, "inherited"),
            outcome=outcome,
        )
    for entry in entries:
        if not entry.valid and not entry.expected_errors:
            yield rule_finding(
                "missing-expected-errors",
                suite.name,
                entry.description,
                "valid: false without expectedErrors: it passes for any reason the schema "
                "rejects it; pin the reason (path, keyword, message)",
                schema=suite.schema,
                line=entry.line,
                outcome=outcome,
            )


def _case_key(store: SchemaStore | None, suite: Suite) -> tuple[str, str]:
    schema = suite.schema
    if store is not None:
        # Unresolvable: the run reports it; compare the spelling as written.
        with contextlib.suppress(SchemaError):
            schema = store.resolve(schema)[1]
    return schema, suite.profile or DEFAULT_PROFILE


def duplicate_case_findings(
    suites: Iterable[Suite], store: SchemaStore | None = None
) -> Iterator[CaseResult]:
    """The same (schema, profile, description) in two suites: ambiguous golden-sample ids."""
    first: dict[tuple[str, str, str], tuple[Suite, int | None]] = {}
    for suite in suites:
        schema, profile = _case_key(store, suite)
        for entry in _entries(suite):
            key = (schema, profile, entry.description)
            if key not in first:
                first[key] = (suite, entry.line)
                continue
            other, other_line = first[key]
            if other is suite:
                continue  # within one suite: duplicate-description
            where = f"{other.name}:{other_line}" if other_line else other.name
            yield rule_finding(
                "duplicate-case",
                suite.name,
                entry.description,
                f"{suite.schema} ({profile}) already has a test with this description in {where}",
                schema=suite.schema,
                line=entry.line,
            )


def case_layout_findings(suites: list[Suite], paths: list[Path], store: SchemaStore) -> Iterator[CaseResult]:
    """The case layout (:mod:`.layout`)."""
    from a2a_schema_suite.lint.layout import layout_problems

    def version_of(ref: str) -> str | None:
        with contextlib.suppress(SchemaError):
            return store.resolve(ref)[0]
        return None

    for p in layout_problems(suites, paths, version_of):
        yield rule_finding("case-layout", p.suite, p.subject, p.message, schema=p.schema, line=p.line)


def orphan_findings(orphans: Iterable[Path]) -> Iterator[CaseResult]:
    for path in orphans:
        name = display_path(path)
        yield rule_finding(
            "orphan-jsonl",
            name,
            path.name,
            "JSONL file is not referenced by any suite's streams (reference it from a suite, "
            "or move it out of the cases directory)",
            line=None,
        )
